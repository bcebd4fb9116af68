"""Shared last step of every answer parser: plain text + citation marks → claims.

A parser (Markdown, HTML) reduces an answer to plain text (one block per line)
and a list of marks: positions in that text where a citation was attached,
each carrying either a citation or a marker to look up in the answer's source
list. Here the text is cut into sentences and each mark is given to the
sentence it belongs to — a marker right after a full stop ("blue.[1]") belongs
to the sentence it follows.
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
    by_sentence: dict[int, list[Citation]] = {}
    unresolved_markers: dict[int, list[str]] = {}
    for mark in sorted(marks, key=lambda m: m.position):
        if not spans:
            break
        # The sentence that started strictly before the mark owns it.
        index = max(0, bisect.bisect_left(starts, mark.position) - 1)
        citation = mark.citation
        if citation is None and mark.marker is not None:
            citation = definitions.get(mark.marker.lower()) or definitions.get(mark.marker.lstrip("^").lower())
            if citation is None:
                unresolved_markers.setdefault(index, []).append(mark.marker)
                continue
            citation = Citation(marker=mark.marker, url=citation.url, title=citation.title,
                                path=citation.path, text=citation.text, ref=citation.ref)
        assert citation is not None
        by_sentence.setdefault(index, [])
        if citation not in by_sentence[index]:
            by_sentence[index].append(citation)
    claims: list[Claim] = []
    unresolved: list[Unresolved] = []
    for index in sorted(set(by_sentence) | set(unresolved_markers)):
        span = spans[index]
        claim_text = clean_claim(text[span.start : span.end])
        for marker in unresolved_markers.get(index, []):
            unresolved.append(Unresolved(marker=marker, claim=claim_text))
        if by_sentence.get(index):
            claims.append(Claim(text=claim_text, citations=tuple(by_sentence[index]), index=index))
    return ParsedAnswer(claims=tuple(claims), unresolved=tuple(unresolved), format=fmt)


def clean_claim(sentence: str) -> str:
    """Collapse whitespace and drop what removing the citations left behind."""
    sentence = re.sub(r"(?<![\w.])\(\s*[,;]?\s*\)|\[\s*\]", "", sentence)
    sentence = re.sub(r"\s+([.,;:!?])", r"\1", sentence)
    sentence = re.sub(r"^\s*(?:[-*+•]|\d+[.)])\s+", "", sentence)
    return re.sub(r"\s+", " ", sentence).strip()
