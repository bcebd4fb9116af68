"""Reports for people: the terminal view and the Markdown file of one verification.

JSON output is ``Report.to_dict`` (types.py); this module only renders.
"""

from __future__ import annotations

import re
from itertools import groupby

from citemark.reuse import source_reuse
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
#: The verdicts whose differences (the claim's unmatched words, the passage words they were compared with) are shown.
_DIFFERING = (Label.PARTIAL, Label.CONTRADICTED, Label.UNSUPPORTED)
_MARK, _RESET = "\033[1;4;33m", "\033[0m"  # bold underlined yellow: a differing word


def _source(verdict: Verdict) -> str:
    citation = verdict.citation
    where = citation.url or citation.path or "(inline text)"
    marker = f"[{citation.marker}] " if citation.marker and citation.marker != where else ""
    return marker + where


def to_terminal(report: Report, *, colour: bool = False, width: int = 100) -> str:
    """The terminal view. Text from the answer or a page is shown with its control characters escaped.

    For partial, contradicted and unsupported verdicts with ``differences``: with colour, the claim's
    unmatched words (of all its citations) and the compared passage words in the quote are underlined;
    without colour, a ``differs:`` line lists them. Shared words are never marked."""
    lines: list[str] = []
    ordered = sorted(report.shown, key=lambda v: v.claim_index)
    for claim, group in groupby(ordered, key=lambda v: v.claim):
        verdicts = list(group)
        spans = sorted({span for verdict in verdicts for span in _spans(verdict)[0]})
        lines.append("")
        lines.append(_wrap(f"“{_paint(claim, spans, colour)}”", width))
        for verdict in verdicts:
            lines += _terminal_verdict(verdict, colour)
    for item in report.unresolved:
        lines.append("")
        lines.append(f"  ! marker [{_shown(item.marker)}] points to no source: “{_shown(item.claim)}”")
    coverage = report.coverage
    if coverage and coverage["uncited"]:
        lines.append("")
        lines.append(f"  {len(coverage['uncited'])} factual sentence(s) cite no source "
                     f"({coverage['cited']} of {coverage['sentences']} cited):")
        lines += [f"    - “{_short(sentence)}”" for sentence in coverage["uncited"]]
    reuse = source_reuse(report.verdicts)
    if reuse["sources"]:
        lines.append("")
        lines.append("  sources (claims citing each):")
        lines += [f"    {row['claims']:>3}  {_shown(row['source'])}" for row in reuse["by_source"][:_REUSE_ROWS]]
        if reuse["sources"] > _REUSE_ROWS:
            lines.append(f"    … and {reuse['sources'] - _REUSE_ROWS} more")
        lines.append(f"  {_most_cited(reuse)}")
    summary = report.summary()
    lines.append("")
    lines.append(f"{summary['text']}" + (f"; {summary['unresolved']} unresolved marker(s)" if report.unresolved else ""))
    if report.valid_only:
        lines.append(_dropped(report))
    lines.append(f"model: {report.model}")
    return "\n".join(lines).lstrip("\n") + "\n"


#: Sources listed by name in a readable report; the rest are counted.
_REUSE_ROWS = 10


def _most_cited(reuse: dict) -> str:
    """ "the most-cited source carries 3 of 4 citations (75 %)"."""
    top = reuse["by_source"][0]
    return (f"the most-cited source carries {top['citations']} of {reuse['citations']} citation"
            f"{'s' if reuse['citations'] != 1 else ''} ({reuse['most_cited_share']:.0%})")


def _dropped(report: Report) -> str:
    dropped = len(report.verdicts) - len(report.shown)
    return f"valid citations only: {dropped} citation{'s' if dropped != 1 else ''} that did not pass left out"


def _terminal_verdict(verdict: Verdict, colour: bool) -> list[str]:
    label = f"{GLYPHS[verdict.label]} {verdict.label.value.upper()}"
    if colour:
        label = f"\033[{_COLOURS[verdict.label]}m{label}\033[0m"
    lines = [f"  {label}  {_shown(_source(verdict))}", f"      {_shown(verdict.explanation)}"]
    differs = _differs(verdict)
    if differs and not colour:
        lines.append(f"      differs: {differs}")
    if verdict.read_from:
        lines.append(f"      read from: {_shown(verdict.read_from)}")
    passage_spans = _spans(verdict)[1]
    if verdict.evidence and verdict.label is not Label.UNSUPPORTED:
        lines.append(f"      evidence: “{_short(verdict.evidence.quote, passage_spans, colour)}”")
    elif verdict.evidence and passage_spans:  # unsupported: the passage its words were compared with
        lines.append(f"      closest passage: “{_short(verdict.evidence.quote, passage_spans, colour)}”")
    for other in verdict.quotes:
        lines.append(f"      but also: “{_short(other.quote)}”")
    return lines


