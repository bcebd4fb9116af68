"""A verdict whose alignment is complete (every word found somewhere) but which a binding check
objects to still says where the claim and the source part: from the check's own finding."""

from __future__ import annotations

from citemark.scoring.judge import found_differences


def test_a_finding_names_the_claim_words_and_the_source_word_with_their_offsets():
    claim, quote = "Tolls rose by a fifth in 2025.", "Tolls on the bridge fell by a fifth in 2025."
    (found,) = found_differences(("rose ≠ fell",), claim, quote)
    assert (found.claim_text, claim[found.claim_start:found.claim_end]) == ("rose", "rose")
    assert (found.passage_text, quote[found.passage_start:found.passage_end]) == ("fell", "fell")


def test_a_finding_without_the_source_word_names_the_claim_words_alone():
    claim = "The depot runs 9 buses on Route A."
    findings = ("9 buses (the source gives 24 where the claim's words are)", "close (the source: “no … close”)")
    (found,) = found_differences(findings, claim, "The depot runs 24 buses on Route A and 9 on Route B.")
    assert (found.claim_text, found.claim_start, found.passage_text) == ("9 buses", 15, None)
