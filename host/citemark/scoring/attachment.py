"""Which word a claim's name or figure qualifies: it must qualify the same word in the passage.

The alignment matches words one to one, but a figure or a name is only stated where it
stands with the word it qualifies. "runs 9 seismometers on Brannoch" is not stated by "runs
24 seismometers on Brannoch and 9 on Tiel"; "named Finals MVP" is not stated by "named
regular-season MVP … In the Finals …"; "took 94 seconds with Driftwood 2.0" is not stated by
"took 94 seconds with 1.x and 21 seconds with 2.0".

So: a claim name or figure that qualifies a matched word (as its number, its compound or a
preposition's object: "9 seismometers", "Finals MVP", "took … with Driftwood") and whose own
match stands outside that word's phrase in the passage is misattached when the passage word
is qualified there, in the same way, by something else ("24", "regular-season", "with 1.x").
A passage word qualified by nothing of that kind raises nothing: "the KR-2 enzyme" is stated
by "KR-2, an enzyme that …". A preposition's object is misattached too when the passage gives it
the same word under another preposition, or has the two objects the other way round: "runs from
Marston to Kelby" is not stated by "runs from Kelby to Marston", nor "Tansey is older than
Brackwell" by "Brackwell is older than Tansey"; or when the passage gives the object itself under
the opposite preposition: "leases aircraft to Meridian" is not stated by "leases aircraft from
Meridian".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["OPPOSITE_PREPOSITIONS", "misattached"]

#: Prepositions that give their object the other end of the same verb: "lease … to" is not "lease … from".
OPPOSITE_PREPOSITIONS = frozenset(frozenset(pair) for pair in (
    ("to", "from"), ("into", "from"), ("towards", "from"), ("toward", "from"), ("onto", "from"), ("above", "below"),
    ("over", "under")))
#: How a word qualifies the word it depends on (a preposition's object counts through the preposition).
QUALIFIES = frozenset(["nummod", "compound", "prep"])
#: The labels that keep a word inside another's phrase ("24 seismometers on Brannoch", not "and 9 on Tiel").
_PHRASE = frozenset(["nummod", "compound", "amod", "nmod", "poss", "prep", "pobj", "appos", "quantmod", "det", "punct",
                     "case", "npadvmod", "hmod", "hyph"])


class Parsed(Protocol):
    def token_at(self, start: int) -> Any: ...

    def start(self, token: Any) -> int: ...


def misattached(claim: Parsed, passage: Parsed, pairs: Sequence[tuple[Any, Any]], passage_units: Sequence[Any],
                matches: Callable[[Any, Any], bool]) -> list[tuple[Any, Any]]:
    """(claim unit, the passage unit that qualifies its word instead) for each misattached name or figure.
    ``pairs``: the alignment's (claim unit, passage unit); ``matches``: whether a passage unit matches a claim unit."""
    def matched_at(at: int) -> Any:
        return next((p for c, p in pairs if c.start <= at < c.end), None)

    def unit_at(at: int) -> Any:  # the passage unit holding a word ("seconds" of "41 seconds")
        return next((u for u in passage_units if u.start <= at < u.end), None)

    used = {id(p) for _, p in pairs}
    found = []
    for claim_unit, passage_unit in pairs:
        if claim_unit.kind not in ("name", "figure"):
            continue
        token = _root(claim, claim_unit)
        if token is None:
            continue  # the "42" of "Kessler-42": a part of one written name
        relation = _relation(token)
        if relation is None:
            continue
        label, head, preposition = relation
        if _one_word(token, head):
            continue  # "Kessler-42": the parts of one written name
        head_match = matched_at(claim.start(head))
        passage_head = passage.token_at(head_match.start) if head_match is not None else None
        own = _root(passage, passage_unit)
        if passage_head is None or own is None or _elided(own, passage_head):
            continue
        within = _within(own, passage_head) or label == "prep" and _hung_either_way(own, passage_head, head, preposition)
        if label == "prep":
            rivals = _preposition_rivals(claim_unit, own, passage_head, preposition, within, head, claim, passage,
                                         matched_at, unit_at, matches)
        elif within:
            continue
        else:
            rivals = [u for t in _qualifiers(passage_head, label, preposition)
                      if (u := unit_at(passage.start(t))) is not None and not matches(claim_unit, u) and id(u) not in used]
        if rivals:
            found.append((claim_unit, rivals[0]))
        elif label == "prep" and within and claim_unit.kind == "name" and frozenset(
                [preposition, _nearest_preposition(own, passage_head)]) in OPPOSITE_PREPOSITIONS:
            # "leasing aircraft to Meridian" against "from Meridian" (not figures: "fell from £10 to £8" is a
            # range to the parser, and order.changed_end reads which end of a change a figure is)
            found.append((claim_unit, None))
    return found


def _root(parsed: Parsed, unit: Any) -> Any:
    """The word of a unit that stands for it in the parse: the one whose head lies outside the unit
    ("seconds" of "96 seconds", a figure with its measure); None for a unit that starts inside a word."""
    token = parsed.token_at(unit.start)
    if token is None or parsed.start(token) != unit.start:
        return None
    while token.head.i != token.i and parsed.start(token) <= parsed.start(token.head) < unit.end and (
            token.head.doc is token.doc):
        token = token.head
    return token


