"""The model pack citemark ships: the default of a fresh install, clear cases right, int8 close to torch."""

from __future__ import annotations

import dataclasses
import json

import pytest

from citemark.engine import Engine
from citemark.models import registry
from citemark.models.pack import load_pack, verify_checksums
from citemark.models.runtime import PackScorer
from citemark.scoring.calibrate import Combiner
from citemark.types import Label

PACK = registry.BUNDLED / "citemark-grounding-minilm"


@pytest.fixture(scope="module")
def scorer():
    return PackScorer(load_pack(PACK))


def test_it_is_the_default_of_a_fresh_install(home):
    from citemark.settings import Settings

    pack = registry.resolve(Settings.load())
    assert pack is not None and pack.name == "citemark-grounding-minilm"
    verify_checksums(pack)
    assert pack.licence == "Apache-2.0" and pack.combiner is not None
    assert (PACK / "model.onnx").stat().st_size < 30_000_000


TOWER = "The Eiffel Tower was completed in 1889 for the World's Fair in Paris."
FOUNDERS = "The company was founded in 1998 by Larry Page and Sergey Brin in California."


@pytest.mark.parametrize(
    ("evidence", "claim", "expected"),
    [
        (TOWER, "The Eiffel Tower was finished in 1889.", "entailment"),
        (TOWER, "The Eiffel Tower was completed for the World's Fair.", "entailment"),
        (FOUNDERS, "The company was founded in 1998.", "entailment"),
        (TOWER, "The Eiffel Tower was never completed.", "contradiction"),
        (TOWER, "The Eiffel Tower was completed in 1925.", "contradiction"),
        (FOUNDERS, "The company was founded by Bill Gates.", "contradiction"),
        (TOWER, "Bananas are a good source of potassium.", "not entailment"),
        (FOUNDERS, "The company has 180,000 employees.", "not entailment"),
    ],
)
def test_clear_cases_get_the_expected_label(scorer, evidence, claim, expected):
    (scores,) = scorer.score([(evidence, claim)])
    by_label = {"entailment": scores.entailment, "neutral": scores.neutral, "contradiction": scores.contradiction}
    if expected == "not entailment":
        assert scores.entailment < 0.3, by_label
    else:
        assert max(by_label, key=by_label.get) == expected, by_label


def test_int8_agrees_with_the_torch_model_it_was_exported_from(scorer):
    """parity.json holds held-out pairs with the fp32 torch probabilities recorded at export."""
    fixture = json.loads((PACK / "parity.json").read_text())
    pairs = fixture["pairs"]
    got = scorer.score([(p["evidence"], p["claim"]) for p in pairs])
    diffs, agree, binary = [], 0, 0
    for pair, scores in zip(pairs, got):
        mine = [scores.entailment, scores.neutral, scores.contradiction]
        diffs += [abs(a - b) for a, b in zip(mine, pair["torch"])]
        agree += mine.index(max(mine)) == pair["torch"].index(max(pair["torch"]))
        binary += (mine.index(max(mine)) == 0) == (pair["torch"].index(max(pair["torch"])) == 0)
    assert sum(diffs) / len(diffs) < 0.05 and max(diffs) < 0.35
    # int8 moves near-ties between neutral and contradiction; "entailed or not" must hold
    assert agree / len(pairs) >= 0.8 and binary / len(pairs) >= 0.95


def test_scores_do_not_depend_on_the_other_pairs_of_a_request(scorer):
    """The pack runs one pair per ONNX call (batch_size 1): a badge never changes with its neighbours."""
    fixture = json.loads((PACK / "parity.json").read_text())["pairs"][:12]
    pairs = [(p["evidence"], p["claim"]) for p in fixture]
    for pair, together in zip(pairs, scorer.score(pairs)):
        (alone,) = scorer.score([pair])
        assert alone == together


