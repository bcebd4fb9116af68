"""The terminal and Markdown reports mark where a claim and its quote differ, and only there."""

import re

from citemark.report import to_markdown, to_terminal
from citemark.types import Citation, Difference, Evidence, Label, Report, Verdict

CLAIM = "Hillary and Norgay reached the summit on 29 May 1963."
QUOTE = "Edmund Hillary and Tenzing Norgay reached the summit of Everest on 29 May 1953."
MARKED = re.compile("\033\\[1;4;33m(.*?)\033\\[0m")


def _verdict(claim: str = CLAIM, quote: str = QUOTE, label: Label = Label.CONTRADICTED,
             differences: tuple[Difference, ...] | None = None) -> Verdict:
    if differences is None:
        at, there = claim.index("1963"), quote.index("1953")
        differences = (Difference("1963", at, at + 4, "1953", there, there + 4),)
    return Verdict(claim=claim, citation=Citation(marker="1", url="https://e.example/everest"), label=label,
                   reason="number_mismatch", explanation="The source gives a different number.",
                   evidence=Evidence(quote, 100, 100 + len(quote)), differences=differences)


def test_colour_marks_the_differing_words_on_both_sides_and_no_shared_word():
    out = to_terminal(Report(verdicts=[_verdict()]), colour=True)
    claim_line = next(line for line in out.splitlines() if "Hillary and Norgay" in line and "evidence" not in line)
    evidence_line = next(line for line in out.splitlines() if "evidence:" in line)
    assert MARKED.findall(claim_line) == ["1963"]
    assert MARKED.findall(evidence_line) == ["1953"]
    assert "differs:" not in out  # colour shows it in place


def test_without_colour_one_plain_line_names_the_differences_and_nothing_is_marked():
    at = QUOTE.index("Everest")
    verdict = _verdict(differences=(
        Difference("1963", CLAIM.index("1963"), CLAIM.index("1963") + 4, "1953", QUOTE.index("1953"), QUOTE.index("1953") + 4),
        Difference(None, None, None, "Everest", at, at + 7),
        Difference("reached", 19, 26, None, None, None)))
    out = to_terminal(Report(verdicts=[verdict]))
    assert "\033" not in out
    assert "      differs: 1963 ≠ 1953; “Everest” (passage only); “reached” (claim only)" in out.splitlines()
    assert f"evidence: “{QUOTE}”" in out


def test_markdown_bolds_the_differing_words_in_the_claim_and_the_quote():
    md = to_markdown(Report(verdicts=[_verdict()]))
    assert "| Hillary and Norgay reached the summit on 29 May **1963**. |" in md
    assert f"  > {QUOTE.replace('1953', '**1953**')}" in md
    # the summary line and "**contradicted**", then 1963 in the table and the evidence list, and 1953: nothing else
    assert md.count("**") == 2 * 5


def test_supported_verdicts_and_verdicts_without_differences_are_not_marked():
    plain = to_terminal(Report(verdicts=[_verdict(differences=())]), colour=True)
    supported = to_terminal(Report(verdicts=[_verdict(label=Label.SUPPORTED)]), colour=True)
    assert not MARKED.findall(plain) and not MARKED.findall(supported)
    assert "**1963**" not in to_markdown(Report(verdicts=[_verdict(label=Label.SUPPORTED)]))


def test_control_characters_from_the_page_and_the_answer_are_escaped():
    claim = "The tower is 300\x1b[2J metres tall."
    quote = "The tower\x1b]52;c;ZXZpbA==\x07 is 330 metres tall."
    verdict = _verdict(claim, quote, differences=(Difference("300", 13, 16, "330", quote.index("330"), quote.index("330") + 3),))
    for colour in (False, True):
        out = to_terminal(Report(verdicts=[verdict]), colour=colour)
        assert "\x07" not in out and "\x1b]" not in out and "\x1b[2J" not in out
        assert "\\x1b[2J" in out and "\\x1b]52;c;ZXZpbA==\\x07" in out
        assert not colour or MARKED.findall(out) == ["300", "330"]


def test_a_long_quote_is_cut_round_the_differing_passage_word():
    quote = "The expedition set out in March. " * 12 + "They reached the top on 29 May 1953. " + "Weather held. " * 10
    assert len(quote) > 500
    at = quote.index("1953")
    verdict = _verdict(quote=quote, differences=(Difference("1963", CLAIM.index("1963"), CLAIM.index("1963") + 4,
                                                            "1953", at, at + 4),))
    for colour in (False, True):
        evidence = next(line for line in to_terminal(Report(verdicts=[verdict]), colour=colour).splitlines()
                        if "evidence:" in line)
        assert "1953" in evidence and evidence.endswith("…”") and "“…" in evidence
        assert not colour or MARKED.findall(evidence) == ["1953"]
    # a quote whose differing word is near the start keeps its head, as before
    early = _verdict(quote="In 1953 they reached it. " + "x " * 200)
    assert "evidence: “In 1953" in to_terminal(Report(verdicts=[early]))


def test_an_unsupported_verdict_shows_the_passage_it_was_compared_with():
    out = to_terminal(Report(verdicts=[_verdict(label=Label.UNSUPPORTED)]), colour=True)
    assert MARKED.findall(out) == ["1963", "1953"]
    assert "closest passage:" in out and "evidence:" not in out


def test_a_claim_cited_twice_marks_the_words_of_each_differing_citation_once():
    other = _verdict(label=Label.PARTIAL, differences=(Difference("summit", 31, 37, None, None, None),))
    out = to_terminal(Report(verdicts=[_verdict(), other]), colour=True)
    assert out.count("“Hillary and Norgay") == 1 and out.count("evidence:") == 2  # one claim line, two quotes
    claim_line = out.splitlines()[0]
    assert MARKED.findall(claim_line) == ["summit", "1963"]
