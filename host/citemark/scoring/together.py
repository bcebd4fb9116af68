"""What the claim says together, the passage must say together: a word and the word it qualifies
matched in one sentence.

The alignment may match a claim's words across the quoted sentence and the sentences either side,
since a true claim often joins two of them ("Ravel, born in 1875, …"). But a claim whose words are
all on the page can still join what the page keeps apart:

- "The south wing is the newest part" against "The north wing … is the newest part …. The south
  wing … is the oldest": the subject in one sentence, what is said of it in another;
- "Lumen was the most downloaded app across all categories" against "… the most downloaded app in
  the graphics category. Across all categories it ranked fifth": a noun's modifier from another
  sentence.

``said_apart`` reads the claim's parse. For each clause it pairs the subject with what the clause
says of it (the verb, or after "be" its complement: "part" of "is the newest part", "display" of
"are on display"), and each noun with its adjectives, compounds, numbers and the objects of its
prepositions. Where both words of such a pair are matched in the passage, their matches must lie in
one sentence. A subject may be matched in another sentence only where the predicate's own sentence
names its subject by a pronoun or a bare description ("It ranked fifth", "The company employs
…"): that is how a page goes on about a thing it named before. A claim without a parse is not read.
"""

from __future__ import annotations

from typing import Any

from citemark.scoring.lexical import stem
from citemark.scoring.syntax import Token

__all__ = ["said_apart"]

_SUBJECTS = frozenset(["nsubj", "nsubjpass"])
#: The verbs that say nothing themselves: what a clause says of its subject is their complement.
_LINKS = frozenset(["be", "become", "remain"])
_COMPLEMENTS = frozenset(["attr", "acomp", "oprd"])
_CLAUSES = frozenset(["ROOT", "ccomp", "advcl", "relcl", "conj"])
#: What qualifies a noun within its phrase.
_QUALIFIERS = frozenset(["amod", "compound", "nummod", "poss", "prep", "nmod", "npadvmod"])
_CONTENT = frozenset(["NOUN", "PROPN", "ADJ", "NUM", "VERB"])


def said_apart(claim_doc: Any, passage_doc: Any, passage: str, pairs: list[tuple[Any, Any]],
               passage_units: list[Any], spans: list[tuple[int, int]]) -> list[tuple[Any, None]]:
    """Claim units matched in another sentence than the word they go with (no rival to name: the
    passage says the word, of something else)."""
    matched = {}
    for unit, other in pairs:
        token = claim_doc.token_at(unit.start)
        if token is not None:
            matched[id(token)] = (unit, other)
    claimed = {stem(t.text.lower()) for _, doc in claim_doc.docs for t in doc}
    found: list[tuple[Any, None]] = []
    for _, doc in claim_doc.docs:
        for token in doc:
            for partner, subject in _partners(token):
                if id(token) not in matched or id(partner) not in matched:
                    continue
                (unit, other), (_, partner_other) = matched[id(token)], matched[id(partner)]
                if _sentence(other.start, spans) == _sentence(partner_other.start, spans) or \
                        _in_table(passage, other.start) or _in_table(passage, partner_other.start):
                    continue  # a table's row and its column heading are two lines of one statement
                if not subject:  # the passage may say a word in several places: a sentence that has both will do
                    if _sentences(other, passage_units, spans) & _sentences(partner_other, passage_units, spans) or \
                            _about(passage_doc.token_at(partner_other.start), claimed):  # "The crossing takes …"
                        continue
                elif any(_about(_subject_at(passage_doc, said.start), claimed) for said in passage_units
                         if said.key == partner_other.key):
                    continue
                if all(unit is not done for done, _ in found):
                    found.append((unit, None))
    return found


def _partners(token: Token) -> list[tuple[Token, bool]]:
    """The words ``token`` goes with, each flagged when ``token`` is their clause's subject."""
    found = []
    if token.dep_ in _SUBJECTS and (said := _said_of(token.head)) is not None:
        found.append((said, True))
    if token.dep_ == "amod" and token.pos_ == "ADJ" and token.head is not token:
        found.append((token.head, False))  # "the south wing"
    if token.dep_ == "pobj" and token.head.dep_ == "prep" and token.head.lower_ != "of" and \
            token.head.head.pos_ in ("NOUN", "PROPN"):
        found.append((token.head.head, False))  # "app across all categories"
    return found


def _said_of(verb: Token) -> Token | None:
    """What a clause says of its subject: the verb, or after "be" its complement ("part" of "is the
    newest part", "display" of "are on permanent display")."""
    if verb.lemma_.lower() not in _LINKS:
        return verb if verb.pos_ == "VERB" else None
    for child in verb.children:
        if child.dep_ in _COMPLEMENTS:
            return child
    for child in verb.children:
        if child.dep_ == "prep":
            return next((c for c in child.children if c.dep_ == "pobj"), None)
    return None


def _about(subject: Token | None, claimed: set[str]) -> bool:
    """Whether a clause's subject may stand for the claim's: the page goes on about what it named, by a
    pronoun or a bare description ("It ranked fifth", "The band rarely uses …"), or in words the claim
    has ("the first two loads"). No subject to read is no reason to object."""
    if subject is None:
        return True
    phrase = _phrase(subject)
    return phrase <= claimed or len(phrase) == 1 and subject.pos_ == "NOUN"


def _subject_at(passage_doc: Any, start: int) -> Token | None:
    """The subject of the passage's clause at ``start`` (None: none to read)."""
    token = passage_doc.token_at(start)
    if token is None:
        return None
    while token.dep_ not in _CLAUSES and token.head is not token:
        token = token.head
    return next((c for c in token.children if c.dep_ in _SUBJECTS), None)


def _phrase(noun: Token) -> set[str]:
    """The stems of a noun phrase's content words: the noun and what qualifies it (adjectives,
    compounds, numbers, possessors, prepositional phrases), not its relative clauses or appositions.
    A pronoun has none."""
    words = {noun} if noun.pos_ != "PRON" else set()
    for child in noun.children:
        if child.dep_ in _QUALIFIERS:
            words.update(child.subtree)
    return {stem(t.text.lower()) for t in words if t.pos_ in _CONTENT}


def _sentences(unit: Any, passage_units: list[Any], spans: list[tuple[int, int]]) -> set[int]:
    """The passage sentences that have a unit like ``unit`` (by its key)."""
    return {k for other in passage_units if other.key == unit.key for k, (a, b) in enumerate(spans) if a <= other.start < b}


def _sentence(start: int, spans: list[tuple[int, int]]) -> int | None:
    return next((k for k, (a, b) in enumerate(spans) if a <= start < b), None)


def _in_table(passage: str, start: int) -> bool:
    line = passage[passage.rfind("\n", 0, start) + 1 :]
    return line.lstrip().startswith("|")
