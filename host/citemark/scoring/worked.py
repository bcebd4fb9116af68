"""Comparisons a claim works out from two of the passage's figures: "Tessellate 4.2.0 finishes one
second faster than 4.1.6" where the passage gives 4.1.6 2.6 seconds and 4.2.0 1.6 seconds.

A claim that compares two things by an amount ("73 seconds less than", "six more shots than",
"41% more requests than") or a ratio ("twice as many copies as", "seven times as long as", "a
quarter less overhead than") states a figure the passage does not write: the passage gives each
side its own figure. The alignment cannot match such a figure, so the claim stays partial however
exactly it is worked out. This module gives the positive account instead. The claim's comparison is
accounted for only when all of these hold:

- the passage gives each side of the comparison exactly one figure of one kind, read by
  ``comparisons.side_figures`` (the clause that names that side and not the other);
- the comparison runs the way the claim says ("faster" is fewer seconds, "less" is smaller);
- the amount or ratio is the one the two figures give, within the claim's own rounding ("about",
  "roughly": 10 %; an exact-looking "twice": 5 %; "41%": half a point).

Anything else (a bound such as "more than twice", "times less", "10% higher" of two shares, which
may mean points, a side the passage gives two figures) leaves the claim's words unaccounted for, as before: citemark says less.
What the comparison compares ("copies", "requests per second") is not accounted for here: the
alignment must still find it in the passage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from citemark.scoring.binding import Token, tokenize
from citemark.scoring.comparisons import COMPARATIVES, by_time, side_figures, side_words
from citemark.scoring.lexical import stem
from citemark.scoring.quantities import Quantity, parse_quantities, same_quantity, worded_as_difference
from citemark.scoring.words import STOP_WORDS

__all__ = ["Worked", "compared_otherwise", "worked_comparisons"]

_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
           "hundred": 100}
_FRACTIONS = {"half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "a quarter": 0.25, "one quarter": 0.25}
_APPROXIMATE = r"(?:about|around|roughly|approximately|nearly|almost|some|close\s+to)"
_MULTIPLIER = (r"(?:twice|(?:a|one)\s+(?:third|quarter)|half|(?:\d+(?:\.\d+)?|" + "|".join(_COUNTS) +
               r")(?:\s+and\s+a\s+half)?(?:\s+times|\s*-?\s*fold))")
#: What stands between the comparison and its "than" or second "as": what is compared, at most five words.
_WHAT = r"(?P<what>(?:[\w’'-]+\s+){0,5}?)"
#: "twice as many copies as", "about 14 times as long as", "half as much".
_AS_MUCH = re.compile(rf"\b(?:(?P<hedge>{_APPROXIMATE})\s+)?(?P<by>{_MULTIPLIER})\s+as\s+(?P<adj>[a-z]+)\s+{_WHAT}as\b",
                      re.IGNORECASE)
#: "three times more visitors than", "a quarter less overhead than", "one second faster than" (the
#: amount read from the claim's figures).
_COMPARATIVE = re.compile(r"\b(?:[a-z]+er|more|less|fewer)\b", re.IGNORECASE)
_THAN = re.compile(rf"\s+{_WHAT}than\b", re.IGNORECASE)
_MULTIPLIER_BEFORE = re.compile(rf"\b(?:(?P<hedge>{_APPROXIMATE})\s+)?(?P<by>{_MULTIPLIER})\s*$", re.IGNORECASE)
#: A bound on a ratio: "more than twice as many" states no ratio to work out.
_BOUND_BEFORE = re.compile(r"\b(?:more\s+than|over|at\s+least|above|less\s+than|under|below|up\s+to|nearly|almost|"
                           r"not|no)\s*$", re.IGNORECASE)
#: Adjectives of "as … as" that rank by size (and "fast", by speed): "as many", "as long".
_AS_ADJECTIVES = frozenset(["many", "much", "large", "big", "long", "high", "tall", "heavy", "wide", "deep",
                            "fast", "quick", "expensive", "costly", "old", "far"])
_SPEED = frozenset(["fast", "quick"])
#: A ratio stated this closely: an exact-looking one within 5 %, an approximate one within 10 %.
RATIO_TOLERANCE = (0.05, 0.10)


@dataclass(frozen=True, slots=True)
class Worked:
    """A claim comparison the passage's figures work out: the claim's words it accounts for (the
    amount, the comparative, "than" or "as"), the figure the passage gives each side, and where the
    claim names its sides (whose order the figures have settled)."""

    spans: tuple[tuple[int, int], ...]
    ours: Quantity
    theirs: Quantity
    sides: tuple[tuple[int, int], ...] = ()

    def names_a_side(self, start: int) -> bool:
        return any(s <= start < e for s, e in self.sides)

    def covers(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e in self.spans)


def worked_comparisons(claim: str, passage: str) -> tuple[Worked, ...]:
    """The claim's comparisons that two of the passage's figures work out, as the module says."""
    return tuple(worked for comparison in _comparisons(claim) if (worked := _worked_out(claim, passage, comparison)))


@dataclass(frozen=True, slots=True)
class _Comparison:
    start: int  # the claim's comparison: from its amount or ratio …
    end: int  # … to its "than" or second "as"
    what: tuple[int, int]  # what is compared ("copies"), left to the alignment
    adjective: str  # "faster", "many"
    sign: int  # +1 "more", −1 "less" (of a difference)
    amount: Quantity | None = None  # a difference ("73 seconds less")
    ratio: float | None = None  # or a ratio of the first side's figure to the second's ("twice": 2, "a quarter less": 0.75)
    slack: float = 0.0  # how far the figures' ratio may be from ``ratio``
    in_percent: bool = False  # "41% more": of two shares, it may mean points, so shares are not read


def _comparisons(claim: str) -> list[_Comparison]:
    found = []
    for match in _AS_MUCH.finditer(claim):
        adjective = match.group("adj").lower()
        if adjective in _AS_ADJECTIVES and not _BOUND_BEFORE.search(claim[: match.start()]) \
                and "again" not in match.group("what").lower():  # "half as much again": one and a half
            ratio = _ratio(match.group("by"))
            found.append(_Comparison(match.start(), match.end(), match.span("what"), adjective, 1, ratio=ratio,
                                     slack=ratio * RATIO_TOLERANCE[bool(match.group("hedge"))]))
    for word in _COMPARATIVE.finditer(claim):
        adjective = word.group().lower()
        if adjective not in COMPARATIVES or not (match := _THAN.match(claim, word.end())):
            continue
        sign, before = COMPARATIVES[adjective][0], claim[: word.start()]
        if multiplier := _MULTIPLIER_BEFORE.search(before):
            if _BOUND_BEFORE.search(before[: multiplier.start()]):
                continue
            by = _ratio(multiplier.group("by"))
            if sign < 0 and by >= 1:
                continue  # "three times less": writers mean it either way
            ratio = by if by >= 1 else 1 + sign * by  # "a quarter less": three quarters of it
            found.append(_Comparison(multiplier.start(), match.end(), match.span("what"), adjective, sign, ratio=ratio,
                                     slack=ratio * RATIO_TOLERANCE[bool(multiplier.group("hedge"))]))
            continue
        amount = next((q for q in parse_quantities(claim, incidental=True) if not q.is_year and q.value > 0
                       and q.dimension != "rank" and q.end <= word.start()
                       and stem(before[q.end :].strip().lower()) in ("", stem(q.noun))), None)  # "120 MB less"
        if amount is None or amount.hedge and not re.fullmatch(_APPROXIMATE, amount.hedge.lower()):
            continue  # a plain comparison ("lighter than") or a bound ("more than 40 more")
        start = before.rfind(amount.hedge, 0, amount.start) if amount.hedge else amount.start
        if amount.unit == "%":  # "41% more": a ratio, to the nearest point (about: within a tenth of it)
            found.append(_Comparison(start, match.end(), match.span("what"), adjective, sign,
                                     ratio=1 + sign * amount.value / 100, in_percent=True,
                                     slack=(amount.value / 1000 + 0.005) if amount.hedge else 0.005))
        else:
            found.append(_Comparison(start, match.end(), match.span("what"), adjective, sign, amount=amount))
    return found


def _ratio(words: str) -> float:
    words = re.sub(r"[\s-]+", " ", words.lower()).replace("fold", " fold").strip()
    if words == "twice":
        return 2.0
    if words in _FRACTIONS:
        return _FRACTIONS[words]
    number = words.split()[0]
    return (float(number) if number[0].isdigit() else float(_COUNTS[number])) + 0.5 * (" and a half" in words)


def _counted(claim: str, comparison: _Comparison) -> str | None:
    """The kind of a count a comparison compares ("count:resident" of "6,400 more residents than"), so
    that the passage's figures of other kinds (its percentages) are not taken for its sides."""
    what = claim[comparison.what[0] : comparison.what[1]].strip()
    counted = next(iter(parse_quantities(f"2 {what}")), None) if what else None
    return counted.kind if counted is not None and counted.kind.startswith("count:") and counted.noun else None


