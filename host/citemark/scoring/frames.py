"""Who fills each role of the claim's verbs in the passage: the relations the alignment checks.

The alignment (``align.py``) matches words one to one; these checks read the parse of both texts
and ask that the matched words stand in the same relations in the passage as in the claim:

- ``misbound``: the doer and the object of each claim verb hold their roles together in one
  occurrence of that verb ("A beat C. D beat B." does not state "A beat B"), read through the
  passive, conjunctions, appositions, relative clauses, pronouns (the last subject before them) and
  descriptions the page ties to one name ("the band": ``descriptions.py``);
- ``compared_the_other_way``: names and figures on the same side of a comparison's "than".

Units are the alignment's (``align.Unit``); ``matches`` tells whether a passage unit matches a
claim unit, so this module needs nothing from the alignment but its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from citemark.scoring import parse
from citemark.scoring.descriptions import DEFINITE, stands_for
from citemark.scoring.guards import name_forms
from citemark.scoring.segment import sentences

__all__ = ["Parsed", "misbound", "mixed_across", "reversed_around", "swapped_across"]

#: Whether a passage unit matches a claim unit (by identity, lemma, synonym or value).
Matches = Callable[[Any, Any], bool]
#: The words of a written name, as the alignment's name units are ("KR-2" → "kr", "2").
_NAME_WORD = re.compile(r"[^\W_]+", re.UNICODE)

#: How a dependency label places a word in its verb's frame: its doer, or what it acts on.
_ROLE = {"nsubj": "doer", "csubj": "doer", "nsubjpass": "object", "dobj": "object", "pobj": "object"}
_RELATIVE = frozenset(["who", "which", "that", "whom"])
#: Labels the parser gives a verb's subject when it misreads it (a name before a verb it takes for a noun's modifier).
_MISREAD_SUBJECT = frozenset(["amod", "compound", "npadvmod", "nmod", "dep"])
#: Labels that join participants into one role: "Armstrong and Aldrin", "Quinn, the coach".
_JOINED = frozenset(["conj", "appos"])


def _fillers(verb: Any, role: str, *, whole: bool = False) -> set[int]:
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
    if not heads and role == "doer" and not has_subject and verb.dep_ in ("xcomp", "advcl", "conj") and verb.head is not verb:
        return _fillers(verb.head, role, whole=whole)
    if not heads and role == "doer" and not has_subject:
        # a subject the small parser misreads as the verb's modifier ("Velde Civil funds …": "Civil" as amod)
        heads = [c for c in verb.children if c.i < verb.i and c.dep_ in _MISREAD_SUBJECT]
    found: set[int] = set()
    stack = list(heads)
    while stack:
        token = stack.pop()
        if token.i in found:
            continue
        found.add(token.i)
        stack += list(token.children) if whole else [c for c in token.children if c.dep_ in _JOINED]
    return found


class Parsed:
    """A text parsed sentence by sentence (a headline without a full stop must not become the subject
    of the sentence after it; ``whole``: as one, for a claim), each parse cached; tokens found by
    their offset in the text."""

    def __init__(self, text: str, *, whole: bool = False) -> None:
        spans = [(0, len(text))] if whole else [(span.start, span.end) for span in sentences(text)]
        self.docs = [(start, parse.parse(text[start:end])) for start, end in spans]
        self._offsets = {id(doc): start for start, doc in self.docs}
        self._at = {start + token.idx + k: token for start, doc in self.docs for token in doc
                    for k in range(max(1, len(token.text)))}

    def token_at(self, start: int) -> Any:
        return self._at.get(start)

    def start(self, token: Any) -> int:
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
        if matched_token is not None and matched_token.pos_ == "PROPN":
            # "manufactures" is not stated by the "Manufacturing" of "Hexwood Manufacturing"
            found[verb_unit.start] = (verb_unit, matched)
            continue
        roles = [(claim_unit, filler, role, _parts(verb, role, claim_unit, pairs)) for role in ("doer", "object")
                 for i in sorted(_fillers(verb, role))
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
        # a role the parser read in some occurrence of the verb is read in every one (a common word is
        # excused only where the passage's structure for the verb is not read at all)
        read = {role for role in ("doer", "object") for t in occurrences
                if any(units_at.get(passage_doc.start(t.doc[i])) for i in _fillers(t, role, whole=True))}
        best: list[tuple[Any, Any | None]] | None = None
        for occurrence in occurrences or [None]:
            failed = []
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
    for i in _fillers(verb, role, whole=True) - own:
        unit = next((c for c, _ in pairs if c.start <= verb.doc[i].idx < c.end), None)
        if unit is not None and unit is not head and _participant(unit) and all(unit is not f for f in found):
            found.append(unit)
    return found


def _clash(head: Any, parts: list[Any], filling: list[Any], matches: Matches) -> tuple[Any, Any] | None:
    """(claim part, passage participant) where the passage's phrase in a role gives a name or figure the
    claim's phrase does not, of the same kind as a claim part it lacks ("the higher dose, 300 mg" for "the
    lower, 150 mg dose"; "the Arc 5" for "the Arc 7"). A claim phrase that only says more ("Maren
    Tolliver's French translator" for "her French translator") clashes with nothing."""
    for part in parts:
        if any(matches(part, u) for u in filling):
            continue
        others = [u for u in filling if _participant(u) and u.kind == part.kind
                  and not any(matches(c, u) for c in [head, *parts])]
        if others:
            return part, others[0]
    return None


