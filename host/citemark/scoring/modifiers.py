"""Passage words that qualify what the claim states: the modifiers a claim must match too.

A matched passage word's own modifiers must be matched as well: a negation ("not at run time"), an
ordinal ("second-longest"), a modal or plan ("planned", "may"), a hedge ("not entirely", "partly"), an
attribution ("critics claimed"), a part ("3 of the 12") or an exception ("every region except Wales").
``unmatched_modifiers`` names those no claim word matched; ``misplaced_modifiers`` the claim words a
matched negation or privative covers in the passage but not in the claim. Units are the alignment's
(``align.Unit``): ``text``, ``kind``, ``key``, ``start`` and ``end`` are read.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MODIFIERS", "MODIFIER_REACH", "misplaced_modifiers", "qualified_by", "unmatched_modifiers"]

#: Words that qualify the passage word after them: what the passage states is less, or other, than the bare word.
MODIFIERS = frozenset(
    ["not", "no", "never", "neither", "nor", "without", "hardly", "barely", "rarely", "seldom", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "penultimate", "runner", "may", "might", "could", "would", "instead", "rather", "planned", "plans", "plan", "proposed", "proposes", "expected", "intends", "intended", "aims", "hopes", "reportedly", "allegedly", "claimed", "claims", "alleged", "supposedly", "rumoured", "rumored", "partly", "partially", "entirely", "almost", "nearly", "largely", "mostly"])
#: Words of stance over what follows them ("it is unlikely that the bridge will reopen", "he is thought to have been
#: born"): left unmatched, they qualify it; matched, where they stand is not compared (the claim may raise the subject).
_STANCE = frozenset(["unlikely", "likely", "possibly", "probably", "perhaps", "thought", "believed", "denied", "denies",
                     "deny", "doubt", "doubts", "doubted", "unclear", "uncertain", "suspected", "unconfirmed"])
_QUALIFIERS = MODIFIERS | _STANCE
_EXCEPTED = frozenset(["all", "everyone", "everybody", "everything"])  # "all but two": the "but" excepts from these
_PARTS = frozenset(["one", "some", "most", "many", "few", "several", "half", "none"])  # "one of the tallest"
_EXCEPTING = frozenset(["except", "excluding", "save"])  # after the word they except from: "every region except Wales"
#: How many words before a passage word its modifiers may stand ("not at run time": three).
MODIFIER_REACH = 3
_CLAUSE_BREAK = re.compile(r"[,;:()\u2014\u2013\n]|[.!?](?:\s|$)|\s-\s|\bbut\b|\bwhile\b|\bwhereas\b|\bhowever\b", re.IGNORECASE)


def unmatched_modifiers(passage: str, units: list[Any], used: dict[int, Any]) -> list[tuple[Any, int]]:
    """Passage words that qualify a matched word ("second" of "second-longest", "not" of "not at run
    time") and that no claim unit matched, each with the index of the word it qualifies."""
    found: dict[int, tuple[Any, int]] = {}
    for j in sorted(used):
        for k in range(j - 1, max(-1, j - 1 - MODIFIER_REACH), -1):
            between = passage[units[k].end : units[j].start]
            if _CLAUSE_BREAK.search(between):
                break
            word, after = units[k].text.lower(), passage[units[k].end:units[k].end + 4]
            qualifies = (word in _QUALIFIERS or units[k].kind == "negation"
                         or word == "but" and k and units[k - 1].text.lower() in _EXCEPTED  # "all but two"
                         or (word in _PARTS or units[k].kind == "figure") and after == " of ")  # "3 of the 12"
            if k in used or not qualifies:
                continue
            if word in ("no", "not") and k + 1 < len(units) and k + 1 not in used and units[k + 1].text.lower() in (
                    "only", "just", "merely", "simply", "later", "earlier", "less", "more", "fewer"):
                continue  # "not only", "no later than": a degree, not a denial (unless it denies the claim's "only")
            found.setdefault(k, (units[k], j))
        if j + 1 < len(units) and j + 1 not in used and units[j + 1].text.lower() in _EXCEPTING and not _CLAUSE_BREAK.search(
                passage[units[j].end:units[j + 1].start]):
            found.setdefault(j + 1, (units[j + 1], j))  # "every region except Wales"
    return [found[k] for k in sorted(found)]


def qualified_by(text: str, units: list[Any], k: int, reach: int = MODIFIER_REACH) -> list[int]:
    """The indexes of the units a modifier at ``k`` qualifies: up to ``reach`` after it, in its clause."""
    found = []
    for j in range(k + 1, min(len(units), k + 1 + reach)):
        if _CLAUSE_BREAK.search(text[units[k].end : units[j].start]):
            break
        found.append(j)
    return found


def misplaced_modifiers(claim: str, claim_units: list[Any], passage: str, passage_units: list[Any],
                         used: dict[int, Any]) -> list[tuple[Any, Any]]:
    """Matched claim words whose passage counterpart a matched modifier qualifies ("instead of *the file*",
    "not *at run time*") where the claim's own modifier does not qualify them: the negation or privative
    covers other words in the claim ("copies the file rather than the link" for "copies the link instead of
    the file"). A claim's modifier covers the rest of its clause. Each with the passage modifier."""
    covers: dict[str, set[int]] = {}  # a claim modifier's key → the claim words some modifier of that key covers
    found = []
    for k, modifier in used.items():
        if passage_units[k].text.lower() not in MODIFIERS and passage_units[k].kind != "negation":
            continue
        # a claim's modifier covers the rest of its clause ("does not check references at run time"); any of the
        # claim's modifiers of that kind may ("neither the patients nor their doctors": either negation)
        if modifier.key not in covers:
            covers[modifier.key] = {id(claim_units[i]) for m, unit in enumerate(claim_units) if unit.key == modifier.key
                                    for i in qualified_by(claim, claim_units, m, len(claim_units))}
        covered = covers[modifier.key]
        for j in qualified_by(passage, passage_units, k):
            word = used.get(j)
            if word is not None and word.kind != "negation" and id(word) not in covered and all(word is not w for w, _ in found):
                found.append((word, passage_units[k]))
    return found
