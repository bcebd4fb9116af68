"""Does a record describe the cited paper? Titles, first author and year, compared precisely.

Precision first: a title matches only when its words are the record's words, in
order, after folding case, accents, punctuation and LaTeX braces. Two leniencies,
both common in real bibliographies and neither able to turn one paper into
another: a subtitle after a colon may be left out, and one long word may be
spelled another way ("modelling" / "modeling"). An added or dropped word ("Attention
is *not* all you need"), a changed number or a changed short word is another
title. A near-miss is reported as a difference, never as a match.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

from citemark.scholarly.records import Work
from citemark.scholarly.references import Reference

__all__ = ["Difference", "compare", "fold", "same_person", "same_title", "title_similarity"]

#: Below this token similarity a record is another paper altogether (not found, not a near miss).
NEAR_MISS = 0.6
_SPELLING = 0.8  # SequenceMatcher ratio of two spellings of one long word


@dataclass(frozen=True, slots=True)
class Difference:
    """One field where the citation and the record disagree."""

    field: str  # title | first_author | year
    cited: str
    record: str

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "cited": self.cited, "record": self.record}

    def describe(self) -> str:
        return f"{self.field.replace('_', ' ')}: cited '{self.cited}', the record has '{self.record}'"


def fold(text: str) -> list[str]:
    """Lower-case ASCII words: accents, punctuation, braces and '&' read alike."""
    text = unicodedata.normalize("NFKD", text.replace("&", " and "))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return re.findall(r"[a-z0-9]+", text)


def title_similarity(cited: str, record: str) -> float:
    return SequenceMatcher(None, fold(cited), fold(record), autojunk=False).ratio()


def same_title(cited: str, record: str) -> bool:
    a, b = fold(cited), fold(record)
    if not a or not b:
        return False
    if a == b:
        return True
    for full, short in ((record, a), (cited, b)):
        if ":" in full and fold(full.split(":", 1)[0]) == short:
            return True  # the subtitle left out
    opcodes = [op for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(opcodes) != 1:
        return False
    tag, i1, i2, j1, j2 = opcodes[0]
    if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
        return False
    x, y = a[i1], b[j1]
    return (min(len(x), len(y)) >= 5 and not x.isdigit() and not y.isdigit()
            and SequenceMatcher(None, x, y).ratio() >= _SPELLING)


def same_person(cited: str, record: str) -> bool:
    """Family names alike: 'van der Berg' and 'Berg', 'Gödel' and 'Godel'."""
    a, b = fold(cited), fold(record)
    return bool(a and b) and (a == b or a[-1] == b[-1])


def compare(reference: Reference, work: Work) -> list[Difference]:
    """Every field the reference states that the record gives otherwise."""
    differences = []
    if reference.title and not same_title(reference.title, work.title):
        differences.append(Difference("title", reference.title, work.title))
    if reference.authors and work.authors and not same_person(reference.authors[0], work.authors[0]):
        differences.append(Difference("first_author", reference.authors[0], work.authors[0]))
    years = work.years or ((work.year,) if work.year else ())
    if reference.year and years and reference.year not in years:
        differences.append(Difference("year", str(reference.year), "/".join(str(y) for y in years)))
    return differences
