"""What the claim says together, the passage must say together: a word and the word it qualifies
matched in one sentence.

The alignment may match a claim's words across the quoted sentence and the sentences either side,
since a true claim often joins two of them ("Ravel, born in 1875, …"). But a claim whose words are
all on the page can still join what the page keeps apart:

- "The south wing is the newest part" against "The north wing … is the newest part …. The south
  wing … is the oldest": the subject in one sentence, what is said of it in another;
- "The Tolland library is the busiest in the country" against "… the busiest in the county. Only two
  branches in the country lend more books": a superlative's scope from another sentence;
- "Trains will not call at Marston" against "Trains will not call at Brindle Halt. … Services will still
  call at Marston": a negation from one sentence, the place from another.

``said_apart`` reads the claim's parse and joins the words that must be said together: a subject
and what its clause says of it (the verb, or after "be" its complement: "part" of "is the newest
part"), a verb and its object and its negation, a noun and its adjectives, compounds, possessor,
number, relative clause and prepositional phrases (an adjective's too: "largest in the country"), a
verb and a name under its preposition ("call at Marston"), and a figure and the word it is of
("leaves at 6 pm"). Each group of joined words must be read in one passage sentence, a common word
or a name wherever the passage says it, a figure or a negation where it was matched; a group no
sentence holds names its odd word out. A pair the passage gives in two sentences is not joined where
the page goes on about the same thing: a pronoun or a definite description as the predicate's subject
("It ranked fifth", "The band rarely uses …"), a noun's own sentence that names no other place under
the claim's preposition ("The crossing takes 40 minutes"), an object given by a pronoun, a figure
whose noun is elided ("The second largest holds about 300."). A claim without a parse is not read.
"""

from __future__ import annotations

import re
from typing import Any

from citemark.scoring.descriptions import described_as
from citemark.scoring.lexical import stem
from citemark.scoring.quantities import parse_quantities
from citemark.scoring.syntax import Token

__all__ = ["said_apart"]

_SUBJECTS = frozenset(["nsubj", "nsubjpass"])
#: The verbs that say nothing themselves: what a clause says of its subject is their complement.
_LINKS = frozenset(["be", "become", "remain"])
_COMPLEMENTS = frozenset(["attr", "acomp", "oprd"])
_CAUSATIVES = frozenset(["have", "get"])
_RELATIVES = frozenset(["who", "which", "that", "whom"])
_CLAUSES = frozenset(["ROOT", "ccomp", "advcl", "relcl", "conj"])
#: What qualifies a noun within its phrase.
_QUALIFIERS = frozenset(["amod", "compound", "nummod", "poss", "prep", "nmod", "npadvmod"])
_CONTENT = frozenset(["NOUN", "PROPN", "ADJ", "NUM", "VERB"])
#: What a noun phrase says besides itself: appositions, clauses, and what a conjunction adds.
_ASIDES = frozenset(["appos", "relcl", "acl", "advcl", "punct", "cc", "conj", "parataxis"])
#: The words a prepositional phrase must stand beside: a noun or an adjective ("largest in the region"). Not a
#: verb: "In the trial, …" sets a scene the next sentences stay in (a figure is read on its own: below).
_HOLDERS = frozenset(["NOUN", "PROPN", "ADJ"])
_CLOCK = frozenset(["am", "pm", "a.m.", "p.m."])  # the unit of a time of day, which figures leave out
_DEFINITE = frozenset(["the", "this", "that", "these", "those", "its", "their", "his", "her"])
#: Determiners that say how many of a noun's things: said of that noun, in its sentence ("most, but not all, Python
#: releases … . All Python licenses …" does not state "All Python releases").
_QUANTIFIERS = frozenset(["all", "every", "each", "no", "most", "some", "both", "few", "many", "several", "any",
                          "either", "neither"])
#: Verbs of saying: what is said is said by the one the claim names ("X said …" with "Y disagreed, saying …").
_SAYING = frozenset(["say", "tell", "warn", "caution", "argue", "claim", "state", "add", "insist", "note", "write",
                     "announce", "deny", "admit", "suggest", "predict", "estimate", "believe", "think", "explain"])
