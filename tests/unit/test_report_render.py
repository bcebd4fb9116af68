"""The terminal and Markdown reports show coverage and a conflicting source's second quote."""

from citemark.answer import parse_answer
from citemark.report import to_markdown, to_terminal
from citemark.types import Citation, Evidence, Label, Report, Verdict


def test_reports_list_uncited_sentences_and_both_quotes_of_a_conflicting_source():
    parsed = parse_answer("The bridge opened in 1937 [1]. Its main span is 1,280 metres long.\n\n1. https://g.example")
    verdict = Verdict(claim=parsed.claims[0].text, citation=Citation(marker="1", url="https://g.example"),
                      label=Label.PARTIAL, reason="conflicting", explanation="The source says both.",
                      evidence=Evidence("It opened in 1937.", 0, 18), quotes=(Evidence("It never opened.", 30, 46),))
    report = Report(verdicts=[verdict], coverage=parsed.coverage())
    terminal, markdown = to_terminal(report), to_markdown(report)
    assert "but also: “It never opened.”" in terminal
    assert "1 factual sentence(s) cite no source (1 of 2 cited)" in terminal
    assert "“Its main span is 1,280 metres long.”" in terminal
    assert "## Uncited sentences" in markdown and "- Its main span is 1,280 metres long." in markdown