def _stands_alone(part: Any, pairs: list[tuple[Any, Any]], passage_doc: Parsed, occurrence: Any) -> bool:
    """A claim figure whose passage match stands for its noun in another sentence than ``occurrence``
    ("The second largest … holds about 300." after "… holds about 900 trucks."): the phrase of the
    other sentence is no rival to it."""
    matched = next((p for c, p in pairs if c is part), None)
    token = passage_doc.token_at(matched.start) if matched is not None else None
    return (token is not None and token.pos_ == "NUM" and token.dep_ not in ("nummod", "quantmod")
            and (token.doc is not occurrence.doc or token.sent.start != occurrence.sent.start))


def _own_clause(verb: Any) -> set[int]:
    """The words of a relative clause's own verb phrase, inside the phrase it qualifies ("the locks,
    *which raise boats … between Calvey and Merrow*"): not part of what that phrase names."""
    return {t.i for t in verb.subtree} if verb.dep_ == "relcl" else set()


def _filling(occurrence: Any, role: str, passage_doc: Parsed, units_at: dict[int, Any], *,
             outside: Any = None) -> list[Any]:
    """The passage units of the whole phrase in ``role`` of ``occurrence``; with ``outside``, not those of
    that verb's own clause (a relative clause of the phrase)."""
    own = _own_clause(outside) if outside is not None else set()
    return [u for i in _fillers(occurrence, role, whole=True) - own
            if (u := units_at.get(passage_doc.start(occurrence.doc[i]))) is not None]


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
    heads = [occurrence.doc[i] for i in _fillers(occurrence, role)]
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
        claim_names = {form for t in filler.subtree if t.pos_ == "PROPN" for w in _NAME_WORD.findall(t.lower_)
                       for form in name_forms(w)}
        stranger = any(u.kind == "name" and not name_forms(u.key) & claim_names for u in last)
        named_apart = any(name_forms(u.key) & claim_names and u not in last for u in names)
        if any(matches(claim_unit, u) for u in last) and not stranger and not named_apart:
            return False
    if named and not any(u.kind == "name" for u in filling) and any(
            any(c.dep_ == "det" and c.lower_ in DEFINITE for c in head.children)
            and stands_for(claim_unit.text, head.text, context) for head in heads):
        return False  # "The band rarely uses keyboards", on a page that calls The Amberlights "a folk-rock band"
    if not filling:
        return None if named or read else False
    return next((u for u in filling if u.kind == "name"), None)