#: Adverbs that place a statement in time or add to it, which a page says in another sentence freely.
_LOOSE_ADVERBS = frozenset(["also", "still", "now", "only", "already", "just", "even", "then", "later", "currently",
                            "again", "too", "first", "once"])


def said_apart(claim_doc: Any, passage_doc: Any, passage: str, pairs: list[tuple[Any, Any]],
               passage_units: list[Any], spans: list[tuple[int, int]]) -> list[tuple[Any, None]]:
    """Claim units matched in another sentence than the words they go with (no rival to name: the
    passage says the word, of something else). A semicolon parts two statements as a full stop does
    ("The men's winner receives €40,000 plus a €25,000 bonus; the women's winner receives €40,000")."""
    spans = _clauses(passage, spans)
    matched: dict[int, tuple[Any, Any]] = {}
    for unit, other in pairs:  # each word of a unit stands for it ("am" of "9 am")
        for _, doc in claim_doc.docs:
            for token in doc:
                if unit.start <= claim_doc.start(token) < unit.end:
                    matched[id(token)] = (unit, other)
    match_of = {id(unit): other for unit, other in pairs}
    claimed = {stem(t.text.lower()) for _, doc in claim_doc.docs for t in doc}
    # and the words of the passage figures the claim's figures match ("an average high of 22°C" for "72°F")
    claimed |= {stem(token.text.lower()) for unit, other in pairs if unit.kind == "figure"
                for at in range(other.start, other.end) if (token := passage_doc.token_at(at)) is not None}
    together = _Groups()
    read_with: dict[int, set[int]] = {}  # a subject's statements beyond its own: where the passage goes on about it
    for _, doc in claim_doc.docs:
        for token in doc:
            for partner, subject in _partners(token) + _figure_holder(token, matched):
                if id(token) not in matched or id(partner) not in matched:
                    continue
                (unit, other), (partner_unit, partner_other) = matched[id(token)], matched[id(partner)]
                if unit is partner_unit or partner_unit.kind == "figure" and token.dep_ == "pobj" or \
                        _row_and_heading(passage, other.start, partner_other.start):
                    continue  # "two years of treatment" is a time; a table's row and its heading are one statement
                # a subject is read, with the rest of its group, in each statement of its predicate whose own
                # subject stands for it ("It will not carry a railway" after "The crossing will carry …"), not in
                # one whose subject is another ("…, replacing version 3.2, which had been released in 2021")
                if _in_table(passage, other.start) and _in_table(passage, partner_other.start):
                    pass  # two rows of a table: each is read as it stands, no page around to go on about it
                elif subject:
                    subjects = [(_sentence(said.start, spans), there) for said in passage_units
                                if said.key == partner_other.key and not _in_table(passage, said.start) and _stands_for(
                                    there := _subject_at(passage_doc, said.start), token, claimed, passage_doc)]
                    if any(there is None or not _phrase(token) & _phrase(there) for _, there in subjects):
                        continue  # a pronoun or a description stands for the whole of the claim's subject
                    # the subject in all its words or a short form of them ("a starter portion" for "a starter portion
                    # of the lentil soup"): its name or title ("Calloway Park", "chief executive") is read there; the
                    # rest of what qualifies it ("at Gorse Point") stands with it by its own pairs
                    for word in [token, *(c for c in token.children if c.dep_ in ("compound", "amod"))]:
                        if id(word) in matched:
                            read_with.setdefault(id(matched[id(word)][0]), set()).update(k for k, _ in subjects)
                elif _sentence(other.start, spans) != _sentence(partner_other.start, spans) and _excused(
                        token, partner, other, partner_other, passage_doc, passage_units, claimed):
                    continue  # a word the passage qualifies may be apart where the page goes on about it
                together.join(unit, partner_unit)
    found: list[tuple[Any, None]] = []
    for group in together.groups():
        # each word may be read where the passage says it (a common word or a name may stand in several
        # places); a figure or a negation where it was matched
        where = {id(u): _sentences(u, match_of[id(u)], passage, passage_units, spans) | read_with.get(id(u), set())
                 for u in group}
        if set.intersection(*where.values()):
            continue
        culprit = next((u for u in sorted(group, key=lambda u: (_blame(u), -u.start)) if set.intersection(
            *(where[id(v)] for v in group if v is not u))), None)
        if culprit is not None:
            odd = [culprit]
        else:  # the sentence that holds most of the group; the rest is said apart from it
            best = max(set.union(*where.values()), key=lambda k: sum(k in where[id(u)] for u in group))
            odd = [u for u in group if best not in where[id(u)]]
        found += [(u, None) for u in odd if all(u is not d for d, _ in found)]
    return found


