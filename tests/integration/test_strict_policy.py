"""The strict policy end to end, with the shipped model and the parser: issue 29's fresh cases.

Each false claim was badged "supported" before strict; none may be now, and the word that makes it
false is named in ``differences``. The true "Rust became self-hosting in 2011." was badged
unsupported by a binding check that misread "self-hosting"; the alignment accounts for it."""

from __future__ import annotations

import pytest

from citemark.engine import Engine
from citemark.types import Label
from tests.unit.test_align import APOLLO, COFFEE, DANUBE, MATCH, RUST

FRESH_FALSE = [
    ("The Rust compiler was first written in C++.", RUST, "C++"),
    ("Rust checks references at run time.", RUST, "not"),
    ("The Linux kernel accepted Rust as its first language in 2022.", RUST, "first"),
    ("The Danube is the longest river in Europe.", DANUBE, "second"),
    ("Decaffeinated coffee contains no caffeine at all.", COFFEE, None),
    ("Michael Collins also walked on the Moon.", APOLLO, "Collins"),
    ("Harbourside City came from two goals down to beat Millbrook Athletic 3-2.", MATCH, None),
]


@pytest.mark.parametrize(("claim", "page", "named"), FRESH_FALSE)
async def test_a_fresh_false_claim_is_not_supported_and_its_word_is_named(settings, claim, page, named):
    async with Engine(settings.with_(model=None)) as engine:
        verdict = await engine.verify_claim(claim, page)
    assert verdict.label is not Label.SUPPORTED, verdict.explanation
    if named is not None and verdict.label is Label.PARTIAL:
        located = [d.claim_text or "" for d in verdict.differences] + [d.passage_text or "" for d in verdict.differences]
        assert any(named in text for text in located), verdict.differences


async def test_a_true_claim_stated_plainly_is_supported(settings):
    async with Engine(settings.with_(model=None)) as engine:
        verdict = await engine.verify_claim("Rust became self-hosting in 2011.", RUST)
    assert (verdict.label, verdict.reason) == (Label.SUPPORTED, "aligned"), verdict.explanation


async def test_the_report_records_its_policy(settings):
    async with Engine(settings.with_(model=None, policy="balanced")) as engine:
        report = await engine.report("Rust became self-hosting in 2011. [1]\n\n[1]: https://127.0.0.1/none")
    assert report.to_dict()["policy"] == "balanced"


KILNS = ("Pottery at Brackley\n\nThe older Brackley kiln fires 300 pots a week. The new Halsey kiln, installed last "
         "spring, fires 750 pots a week. Both are gas-fired.")


async def test_a_comparison_worked_out_from_the_passage_figures_is_supported(settings):
    """The model reads "two and a half times as many" as a conflict with 750 and 300 (the figure is not
    on the page); the alignment accounts for it by arithmetic, and says so."""
    async with Engine(settings.with_(model=None)) as engine:
        verdict = await engine.verify_claim(
            "The Halsey kiln fires two and a half times as many pots a week as the Brackley kiln.", KILNS)
        assert (verdict.label, verdict.reason) == (Label.SUPPORTED, "aligned"), verdict.explanation
        assert "750 against 300" in verdict.explanation
        for wrong in ("The Halsey kiln fires three times as many pots a week as the Brackley kiln.",
                      "The Brackley kiln fires two and a half times as many pots a week as the Halsey kiln.",
                      "The Brackley kiln fires 450 more pots a week than the Halsey kiln."):
            verdict = await engine.verify_claim(wrong, KILNS)
            assert verdict.label is not Label.SUPPORTED, (wrong, verdict.explanation)


MUSEUM = ("The Harrowby Museum's collection of Saxon brooches is on permanent display in the west gallery. Its "
          "herbarium, by contrast, is kept in storage and can be seen only by appointment.")


async def test_a_subject_and_what_is_said_of_it_are_read_in_one_sentence(settings):
    """Every word of "The herbarium is on permanent display" is in the passage, but what is on display
    is the brooches: the subject is matched in one sentence and "display" in the other."""
    async with Engine(settings.with_(model=None)) as engine:
        verdict = await engine.verify_claim("The museum's herbarium is on permanent display.", MUSEUM)
        assert verdict.label is not Label.SUPPORTED, verdict.explanation
        verdict = await engine.verify_claim("The museum's Saxon brooches are on permanent display.", MUSEUM)
        assert (verdict.label, verdict.reason) == (Label.SUPPORTED, "aligned"), verdict.explanation