def reversed_around(claim: str, passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any], matches: Matches,
                    claim_doc: Parsed | None = None, passage_doc: Parsed | None = None) -> list[tuple[Any, Any | None]]:
    """Two participants on the two sides of a word they share with the passage, the other way round there:
    "Tansey is older than Brackwell" against "Brackwell is older than Tansey", "Dransfield, not Bhalla,
    had been the favourite" against "Bhalla, not Dransfield, …", "Millbay will operate the journeys on
    Fairlop's behalf" against "Fairlop will operate the journeys on Millbay's behalf". Read by word
    order, in the claim's sentence and the passage around the shared word's sentence, so it holds where
    the parser misreads the sentence. Participants are names, figures and designators, and (with the
    parser) nouns ("tablets are more effective than a nasal spray"). A verb in the passive on one side
    only, or a "by" that names the doer of a noun ("the takeover of Tessel by Halbrook"), turns the
    order round by itself, and so does a verb said as a noun ("Jane Doe, the company's founder"):
    those words are not read."""
    found: list[tuple[Any, Any | None]] = []
    flagged: set[int] = set()
    for anchor, passage_anchor in pairs:
        if not _anchor(anchor, passage_anchor, claim_doc, passage_doc):
            continue
        claim_sentence = _sentence_of(claim, anchor.start)
        passage_sentence = _sentence_of(passage, passage_anchor.start)
        noun_anchor = claim_doc is not None and (token := claim_doc.token_at(anchor.start)) is not None and (
            token.pos_ == "NOUN")
        # each participant where the shared word's sentence names it once, else where the alignment matched it
        located = [(unit, _nearest(unit, matched, passage_units, passage_sentence, passage_anchor, matches))
                   for unit, matched in pairs]
        sides = [(unit, matched) for unit, matched in located if unit is not anchor and _side(unit, claim_doc)
                 and claim_sentence[0] <= unit.start < claim_sentence[1]
                 # "Voltcairn's parent company" is "the parent company of Voltcairn"
                 and not (noun_anchor and (_possessor(claim_doc, unit) or _possessor(passage_doc, matched)))]
        crossed_forward = [(u, m) for u, m in sides if u.start < anchor.start and m.start > passage_anchor.start]
        crossed_back = [(u, m) for u, m in sides if u.start > anchor.start and m.start < passage_anchor.start]
        for (first, first_match), (second, second_match) in ((f, b) for f in crossed_forward for b in crossed_back):
            inside = [passage_sentence[0] <= m.start < passage_sentence[1] for m in (first_match, second_match)]
            # one word twice ("the Court of Appeal … a High Court ruling") is matched across, not reversed; and a
            # noun is read in the shared word's sentence (a name may be the one named in the sentence before)
            if first.key == second.key or not any(inside) or (
                    not all(inside) and not (_participant(first) and _participant(second))):
                continue
            for unit, rival in ((first, second_match), (second, first_match)):
                if id(unit) not in flagged:
                    flagged.add(id(unit))
                    found.append((unit, rival))
    return found


#: Prepositions that put two participants in an order that matters ("converts TOML to YAML").
_ORDERING = frozenset(["to", "from", "into", "than", "by", "over", "against", "for", "versus", "vs"])
#: How many words apart two participants may stand for a preposition between them to relate them.
_NEAR = 6


def swapped_across(claim: str, passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                   matches: Matches, claim_doc: Parsed | None = None) -> list[tuple[Any, Any | None]]:
    """Two participants a preposition relates, the other way round in the passage with the same preposition
    between them: "converts TOML to YAML" against "converts YAML to TOML", "was acquired by Tessel" of
    Halbrook against Tessel "acquired by Halbrook". Read by word order, so it holds where the parser
    misreads the sentence."""
    found: list[tuple[Any, Any | None]] = []
    sides = [unit for unit, _ in pairs if _side(unit, claim_doc)]
    spans = [(span.start, span.end) for span in sentences(passage)]
    for first in sides:
        for second in sides:
            if first.start >= second.start or first.key == second.key or any(first is f for f, _ in found):
                continue
            between = _words(claim[first.end : second.start])
            ordering = between & _ORDERING
            if not ordering or len(between) > _NEAR or len(_sentences_of(claim, first, second)) > 1:
                continue
            for start, end in spans:
                firsts = [u for u in passage_units if start <= u.start < end and matches(first, u)]
                seconds = [u for u in passage_units if start <= u.start < end and matches(second, u)]
                kept = any(a.end <= b.start and len(_words(passage[a.end : b.start])) <= _NEAR
                           and _words(passage[a.end : b.start]) & ordering for a in firsts for b in seconds)
                turned = [(b, a) for a in firsts for b in seconds if b.end <= a.start
                          and len(_words(passage[b.end : a.start])) <= _NEAR
                          and _words(passage[b.end : a.start]) & ordering]
                if turned and not kept:
                    found.append((first, turned[0][0]))
                    break
    return found


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text)}


def _sentences_of(text: str, *units: Any) -> set[tuple[int, int]]:
    return {_sentence_of(text, u.start) for u in units}


#: Words that set two things side by side in one sentence: what stands after one is said of the other thing.
#: Not "rather than" (an alternative) nor "more than 250,000" (an amount).
_CONTRAST = re.compile(r"(?<!rather )\b(?:than(?!\s+(?:about\s+|around\s+)?[\d£$€])|against|whereas|while|unlike|"
                       r"compared (?:with|to))\b", re.IGNORECASE)
#: The share of the claim's matched units that the comparing sentence must hold to be the one that states it.
_STATING_SHARE = 2 / 3


