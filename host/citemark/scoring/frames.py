"""Who fills each role of the claim's verbs in the passage: the relations the alignment checks.

The alignment (``align.py``) matches words one to one; these checks read the parse of both texts
and ask that the matched words stand in the same relations in the passage as in the claim:

- ``misbound``: the doer and the object of each claim verb hold their roles together in one
  occurrence of that verb ("A beat C. D beat B." does not state "A beat B"), read through the
  passive, conjunctions, appositions, relative clauses, pronouns (the last subject before them) and
  descriptions the page ties to one name ("the band": ``descriptions.py``);
- and the whole phrase in each role gives no other name or figure than the claim's ("the higher
  dose, 300 mg" for "the lower, 150 mg dose"); "have", which the alignment skips, binds its doer
  to what it has; a measure a verb takes ("lasted 36 hours") is its object.

What word order alone shows (who stands on which side of a shared word) is ``order.py``.

Units are the alignment's (``align.Unit``); ``matches`` tells whether a passage unit matches a
claim unit, so this module needs nothing from the alignment but its words.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from citemark.scoring import parse
from citemark.scoring.descriptions import DEFINITE, described_as, stands_for
from citemark.scoring.guards import name_forms, name_spans
from citemark.scoring.order import Matches, participant
from citemark.scoring.segment import sentences
from citemark.scoring.syntax import Doc, Token

__all__ = ["Parsed", "fillers", "misbound", "parsed"]

#: The words of a written name, as the alignment's name units are ("KR-2" → "kr", "2").
_NAME_WORD = re.compile(r"[^\W_]+", re.UNICODE)

#: How a dependency label places a word in its verb's frame: its doer, or what it acts on.
_ROLE = {"nsubj": "doer", "csubj": "doer", "nsubjpass": "object", "dobj": "object", "pobj": "object"}
_RELATIVE = frozenset(["who", "which", "that", "whom"])
#: Labels the parser gives a verb's subject when it misreads it (a name before a verb it takes for a noun's modifier).
_MISREAD_SUBJECT = frozenset(["amod", "compound", "npadvmod", "nmod", "dep"])
#: Labels that join participants into one role: "Armstrong and Aldrin", "Quinn, the coach".
_JOINED = frozenset(["conj", "appos"])


def fillers(verb: Any, role: str, *, whole: bool = False) -> set[int]:
    """Token indices of whoever fills ``role`` of ``verb``: its subject (or the agent of a passive)
    as the doer, its direct object (or a passive's subject) as the object, through relative
    pronouns and the subject a "to" verb or a second verb shares with the first. Each filler's
    head with the participants joined to it ("Armstrong and Aldrin", "Quinn, the coach"); with
    ``whole``, every word of its phrase ("the deposit of £1,800")."""
    heads = []
    for child in verb.children:
        if child.dep_ == "agent":
            heads += [g for g in child.children if g.dep_ == "pobj" and role == "doer"]
        elif _ROLE.get(child.dep_) == role and child.dep_ != "pobj":
            heads.append(verb.head if child.lower_ in _RELATIVE and verb.dep_ == "relcl" else child)
        elif role == "object" and child.dep_ == "npadvmod" and any(c.dep_ == "nummod" for c in child.children):
            heads.append(child)  # a measure the verb takes: "lasted 36 hours" (the parser's npadvmod)
    has_subject = any(c.dep_ in ("nsubj", "nsubjpass", "csubj") for c in verb.children)
    # a verb sharing the subject of the verb it joins: its doer, or what a passive acts on ("It sold modestly but
    # *was adapted* for television": "It" was adapted)
    if not heads and not has_subject and verb.dep_ in ("xcomp", "advcl", "conj") and verb.head is not verb and (
            role == ("object" if _passive(verb) else "doer")):
        # "ordered Ashcroft Mills to pay": a "to" verb after an object is done by that object
        controlled = verb.dep_ == "xcomp" and any(c.dep_ == "dobj" for c in verb.head.children)
        return fillers(verb.head, "object" if _passive(verb.head) or controlled else "doer", whole=whole)
    # and a verb after a preposition of the verb ("infringed the copyright *by copying* parts": who copied)
    if not heads and not has_subject and verb.dep_ == "pcomp" and verb.head.dep_ == "prep" and \
            verb.head.head.pos_ in ("VERB", "AUX") and role == ("object" if _passive(verb) else "doer"):
        return fillers(verb.head.head, "object" if _passive(verb.head.head) else "doer", whole=whole)
    if not heads and role == ("object" if _passive(verb) else "doer") and not has_subject:
        # a subject the small parser misreads as the verb's modifier ("Velde Civil funds …": "Civil" as amod),
        # or hangs on a phrase before it ("Of the 212 people on board the Calder, *38* were rescued": "38" as an
        # apposition of "Calder"): the noun or figure just before the verb's auxiliaries
        heads = [c for c in verb.children if c.i < verb.i and c.dep_ in _MISREAD_SUBJECT] or _just_before(verb)
    found: set[int] = set()
    stack = list(heads)
    while stack:
        token = stack.pop()
        if token.i in found:
            continue
        found.add(token.i)
        stack += list(token.children) if whole else [c for c in token.children if c.dep_ in _JOINED]
    return found


def _just_before(verb: Any) -> list[Any]:
    """The noun, name or figure just before a verb's auxiliaries ("38 *were* rescued"), where the verb has some."""
    auxiliaries = [c for c in verb.children if c.dep_ in ("aux", "auxpass") and c.i < verb.i]
    if not auxiliaries:
        return []
    first = min(c.i for c in auxiliaries)
    before = verb.doc[first - 1] if first > 0 else None
    return [before] if before is not None and before.pos_ in ("NOUN", "PROPN", "NUM") else []


def _passive(verb: Any) -> bool:
    return any(c.dep_ in ("auxpass", "nsubjpass") for c in verb.children)


def parsed(text: str, *, whole: bool = False) -> Parsed | None:
    """``text`` parsed sentence by sentence (a headline without a full stop must not become the subject
    of the sentence after it; ``whole``: as one, for a claim), each parse cached; None where the parser
    gave no parse of a part (it is not installed, or it failed on the way)."""
    spans = [(0, len(text))] if whole else [(span.start, span.end) for span in sentences(text)]
    docs = []
    for start, end in spans:
        doc = parse.parse(text[start:end])
        if doc is None:
            return None
        docs.append((start, doc))
    return Parsed(docs)


class Parsed:
    """A text's parses, each with the offset where its part of the text starts; tokens found by their
    offset in the text."""

    def __init__(self, docs: list[tuple[int, Doc]]) -> None:
        self.docs = docs
        self._offsets = {id(doc): start for start, doc in self.docs}
        self._at = {start + token.idx + k: token for start, doc in self.docs for token in doc
                    for k in range(max(1, len(token.text)))}

    def token_at(self, start: int) -> Token | None:
        return self._at.get(start)

    def start(self, token: Token) -> int:
        return self._offsets[id(token.doc)] + token.idx


def misbound(claim_doc: Parsed, passage_doc: Parsed, pairs: list[tuple[Any, Any]], passage: list[Any],
             matches: Matches, context: str = "") -> list[tuple[Any, Any | None]]:
    """Matched claim words the passage does not give the claim's role: the claim's doer and object of a
    verb must hold their roles together in one occurrence of the verb in the passage ("A beat C. D beat
    B." does not state "A beat B"). A name must be confirmed so, by its own name or by a pronoun whose
    nearest name before it is that name, or by a description the page ties to that name alone (``context``:
    "the band" for The Amberlights); a common word raises nothing where the passage's structure for that
    verb is not read (no filler)."""
    units_at = {u.start: u for u in passage}
    names = [u for u in passage if u.kind == "name"]
    found: dict[int, tuple[Any, Any | None]] = {}
    # a name the small parser reads as a verb ("to Bray" as an infinitive) is no verb
    verbs = [(verb, verb_unit, matched) for verb_unit, matched in pairs if verb_unit.kind == "word"
             and (verb := claim_doc.token_at(verb_unit.start)) is not None and verb.pos_ == "VERB"]
    verbs += [(verb, None, None) for _, doc in claim_doc.docs for verb in doc if _carrier(verb)]
    for verb, verb_unit, matched in verbs:
        matched_token = passage_doc.token_at(matched.start) if matched is not None else None
        if matched_token is not None and matched.kind == "name" and _in_compound_name(matched_token):
            # "manufactures" is not stated by the "Manufacturing" of "Hexwood Manufacturing"
            found[verb_unit.start] = (verb_unit, matched)
            continue
        roles = [(claim_unit, filler, role, _parts(verb, role, claim_unit, pairs)) for role in ("doer", "object")
                 for i in sorted(fillers(verb, role))
                 if (claim_unit := _claim_unit(filler := verb.doc[i], pairs)) is not None
                 and (filler.pos_ in ("PROPN", "NOUN", "NUM") or claim_unit.kind == "name")]
        if not roles:
            continue
        # the verb's occurrences: the passage words it matches, and the one it was paired with (a paraphrase);
        # for "have" and "be", which the alignment skips, each main-verb "have" or "be" of the passage
        occurrences = [t for t in (passage_doc.token_at(u.start) for u in passage
                                   if u is matched or verb_unit is not None and matches(verb_unit, u))
                       if t is not None] if verb_unit is not None else [
            t for _, doc in passage_doc.docs for t in doc if _carrier(t) and any(
                matches(claim_unit, u) for claim_unit, _, role, _ in roles
                for u in _filling(t, role, passage_doc, units_at))]
        if verb_unit is None and not occurrences:
            continue  # no "have" of the passage shares a participant with the claim's: nothing to compare
        # an occurrence far from what the claim hangs on the verb is another statement of it: "Route 14 is run
        # commercially. Route 14A is run under contract to …" does not run Route 14 under contract
        if hung := _hung_on(verb, claim_doc, passage_doc, pairs):
            occurrences = [t for t in occurrences if id(t.doc) in hung] or occurrences
        # a role the parser read in some occurrence of the verb is read in every one (a common word is
        # excused only where the passage's structure for the verb is not read at all)
        read = {role for role in ("doer", "object") for t in occurrences
                if any(units_at.get(passage_doc.start(t.doc[i])) for i in fillers(t, role, whole=True))}
        held = _held_by(verb, pairs, passage_doc, occurrences)
        best: list[tuple[Any, Any | None]] | None = None
        for occurrence in occurrences or [None]:
            # a name or figure under the claim verb's preposition that another occurrence holds ("Version 4.0 was
            # released on 3 March 2024, replacing version 3.2, which had been released *in 2021*")
            failed = [(unit, None) for unit, holder in held if occurrence is not None and holder is not occurrence]
            for claim_unit, filler, role, parts in roles:
                rival = _unconfirmed(claim_unit, filler, occurrence, role, role in read, passage_doc, units_at, names,
                                     matches, context)
                if rival is not False:
                    failed.append((claim_unit, rival))
                elif occurrence is not None and (clash := _clash(
                        claim_unit, [p for p in parts if not _stands_alone(p, pairs, passage_doc, occurrence)],
                        _filling(occurrence, role, passage_doc, units_at, outside=occurrence), matches)) is not None:
                    failed.append(clash)  # the role's phrase gives another figure or name than the claim's
            if best is None or len(failed) < len(best):
                best = failed
        for claim_unit, rival in best or []:
            found.setdefault(claim_unit.start, (claim_unit, rival if rival is not None and not isinstance(rival, bool) else None))
    return list(found.values())


def _held_by(verb: Any, pairs: list[tuple[Any, Any]], passage_doc: Parsed, occurrences: list[Any]) -> list[tuple[Any, Any]]:
    """(claim unit, the occurrence of the verb that holds it) for each name or figure the claim hangs on its
    verb by a preposition ("released in 2021") whose match the passage hangs on one of the verb's occurrences."""
    found = []
    for preposition in (c for c in verb.children if c.dep_ == "prep"):
        for word in (g for g in preposition.children if g.dep_ == "pobj"):
            unit = _claim_unit(word, pairs)
            matched = next((p for c, p in pairs if c is unit), None)
            token = passage_doc.token_at(matched.start) if matched is not None and unit.kind in ("name", "figure") else None
            while token is not None and all(token is not o for o in occurrences) and token.head is not token:
                token = token.head
            if token is not None and any(token is o for o in occurrences):
                found.append((unit, token))
    return found


def _in_compound_name(token: Any) -> bool:
    """A word of a name of several words ("Manufacturing" of "Hexwood Manufacturing"), not a capitalised
    word that opens a sentence or a table's cell ("Built of pale brick", "| Weight with battery |")."""
    return token.pos_ == "PROPN" and (any(c.dep_ == "compound" and c.pos_ == "PROPN" for c in token.children)
                                      or token.dep_ == "compound" and token.head.pos_ == "PROPN")


def _carrier(token: Any) -> bool:
    """A main-verb "have" with a subject of its own: a verb the alignment skips that still binds a doer to
    what it has ("Saint-Aubrac has 9 hotels"). Not "be", whose complement no role reads."""
    return token.lemma_ == "have" and token.dep_ not in ("aux", "auxpass") and any(
        c.dep_ in ("nsubj", "nsubjpass") for c in token.children)


def _parts(verb: Any, role: str, head: Any, pairs: list[tuple[Any, Any]]) -> list[Any]:
    """The names, figures and designators of a role's whole phrase other than its head ("150 mg" of
    "Patients on the lower, 150 mg dose"): the passage's phrase in that role must not give others."""
    found = []
    own = _own_clause(verb)
    for i in fillers(verb, role, whole=True) - own:
        unit = next((c for c, _ in pairs if c.start <= verb.doc[i].idx < c.end), None)
        if unit is not None and unit is not head and participant(unit) and all(unit is not f for f in found):
            found.append(unit)
    return found


def _clash(head: Any, parts: list[Any], filling: list[Any], matches: Matches) -> tuple[Any, Any] | None:
    """(claim part, passage participant) where the passage's phrase in a role gives a name or figure the
    claim's phrase does not, of the same kind as a claim part it lacks ("the higher dose, 300 mg" for "the
    lower, 150 mg dose"; "the Arc 5" for "the Arc 7"; "route 14A" for "route 14"). A claim phrase that only says more ("Maren
    Tolliver's French translator" for "her French translator") clashes with nothing."""
    for part in parts:
        if any(matches(part, u) for u in filling):
            continue
        others = [u for u in filling if participant(u) and _numbered(u) == _numbered(part)
                  and not any(matches(c, u) for c in [head, *parts])]
        if others:
            return part, others[0]
    return None


def _numbered(unit: Any) -> str:
    """A unit's kind, a name that opens with a digit ("14A") counted with the figures ("14"): "route 14A"
    is the other of "route 14"."""
    return "figure" if unit.kind == "name" and unit.text[:1].isdigit() else unit.kind


def _stands_alone(part: Any, pairs: list[tuple[Any, Any]], passage_doc: Parsed, occurrence: Any) -> bool:
    """A claim figure whose passage match stands for its noun in another sentence than ``occurrence``
    ("The second largest … holds about 300." after "… holds about 900 trucks."): the phrase of the
    other sentence is no rival to it."""
    matched = next((p for c, p in pairs if c is part), None)
    token = passage_doc.token_at(matched.start) if matched is not None else None
    return (token is not None and token.pos_ == "NUM" and token.dep_ not in ("nummod", "quantmod")
            and (token.doc is not occurrence.doc or token.sentence_start != occurrence.sentence_start))


def _own_clause(verb: Any) -> set[int]:
    """The words of a relative clause's own verb phrase, inside the phrase it qualifies ("the locks,
    *which raise boats … between Calvey and Merrow*"): not part of what that phrase names."""
    return {t.i for t in verb.subtree} if verb.dep_ == "relcl" else set()


def _filling(occurrence: Any, role: str, passage_doc: Parsed, units_at: dict[int, Any], *,
             outside: Any = None) -> list[Any]:
    """The passage units of the whole phrase in ``role`` of ``occurrence``; with ``outside``, not those of
    that verb's own clause (a relative clause of the phrase)."""
    own = _own_clause(outside) if outside is not None else set()
    return [u for i in fillers(occurrence, role, whole=True) - own
            if (u := units_at.get(passage_doc.start(occurrence.doc[i]))) is not None]


#: The dependents a claim hangs on its verb besides its doer and object: how, where, to whom, as what.
_HUNG = frozenset(["prep", "advmod", "npadvmod", "oprd", "acomp", "dative"])


def _hung_on(verb: Any, claim_doc: Parsed, passage_doc: Parsed, pairs: list[tuple[Any, Any]]) -> set[int]:
    """The passage sentences (their parses' ids) that give the words the claim hangs on ``verb`` besides its
    doer and object ("under contract to Tarnshire County Council"): empty where it hangs none."""
    taken = fillers(verb, "doer", whole=True) | fillers(verb, "object", whole=True)
    matched_at = {claim.start: passage for claim, passage in pairs if claim.kind in ("word", "name", "figure")}
    found = set()
    for child in verb.children:
        if child.dep_ not in _HUNG:
            continue
        for token in child.subtree:
            passage = matched_at.get(claim_doc.start(token)) if token.i not in taken else None
            if passage is not None and (said := passage_doc.token_at(passage.start)) is not None:
                found.add(id(said.doc))
    return found


def _claim_unit(token: Any, pairs: list[tuple[Any, Any]]) -> Any | None:
    """The matched claim unit a role's head word stands in; for a unit word ("%" of "90%"), its figure."""
    for at in [token.idx, *(child.idx for child in token.children if child.dep_ == "nummod")]:
        found = next((c for c, _ in pairs if c.start <= at < c.end), None)
        if found is not None:
            return found
    return None


def _unconfirmed(claim_unit: Any, filler: Any, occurrence: Any, role: str, read: bool, passage_doc: Parsed,
                 units_at: dict[int, Any], names: list[Any], matches: Matches, context: str = "") -> Any | None | bool:
    """False when ``occurrence`` (a passage token of the claim's verb; None: the verb is not there) gives
    ``claim_unit`` its ``role``, or the role is read in no occurrence (``read``); else the passage name in
    the role (or None)."""
    named = filler.pos_ == "PROPN" or claim_unit.kind == "name"
    if occurrence is None:
        return None if named else False
    heads = [occurrence.doc[i] for i in fillers(occurrence, role)]
    filling = _filling(occurrence, role, passage_doc, units_at)
    if any(matches(claim_unit, u) for u in filling):
        return False  # a name's role must be confirmed in the passage, not merely not contradicted
    pronouns = [token for token in heads if token.lower_ in _PERSONAL]  # not "Who makes it": a question names nobody
    if pronouns and (named or filler.pos_ == "NOUN"):
        # "It was completed in 1889": a pronoun stands for the last subject before it (its sentence's
        # subject phrase: "The new enzyme, SLW-7, was …"; for a name, the last one named so), or for
        # the page's subject
        at = passage_doc.start(pronouns[0])
        subjects = [(passage_doc.start(subject), u) for u in (names if named else units_at.values()) if u.start < at
                    and (subject := _subject_of(passage_doc.token_at(u.start))) is not None]
        last = [u for subject, u in subjects if subject == subjects[-1][0]] if subjects else []
        if named:
            if not last or any(matches(claim_unit, u) for u in last):
                return False
            return last[0]
        # "It will not carry a railway" after "The crossing will carry …": the claim's noun is the last
        # subject, which names no one the claim's phrase does not, and the claim's names are not found
        # outside it ("The enzyme, SLW-7, …" does not stand for "the KR-2 enzyme" named later)
        claim_names = _name_forms_of(filler)
        stranger = any(u.kind == "name" and not name_forms(u.key) & claim_names for u in last)
        named_apart = any(name_forms(u.key) & claim_names and u not in last for u in names)
        if any(matches(claim_unit, u) for u in last) and not stranger and not named_apart:
            return False
    if not named and filler.pos_ == "NOUN" and _elided_for(claim_unit, heads, passage_doc, units_at, matches):
        return False  # "Both were detected …" after "The inner planet … The outer planet": "both planets"
    if not named and filler.pos_ == "NOUN" and _titled(claim_unit, filling, passage_doc, units_at, names, matches):
        return False  # "Rowe took over …" after "Chief executive Priyanka Rowe" states "the chief executive took over"
    if named and not any(u.kind == "name" for u in filling) and any(
            any(c.dep_ == "det" and c.lower_ in DEFINITE for c in head.children)
            and stands_for(claim_unit.text, head.text, context) for head in heads):
        return False  # "The band rarely uses keyboards", on a page that calls The Amberlights "a folk-rock band"
    if named and not any(u.kind == "name" for u in filling) and any(
            _opens_after(head, claim_unit, filler, passage_doc, names, matches) for head in heads):
        return False  # "Her breakthrough came with Winter Orchard. The novel … has sold" states "Winter Orchard has sold"
    if named and _short_form(filler, filling, context):
        return False  # "Calder was ordered to pay", on a page that names Calder Freight and no other Calder
    if not filling:
        return None if named or read else False
    return next((u for u in filling if u.kind == "name"), None)


def _titled(claim_unit: Any, filling: list[Any], passage_doc: Parsed, units_at: dict[int, Any], names: list[Any],
            matches: Matches) -> bool:
    """Whether a name in the role is given the claim's noun where the passage names it: as its title
    ("Chief executive Priyanka Rowe"), or in apposition ("his daughter, Fiona Marchbank", "his father Otto")."""
    for name in (u for u in filling if u.kind == "name"):
        for said in names:
            if not name_forms(said.key) & name_forms(name.key) or (token := passage_doc.token_at(said.start)) is None:
                continue
            if any((unit := units_at.get(passage_doc.start(noun))) is not None and matches(claim_unit, unit)
                   for noun in described_as(token)):
                return True
    return False


#: Words that stand for a noun the sentence leaves out ("Both were detected", "need one every three years").
_ELIDED = frozenset(["one", "ones", "both", "each", "all", "either", "neither"])


def _elided_for(claim_unit: Any, heads: list[Any], passage_doc: Parsed, units_at: dict[int, Any],
                matches: Matches) -> bool:
    """Whether a role's head is a word standing for a left-out noun, and the claim's noun is a noun the
    passage says before it, in its sentence or the one before ("The outer planet … Both were detected")."""
    for head in heads:
        if head.lower_ not in _ELIDED or any(c.dep_ in ("pobj", "prep", "compound") or c.pos_ in ("NOUN", "PROPN")
                                             for c in head.children):
            continue
        at = passage_doc.start(head)
        sentence = _doc_index(passage_doc, at)
        nearby = [u for u in units_at.values() if u.start < at and (token := passage_doc.token_at(u.start)) is not None
                  and token.pos_ == "NOUN" and sentence - 1 <= _doc_index(passage_doc, u.start) <= sentence]
        if any(matches(claim_unit, u) for u in nearby):
            return True
    return False


def _doc_index(parsed: Parsed, at: int) -> int:
    return next((k for k, (start, doc) in enumerate(parsed.docs) if start <= at < start + len(doc.text)), -1)


def _short_form(filler: Any, filling: list[Any], context: str) -> bool:
    """Whether the role's names are a short form of the claim's name ("Calder" for "Calder Freight"): each
    is a word of the claim's name, the page names the whole of it, and no other name of the page holds that
    word ("Calder Logistics" too would leave "Calder" unread)."""
    claim_name = [t.text for t in filler.subtree if t.pos_ == "PROPN"]
    words = _spellings(" ".join(claim_name))
    shorts = [u for u in filling if u.kind == "name"]
    if len(claim_name) < 2 or not shorts or not all(name_forms(u.key) & words for u in shorts):
        return False
    named = _page_names(context)
    return words in named and not any(name_forms(u.key) & other and not other <= words
                                      for u in shorts for other in named)


@functools.lru_cache(maxsize=64)
def _page_names(context: str) -> tuple[frozenset[str], ...]:
    """Each name of the page as its words' spellings (read once per page: every role of every claim asks)."""
    return tuple(_spellings(part) for name, _, _ in name_spans(context) for part in name.split(". "))


def _spellings(name: str) -> frozenset[str]:
    """The spellings of a name's words, without a possessive's "s" or a company's legal form ("Ltd")."""
    return frozenset(form for word in _NAME_WORD.findall(name.lower()) if word not in _NOT_NAME_WORDS
                     for form in name_forms(word))


#: Words of a name that do not tell its bearer apart: a possessive's "s", a legal form.
_NOT_NAME_WORDS = frozenset(["s", "the", "ltd", "plc", "inc", "llc", "llp", "gmbh", "ag", "sa", "co", "corp", "limited"])


def _opens_after(head: Any, claim_unit: Any, filler: Any, passage_doc: Parsed, names: list[Any], matches: Matches) -> bool:
    """A definite description that opens its sentence ("The novel, about two brothers, … has sold") right
    after a sentence whose names are all the claim's own name ("Her breakthrough came with Winter Orchard in
    2003."): it can stand for no one else. A sentence that names anyone else leaves it unread."""
    if head.pos_ != "NOUN" or head.left_edge.i != 0 or not any(
            c.dep_ == "det" and c.lower_ in DEFINITE for c in head.children):
        return False
    starts = [start for start, _ in passage_doc.docs]
    here = passage_doc.start(head) - head.idx  # where the description's sentence starts
    at = starts.index(here)
    if at == 0:
        return False
    before = [u for u in names if starts[at - 1] <= u.start < here]
    claim_names = _name_forms_of(filler)
    return any(matches(claim_unit, u) for u in before) and all(name_forms(u.key) & claim_names for u in before)


def _name_forms_of(filler: Any) -> set[str]:
    """The spellings of the name words of a claim role's phrase ("Winter Orchard")."""
    return {form for t in filler.subtree if t.pos_ == "PROPN" for w in _NAME_WORD.findall(t.lower_)
            for form in name_forms(w)}


#: Pronouns that stand for a participant named before them.
_PERSONAL = frozenset(["it", "he", "she", "they", "we", "i", "its", "his", "her", "their", "our"])


def _subject_of(token: Any) -> Any:
    """The subject token whose phrase holds a passage token ("SLW-7" of "The new enzyme, SLW-7, was"), if any."""
    while token is not None:
        if token.dep_ in ("nsubj", "nsubjpass"):
            return token
        if token.head.i == token.i or token.dep_ not in ("compound", "appos", "amod", "conj", "cc", "poss", "det", "nmod",
                                                         "punct", "nummod"):
            return None
        token = token.head
    return None
