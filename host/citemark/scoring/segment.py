"""Sentence segmentation with character offsets, and the evidence windows built on it.

Every passage citemark quotes must point back into the extracted text exactly, so
segmentation never rewrites text: it only returns ``(start, end)`` spans. The same
code windows sources at run time and premises at training time (``train/``), so a
model never sees evidence shaped differently from what the engine gives it.

Run ``python -m citemark.scoring.segment`` to see it split a small text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Span", "Window", "sentences", "windows"]

#: Words that end with a period without ending a sentence.
_ABBREVIATIONS = frozenset(
    ["mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "vs", "v", "c", "etc", "al", "fig", "figs", "eq", "eqs", "no", "nos", "vol", "vols", "pp", "p", "ed", "eds", "approx", "dept", "univ", "inc", "ltd", "co", "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "gen", "col", "lt", "sgt", "rev", "hon", "gov", "sen", "rep", "est", "ca", "cf", "ibid", "op"]
)

#: Abbreviations that only stand before a number ("No. 5", "p. 12", "Fig. 3"): "Short answer: no. Rust …" ends a sentence.
_BEFORE_NUMBER = frozenset(["no", "nos", "p", "pp", "fig", "figs", "eq", "eqs", "vol", "vols", "art", "sec", "ch"])

# A candidate boundary: terminal punctuation, optional closing quotes/brackets, then space;
# or CJK terminal punctuation (。！？), which needs no space after it.
_BOUNDARY = re.compile(r"""[.!?…]+["'”’)\]]*\s+|(?P<cjk>[。！？]+[」』”’）)\]]*\s*)""")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)\.$")
_NEXT_STARTS_SENTENCE = re.compile(r"""["'“‘(\[]*[A-Z0-9À-Ý#*-]""")

#: Longer "sentences" (tables, lists without punctuation) are cut so that a window
#: stays within what a cross-encoder reads.
MAX_SENTENCE_CHARS = 600


@dataclass(frozen=True, slots=True)
class Span:
    """A sentence: ``text[start:end]`` of the text it was cut from."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Window:
    """One to three consecutive sentences, the unit evidence is scored in."""

    first: int  # index of the first sentence
    last: int  # index of the last sentence (inclusive)
    start: int
    end: int


def sentences(text: str) -> list[Span]:
    """Split ``text`` into sentence spans (whitespace trimmed, never empty).

    Line breaks always end a sentence: extracted pages put one block per line, and
    a heading or list item must not glue onto the next sentence.
    """
    spans: list[Span] = []
    for line in re.finditer(r"[^\n]+", text):
        _split_line(text, line.start(), line.end(), spans)
    return spans


def _split_line(text: str, start: int, end: int, out: list[Span]) -> None:
    cursor = start
    for boundary in _BOUNDARY.finditer(text, start, end):
        cut = boundary.end()
        if cut >= end:
            continue
        if boundary.group("cjk") is None:
            if not _NEXT_STARTS_SENTENCE.match(text, cut):
                continue
            if _is_abbreviation(text[cursor : boundary.start() + 1], text[cut : cut + 1]):
                continue
        _emit(text, cursor, boundary.end(), out)
        cursor = cut
    _emit(text, cursor, end, out)


def _is_abbreviation(chunk: str, following: str = "") -> bool:
    if not chunk.endswith("."):
        return False
    match = _WORD_BEFORE.search(chunk)
    if not match:
        return False
    word = match.group(1)
    if "." in word:  # "U.S." "e.g." "a.m."
        return len(word) <= 6
    if len(word) == 1 and word.isupper():  # an initial: "J. Smith"
        return True
    if word.lower() in _BEFORE_NUMBER:
        return following.isdigit()
    return word.lower() in _ABBREVIATIONS


def _emit(text: str, start: int, end: int, out: list[Span]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    while end - start > MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", start, start + MAX_SENTENCE_CHARS)
        if cut <= start:
            cut = start + MAX_SENTENCE_CHARS
        out.append(Span(start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start and any(ch.isalnum() for ch in text[start:end]):
        out.append(Span(start, end))


def windows(spans: list[Span], max_sentences: int = 3, max_chars: int = 900) -> list[Window]:
    """All runs of 1..``max_sentences`` consecutive sentences up to ``max_chars``.

    Multi-sentence windows let a claim that needs two sentences ("X was born in
    1950." + "He moved to Paris.") be judged against both at once.
    """
    result: list[Window] = []
    for first in range(len(spans)):
        for last in range(first, min(first + max_sentences, len(spans))):
            start, end = spans[first].start, spans[last].end
            if last > first and end - start > max_chars:
                break
            result.append(Window(first, last, start, end))
    return result


if __name__ == "__main__":
    demo = (
        "Dr. J. Smith joined the U.S. team in 1998. She left in 2003!\n"
        "# A heading\n"
        'He said "it works." Then he left, e.g. to Paris.'
    )
    for span in sentences(demo):
        print(f"{span.start:3}-{span.end:3}  {demo[span.start:span.end]!r}")