def _stands_for(subject: Token | None, claim_subject: Token, claimed: set[str], passage_doc: Any) -> bool:
    """Whether a passage clause's subject stands for the claim's: the same words or fewer of them
    ("Brandt" for "Brandt Glassworks"), a pronoun, a description (``_about``), or a name the passage
    gives the claim's title ("Rowe" for "the chief executive")."""
    return _about(subject, claimed, claim_subject) or _titled(subject, claim_subject, passage_doc)


def _excused(token: Token, partner: Token, other: Any, partner_other: Any, passage_doc: Any,
             passage_units: list[Any], claimed: set[str]) -> bool:
    """Whether a pair the passage gives in two sentences is still said together: a noun's own sentence
    goes on about it ("The crossing takes …") and names no other place under the claim's preposition (a
    numbered name sets the scene where it is said last before), or a figure's noun is elided in the
    figure's sentence ("The second largest holds about 300."), or the verb's sentence gives its object
    by a pronoun ("given it a rating"). How many of a noun's things is said of it where it is said,
    unless the passage's quantifier stands for the noun ("Both were detected")."""
    if token.lower_ in _QUANTIFIERS:
        said = passage_doc.token_at(other.start)
        return said is not None and said.dep_ not in ("det", "predet", "amod")
    if partner.pos_ == "NOUN" and token.pos_ == "NUM" and _stands_alone(passage_doc.token_at(other.start)):
        return True
    if token.dep_ == "dobj":  # "had visited the month before and given it a rating": the object by a pronoun
        return any(t.dep_ in ("dobj", "dative") and t.pos_ == "PRON" for said in passage_units
                   if said.key == partner_other.key and (verb := passage_doc.token_at(said.start)) is not None
                   for t in verb.doc if t.sentence_start == verb.sentence_start)
    if token.dep_ == "pobj" and token.pos_ == "PROPN" and any(c.dep_ == "nummod" for c in token.children):
        # a numbered name sets the scene where it is said last before what happens in it: "Kubernetes 1.5 introduces
        # … . OpenAPI also appears …" is not set in the "Kubernetes 1.7" of a later sentence
        before = [u for u in passage_units if u.key == other.key and u.start < partner_other.start]
        if not before or before[-1] is not other:
            return False
    if partner.pos_ == "VERB" and token.dep_ == "pobj" and token.pos_ == "PROPN":
        # "In Paris … completed in 1889": the page sets the scene in a sentence of its own, unless a clause of
        # the verb names another place under the claim's preposition ("will not call at Brindle Halt")
        verbs = [v for u in passage_units if u.key == partner_other.key and (v := passage_doc.token_at(u.start))]
        return not any(_rival_in(verb, token.head.lower_, claimed) for verb in verbs)
    head = passage_doc.token_at(partner_other.start)
    if token.dep_ == "poss" and head is not None:  # "The club's only league title" for "Harlow Athletic's"
        owner = next((c for c in head.children if c.dep_ == "poss"), None)
        if owner is not None and (owner.pos_ == "PRON" or _about(owner, claimed, token)):
            return True
    return head is not None and head.pos_ in ("NOUN", "PROPN") and _about(head, claimed, partner) and \
        not _rival_under(head, token, claimed)


def _blame(unit: Any) -> int:
    """Which unit of a group said apart to name first: a figure, a name, a negation or a quantifier, then a
    word (and of two, the later: a qualifier follows what it qualifies)."""
    return 2 if unit.text.lower() in _QUANTIFIERS else {"figure": 0, "name": 1, "negation": 2}.get(unit.kind, 3)


