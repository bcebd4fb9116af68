"""The clauses of a compound claim: which of them the passage states in full.

"The museum holds 260,000 volumes, and its café serves breakfast every day." against a page that
says the first and not the second: the verdict is partial, and names the half that is stated, so
the reader sees what to check. A clause counts as stated only with enough units of its own to say
something (``MIN_CLAUSE_UNITS``), and only when another clause of the claim is not stated.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MIN_CLAUSE_UNITS", "stated_clauses"]

#: Where the clauses of a compound claim meet: "…, and its café…", "…; …", "…, but …", "… while …", and
#: "… and the museum …" (an "and" before a new subject; "and has" joins two verbs of one subject).
_CLAUSE_JOIN = re.compile(r"(?i)\s*(?:[;:]|,\s*(?:and|but|while|whereas|although|yet)\b|\s(?:while|whereas|although)\b|"
                          r",?\s+and\s+(?=(?:it|its|he|she|they|their|his|her|the|this|that|these|those)\b))\s*")
#: A clause counts as stated with at least this many units, and as not stated with at least MIN_CLAUSE_UNITS - 1.
MIN_CLAUSE_UNITS = 3


def stated_clauses(claim: str, units: list[Any], unmatched: list[Any]) -> tuple[str, ...]:
    """The clauses of a compound claim whose every unit is accounted for, when another clause of it has
    units that are not: what a half-supported claim's verdict names as the half that is stated."""
    if not unmatched:
        return ()
    bounds = [0, *(at for m in _CLAUSE_JOIN.finditer(claim) for at in (m.start(), m.end())), len(claim)]
    missing = {u.start for u in unmatched}
    stated, unstated = [], False
    for start, end in zip(bounds[::2], bounds[1::2], strict=True):
        inside = [u for u in units if start <= u.start < end and u.kind != "negation"]
        left = sum(u.start in missing for u in inside)
        if not left and len(inside) >= MIN_CLAUSE_UNITS:
            stated.append(claim[start:end].strip(" ,.;:"))
        unstated |= left >= MIN_CLAUSE_UNITS - 1
    return tuple(stated) if unstated else ()
