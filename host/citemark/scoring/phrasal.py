"""Phrasal verbs: "turned down" is "rejected", "set up" is "founded", "stepped down" is "resigned".

A verb with its particle says what one other verb says, and the alignment, which compares
word by word, finds neither "turned" nor "down" in "rejected". Here an unmatched claim verb
with a particle (read by the parser: the particle is the verb's ``prt``) may be matched by an
unused passage verb that ``PHRASAL`` lists for it, and an unmatched claim verb by a passage
verb whose particle makes it one that ``PHRASAL`` lists. The particle goes with its verb.

The list is written from general English usage, one sense per entry, and only senses that
state the same event: "take over" is "acquire" (a company) and "assume" (a post), never
"buy" in general. Opposites stay apart ("turn down" is not "accept"); the relation checks
then read the matched verb's roles as for any other match.
"""

from __future__ import annotations

from typing import Any

from citemark.scoring.frames import Parsed

__all__ = ["PHRASAL", "pair_phrasal"]

#: (verb lemma, particle) → the one-word verbs (lemmas) that say the same.
PHRASAL: dict[tuple[str, str], frozenset[str]] = {
    (verb, particle): frozenset(words.split()) for (verb, particle), words in {
        ("turn", "down"): "reject decline refuse", ("set", "up"): "found establish create start",
        ("step", "down"): "resign", ("give", "up"): "surrender abandon quit", ("take", "over"): "acquire assume",
        ("carry", "out"): "conduct perform", ("find", "out"): "discover learn", ("put", "off"): "postpone delay",
        ("call", "off"): "cancel", ("bring", "out"): "publish release", ("come", "out"): "appear",
        ("make", "up"): "comprise constitute form", ("take", "out"): "remove", ("use", "up"): "exhaust consume",
        ("roll", "out"): "deploy launch introduce", ("look", "into"): "investigate examine", ("point", "out"): "note",
        ("leave", "out"): "omit exclude", ("hand", "over"): "transfer surrender", ("pull", "out"): "withdraw",
        ("back", "out"): "withdraw", ("drop", "out"): "withdraw quit", ("shut", "down"): "close",
        ("close", "down"): "close", ("sign", "up"): "register enrol enroll", ("pay", "back"): "repay refund",
        ("carry", "on"): "continue", ("keep", "on"): "continue", ("bring", "in"): "introduce",
        ("phase", "out"): "discontinue", ("lay", "off"): "dismiss", ("buy", "out"): "acquire",
        ("take", "on"): "hire employ assume", ("speed", "up"): "accelerate", ("rule", "out"): "exclude",
        ("stay", "on"): "remain", ("hand", "in"): "submit", ("fill", "in"): "substitute", ("stand", "in"): "substitute",
        ("pass", "away"): "die", ("break", "up"): "disband", ("set", "out"): "describe state", ("put", "up"): "raise",
        ("cut", "back"): "reduce", ("scale", "back"): "reduce", ("cut", "down"): "reduce", ("go", "up"): "rise",
        ("go", "down"): "fall", ("turn", "up"): "arrive appear", ("come", "back"): "return", ("go", "back"): "return",
        ("give", "back"): "return", ("hold", "up"): "delay", ("break", "out"): "erupt", ("look", "after"): "care",
        ("put", "out"): "extinguish", ("wipe", "out"): "destroy eliminate", ("kick", "off"): "begin start",
        ("wind", "up"): "end close", ("walk", "out"): "strike", ("throw", "out"): "dismiss reject",
        ("write", "off"): "cancel", ("sell", "off"): "sell", ("take", "off"): "depart", ("set", "off"): "depart leave",
        ("run", "out"): "expire", ("die", "out"): "vanish", ("come", "up"): "arise", ("bring", "up"): "raise",
        ("take", "up"): "accept", ("go", "on"): "continue",
    }.items()
}
_PARTICLES = frozenset(particle for _, particle in PHRASAL)
#: A one-word verb → the phrasal verbs that say it.
_SAYS: dict[str, frozenset[tuple[str, str]]] = {
    word: frozenset(phrase for phrase, words in PHRASAL.items() if word in words)
    for word in frozenset().union(*PHRASAL.values())}


def _phrase(token: Any) -> tuple[tuple[str, str], Any] | None:
    """(verb lemma, particle) and the particle token, for a verb the parser gives a particle."""
    # the small parser reads an intransitive verb's particle as an adverb ("stepped down in May")
    particle = next((c for c in token.children if c.dep_ == "prt" or c.dep_ == "advmod" and c.i == token.i + 1
                     and c.text.lower() in _PARTICLES), None)
    return ((token.lemma_.lower(), particle.text.lower()), particle) if particle is not None else None


def pair_phrasal(claim_doc: Parsed, passage_doc: Parsed, unmatched: list[Any], passage_units: list[Any],
                 used: dict[int, Any]) -> tuple[list[tuple[Any, Any]], list[Any]]:
    """Unmatched claim verbs paired with an unused passage verb that says the same through ``PHRASAL`` (the
    nearest to the words matched), their particles with them; returns (those pairs, the units still
    unmatched). ``used`` is updated."""
    found: list[tuple[Any, Any]] = []
    particles: set[int] = set()
    for unit in unmatched:
        token = claim_doc.token_at(unit.start) if unit.kind == "word" else None
        if token is None or token.pos_ != "VERB":
            continue
        own = _phrase(token)
        lemma = token.lemma_.lower()
        options = []
        for j, other in enumerate(passage_units):
            there = passage_doc.token_at(other.start) if j not in used and other.kind == "word" else None
            if there is None or there.pos_ != "VERB":
                continue
            theirs = _phrase(there)
            if own is not None and there.lemma_.lower() in PHRASAL.get(own[0], ()) or (
                    theirs is not None and theirs[0] in _SAYS.get(lemma, ())):
                options.append(j)
        if not options:
            continue
        nearest = min(options, key=lambda j: min((abs(passage_units[j].start - passage_units[k].start) for k in used),
                                                 default=0))
        used[nearest] = unit
        found.append((unit, passage_units[nearest]))
        if own is not None:
            particles.add(claim_doc.start(own[1]))
    matched = {id(unit) for unit, _ in found}
    return found, [u for u in unmatched if id(u) not in matched and u.start not in particles]