class _Groups:
    """Units joined two by two into groups that must be said in one sentence (a union-find by identity)."""

    def __init__(self) -> None:
        self._parent: dict[int, int] = {}
        self._units: dict[int, Any] = {}

    def _root(self, key: int) -> int:
        while self._parent[key] != key:
            key = self._parent[key]
        return key

    def join(self, a: Any, b: Any) -> None:
        for unit in (a, b):
            self._parent.setdefault(id(unit), id(unit))
            self._units[id(unit)] = unit
        self._parent[self._root(id(a))] = self._root(id(b))

    def groups(self) -> list[list[Any]]:
        found: dict[int, list[Any]] = {}
        for key, unit in self._units.items():
            found.setdefault(self._root(key), []).append(unit)
        return [sorted(group, key=lambda u: u.start) for group in found.values()]


def _partners(token: Token) -> list[tuple[Token, bool]]:
    """The words ``token`` goes with, each flagged when ``token`` is their clause's subject."""
    found = []
    head = token.head
    if head is token:
        return found
    if token.dep_ in _SUBJECTS and (said := _said_of(head)) is not None:
        found.append((said, True))
    if token.dep_ == "amod" and token.pos_ == "ADJ" or token.dep_ == "nummod" and token.pos_ == "NUM" or \
            token.dep_ in ("poss", "compound", "nmod") and token.pos_ in ("NOUN", "PROPN", "ADJ") or \
            token.dep_ in ("det", "predet", "amod") and token.lower_ in _QUANTIFIERS:
        # "the south wing", "24 novels", "the league's top scorer", "the east stand", "all Python releases"
        found.append((head, False))
    if token.dep_ == "advmod" and token.pos_ == "ADV" and head.pos_ == "VERB" and token.lower_ not in _LOOSE_ADVERBS:
        found.append((head, False))  # "tested overall"
    if token.dep_ == "pobj" and head.dep_ == "prep" and (
            head.head.pos_ in _HOLDERS or token.pos_ == "PROPN" and head.head.pos_ == "VERB"):
        found.append((head.head, False))  # "app across all categories", "largest in the country", "call at Marston"
    elif token.dep_ == "pobj" and head.dep_ == "prep" and (hung := _object_before(head)) is not None:
        found.append((hung, False))  # "had 27 reactors under construction": the parser's guess hangs it on "had"
    if token.dep_ == "ccomp" and token.pos_ in ("VERB", "AUX") and head.lemma_.lower() in _SAYING:
        found.append((head, False))  # "Harcourt said the council has left drivers …": who said it, with what
    if token.dep_ in ("neg", "dobj", "relcl") or token.dep_ == "npadvmod" and head.pos_ == "ADP":
        # "will not call", "upheld … claim", "the first release that will support", "12 days after booking"
        found.append((head, False))
    return found


def _object_before(preposition: Token) -> Token | None:
    """The verb's object that a preposition hung on the verb follows at once ("had 27 reactors *under*
    construction"): whether the phrase qualifies the verb or its object is the parser's guess."""
    verb = preposition.head
    if verb.pos_ != "VERB":
        return None
    return next((c for c in verb.children if c.dep_ == "dobj" and c.i < preposition.i
                 and max(t.i for t in c.subtree) == preposition.i - 1), None)


def _figure_holder(token: Token, matched: dict[int, tuple[Any, Any]]) -> list[tuple[Token, bool]]:
    """For a claim figure, the nearest word above it that the passage matched: what the figure is of
    ("leaves at 6 pm": "leaves", past its unit "pm" and the unmatched "at")."""
    own = matched.get(id(token))
    if own is None or own[0].kind != "figure":
        return []
    figures = [(q.start, q.end) for q in parse_quantities(token.doc.text) if q.start <= token.idx < q.end]
    holder = token.head
    while holder.head is not holder and (id(holder) not in matched or matched[id(holder)][0] is own[0] or
                                         any(start <= holder.idx < end for start, end in figures) or
                                         holder.lower_ in _CLOCK):
        holder = holder.head  # past the figure's own unit ("pm" of "6 pm") and the words the passage did not match
    held = matched.get(id(holder))
    return [(holder, False)] if held is not None and held[0] is not own[0] else []