def to_markdown(report: Report) -> str:
    lines = ["# citemark report", "", f"**{report.summary()['text']}** — model: {report.model}", ""]
    if report.valid_only:
        lines += [_dropped(report), ""]
    lines += ["| verdict | claim | source | why |", "|---|---|---|---|"]
    for verdict in sorted(report.shown, key=lambda v: v.claim_index):
        lines.append(
            f"| {GLYPHS[verdict.label]} {verdict.label.value} | {_bold(verdict.claim, _spans(verdict)[0])} "
            f"| {_cell(_source(verdict))} "
            f"| {_cell(verdict.explanation)} |"
        )
    evidence = [v for v in report.shown if v.evidence]
    if evidence:
        lines += ["", "## Evidence", ""]
        for verdict in evidence:
            assert verdict.evidence is not None
            link = f" ([open]({verdict.evidence.link}))" if verdict.evidence.link else ""
            claim_spans, passage_spans = _spans(verdict)
            lines.append(f"- **{verdict.label.value}** — {_bold(verdict.claim, claim_spans)}{link}")
            lines.append(f"  > {_bold(verdict.evidence.quote, passage_spans)}")
    reuse = source_reuse(report.verdicts)
    if reuse["sources"]:
        lines += ["", "## Sources", "", "| source | claims citing it | citations |", "|---|---|---|"]
        lines += [f"| {_cell(row['source'])} | {row['claims']} | {row['citations']} |" for row in reuse["by_source"]]
        lines += ["", _most_cited(reuse).capitalize() + "."]
    if report.coverage and report.coverage["uncited"]:
        lines += ["", "## Uncited sentences", ""]
        lines += [f"- {_cell(sentence)}" for sentence in report.coverage["uncited"]]
    if report.unresolved:
        lines += ["", "## Unresolved markers", ""]
        lines += [f"- [{u.marker}] in “{_cell(u.claim)}”" for u in report.unresolved]
    return "\n".join(lines) + "\n"


def _spans(verdict: Verdict) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The differing spans to mark: in ``verdict.claim`` and in ``verdict.evidence.quote`` (in order)."""
    if verdict.label not in _DIFFERING:
        return [], []
    quote = verdict.evidence.quote if verdict.evidence else ""
    claim_spans: set[tuple[int, int]] = set()
    passage_spans: set[tuple[int, int]] = set()
    for difference in verdict.differences:
        start, end = difference.claim_start, difference.claim_end
        if start is not None and end is not None and 0 <= start < end <= len(verdict.claim):
            claim_spans.add((start, end))
        start, end = difference.passage_start, difference.passage_end
        if start is not None and end is not None and 0 <= start < end <= len(quote):
            passage_spans.add((start, end))
    return sorted(claim_spans), sorted(passage_spans)


def _differs(verdict: Verdict) -> str:
    """ "1963 ≠ 1953; “not” (passage only)": the differences in words, for a terminal without colour."""
    if verdict.label not in _DIFFERING:
        return ""
    parts: list[str] = []
    for difference in verdict.differences:
        claim, passage = difference.claim_text, difference.passage_text
        part = (f"{_shown(claim)} ≠ {_shown(passage)}" if claim and passage
                else f"“{_shown(claim)}” (claim only)" if claim
                else f"“{_shown(passage)}” (passage only)" if passage else "")
        if part and part not in parts:
            parts.append(part)
    return "; ".join(parts)


def _pieces(text: str, spans: list[tuple[int, int]] | tuple[()]) -> list[tuple[str, bool]]:
    """``text`` cut at the spans: (piece, marked) in order; overlapping spans merge."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    for start, end in spans:
        start = max(start, at)
        if end <= start:
            continue
        pieces += [(text[at:start], False), (text[start:end], True)]
        at = end
    pieces.append((text[at:], False))
    return [(piece, marked) for piece, marked in pieces if piece]


def _paint(text: str, spans: list[tuple[int, int]] | tuple[()], colour: bool) -> str:
    """Terminal text with its control characters escaped and, with colour, each marked word underlined
    (word by word, so wrapping never carries the mark into the indentation)."""
    return "".join(
        re.sub(r"\S+", lambda word: f"{_MARK}{word.group()}{_RESET}", _shown(piece)) if marked and colour
        else _shown(piece) for piece, marked in _pieces(text, spans))


def _short(text: str, spans: list[tuple[int, int]] | tuple[()] = (), colour: bool = False, limit: int = 240) -> str:
    """At most ``limit`` characters of ``text`` for the terminal; a longer text is cut round its first marked
    span when the head would hide it (``…`` where it was cut)."""
    size = limit - 3
    if len(text) <= limit:
        start, end = 0, len(text)
    elif not spans or spans[0][1] <= size:
        start, end = 0, size
    else:
        first_start, first_end = spans[0]
        start = max(0, min(len(text) - size, (first_start + first_end) // 2 - size // 2))
        end = start + size
    shown = [(max(s, start) - start, min(e, end) - start) for s, e in spans if s < end and e > start]
    return ("…" if start else "") + _paint(text[start:end], shown, colour) + ("…" if end < len(text) else "")


def _shown(text: str) -> str:
    """Text from an answer or a page as the terminal shows it: whitespace as a space, control characters
    (an SGR colour, an OSC 52 clipboard write) escaped as ``citemark refs`` escapes them, never sent raw."""
    return "".join(" " if char.isspace() else char if char.isprintable() else ascii(char)[1:-1] for char in text)


def _bold(text: str, spans: list[tuple[int, int]]) -> str:
    """A Markdown table cell or quote with the marked spans in bold (the marks hug the words)."""
    out = []
    for piece, marked in _pieces(text, spans):
        cell = _cell(piece)
        core = cell.strip()
        if marked and core:
            cell = f"{cell[: len(cell) - len(cell.lstrip())]}**{core}**{cell[len(cell.rstrip()):]}"
        out.append(cell)
    return "".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text