def _relation(token: Any) -> tuple[str, Any, str | None] | None:
    """(label, the word it qualifies, the preposition between) for a qualifying word, else None."""
    if token is None or token.head.i == token.i:
        return None
    if token.dep_ == "pobj" and token.head.dep_ == "prep" and token.head.head.i != token.head.i:
        return "prep", token.head.head, token.head.lower_
    if token.dep_ in ("nummod", "compound"):
        return token.dep_, token.head, None
    return None


def _preposition_rivals(claim_unit: Any, own: Any, passage_head: Any, preposition: str | None, within: bool, head: Any,
                        claim: Parsed, passage: Parsed, matched_at: Callable[[int], Any],
                        unit_at: Callable[[int], Any], matches: Callable[[Any, Any], bool]) -> list[Any]:
    """What the passage puts under the claim's preposition of the word in place of the claim's object:
    the names and figures of that preposition's phrase ("from *the Wexford plant*"), when the passage
    has the claim's object elsewhere ("to the new factory in Bray"), or the same word of that phrase
    when it has neither. The claim's own other objects of that preposition ("in 1902 in the old town
    hall") are no rivals."""
    if within and _nearest_preposition(own, passage_head) in (None, preposition):
        return []  # under the claim's own preposition, or under none
    own_side = {id(m) for t in _qualifiers(head, "prep", preposition) if (m := matched_at(claim.start(t)))}
    found = []
    for qualifier in _qualifiers(passage_head, "prep", preposition):
        phrase = [u for t in qualifier.subtree if (u := unit_at(passage.start(t))) is not None]
        named = [u for u in phrase if u.kind in ("name", "figure")]
        # a phrase of common words is a rival only where the claim's object sits under another preposition
        candidates = named if named or not within else [u for u in phrase if u.start == passage.start(qualifier)]
        found += [u for u in candidates if not matches(claim_unit, u) and id(u) not in own_side and u not in found]
    return found


def _nearest_preposition(token: Any, head: Any) -> str | None:
    """The nearest preposition over ``token`` on its way up to ``head`` ("in" for "Bray" of "moved to the new
    factory in Bray"; "to" for "Presham" of "moved from Calder to Presham" read with "to" under "Calder")."""
    while token.head.i != token.i and token.i != head.i:
        token = token.head
        if token.dep_ == "prep":
            return token.lower_
    return None


def _one_word(token: Any, head: Any) -> bool:
    """Whether the two tokens are parts of one written word (nothing but word characters and hyphens between)."""
    first, last = sorted((token, head), key=lambda t: t.i)
    between = first.doc.text[first.idx : last.idx + len(last.text)]
    return not any(ch.isspace() for ch in between)


def _elided(own: Any, passage_head: Any) -> bool:
    """A figure standing for its noun in another sentence ("The second largest holds about 28,000." after
    "… holds about 45,000 wheels."): the word it qualifies is elided, and the sentence before gives it."""
    elsewhere = own.doc is not passage_head.doc or own.sentence_start != passage_head.sentence_start
    return own.pos_ == "NUM" and own.dep_ not in ("nummod", "quantmod") and elsewhere


def _within(token: Any, head: Any) -> bool:
    """Whether ``token`` belongs to ``head``'s own phrase (reached through modifiers, not a conjunction)."""
    if token.doc is not head.doc:
        return False
    while token.i != head.i:
        if token.dep_ not in _PHRASE or token.head.i == token.i:
            return False
        token = token.head
    return True


def _hung_either_way(own: Any, head: Any, claim_head: Any, preposition: str | None) -> bool:
    """Whether ``own`` is the object of ``preposition`` hung on the verb where the claim hangs it on the
    verb's object, or the other way round: where "lease aircraft from Meridian" hangs "from" is the
    parser's guess, and either way says the same. The claim's word must be a verb where the passage's
    is: "the first chair of Harland" is not "to chair the board of Harland"."""
    hung = own.head if own.dep_ == "pobj" and own.head.dep_ == "prep" and own.head.lower_ == preposition else None
    if hung is None:
        return False
    on_object = hung.head.dep_ == "dobj" and hung.head.head is head and claim_head.pos_ == head.pos_ == "VERB"
    return on_object or head.dep_ == "dobj" and head.head is hung.head


def _qualifiers(head: Any, label: str, preposition: str | None) -> list[Any]:
    """The words that qualify ``head`` the way ``label`` says: its numbers, its compounds (with their
    own modifiers: "regular-season"), or its ``preposition``'s objects."""
    if label == "prep":
        # a phrase the parser may hang on the verb or on its object alike ("runs 24 seismometers on Brannoch")
        sites = [head] + [c for c in head.children if c.dep_ == "dobj"] + ([head.head] if head.dep_ == "dobj" else [])
        return [g for site in sites for c in site.children if c.dep_ == "prep" and c.lower_ == preposition
                for g in c.children if g.dep_ == "pobj"]
    return [t for c in head.children if c.dep_ == label for t in c.subtree]