def _said_of(verb: Token) -> Token | None:
    """What a clause says of its subject: the verb, or after "be" its complement ("part" of "is the
    newest part", "display" of "are on permanent display")."""
    if verb.lemma_.lower() in _CAUSATIVES:  # "had its railings replaced": "replaced"
        return next((c for c in verb.children if c.dep_ in ("ccomp", "xcomp") and c.pos_ == "VERB"), verb)
    if verb.lemma_.lower() not in _LINKS:
        return verb if verb.pos_ == "VERB" else None
    for child in verb.children:
        if child.dep_ in _COMPLEMENTS:
            return child
    for child in verb.children:
        if child.dep_ == "prep":
            return next((c for c in child.children if c.dep_ == "pobj"), None)
    return None


def _about(subject: Token | None, claimed: set[str], claim_word: Token) -> bool:
    """Whether a passage clause's subject (or a passage noun) may stand for the claim's ``claim_word``:
    the page goes on about what it named, by a pronoun, in words the claim has ("the first two loads",
    "Brandt" for "Brandt Glassworks"), or by a definite description: of a name, any ("The band rarely
    uses …" for "The Amberlights"); of a common noun, the same noun ("The crossing takes …"). No subject
    to read is no reason to object."""
    if subject is None:
        return True
    phrase = _phrase(subject)
    if phrase <= claimed and (not phrase or phrase & _phrase(claim_word)):
        return True  # a pronoun, or words of the claim's own noun ("the annual rent" stands for no "deposit")
    definite = any(c.dep_ in ("det", "poss") and c.lower_ in _DEFINITE for c in subject.children)
    return len(phrase) == 1 and subject.pos_ == "NOUN" and definite and (
        claim_word.pos_ == "PROPN" or stem(subject.lower_) == stem(claim_word.lower_))


def _titled(subject: Token | None, claim_word: Token, passage_doc: Any) -> bool:
    """Whether a passage subject's name is given the claim's noun where the passage names it: "Rowe took
    over" after "Chief executive Priyanka Rowe" for "the chief executive took over"."""
    if subject is None or subject.pos_ != "PROPN" or claim_word.pos_ != "NOUN":
        return False
    return any(stem(noun.lower_) == stem(claim_word.lower_) for _, doc in passage_doc.docs for token in doc
               if token.lower_ == subject.lower_ for noun in described_as(token))


def _stands_alone(figure: Token | None) -> bool:
    """Whether a passage figure counts no noun of its own sentence ("holds about 300.")."""
    return figure is not None and figure.pos_ == "NUM" and figure.dep_ not in ("nummod", "quantmod", "compound")


def _rival_under(head: Token | None, claim_object: Token, claimed: set[str]) -> bool:
    """Whether the passage names another place, thing or figure under the preposition that holds
    ``claim_object`` in the claim, on ``head`` or on the verb it belongs to ("at Colby Weir the level has
    fallen" for "the level at Brennan Bridge")."""
    if head is None or claim_object.dep_ != "pobj":
        return False
    return _rival_in(head.head, claim_object.head.lower_, claimed)


def _rival_in(verb: Token, preposition: str, claimed: set[str]) -> bool:
    """Whether ``verb``'s own clause names a place, thing or figure the claim does not under ``preposition``."""
    clause = [t for t in verb.subtree if _verb_of(t) is verb]  # nested clauses left out
    return any(t.dep_ == "prep" and t.lower_ == preposition and any(
        c.dep_ == "pobj" and c.pos_ in ("PROPN", "NUM") and not _phrase(c) <= claimed for c in t.children)
        for t in clause)


def _verb_of(token: Token) -> Token:
    """The nearest verb above ``token`` (or the root)."""
    token = token.head
    while token.pos_ not in ("VERB", "AUX") and token.head is not token:
        token = token.head
    return token


