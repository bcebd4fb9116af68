"""Claim words that the passage's figures account for without a word of their own.

Two kinds, each read only where the passage's figures say it:

- ``by_measure``: the word that names what a figure measures, when the figure's unit says it
  alone: "long" of "about 60 miles long" is stated by "a 96-kilometre waterway", "weighs" of
  "weighs 3.5 lb" by "1.6 kg", unless the passage's sentence names another measure ("96 km wide");
- ``by_comparison``: the words of a comparison that two of the passage's figures work out
  ("one second faster than" from 2.6 and 1.6 seconds; ``worked.py``), each paired with the
  passage's figure for the comparison's first side;
- ``by_span``: a number of years that a range of two years gives, where the range follows the
  claim's words in their clause ("served as mayor for 19 years" from "mayor of Aldmouth from 1952
  to 1971").

Units are the alignment's (``align.Unit``): ``kind``, ``key``, ``start`` and ``end`` are read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from citemark.scoring.language import WORD
from citemark.scoring.order import clause_of
from citemark.scoring.quantities import Quantity
from citemark.scoring.worked import Worked

__all__ = ["IMPLIED_BY_UNIT", "by_comparison", "by_measure", "by_span"]

#: The word that names what a figure of each dimension measures, when the figure's unit says it alone:
#: "about 60 miles long" is stated by "a 96-kilometre waterway", "weighs 3.5 lb" by "1.6 kg".
IMPLIED_BY_UNIT = {"length": frozenset(["long", "length"]), "mass": frozenset(["weigh", "weight", "heavy"]),
                   "time": frozenset(["last"])}
#: Words that make a passage figure another measure than the implied one ("96 km wide", "42 minutes late").
_OTHER_MEASURE = {
    "length": re.compile(r"\b(?:wide|width|broad|breadth|deep|depth|high|height|tall|thick|thickness|across|diameter|"
                         r"radius|altitude|elevation|above|below|beyond|span|beam|away|from)\b", re.IGNORECASE),
    "mass": re.compile(r"\b(?:lift|lifts|carry|carries|payload|load|capacity|per)\b", re.IGNORECASE),
    "time": re.compile(r"\b(?:late|later|earlier|early|ago|delay\w*|after|before|within|every|per|since)\b", re.IGNORECASE),
}
#: How many words may stand between a claim figure and the word its unit implies ("weighs about 3.5 lb").
MEASURE_REACH = 2


def by_measure(claim: str, unmatched: list[Any], pairs: list[tuple[Any, Any]], claim_figures: dict[int, Quantity],
               passage: str, spans: list[tuple[int, int]]) -> list[Any]:
    """Claim words accounted for by the unit of the figure beside them: "long" of "60 miles long" when
    the passage's matched figure is a length and its sentence names no other measure ("wide", "deep")."""
    kept = []
    for unit in unmatched:
        accounted = False
        for figure, other in pairs:
            if figure.kind != "figure" or not other.key.startswith("@"):
                continue
            quantity = claim_figures.get(int(figure.key[1:]))
            if quantity is None or unit.key not in IMPLIED_BY_UNIT.get(quantity.dimension or "", ()):
                continue
            between = claim[min(unit.end, figure.end) : max(unit.start, figure.start)]
            sentence = next((passage[a:b] for a, b in spans if a <= other.start < b), passage)
            if len(WORD.findall(between)) <= MEASURE_REACH and not _OTHER_MEASURE[quantity.dimension].search(sentence):
                accounted = True
                break
        if not accounted:
            kept.append(unit)
    return kept


def by_comparison(pairs: list[tuple[Any, Any]], unmatched: list[Any], passage_units: list[Any],
                  comparisons: tuple[Worked, ...]) -> tuple[list[tuple[Any, Any]], list[Any], list[tuple[Any, Any]]]:
    """The claim units that a worked-out comparison accounts for, each paired with the passage's figure
    for the comparison's first side (not counted as used: the figure also stands for its own claim unit,
    if any): the pairs left, the units still unaccounted for, and the comparison's pairs. The comparison
    accounts for its words even where they were matched one by one ("14 … fewer … than" from "won 14 of
    their 30 games" and "conceded fewer than any other side"): the figures say what the words do not."""
    worked: list[tuple[Any, Any]] = []
    for comparison in comparisons:
        figure = next((u for u in passage_units if u.start <= comparison.ours.start < u.end), None)
        if figure is not None:
            worked += [(unit, figure) for unit in unmatched + [c for c, _ in pairs]
                       if comparison.covers(unit.start, unit.end) and all(unit is not done for done, _ in worked)]
    return ([pair for pair in pairs if all(pair[0] is not done for done, _ in worked)],
            [unit for unit in unmatched if all(unit is not done for done, _ in worked)], worked)


#: What joins the two years of a range: "from 1952 to 1971", "between 1952 and 1971", "1952–1971".
_RANGE_JOIN = re.compile(r"\s*(?:to|until|till|and|through|[-\u2013\u2014])\s*", re.IGNORECASE)
_YEARS = frozenset(["year", "years"])


def by_span(unmatched: list[Any], pairs: list[tuple[Any, Any]], passage_units: list[Any],
            claim_figures: dict[int, Quantity], passage_figures: dict[int, Quantity],
            passage: str) -> tuple[list[tuple[Any, Any]], list[Any]]:
    """Claim durations in years that a range of years works out, each paired with a unit for the range
    ("19 years" with "1952 to 1971"), and the units still unaccounted for. The range must follow a word
    the passage matched for the claim, in its clause, with no other word of substance between ("was
    mayor from 1952 to 1971 and chaired the council from 1947" gives "chaired the council" no 19
    years), and give the duration exactly (a hedged one, "about 19 years", within a year)."""
    found, kept = [], []
    matched = sorted((other for unit, other in pairs if unit.kind in ("word", "name")), key=lambda u: u.start)

    def follows_claim(at: int) -> bool:
        before = [u for u in matched if u.end <= at and clause_of(passage, u.start) == clause_of(passage, at)]
        return bool(before) and not any(before[-1].end <= u.start < at for u in passage_units)

    years = sorted((q for q in passage_figures.values() if q.is_year), key=lambda q: q.start)
    for unit in unmatched:
        quantity = claim_figures.get(int(unit.key[1:])) if unit.kind == "figure" else None
        ranges = [(first, last) for first, last in zip(years, years[1:]) if quantity is not None
                  and quantity.dimension == "time" and quantity.unit in _YEARS
                  and _RANGE_JOIN.fullmatch(passage[first.end:last.start])
                  and abs(last.value - first.value - quantity.value) <= (1 if quantity.hedge else 0)
                  and follows_claim(first.start)]
        if not ranges:
            kept.append(unit)
            continue
        first, last = ranges[0]
        start_unit = next(u for u in passage_units if u.start == first.start)
        found.append((unit, replace(start_unit, text=passage[first.start:last.end], end=last.end)))
    return found, kept
