"""Verbatim quotes: cut the exact passage out of a source for an anchor, and check quoted words in a claim.

``snap_quote(anchor, source_text)`` answers "which words of the source did you
mean?": the anchor (a remembered, retyped or paraphrased quote) is found
verbatim when it is there up to whitespace, case, curly quotes and dashes,
and otherwise the closest passage is cut from the source text itself, so a
quote citemark shows is always the source's own characters (juricode's
snap_quote). ``quoted_spans(claim)`` finds the words a claim puts in quotation
marks, which must then be verbatim in the source (``altered_quote``).
``reversal(quoted, passage)`` tells a retyped quote from a falsified one: a
quote whose changed words drop or add a negation (「必ず罰する」 for the source's
「罰しない」), or put an opposite in their place, says the reverse of the source.

Work is linear in the source: the exact search is one ``str.find`` over a
normalised copy, and the fuzzy search scores sentences by shared words before
comparing characters in the few best windows.

Run ``python -m citemark.scoring.quotes`` to see it snap a retyped quote.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import asdict, dataclass, replace
from difflib import SequenceMatcher

from citemark.scoring.binding.opposites import are_opposites
from citemark.scoring.segment import sentences
from citemark.types import Difference, Evidence, Label, Verdict

__all__ = ["Reversal", "SnappedQuote", "falsified_quote", "quoted_spans", "reversal", "snap_quote"]

#: A passage this similar to the anchor (0-1, characters) counts as what the anchor meant.
MIN_SIMILARITY = 0.6
_FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'", "–": "-", "—": "-", "‐": "-",
                       "\u00a0": " "})
_OMISSION = re.compile(r"\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|\(\s*(?:\.\s*){3}\)|\.\.\.|…)\s*")
_QUOTED = re.compile(r"[\"“„]([^\"“”„\n]{3,400})[\"”]|「([^」\n]{2,400})」|『([^』\n]{2,400})』")


@dataclass(frozen=True, slots=True)
class SnappedQuote:
    """The source passage an anchor points at: ``source_text[start:end] == quote``."""

    found: bool
    exact: bool
    quote: str | None
    start: int | None
    end: int | None
    similarity: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def snap_quote(anchor: str, source_text: str) -> SnappedQuote:
    """The verbatim passage of ``source_text`` that ``anchor`` means (``found=False`` when none is close)."""
    folded_anchor = _Folded(anchor).text.strip()
    if not folded_anchor:
        return SnappedQuote(False, False, None, None, None, 0.0)
    folded = _Folded(source_text)
    at = folded.text.find(folded_anchor)
    if at >= 0:
        start, end = folded.original(at), folded.original(at + len(folded_anchor) - 1) + 1
        return SnappedQuote(True, True, source_text[start:end], start, end, 1.0)
    return _nearest(folded_anchor, folded, source_text)


def quoted_spans(claim: str, min_words: int = 3) -> list[str]:
    """Words a claim puts in quotation marks, long enough to be a quote rather than a term ("so-called").

    An omission mark inside a quotation ("mature, tasteful, and [...] sexy")
    says words were left out there, so each part is a quote of its own.
    """
    found = []
    for match in _QUOTED.finditer(claim):
        for part in _OMISSION.split(next(group for group in match.groups() if group)):
            text = part.strip(" ,;")
            cjk = re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)
            if (cjk and len(text) >= 4) or len(text.split()) >= min_words:
                found.append(text)
    return found


#: Words and endings that negate what they stand in, in English and in Japanese and Chinese (ない, ません,
#: せず; 不, 非, 無, 未, 没). Not the ず of 必ず ("without fail"), which only looks like a negation.
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|none|nothing|nobody|nowhere|without|cannot)\b|n't|"
                       r"ない|なかっ|ません|せず|[不非無未没沒无]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Reversal:
    """The words a quote changed so that it says the reverse of its source: ``quoted[start:end]`` in
    place of ``passage[passage_start:passage_end]`` (offsets in the two texts as given)."""

    quoted: str
    start: int
    end: int
    passage: str
    passage_start: int
    passage_end: int


def reversal(quoted: str, passage: str) -> Reversal | None:
    """Where ``quoted`` (a claim's quotation) reverses ``passage`` (the source's nearest words): the
    changed words on one side hold a negation that the other side's lack, or the two are opposites
    ("legal" / "illegal", "rose" / "fell"). None for a quote that is only retyped or reworded."""
    said_tokens, source_tokens = _tokens(quoted), _tokens(passage)
    matcher = SequenceMatcher(None, [t.group().lower() for t in said_tokens],
                              [t.group().lower() for t in source_tokens], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        # Words added or dropped ("not") are read with the word they stand before ("not file" / "file").
        a = _span(said_tokens, i1, i2 + (i1 == i2 or j1 == j2), len(quoted))
        b = _span(source_tokens, j1, j2 + (i1 == i2 or j1 == j2), len(passage))
        said, source = quoted[a[0] : a[1]], passage[b[0] : b[1]]
        if bool(_NEGATION.search(said)) != bool(_NEGATION.search(source)) or are_opposites(said, source):
            a, b = _cjk_run(quoted, *a), _cjk_run(passage, *b)
            return Reversal(quoted[a[0] : a[1]], *a, passage[b[0] : b[1]], *b)
    return None


def falsified_quote(verdict: Verdict, quoted: str, nearest: Evidence) -> Verdict | None:
    """``verdict`` made contradicted (``falsified_quote``) when the claim's quotation ``quoted`` says the
    reverse of the source's nearest passage, with the two changed words as its difference; else None.
    A quotation is a promise about exact words: one that turns them round is no paraphrase."""
    turned = reversal(quoted, nearest.quote)
    if turned is None:
        return None
    at = verdict.claim.find(quoted)  # -1 for the answer's excerpt, which is not in the claim
    difference = Difference(turned.quoted or None, at + turned.start if at >= 0 and turned.quoted else None,
                            at + turned.end if at >= 0 and turned.quoted else None,
                            turned.passage or None, turned.passage_start if turned.passage else None,
                            turned.passage_end if turned.passage else None)
    said = f"“{turned.quoted}”" if turned.quoted else "nothing"
    return replace(verdict, label=Label.CONTRADICTED, reason="falsified_quote", evidence=nearest,
                   differences=(difference,),
                   explanation=f"The quotation reverses the source: it has {said} where the source reads "
                               f"“{turned.passage or '(nothing)'}”.")


#: Words, and each CJK character on its own (CJK has no spaces: 罰しない is 罰, し, な, い).
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]|[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+|\d+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _span(tokens: list[re.Match[str]], first: int, last: int, length: int) -> tuple[int, int]:
    """Offsets of tokens ``first`` to ``last`` (exclusive, clipped); an empty span where there is none."""
    last = min(last, len(tokens))
    if first >= last:
        at = tokens[first - 1].end() if 0 < first <= len(tokens) else length if tokens else 0
        return at, at
    return tokens[first].start(), tokens[last - 1].end()


def _cjk_run(text: str, start: int, end: int) -> tuple[int, int]:
    """A CJK change widened to its run between punctuation (必ず罰する, not する), for a reader."""
    if start < end and _CJK.match(text, start):
        while start > 0 and _CJK.match(text, start - 1):
            start -= 1
        while end < len(text) and _CJK.match(text, end):
            end += 1
    return start, end



class _Folded:
    """Lower-case text with quotes/dashes unified and each run of whitespace one space, mapped back to the original.

    Built with ``str.translate`` and one regex pass; ``original(i)`` finds the
    offset in the original text by bisecting the whitespace runs.
    """

    def __init__(self, text: str) -> None:
        lowered = text.translate(_FOLD).lower()
        if len(lowered) != len(text):  # a character whose lower case is longer ("İ"): keep one char per char
            lowered = "".join(c.translate(_FOLD).lower()[:1] or c for c in text)
        self.breaks: list[int] = [0]  # folded offsets where the shift changes
        self.shifts: list[int] = [0]  # characters removed before that offset
        removed = 0
        for run in re.finditer(r"\s{2,}|[^\S ]", lowered):
            removed += len(run.group(0)) - 1
            self.breaks.append(run.end() - removed)
            self.shifts.append(removed)
        self.text = re.sub(r"\s+", " ", lowered)

    def original(self, position: int) -> int:
        return position + self.shifts[bisect.bisect_right(self.breaks, position) - 1]


def _nearest(anchor: str, source: _Folded, source_text: str) -> SnappedQuote:
    folded = source.text
    words = Counter(re.findall(r"\w+", anchor))
    if not words or not folded:
        return SnappedQuote(False, False, None, None, None, 0.0)
    spans = sentences(folded)
    scored = []
    for index, span in enumerate(spans):
        shared = Counter(re.findall(r"\w+", folded[span.start : span.end])) & words
        if shared:
            scored.append((sum(shared.values()), index))
    best: tuple[float, int, int] = (0.0, 0, 0)
    for _, index in sorted(scored, reverse=True)[:5]:
        # The window: the sentence and its neighbours, enough room for an anchor that crosses a boundary.
        start = spans[max(0, index - 1)].start
        end = spans[min(len(spans) - 1, index + 1)].end
        window = folded[start:end]
        matcher = SequenceMatcher(None, anchor, window, autojunk=False)
        blocks = [b for b in matcher.get_matching_blocks() if b.size >= 3]
        if not blocks:
            continue
        cut_start = _word_start(window, blocks[0].b)
        cut_end = _word_end(window, blocks[-1].b + blocks[-1].size)
        matched = sum(b.size for b in blocks)
        similarity = 2 * matched / (len(anchor) + (cut_end - cut_start))
        if similarity > best[0]:
            best = (similarity, start + cut_start, start + cut_end)
    similarity, start, end = best
    if similarity < MIN_SIMILARITY or end <= start:
        return SnappedQuote(False, False, None, None, None, round(similarity, 4))
    real_start, real_end = source.original(start), source.original(end - 1) + 1
    return SnappedQuote(True, False, source_text[real_start:real_end], real_start, real_end, round(similarity, 4))


def _word_start(text: str, position: int) -> int:
    while position > 0 and text[position - 1].isalnum():
        position -= 1
    return position


def _word_end(text: str, position: int) -> int:
    while position < len(text) and text[position].isalnum():
        position += 1
    return position


if __name__ == "__main__":
    source = "Article 7. The taxpayer shall file the return  within two months after the end of the year."
    for anchor in ("the taxpayer shall file the return within two months", "taxpayers must file returns within 2 months"):
        print(anchor, "→", snap_quote(anchor, source))