def _subject_at(passage_doc: Any, start: int) -> Token | None:
    """The subject of the passage's clause at ``start`` (None: none to read)."""
    token = passage_doc.token_at(start)
    if token is None:
        return None
    while token.dep_ not in _CLAUSES and token.head is not token:
        token = token.head
    subject = next((c for c in token.children if c.dep_ in _SUBJECTS), None)
    if subject is not None and token.dep_ == "relcl" and subject.lower_ in _RELATIVES:
        return token.head  # "her brother, Alan, who founded …": Alan
    if subject is None and token.dep_ == "conj":  # "The soup serves four and is ready …": the first verb's
        return _subject_at(passage_doc, passage_doc.start(token.head))
    return subject


def _phrase(noun: Token) -> set[str]:
    """The stems of a noun phrase's content words: the noun and what qualifies it (adjectives,
    compounds, numbers, possessors, prepositional phrases), not its relative clauses or appositions.
    A pronoun has none."""
    words = {noun} if noun.pos_ != "PRON" else set()
    qualifiers = [c for c in noun.children if c.dep_ in _QUALIFIERS]
    while qualifiers:  # all that hangs on them, but no apposition or clause ("the 1889 World's Fair, the Exposition")
        word = qualifiers.pop()
        words.add(word)
        qualifiers += [c for c in word.children if c.dep_ not in _ASIDES]
    return {stem(t.text.lower()) for t in words if t.pos_ in _CONTENT}


def _sentences(unit: Any, other: Any, passage: str, passage_units: list[Any], spans: list[tuple[int, int]]) -> set[int]:
    """The passage statements where ``unit`` may be read: where its match ``other`` stands, and, for a
    word or a name, where the passage says it again (by its key); a quantifier not where a negation
    turns it ("most, but not all, Python releases")."""
    alike = [u for u in passage_units if u.key == other.key or other.lemma and u.lemma == other.lemma
             ] if unit.kind in ("word", "name") else []
    if other.text.lower() in _QUANTIFIERS:
        alike = [u for u in alike if not _NEGATED_BEFORE.search(passage, 0, u.start)]
    return {k for u in [other, *alike] for k, (a, b) in enumerate(spans) if a <= u.start < b}


#: A negation just before a word: "not all", "never every".
_NEGATED_BEFORE = re.compile(r"\b(?:not|never|n['’]t)\s*$", re.IGNORECASE)


#: Where a sentence's statements part: a semicolon, and a concession after a comma (to the statement's end):
#: "The earliest slot is usually 5 days after booking, although the wait can reach 12 days".
_PARTING = re.compile(r";|,\s+(?=(?:although|though|whereas)\b)", re.IGNORECASE)


def _clauses(passage: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The passage's statements: each sentence cut where its statements part."""
    found: list[tuple[int, int]] = []
    for start, end in spans:
        cuts = [start, *(start + m.end() for m in _PARTING.finditer(passage[start:end])), end]
        found += [(a, b) for a, b in zip(cuts, cuts[1:]) if a < b]
    return found


def _sentence(start: int, spans: list[tuple[int, int]]) -> int | None:
    return next((k for k, (a, b) in enumerate(spans) if a <= start < b), None)


def _in_table(passage: str, start: int) -> bool:
    return _line_start(passage, start) is not None


def _line_start(passage: str, start: int) -> int | None:
    """Where the table row holding ``start`` begins; None outside a table."""
    begin = passage.rfind("\n", 0, start) + 1
    return begin if passage[begin:].lstrip().startswith("|") else None


def _row_and_heading(passage: str, a: int, b: int) -> bool:
    """Whether two places are a table's row and one of its headings (its first row, or a row over a
    "|---|" rule), which say one statement. Two other rows are two statements: "| Reactors under
    construction | 2 |" and "| Reactors shut down | 27 |" do not say 27 under construction."""
    rows = (_line_start(passage, a), _line_start(passage, b))
    if None in rows or rows[0] == rows[1]:
        return False
    first = min(rows)
    while first > 0 and (before := _line_start(passage, first - 1)) is not None:
        first = before
    return any(row == first or (end := passage.find("\n", row)) >= 0 and _RULE.match(passage, end + 1) for row in rows)


#: The rule under a table's heading row: "|---|---|".
_RULE = re.compile(r"\s*\|\s*:?-{3,}")
