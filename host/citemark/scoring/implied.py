"""Claim words that the passage's figures account for without a word of their own.

Two kinds, each read only where the passage's figures say it:

- ``by_measure``: the word that names what a figure measures, when the figure's unit says it
  alone: "long" of "about 60 miles long" is stated by "a 96-kilometre waterway", "weighs" of
  "weighs 3.5 lb" by "1.6 kg", unless the passage's sentence names another measure ("96 km wide");
- ``by_comparison``: the words of a comparison that two of the passage's figures work out
  ("one second faster than" from 2.6 and 1.6 seconds; ``worked.py``), each paired with the
  passage's figure for the comparison's first side.

Units are the alignment's (``align.Unit``): ``kind``, ``key``, ``start`` and ``end`` are read.
"""

from __future__ import annotations

import re
from typing import Any

from citemark.scoring.language import WORD
from citemark.scoring.quantities import Quantity
from citemark.scoring.worked import Worked

__all__ = ["IMPLIED_BY_UNIT", "by_comparison", "by_measure"]

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
