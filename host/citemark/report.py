"""Reports for people: the terminal view and the Markdown file of one verification.

JSON output is ``Report.to_dict`` (types.py); this module only renders.
"""

from __future__ import annotations

from citemark.types import Label, Report, Verdict

__all__ = ["GLYPHS", "to_markdown", "to_terminal"]

#: A glyph and a word for every verdict: never colour alone.
GLYPHS = {
    Label.SUPPORTED: "✔",
    Label.PARTIAL: "◐",
    Label.CONTRADICTED: "✘",
    Label.UNSUPPORTED: "○",
    Label.UNREACHABLE: "⚠",
    Label.PAYWALLED: "$",
    Label.RETRACTED: "⊗",
    Label.UNVERIFIABLE: "?",
}
_COLOURS = {
    Label.SUPPORTED: "32", Label.PARTIAL: "33", Label.CONTRADICTED: "31;1", Label.UNSUPPORTED: "31",
    Label.UNREACHABLE: "35", Label.PAYWALLED: "35", Label.RETRACTED: "31;1", Label.UNVERIFIABLE: "90",
}


def _source(verdict: Verdict) -> str:
    citation = verdict.citation
    where = citation.url or citation.path or "(inline text)"
    marker = f"[{citation.marker}] " if citation.marker and citation.marker != where else ""
    return marker + where


def to_terminal(report: Report, *, colour: bool = False, width: int = 100) -> str:
    lines: list[str] = []
    current = None
    for verdict in sorted(report.verdicts, key=lambda v: v.claim_index):
        if verdict.claim != current:
            current = verdict.claim
            lines.append("")
            lines.append(_wrap(f"“{verdict.claim}”", width))
        label = f"{GLYPHS[verdict.label]} {verdict.label.value.upper()}"
        if colour:
            label = f"\033[{_COLOURS[verdict.label]}m{label}\033[0m"
        lines.append(f"  {label}  {_source(verdict)}")
        lines.append(f"      {verdict.explanation}")
        if verdict.read_from:
            lines.append(f"      read from: {verdict.read_from}")
        if verdict.evidence and verdict.label is not Label.UNSUPPORTED:
            lines.append(f"      evidence: “{_short(verdict.evidence.quote)}”")
        for other in verdict.quotes:
            lines.append(f"      but also: “{_short(other.quote)}”")
    for item in report.unresolved:
        lines.append("")
        lines.append(f"  ! marker [{item.marker}] points to no source: “{item.claim}”")
    coverage = report.coverage
    if coverage and coverage["uncited"]:
        lines.append("")
        lines.append(f"  {len(coverage['uncited'])} factual sentence(s) cite no source "
                     f"({coverage['cited']} of {coverage['sentences']} cited):")
        lines += [f"    - “{_short(sentence)}”" for sentence in coverage["uncited"]]
    summary = report.summary()
    lines.append("")
    lines.append(f"{summary['text']}" + (f"; {summary['unresolved']} unresolved marker(s)" if report.unresolved else ""))
    lines.append(f"model: {report.model}")
    return "\n".join(lines).lstrip("\n") + "\n"


def to_markdown(report: Report) -> str:
    lines = ["# citemark report", "", f"**{report.summary()['text']}** — model: {report.model}", "",
             "| verdict | claim | source | why |", "|---|---|---|---|"]
    for verdict in sorted(report.verdicts, key=lambda v: v.claim_index):
        lines.append(
            f"| {GLYPHS[verdict.label]} {verdict.label.value} | {_cell(verdict.claim)} | {_cell(_source(verdict))} "
            f"| {_cell(verdict.explanation)} |"
        )
    evidence = [v for v in report.verdicts if v.evidence]
    if evidence:
        lines += ["", "## Evidence", ""]
        for verdict in evidence:
            assert verdict.evidence is not None
            link = f" ([open]({verdict.evidence.link}))" if verdict.evidence.link else ""
            lines.append(f"- **{verdict.label.value}** — {_cell(verdict.claim)}{link}")
            lines.append(f"  > {_cell(verdict.evidence.quote)}")
    if report.coverage and report.coverage["uncited"]:
        lines += ["", "## Uncited sentences", ""]
        lines += [f"- {_cell(sentence)}" for sentence in report.coverage["uncited"]]
    if report.unresolved:
        lines += ["", "## Unresolved markers", ""]
        lines += [f"- [{u.marker}] in “{_cell(u.claim)}”" for u in report.unresolved]
    return "\n".join(lines) + "\n"


def _short(text: str, limit: int = 240) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "…"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text