async def test_the_engine_with_the_real_model_judges_the_example(settings):
    from tests.conftest import ROOT

    async with Engine(settings.with_(model=None)) as engine:
        report = await engine.report((ROOT / "examples" / "answer.md").read_text(), page_url=None)
    assert "citemark-grounding-minilm" in report.model
    # sources are relative paths: the CLI resolves them; here they are unreachable by URL policy
    assert all(v.label in (Label.UNREACHABLE,) for v in report.verdicts)


async def test_word_overlap_does_not_outvote_a_passage_that_says_the_opposite(settings):
    """The negated claim shares almost every word with the passage (and the passage has a "never"
    of its own, so the negation guard is silent): only the model can tell, and it must win."""
    source = ("James Petiver was an apothecary in London. Petiver eventually amassed the largest natural history "
              "collection in the world, and it never would have happened without the trade routes of his day.")
    async with Engine(settings.with_(model=None)) as engine:
        negated = await engine.verify_claim(
            "The collection that Petiver amassed was not the largest natural history collection in the world.", source)
        stated = await engine.verify_claim("Petiver amassed the largest natural history collection in the world.", source)
        # the model is unsure of this one (P(contradiction) about 0.7); the opposite-word guard is not
        opposite = await engine.verify_claim("Petiver amassed the smallest natural history collection in the world.", source)
    # the model's contradiction decides: of the quoted passage, or of a passage about the claim where the
    # combiner, too, finds the claim unsupported (which of the two depends on the combiner's fit)
    assert negated.label is Label.CONTRADICTED
    assert negated.reason in ("evidence_refutes", "contradicted_by_source")
    assert opposite.label is Label.CONTRADICTED
    assert opposite.reason in ("opposite_word", "contradicted_by_source")
    assert "largest natural history collection" in negated.evidence.quote
    assert stated.label is Label.SUPPORTED


async def test_a_name_swapped_for_another_from_the_same_page_is_not_supported(settings):
    """The swapped name is on the page, a few sentences away: word overlap and the small
    model both accept the claim; the passage that matches does not name it."""
    source = ("Hilda Brandt is a German rower. She was born in Hamburg in 1990 and grew up by the Elbe. "
              "Her father ran a boatyard. She joined a rowing club at twelve. She studied at a sports school. "
              "In 2012 she moved to Munich. Brandt won the single sculls at the 2015 national championships.")
    async with Engine(settings.with_(model=None)) as engine:
        stated = await engine.verify_claim("Brandt won the single sculls at the 2015 national championships.", source)
        swapped = await engine.verify_claim("Brandt won the single sculls at the 2015 Hamburg championships.", source)
    assert stated.label is Label.SUPPORTED
    # balanced: the name guard; strict (the default): the alignment, naming the same word
    assert (swapped.label, swapped.reason) == (Label.PARTIAL, "not_matched")
    assert "Hamburg" in swapped.missing


async def test_the_model_overrules_overlap_only_where_its_combiner_says_so(settings):
    """``refutes`` is fitted per model: off, the same negated claim is left to overlap and guards."""
    shipped = Combiner.from_dict(load_pack(PACK).combiner)
    assert shipped.refutes
    claim = "The collection that Petiver amassed was not the largest natural history collection in the world."
    source = ("Petiver eventually amassed the largest natural history collection in the world, and it never "
              "would have happened without the trade routes of his day.")
    async with Engine(settings.with_(model=None), combiner=dataclasses.replace(shipped, refutes=False)) as engine:
        verdict = await engine.verify_claim(claim, source)
    assert verdict.reason != "evidence_refutes"


def test_a_claim_longer_than_the_model_window_is_scored_not_an_error(scorer):
    long_claim = " ".join(f"term{i}" for i in range(3000))  # a pasted paragraph as the "claim"
    [short, long] = scorer.score([("The Danube flows for 2,850 kilometres.", "The Danube flows for 2,850 kilometres."),
                                  ("The Danube flows for 2,850 kilometres.", long_claim)])
    assert short.entailment > 0.5
    assert 0.0 <= long.entailment <= 1.0 and long.entailment < 0.5
