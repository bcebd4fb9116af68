"""Verbs that state one event from the other side: "Halbrook lent Pennock £85 million" is
"Pennock borrowed £85 million from Halbrook"; "Ostley lost her seat to Kaplan" is "Kaplan
defeated Ostley".

A claim verb the passage does not use may be matched by its converse (``CONVERSES``), and
only with the parser: the match holds when each participant of the claim's verb stands in
the converse's matching role in the passage (the seller as the one bought *from*, the winner
as the one lost *to*), every role read. "Pennock lent Halbrook £85 million" is not stated by
"Pennock borrowed £85 million from Halbrook": the lender stands where the borrower should.

Roles: ``doer`` (the subject, or a passive's agent), ``object`` (the direct object, or a
passive's subject) and ``other`` (the object of "from", "to", "against" or a non-agent "by").
"""

from __future__ import annotations

from typing import Any

from citemark.scoring.frames import Parsed, fillers
from citemark.scoring.order import Matches

__all__ = ["CONVERSES", "crossed", "pair_converses"]

#: How the roles of a claim verb (first) stand in its converse's (second): the giver of "sell" is the one
#: "buy" takes *from*, what is sold is what is bought, the buyer the one "sell" gives *to*.
_EXCHANGE = {"doer": "other", "object": "object", "other": "doer"}
_OUTCOME = {"doer": "other", "object": "doer"}  # "A beat B" / "B lost to A"
_OUTCOME_BACK = {"doer": "object", "other": "doer"}  # "B lost to A" / "A beat B"
_ORDER = {"doer": "object", "object": "doer"}  # "A preceded B" / "B followed A"
CONVERSES: dict[tuple[str, str], dict[str, str]] = {
    **{pair: _EXCHANGE for a, b in (("sell", "buy"), ("sell", "purchase"), ("sell", "acquire"), ("lend", "borrow"),
                                    ("give", "receive"), ("donate", "receive"), ("pay", "receive"))
       for pair in ((a, b), (b, a))},
    **{(a, b): _OUTCOME for a in ("beat", "defeat") for b in ("lose",)},
    **{(b, a): _OUTCOME_BACK for a in ("beat", "defeat") for b in ("lose",)},
    **{pair: _ORDER for pair in (("precede", "follow"), ("follow", "precede"))},
}
_OTHER = frozenset(["from", "to", "against", "by"])


def pair_converses(claim_doc: Parsed, passage_doc: Parsed, unmatched: list[Any], passage_units: list[Any],
                   used: dict[int, Any]) -> tuple[list[tuple[Any, Any]], list[Any]]:
    """Unmatched claim verbs paired with an unused passage word that is their converse (the nearest to the
    words matched); returns (those pairs, the units still unmatched). ``used`` is updated."""
    found, left = [], []
    for unit in unmatched:
        token = claim_doc.token_at(unit.start) if unit.kind == "word" else None
        options = [j for j, other in enumerate(passage_units) if j not in used and other.kind == "word"
                   and token is not None and token.pos_ == "VERB"
                   and (there := passage_doc.token_at(other.start)) is not None and there.pos_ == "VERB"
                   and (token.lemma_.lower(), there.lemma_.lower()) in CONVERSES]
        if not options:
            left.append(unit)
            continue
        nearest = min(options, key=lambda j: min((abs(passage_units[j].start - passage_units[k].start) for k in used),
                                                 default=0))
        used[nearest] = unit
        found.append((unit, passage_units[nearest]))
    return found, left


def crossed(claim_doc: Parsed, passage_doc: Parsed, converse: list[tuple[Any, Any]], pairs: list[tuple[Any, Any]],
            passage_units: list[Any], matches: Matches) -> tuple[list[tuple[Any, Any | None]], set[int]]:
    """(the converse pairs whose participants do not stand in the mapped roles, as (claim verb, None);
    the ids of the claim units a holding converse placed, whose sides word order need not read)."""
    units_at = {u.start: u for u in passage_units}
    wrong, placed = [], set()
    for verb_unit, passage_unit in converse:
        verb, there = claim_doc.token_at(verb_unit.start), passage_doc.token_at(passage_unit.start)
        mapping = CONVERSES[(verb.lemma_.lower(), there.lemma_.lower())]
        holds, seen = True, set()
        for role, theirs in mapping.items():
            claim_side = _role_units(claim_doc, verb, role, [u for u, _ in pairs])
            passage_side = _role_units(passage_doc, there, theirs, list(units_at.values()))
            for unit in claim_side:
                if unit.kind == "word" and claim_doc.token_at(unit.start).pos_ not in ("PROPN", "NOUN", "NUM"):
                    continue
                seen.add(id(unit))
                holds &= any(matches(unit, other) for other in passage_side)
            if claim_side:  # the whole phrase of a role that holds ("the Dunmarr family") is placed
                seen |= {id(u) for u in _role_units(claim_doc, verb, role, [u for u, _ in pairs], whole=True)}
        if holds and seen:
            placed |= seen
        else:
            wrong.append((verb_unit, None))
    return wrong, placed


def _role_units(doc: Parsed, verb: Any, role: str, units: list[Any], *, whole: bool = False) -> list[Any]:
    """The units (of ``units``) that fill ``role`` of ``verb``: each role's head with those joined to it;
    with ``whole``, every word of its phrase."""
    if role == "other":
        heads = [g for prep in verb.children if prep.dep_ in ("prep", "dative") and prep.lower_ in _OTHER
                 for g in prep.children if g.dep_ == "pobj"]
        indices = {t.i for g in heads for t in (g.subtree if whole else [g, *(c for c in g.children
                                                                            if c.dep_ in ("conj", "appos"))])}
    else:
        indices = fillers(verb, role, whole=whole)
    starts = {doc.start(verb.doc[i]) for i in indices}
    return [u for u in units if u.start in starts]