def _worked_out(claim: str, passage: str, comparison: _Comparison) -> Worked | None:
    tokens = tokenize(claim)
    at = next((k for k, t in enumerate(tokens) if t.end > comparison.start), None)
    after = next((k for k, t in enumerate(tokens) if t.start >= comparison.end), None)
    if at is None or after is None:
        return None
    first = side_words(tokens, range(at - 1, -1, -1), tokens[at])
    second = side_words(tokens, range(after, len(tokens)), tokens[after])
    amount = comparison.amount
    kind = None if amount is None else amount.dimension or ("$" if amount.noun == "$" else _counted(claim, comparison))
    markers = (_markers(claim, tokens[:at]), _markers(claim, tokens[after:]))
    # a passage figure worded as a difference ("58 minutes, three minutes faster than her time in 2021")
    # is no side's own figure
    stated = [q for q in parse_quantities(passage) if not worded_as_difference(passage, q)]
    pair = side_figures(first, second, tokenize(passage), stated, kind, markers)
    if pair is None:
        return None
    ours, theirs = pair
    if comparison.in_percent and ours.dimension == "share":
        return None
    a, b = ours.size, theirs.size
    if by_time(comparison.adjective) or comparison.adjective in _SPEED:
        if ours.dimension not in ("time", "speed"):
            return None
        if ours.dimension == "time":
            a, b = b, a  # faster takes less time
    if a <= 0 or b <= 0:
        return None
    if amount is not None:
        if comparison.sign * (a - b) <= 0 or ours.unit != theirs.unit or ours.dimension != amount.dimension:
            return None
        # rounded past float noise: 2.1 − 1.4 is 0.7, not 0.7000000000000002
        difference = replace(ours, value=round(abs(ours.value - theirs.value), 9), text=f"{ours.text} − {theirs.text}",
                             hedge="", base=round(abs(a - b), 9), decimals=max(ours.decimals, theirs.decimals))
        if not same_quantity(amount, difference):
            return None
    elif comparison.ratio is None or abs(a / b - comparison.ratio) > comparison.slack:
        return None
    what = comparison.what
    spans = ((comparison.start, what[0]), (what[1], comparison.end)) if what[0] < what[1] else (
        (comparison.start, comparison.end),)
    distinct = markers[0] ^ markers[1]
    sides = tuple((t.start, t.end) for t in tokens[:at] + tokens[after:] if t.stem in distinct)
    return Worked(tuple(span for span in spans if claim[span[0] : span[1]].strip()), ours, theirs, sides)


