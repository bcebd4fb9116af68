"""Shared last step of every answer parser: plain text + citation marks → claims.

A parser (Markdown, HTML) reduces an answer to plain text (one block per line)
and a list of marks: positions in that text where a citation was attached,
each carrying either a citation or a marker to look up in the answer's source
list. Here the text is cut into sentences and each mark is given to the
sentence it belongs to — a marker right after a full stop ("blue.[1]") belongs
to the sentence it follows.

Sentences that carry no citation but state something checkable (a figure, a
name, a date, or a plain statement of some length) are kept as ``uncited``,
for the citation-coverage part of a report.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from citemark.scoring.segment import sentences
from citemark.types import Citation, Claim, ParsedAnswer, Unresolved

__all__ = ["Mark", "assemble"]


@dataclass(frozen=True, slots=True)
class Mark:
    position: int  # offset in the plain text where the citation was
    citation: Citation | None = None  # a link given in place
    marker: str | None = None  # a reference ("1", "^2") to resolve in ``definitions``


def assemble(text: str, marks: list[Mark], definitions: dict[str, Citation], fmt: str) -> ParsedAnswer:
    spans = sentences(text)
    starts = [span.start for span in spans]
    by_sentence: dict[int, dict[Citation, None]] = {}
    unresolved_markers: dict[int, list[str]] = {}
    for mark in sorted(marks, key=lambda m: m.position):
        if not spans:
            break
        # The sentence that started strictly before the mark owns it.
        index = max(0, bisect.bisect_left(starts, mark.position) - 1)
        citation = mark.citation
        if citation is None and mark.marker is not None:
            citation = _lookup(definitions, mark.marker)
            if citation is None:
                unresolved_markers.setdefault(index, []).append(mark.marker)
                continue
            citation = Citation(marker=mark.marker, url=citation.url, title=citation.title,
                                path=citation.path, text=citation.text, ref=citation.ref)
        assert citation is not None
        by_sentence.setdefault(index, {})[citation] = None  # a dict: ordered, and each citation once
    claims: list[Claim] = []
    unresolved: list[Unresolved] = []
    uncited: list[str] = []
    factual = 0
    for index, span in enumerate(spans):
        claim_text = clean_claim(text[span.start : span.end])
        cited = bool(by_sentence.get(index))
        for marker in unresolved_markers.get(index, []):
            unresolved.append(Unresolved(marker=marker, claim=claim_text))
        if cited:
            factual += 1
            claims.append(Claim(text=claim_text, citations=tuple(by_sentence[index]), index=index))
        elif index not in unresolved_markers and is_factual(claim_text):
            factual += 1
            uncited.append(claim_text)
    return ParsedAnswer(claims=tuple(claims), unresolved=tuple(unresolved), format=fmt, uncited=tuple(uncited),
                        factual_sentences=factual)


def _lookup(definitions: dict[str, Citation], marker: str) -> Citation | None:
    """A marker's source: ``1``, ``^note`` and ``id:x`` (also defined as plain ``x``)."""
    key = marker.lower()
    for candidate in (key, key.lstrip("^"), key.removeprefix("id:"), "id:" + key):
        if candidate in definitions:
            return definitions[candidate]
    return None


#: Openers that frame an answer rather than state a fact ("Short answer: no. Rust …").
_OPENER = re.compile(
    r"^(?:(?:the\s+)?short\s+answer(?:\s+is)?|in\s+short|tl;?\s?dr|bottom\s+line|summary|answer)\s*[:,—–-]\s*"
    r"(?:(?:yes|no)\b\s*[,.;:—–-]*\s*)?",
    re.IGNORECASE,
)


def clean_claim(sentence: str) -> str:
    """Collapse whitespace and drop what removing the citations left behind, and an opener."""
    sentence = re.sub(r"(?<![\w.])\(\s*[,;]?\s*\)|\[\s*\]", "", sentence)
    sentence = re.sub(r"\s+([.,;:!?。、！？])", r"\1", sentence)
    sentence = re.sub(r"^\s*(?:[-*+•]|\d+[.)])\s+", "", sentence)
    sentence = re.sub(r"\s+", " ", sentence).strip()
    opened = _OPENER.sub("", sentence, count=1)
    if opened != sentence and len(opened) > 12:
        sentence = opened[:1].upper() + opened[1:]
    return sentence


def is_factual(sentence: str) -> bool:
    """Does this uncited sentence state something a source should back?

    Questions, headings, short fragments, and the answer's talk about itself
    ("Here is a summary:") are not; a sentence with a figure, or a full
    statement of six words or more, is.
    """
    text = sentence.strip()
    if not text or text.endswith(("?", "？", ":", "：")):
        return False
    if re.match(r"(?i)^(?:here(?:'s| is| are)|i |let me|sure|note:|hope|feel free|in summary|overall)", text):
        return False
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text):
        return len(text) >= 10 and text.endswith(("。", "！", ".", "!"))
    words = re.findall(r"\w+", text)
    if re.search(r"\d", text) and len(words) >= 3:
        return True
    return len(words) >= 6 and text.endswith((".", "!", ")"))