def mixed_across(claim: str, passage: str, pairs: list[tuple[Any, Any]],
                 claim_doc: Parsed | None = None) -> list[tuple[Any, Any | None]]:
    """Participants of a claim that says no comparison, taken from both sides of one the passage makes:
    "Rainfall in the east is about 1,900 mm" is not stated by "Rainfall is heavier in the west, at about
    1,900 mm, than in the east"; "Cetrafen causes drowsiness in 1 in 30 people" is not stated by "Cetrafen
    causes drowsiness in 1 in 10 people, against 1 in 30 for Loratel". What stands after the comparing
    word is named (the claim's subject comes first on both sides)."""
    said = {word.lower() for word in re.findall(r"[A-Za-z]+", claim)}
    found: list[tuple[Any, Any | None]] = []
    for start, end in ((span.start, span.end) for span in sentences(passage)):
        for contrast in _CONTRAST.finditer(passage, start, end):
            if contrast.group(0).split()[0].lower() in said:
                continue  # the claim compares too ("more effective than"): reversed_around reads it
            if sum(start <= p.start < end for _, p in pairs) < _STATING_SHARE * len(pairs):
                continue  # the claim is stated mostly elsewhere ("Start using it 2 weeks before …")
            inside = [(c, p) for c, p in pairs if _side(c, claim_doc) and start <= p.start < end]
            before = [(c, p) for c, p in inside if p.start < contrast.start()]
            after = [(c, p) for c, p in inside if p.start >= contrast.end()]
            if before and after:
                found += [(c, next((p for d, p in before if d.kind == c.kind), None)) for c, _ in after
                          if all(c is not f for f, _ in found)]
    return found


#: Words that turn a relation round by themselves: a passive verb's agent, a noun's doer.
_VOICE = frozenset(["auxpass", "agent", "nsubjpass"])


def _anchor(anchor: Any, passage_anchor: Any, claim_doc: Parsed | None, passage_doc: Parsed | None) -> bool:
    """Whether a matched word may anchor the order of the participants around it: "than" or a negation
    always; with the parser, a verb, noun or adjective in the same part of speech and voice on both sides."""
    if anchor.text.lower() == "than" or anchor.kind == "negation":
        return True
    if anchor.kind != "word" or _participant(anchor) or claim_doc is None or passage_doc is None:
        return False
    token, other = claim_doc.token_at(anchor.start), passage_doc.token_at(passage_anchor.start)
    # the same word read in two parts of speech is the parser's doing ("converts" as a noun), not a rewording
    same_word = anchor.text.lower() == passage_anchor.text.lower()
    if token is None or other is None or (token.pos_ != other.pos_ and not same_word) or not (
            {token.pos_, other.pos_} & {"VERB", "NOUN", "ADJ"}):
        return False
    def voiced(t: Any) -> bool:
        return any(c.dep_ in _VOICE or c.dep_ == "prep" and c.lower_ == "by" for c in t.children)
    return not voiced(token) and not voiced(other)


def _nearest(unit: Any, matched: Any, passage_units: list[Any], sentence: tuple[int, int], anchor: Any,
             matches: Matches) -> Any:
    """The alignment's match where it lies in the shared word's ``sentence``; else the passage unit that says
    ``unit`` in that sentence nearest to the word ("Bhalla, not Dransfield, …" after "… the top seed, Arun
    Bhalla"); else the alignment's match."""
    if sentence[0] <= matched.start < sentence[1]:
        return matched
    said = [u for u in passage_units if sentence[0] <= u.start < sentence[1] and matches(unit, u)]
    return min(said, key=lambda u: abs(u.start - anchor.start)) if said else matched


def _possessor(doc: Parsed | None, unit: Any) -> bool:
    token = doc.token_at(unit.start) if doc is not None else None
    return token is not None and token.dep_ == "poss"


#: A year: when a thing happened, which a sentence may say anywhere ("In 2025, …" / "… in 2025").
_YEAR = re.compile(r"^(?:1[0-9]|20)\d\d$")


def _side(unit: Any, claim_doc: Parsed | None) -> bool:
    """A participant whose side of a shared word says who is who: a name, a figure but a year, a
    designator, or a noun."""
    if _participant(unit):
        return not _YEAR.match(unit.text)
    token = claim_doc.token_at(unit.start) if claim_doc is not None and unit.kind == "word" else None
    return token is not None and token.pos_ == "NOUN"


def _participant(unit: Any) -> bool:
    """A name, a figure, or a one- or two-letter designator ("Kessler-42 *c*", "Model *S*")."""
    return unit.kind in ("name", "figure") or unit.kind == "word" and len(unit.text) <= 2 and unit.text.isalnum()


def _sentence_of(text: str, at: int) -> tuple[int, int]:
    return next(((s.start, s.end) for s in sentences(text) if s.start <= at < s.end), (0, len(text)))


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