def _markers(claim: str, side: list[Token]) -> frozenset[str]:
    """What tells a side apart in running text: its names (capitalised words, but not "The" or "In" opening
    the claim), versions ("4.1.6", "1.x", "Driftwood 2.0", "version 2.9") and years, not its counts ("the
    10,000-page site")."""
    figures = {q.start: q for q in parse_quantities(claim)}
    found = set()
    for k, token in enumerate(side):
        counted = figures.get(token.start)
        named = k > 0 and (side[k - 1].capital or side[k - 1].lower == "version")
        name = token.capital and (token.start > 0 or token.lower not in STOP_WORDS)
        if name or any(c.isdigit() for c in token.text) and (
                counted is None or counted.is_year or counted.text != token.text or named):
            found.add(token.stem)
    return frozenset(found)


#: What ends the far side of a comparison in running text.
_SIDE_END = re.compile(r"[,;:()\u2014]|[.!?](?:\s|$)")
#: How far after the passage's comparing word its "as" or "than" may stand ("twice as long as").
_FAR_REACH = 40
_LINKER = re.compile(r"\b(?:as|than)\b", re.IGNORECASE)


def compared_otherwise(claim: str, passage: str, pairs: list[tuple[Any, Any]],
                       worked: tuple[Worked, ...]) -> list[tuple[Any, None]]:
    """Claim words on the far side of a comparison the passage states in words, which the passage gives
    outside the far side of its own: "The Sora Pro's battery lasts twice as long as the Sora 7's" is not
    stated by "The Sora 7's battery lasts six weeks, twice as long as the model it replaces". A comparison
    worked out from the figures has its sides read there, not here."""
    found: list[tuple[Any, None]] = []
    for comparison in _comparisons(claim):
        if any(w.covers(comparison.start, comparison.start + 1) for w in worked):
            continue
        stated = [p for c, p in pairs if comparison.start <= c.start < comparison.end  # "twice", "much", not "as"
                  and c.text.lower() not in ("as", "than") and not comparison.what[0] <= c.start < comparison.what[1]]
        if not stated:
            continue
        at = max(p.end for p in stated)
        linker = _LINKER.search(passage, at, at + _FAR_REACH)
        if linker is None:
            continue
        end = _SIDE_END.search(passage, linker.end())
        far = (linker.end(), end.start() if end else len(passage))
        claim_end = _SIDE_END.search(claim, comparison.end)
        ours = [c for c, p in pairs if comparison.end <= c.start < (claim_end.start() if claim_end else len(claim))
                and c.kind in ("name", "word", "figure") and not far[0] <= p.start < far[1]]
        found += [(c, None) for c in ours if all(c is not f for f, _ in found)]
    return found
