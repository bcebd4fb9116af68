"""Quantifiers: the claim says "all", "always", "will" or "proves" where the evidence says "most",
"often", "may" or "suggests", or states a figure plainly that the evidence gives only as a ceiling
("up to five times a day").

A small check on scales of words, which reads no binding of the claim's words beyond the grammar's,
so it stands apart from the others.
"""

from __future__ import annotations

import re

from citemark.scoring.binding import grammar
from citemark.scoring.binding.grammar import Token
from citemark.scoring.quantities import parse_quantities, same_quantity

#: (strong words of a scale, weak words of it): a claim with a strong word is not stated
#: by evidence that uses only the scale's weak words.
_SCALES = (
    ({"all", "every", "entire", "whole", "universally", "everyone", "everybody"},
     {"most", "many", "some", "several", "majority", "few", "half", "part", "much"}),
    ({"most", "majority"}, {"several", "some", "few", "minority", "handful"}),
    ({"always", "invariably", "constantly"}, {"often", "usually", "sometimes", "frequently", "typically",
                                              "generally", "occasionally", "rarely", "mostly", "commonly"}),
    ({"will", "must", "definitely", "certainly", "guarantees", "guaranteed", "always"},
     {"may", "might", "could", "can", "possibly", "likely", "probably", "perhaps", "potentially", "expects",
      "expected", "expect", "plans", "aims", "intends", "hopes", "hoped"}),
    ({"prove", "proves", "proved", "proven", "demonstrate", "demonstrates", "demonstrated", "confirm", "confirms",
      "confirmed", "establish", "establishes", "established"},
     {"suggest", "suggests", "suggested", "indicate", "indicates", "indicated", "hint", "hints", "hinted",
      "associated", "linked", "correlated", "may", "might", "could", "preliminary"}),
    ({"completely", "entirely", "fully", "totally", "wholly", "eliminates", "eliminated", "cures", "cured"},
     {"partly", "partially", "largely", "mostly", "reduces", "reduced", "lowers", "lowered", "eases", "eased"}),
)


def overstated(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]]) -> list[str]:
    """Read in the clause that states most of the claim: "will speed up" is not "may speed up",
    whatever "will not help" says in the next clause."""
    claim_words = {t.lower for t in claim}
    counts: dict[int, set[int]] = {}
    for i, places in aligned.items():
        for j in places:
            counts.setdefault(evidence[j].clause, set()).add(i)
    if not counts:
        return []
    best = max(len(found) for found in counts.values())
    # And the clause of the word a strong word governs: "will decide" read where "decide" is
    # ("…, which is expected to decide by …"), even when the names sit in the clause before.
    best_sentences = {t.sentence for t in evidence if len(counts.get(t.clause, ())) == best}
    governed = {evidence[j].clause for k, token in enumerate(claim) if any(token.lower in strong for strong, _ in _SCALES)
                for i in range(k + 1, min(k + 3, len(claim))) for j in aligned.get(i, ())
                if evidence[j].sentence in best_sentences}
    evidence_words = {t.lower for t in evidence if len(counts.get(t.clause, ())) == best or t.clause in governed}
    # A strong word the claim itself denies ("anticipated rather than guaranteed") claims nothing.
    denied = {claim[k].lower for first, last, _ in grammar.negation_scopes(claim) for k in range(first, last + 1)}
    claim_words -= denied
    found = []
    for strong, weak in _SCALES:
        said = claim_words & strong
        if said and not evidence_words & strong and evidence_words & weak and not claim_words & weak:
            found.append(f"{sorted(said)[0]} ≠ {sorted(evidence_words & weak)[0]}")
    return found


#: Hedges that make a figure a ceiling: "up to five times a day" is not "five times a day".
_CEILINGS = frozenset(["up to", "as many as", "as much as", "at most", "no more than", "a maximum of"])


def ceilings(claim_text: str, evidence_text: str) -> list[str]:
    """A figure the claim states as such, where every place the evidence states it is a ceiling."""
    found = []
    stated = parse_quantities(evidence_text, incidental=True)
    for quantity in parse_quantities(claim_text):
        if quantity.is_year or quantity.hedge in _CEILINGS or _CEILING_BEFORE.search(claim_text[: quantity.start]):
            continue
        places = [q for q in stated if same_quantity(quantity, q)]
        if places and all(q.hedge in _CEILINGS or _CEILING_BEFORE.search(evidence_text[: q.start]) for q in places):
            found.append(f"{quantity.text} ≠ up to {places[0].text}")
    return found


_CEILING_BEFORE = re.compile(r"(?:up to|as (?:many|much) as|at most|no more than|a maximum of)\s+(?:a|an)?\s*$",
                             re.IGNORECASE)
