"""Who is who by word order: the participants of a claim on the sides the passage gives them.

The relation checks (``frames.py``) read the parse; a small parser misreads many sentences
("converts" as a noun, "to Bray" as a verb). These checks read word order around what the claim
and the passage share, so they hold where the parse does not:

- ``reversed_around``: two participants on the two sides of a word the claim and the passage
  share, the other way round in the passage ("Bhalla, not Dransfield" for "Dransfield, not
  Bhalla"; "Brackwell is older than Tansey" for the other way round);
- ``swapped_across``: the same preposition between two participants, the other way round
  ("converts YAML to TOML" for "converts TOML to YAML");
- ``mixed_across``: a claim that compares nothing, taking its parts from both sides of a
  comparison the passage makes ("1 in 10 people, against 1 in 30 for Loratel");
- ``figure_of_another``: a claim figure that the clauses naming the claim's names (with the clauses
  after them that name no one) do not give, where they give another of its kind ("the Benn 188 km"
  for "The Benn is 312 km long");
- ``owned_by_another``: a claim figure that the passage gives as another name's own ("18,000
  residents to Saint-Aubrac's 6,500" does not give Lisseval 6,500);
- ``changed_end``: a claim figure the passage gives at the other end of a change ("fell to £10"
  for "fell from £10 to £8", "rose by 3%" for "rose to 3%");
- ``equated_apart`` (with the parser): a name the claim equates with a noun by "be", which the
  passage gives in another clause than that noun while naming someone else beside the noun.

A participant is a name, a figure, a one- or two-letter designator, or (with the parser) a noun.
Units are the alignment's; ``matches`` tells whether a passage unit says a claim unit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from citemark.scoring.guards import name_forms
from citemark.scoring.segment import sentences

__all__ = ["changed_end", "clause_of", "equated_apart", "figure_of_another", "listed_otherwise", "mixed_across", "owned_by_another", "participant", "reversed_around",
           "swapped_across"]

#: Whether a passage unit says a claim unit (by identity, lemma, synonym or value).
Matches = Callable[[Any, Any], bool]


def reversed_around(claim: str, passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any], matches: Matches,
                    claim_doc: Any = None, passage_doc: Any = None) -> list[tuple[Any, Any | None]]:
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
        token = claim_doc.token_at(anchor.start) if claim_doc is not None else None
        noun_anchor = token is not None and token.pos_ == "NOUN"
        # each participant where the shared word's sentence names it once, else where the alignment matched it
        located = [(unit, _nearest(unit, matched, passage_units, passage_sentence, passage_anchor, matches))
                   for unit, matched in pairs]
        sides = [(unit, matched) for unit, matched in located if unit is not anchor and _side(unit, claim_doc)
                 and claim_sentence[0] <= unit.start < claim_sentence[1]
                 # "Voltcairn's parent company" is "the parent company of Voltcairn"
                 and not (noun_anchor and (_possessor(claim_doc, unit) or _possessor(passage_doc, matched)))]
        # "Corvalis's takeover of Bartosz & Wren" for "Bartosz & Wren's takeover of Corvalis"
        owners = _other_owner(anchor, passage_anchor, pairs, claim_doc, passage_doc, matches) if noun_anchor else None
        if owners is not None and id(owners[0]) not in flagged:
            flagged.add(id(owners[0]))
            found.append(owners)
        if token is not None and token.pos_ in ("NOUN", "ADJ") and \
                _verb_voiced(token) != _verb_voiced(passage_doc.token_at(passage_anchor.start)):
            continue  # a noun's or adjective's order turns with its verb's voice: "Frost found the ring" / "The ring
            # was found by Frost", "the top seed, Solvang, was beaten by Marcoux" / "Marcoux beating the top seed"
        crossed_forward = [(u, m) for u, m in sides if u.start < anchor.start and m.start > passage_anchor.start]
        crossed_back = [(u, m) for u, m in sides if u.start > anchor.start and m.start < passage_anchor.start]
        for (first, first_match), (second, second_match) in ((f, b) for f in crossed_forward for b in crossed_back):
            inside = [passage_sentence[0] <= m.start < passage_sentence[1] for m in (first_match, second_match)]
            # one word twice ("the Court of Appeal … a High Court ruling") is matched across, not reversed; and a
            # noun is read in the shared word's sentence (a name may be the one named in the sentence before)
            if first.key == second.key or not any(inside) or (
                    not all(inside) and not (participant(first) and participant(second))):
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
                   matches: Matches, claim_doc: Any = None) -> list[tuple[Any, Any | None]]:
    """Two participants a preposition relates, the other way round in the passage with the same preposition
    between them: "converts TOML to YAML" against "converts YAML to TOML", "was acquired by Tessel" of
    Halbrook against Tessel "acquired by Halbrook". Read by word order, so it holds where the parser
    misreads the sentence."""
    found: list[tuple[Any, Any | None]] = []
    sides = [unit for unit, _ in pairs if _side(unit, claim_doc)]
    for first in sides:
        for second in sides:
            if first.start >= second.start or first.key == second.key or any(first is f for f, _ in found):
                continue
            between = _words(claim[first.end : second.start])
            ordering = between & _ORDERING
            if not ordering or len(between) > _NEAR or _sentence_of(claim, first.start) != _sentence_of(
                    claim, second.start):
                continue
            for start, end in _spans(passage):
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


#: Words that set two things side by side in one sentence: what stands after one is said of the other thing.
#: Not "rather than" (an alternative) nor "more than 250,000" (an amount).
_CONTRAST = re.compile(r"(?<!rather )\b(?:than(?!\s+(?:about\s+|around\s+)?[\d£$€])|against|whereas|while|unlike|"
                       r"compared (?:with|to))\b", re.IGNORECASE)
#: The share of the claim's matched units that the comparing sentence must hold to be the one that states it.
_STATING_SHARE = 2 / 3


def mixed_across(claim: str, passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                 claim_doc: Any = None) -> list[tuple[Any, Any | None]]:
    """Participants of a claim that says no comparison, taken from both sides of one the passage makes:
    "Rainfall in the east is about 1,900 mm" is not stated by "Rainfall is heavier in the west, at about
    1,900 mm, than in the east"; "Cetrafen causes drowsiness in 1 in 30 people" is not stated by "Cetrafen
    causes drowsiness in 1 in 10 people, against 1 in 30 for Loratel". What stands after the comparing
    word is named (the claim's subject comes first on both sides). A word or a name matched in another
    sentence is read where the comparing sentence says it, if all it says of it stands on one side ("7% of
    patients on lorvatide" against "7% … on pemorizine …, compared with 3% on lorvatide")."""
    said = _words(claim)
    found: list[tuple[Any, Any | None]] = []
    for start, end in _spans(passage):
        for contrast in _CONTRAST.finditer(passage, start, end):
            if contrast.group(0).split()[0].lower() in said:
                continue  # the claim compares too ("more effective than"): reversed_around reads it
            if sum(start <= p.start < end for _, p in pairs) < _STATING_SHARE * len(pairs):
                continue  # the claim is stated mostly elsewhere ("Start using it 2 weeks before …")
            inside = [(c, p if start <= p.start < end else _said_on_one_side(p, passage_units, start, end, contrast))
                      for c, p in pairs if _side(c, claim_doc)]
            inside = [(c, p) for c, p in inside if p is not None and start <= p.start < end]
            before = [(c, p) for c, p in inside if p.start < contrast.start()]
            after = [(c, p) for c, p in inside if p.start >= contrast.end()]
            if before and after:
                found += [(c, next((p for d, p in before if d.kind == c.kind), None)) for c, _ in after
                          if all(c is not f for f, _ in found)]
    return found


def _said_on_one_side(matched: Any, passage_units: list[Any], start: int, end: int, contrast: re.Match) -> Any | None:
    """Where a comparing sentence (``start``–``end``) says a word or a name matched elsewhere, when it says it
    on one side of its comparing word only; else None."""
    if matched.kind not in ("word", "name"):
        return None
    there = [u for u in passage_units if u.key == matched.key and start <= u.start < end]
    sides = {u.start < contrast.start() for u in there}
    return there[0] if len(sides) == 1 else None


#: Words that turn a relation round by themselves: a passive verb's agent, a noun's doer.
_VOICE = frozenset(["auxpass", "agent", "nsubjpass"])


def _anchor(anchor: Any, passage_anchor: Any, claim_doc: Any, passage_doc: Any) -> bool:
    """Whether a matched word may anchor the order of the participants around it: "than" or a negation
    always; with the parser, a verb, noun or adjective in the same part of speech and voice on both sides."""
    if anchor.text.lower() == "than" or anchor.kind == "negation":
        return True
    if anchor.kind != "word" or participant(anchor) or claim_doc is None or passage_doc is None:
        return False
    token, other = claim_doc.token_at(anchor.start), passage_doc.token_at(passage_anchor.start)
    # the same word read in two parts of speech is the parser's doing ("converts" as a noun), not a rewording
    same_word = anchor.text.lower() == passage_anchor.text.lower()
    if token is None or other is None or not ({token.pos_, other.pos_} & {"VERB", "NOUN", "ADJ"}):
        return False
    if token.pos_ != other.pos_ and not same_word and not _event_of(token, other):
        return False
    return not _voiced(token) and not _voiced(other)


def _event_of(verb: Any, noun: Any) -> bool:
    """Whether a passage noun says the claim's verb as its event, with what the verb acts on after "of" and no
    possessor or "by" to name its doer ("the defeat of Japanese troops" for "defeated"): the doer stands
    before it and the object after, as around the verb. Not a noun of the doer ("the founder of …")."""
    return verb.pos_ == "VERB" and noun.pos_ == "NOUN" and noun.lemma_.lower() == verb.lemma_.lower() and any(
        c.dep_ == "prep" and c.lower_ == "of" for c in noun.children) and not any(
        c.dep_ == "poss" or c.dep_ == "prep" and c.lower_ == "by" for c in noun.children)


def _voiced(word: Any) -> bool:
    """Whether a word is read in the passive: a passive auxiliary or subject, or a "by" naming its doer
    (not a "by" of the means: "infringed the copyright by copying parts")."""
    return any(c.dep_ in _VOICE or c.dep_ == "prep" and c.lower_ == "by" and not any(
        g.dep_ == "pcomp" for g in c.children) for c in word.children)


def _verb_voiced(token: Any) -> bool:
    """Whether the verb a word belongs to is in the passive."""
    verb = token
    while verb is not None and verb.pos_ not in ("VERB", "AUX") and verb.head is not verb:
        verb = verb.head
    return verb is not None and _voiced(verb)


def _nearest(unit: Any, matched: Any, passage_units: list[Any], sentence: tuple[int, int], anchor: Any,
             matches: Matches) -> Any:
    """The alignment's match where it lies in the shared word's ``sentence``; else the passage unit that says
    ``unit`` in that sentence nearest to the word ("Bhalla, not Dransfield, …" after "… the top seed, Arun
    Bhalla"); else the alignment's match."""
    if sentence[0] <= matched.start < sentence[1]:
        return matched
    said = [u for u in passage_units if sentence[0] <= u.start < sentence[1] and matches(unit, u)]
    return min(said, key=lambda u: abs(u.start - anchor.start)) if said else matched


def _other_owner(anchor: Any, passage_anchor: Any, pairs: list[tuple[Any, Any]], claim_doc: Any, passage_doc: Any,
                 matches: Matches) -> tuple[Any, Any] | None:
    """(the claim's possessor of a shared noun, the passage's) where the passage's possessor of that noun is
    another of the claim's names: "Corvalis's takeover of Bartosz & Wren" for "Bartosz & Wren's takeover
    of Corvalis". A possessive said with "of" on one side only is no rival ("Voltcairn's parent company")."""
    if passage_doc is None:
        return None
    claim_owner = _owner(claim_doc, anchor.start, [unit for unit, _ in pairs])
    passage_owner = _owner(passage_doc, passage_anchor.start, [matched for _, matched in pairs])
    if claim_owner is None or passage_owner is None or claim_owner.kind != "name" or matches(claim_owner, passage_owner):
        return None
    named = any(unit is not claim_owner and unit.kind == "name" and matched is passage_owner for unit, matched in pairs)
    return (claim_owner, passage_owner) if named else None


def _owner(doc: Any, start: int, units: list[Any]) -> Any | None:
    """The unit (of ``units``) that possesses the noun at ``start`` ("Corvalis" of "Corvalis's takeover")."""
    token = doc.token_at(start)
    owners = [c for c in token.children if c.dep_ == "poss"] if token is not None else []
    for owner in owners:
        for t in owner.subtree:
            unit = next((u for u in units if u.start == doc.start(t)), None)
            if unit is not None:
                return unit
    return None


def _possessor(doc: Any, unit: Any) -> bool:
    token = doc.token_at(unit.start) if doc is not None else None
    return token is not None and token.dep_ == "poss"


#: A year: when a thing happened, which a sentence may say anywhere ("In 2025, …" / "… in 2025").
_YEAR = re.compile(r"^(?:1[0-9]|20)\d\d$")


def _side(unit: Any, claim_doc: Any) -> bool:
    """A participant whose side of a shared word says who is who: a name, a figure but a year, a
    designator, or a noun."""
    if participant(unit):
        return not _YEAR.match(unit.text)
    token = claim_doc.token_at(unit.start) if claim_doc is not None and unit.kind == "word" else None
    return token is not None and token.pos_ == "NOUN"


def participant(unit: Any) -> bool:
    """A name, a figure, or a one- or two-letter designator ("Kessler-42 *c*", "Model *S*")."""
    return unit.kind in ("name", "figure") or unit.kind == "word" and len(unit.text) <= 2 and unit.text.isalnum()


@functools.lru_cache(maxsize=64)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    """The sentences of ``text`` as (start, end), segmented once per text: every check reads them per unit."""
    return tuple((span.start, span.end) for span in sentences(text))


def _sentence_of(text: str, at: int) -> tuple[int, int]:
    return next(((start, end) for start, end in _spans(text) if start <= at < end), (0, len(text)))


#: Where a clause of a passage sentence ends: a comma, a semicolon, a colon, a dash, "and", "but", "while"
#: (not the "and" of a range: "between 35 and 42 kg").
_CLAUSE_END = re.compile(r"[,;:()\u2014\u2013]|(?<!\d)\s(?:and|or|but|while|whereas)\s", re.IGNORECASE)


def figure_of_another(passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                      claim_kind: Callable[[Any], str | None], passage_kind: Callable[[Any], str | None],
                      matches: Matches) -> list[tuple[Any, Any]]:
    """A claim figure that no clause naming the claim's names gives, where such a clause gives another figure
    of its kind: "The Benn is 312 km long" is not stated by "The Arlo is 312 km long, the Benn 188 km and
    the Corra 97 km". ``claim_kind`` and ``passage_kind`` give a figure unit's kind ("length", "count:homes";
    None or "year" for a figure not read so). A claim figure of another kind names a side too, in its own
    clause: "fell by 18% in the 5 mg arm" is not stated by "fell by 31% in the 5 mg arm, by 18% in the 2 mg
    arm"."""
    names = [matched for unit, matched in pairs if "name" in (unit.kind, matched.kind)]  # "The Northgate branch"
    named = [(u.start, u.end) for u in passage_units if u.kind == "name"]
    claimed = {matched.key for matched in names}
    clauses = {_clause_with_apposition(passage, matched.start, named) for matched in names}
    # a clause that also names someone the claim does not is theirs, where the claim's own names have a clause
    # of their own: "Norlund Air was on time on 88% of Caddon flights and SkyVerra on 79%" gives SkyVerra 79%
    clauses = {(start, end) for start, end in clauses if all(
        u.key in claimed for u in passage_units if u.kind == "name" and start <= u.start < end)} or clauses
    found = []
    for unit, _ in pairs:
        kind = claim_kind(unit) if unit.kind == "figure" else None
        if kind in (None, "year", "count:"):
            continue  # a bare number ("3-2") says too little of what it counts to be compared
        # a measure that names a side ("the 5 mg arm"), not a count or a time ("31 votes", "06:00", "Sweep 3")
        designated = [clause_of(passage, matched.start) for other, matched in pairs if other.kind == "figure"
                      and other is not unit and (other_kind := claim_kind(other)) is not None
                      and other_kind not in ("year", "time", kind) and not other_kind.startswith("count:")]
        counted = [u for u in passage_units if u.kind == "figure" and passage_kind(u) == kind]
        # a bare count whose sentence counts the claim's noun elsewhere counts it too, its noun elided
        # ("Ardley grew to 18,000 residents; Bexmoor shrank to 6,500")
        counting = {_sentence_of(passage, c.start) for c in counted} if kind.startswith("count:") else set()
        elided = [u for u in passage_units if u.kind == "figure" and passage_kind(u) == "count:"
                  and _sentence_of(passage, u.start) in counting]
        for spans, figures in [(clauses, counted + elided)] + [([clause], counted) for clause in designated]:
            beside = [u for u in figures if any(start <= u.start < end for start, end in spans)]
            if beside and not any(matches(unit, u) for u in beside):
                found.append((unit, beside[0]))
                break
    return found


def listed_otherwise(passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                     claim_kind: Callable[[Any], str | None], passage_kind: Callable[[Any], str | None],
                     matches: Matches) -> list[tuple[Any, Any]]:
    """A claim figure given in one item of a passage's list while a word of the claim is said, in that
    sentence, only in another item that gives its own figure of the kind: "The sauces division contributed
    61% of revenue" against "The chilled soup division contributed 61% of revenue and the sauces division
    39%". The list's first item holds what the items share ("12% of residents in the twice-dosed group,
    15% in the once-dosed group": the once-dosed group's are residents too), and an item whose figure
    another claim figure matches is the claim's own ("Revenue rose 12% and profit 8%")."""
    claimed_figures = {id(matched) for unit, matched in pairs if unit.kind == "figure"}
    found = []
    for unit, figure in pairs:
        kind = claim_kind(unit) if unit.kind == "figure" else None
        if kind in (None, "year", "count:"):
            continue
        start, end = _sentence_of(passage, figure.start)
        listed = [u for u in passage_units if u.kind == "figure" and passage_kind(u) == kind and start <= u.start < end]
        items = {clause_of(passage, u.start) for u in listed}
        if len(items) < 2:
            continue
        shared = {clause_of(passage, listed[0].start), clause_of(passage, figure.start)}
        for word, matched in pairs:
            there = {clause_of(passage, u.start) for u in passage_units
                     if u.key == matched.key and start <= u.start < end} if word.kind == "word" else set()
            if len(there) != 1 or there & shared or not there <= items:
                continue
            (first, last), = there
            rivals = [u for u in listed if first <= u.start < last]
            if not any(matches(unit, u) or id(u) in claimed_figures for u in rivals):
                found.append((unit, rivals[0]))
                break
    return found


#: A possessive between a name and the figure it owns: "Saint-Aubrac's 6,500", "Calder’s £4.2 million".
_POSSESSIVE_BEFORE = re.compile(r"^['’]s?\s+$")


def owned_by_another(passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                     matches: Matches) -> list[tuple[Any, Any]]:
    """A claim figure the passage gives in a possessive of a name that no claim word says: "Lisseval has
    6,500 residents" is not stated by "about 18,000 residents to Saint-Aubrac's 6,500"."""
    claim_units = [unit for unit, _ in pairs]
    found = []
    for unit, matched in pairs:
        if unit.kind != "figure":
            continue
        owner = max((u for u in passage_units if u.kind == "name" and u.end <= matched.start), key=lambda u: u.end,
                    default=None)
        if owner is not None and _POSSESSIVE_BEFORE.match(passage[owner.end:matched.start]) and not any(
                matches(claim_unit, owner) for claim_unit in claim_units):
            found.append((unit, owner))
    return found


_NAME_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_POSSESSIVE_END = re.compile(r"['’]s?$")
#: Words a name may carry on one side only and still name the same one ("Dr Helena Osei", "Helena Osei").
_TITLES = frozenset(["dr", "mr", "mrs", "ms", "miss", "mx", "sir", "dame", "lady", "lord", "professor", "prof",
                     "captain", "capt", "rev", "reverend", "father", "saint", "st", "the", "of", "de", "van", "von"])


def named_otherwise(claim: str, passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                    claim_names: list[tuple[int, int]], passage_names: list[tuple[int, int]]) -> list[tuple[Any, Any]]:
    """A claim name matched inside a passage name when each of the two names has a word the other lacks:
    two things that share a word ("the River Ambrel", "the river" in the passage, is not "the Ambrel Way",
    a footpath; "Ines Marwood" is not "Marwood Associates"). A title on one side ("Dr") is no such
    word, and a name the passage says in full or in short ("Marwood", "Tessel" for "Tessel Building
    Society") has none of its own. Not read where the passage also names the claim's one in full.
    ``claim_names``, ``passage_names``: where each text's names stand."""
    def words(text: str, span: tuple[int, int]) -> set[str]:
        return {_POSSESSIVE_END.sub("", w.lower()) for w in _NAME_WORD.findall(text[span[0]:span[1]])} - _TITLES

    def beyond(these: set[str], those: set[str]) -> set[str]:  # "Scottish" is a form of "Scotland"
        return {w for w in these if not any(name_forms(w) & name_forms(o) for o in those)}

    named = {span: words(passage, span) for span in passage_names}
    found = []
    for unit, matched in pairs:
        ours = next((s for s in claim_names if s[0] <= unit.start < s[1]), None)
        theirs = next((s for s in passage_names if s[0] <= matched.start < s[1]), None)
        if unit.kind != "name" or ours is None or theirs is None:
            continue
        own, other = words(claim, ours), named[theirs]
        if any(not beyond(own, said) for said in named.values()):
            continue  # the passage names the claim's one too: which is which is for the checks of roles
        # and only where the passage says the claim name's own words too ("the river" for the River Ambrel):
        # a name it leaves to the page around ("Comet Ambervale–Tsukino", then "it") is read there
        mine = beyond(own, other)
        said = any(u.kind in ("name", "word") and ours[0] <= u.start < ours[1] and u.text.lower() in mine
                   for u, _ in pairs)
        if mine and said and (extra := beyond(other, own)):
            rival = next((u for u in passage_units if theirs[0] <= u.start < theirs[1] and u.text.lower() in extra),
                         matched)
            found.append((unit, rival))
    return found


def respectively_crossed(claim: str, passage: str, pairs: list[tuple[Any, Any]],
                         passage_units: list[Any]) -> list[tuple[Any, Any]]:
    """Two lists a "respectively" pairs off, paired otherwise in the passage: "The Arlo and the Pexa cost
    €629 and €599 respectively" against "the Arlo and the Pexa … cost €599 and €629 respectively". Each
    list is the claim's names, or its figures, in the sentence that says "respectively"; the passage
    must give the two lists in the same order to each other, in its own sentence that says it. A claim
    that takes one name and one figure from the passage's lists takes them at the same place: "The Duo
    costs €829" is not stated by "The Duo and the Tre cost €599 and €829 respectively"."""
    found = _one_from_each(passage, pairs, passage_units)
    for start, end in _spans(claim):
        if not _RESPECTIVELY.search(claim[start:end]):
            continue
        inside = sorted(((unit, matched) for unit, matched in pairs if start <= unit.start < end),
                        key=lambda pair: pair[0].start)
        names = [(u, m) for u, m in inside if u.kind == "name"]
        # not a figure that goes with a name ("Arlo Book 14 and Pexa Slim 15 cost €629 and €599": model numbers)
        figures = [(u, m) for u, m in inside if u.kind == "figure"
                   and not any(n.end <= u.start and not claim[n.end:u.start].strip() for n, _ in names)]
        said = _sentence_of(passage, figures[0][1].start) if figures else (0, 0)
        if len(figures) < 2 or len(names) < 2 or not _RESPECTIVELY.search(passage[said[0]:said[1]]):
            continue

        def turned(listed: list[tuple[Any, Any]]) -> bool:  # the passage gives the list in the other order
            return listed[0][1].start > listed[-1][1].start

        if turned(names) != turned(figures):  # each figure where the passage gives the other one
            found += [(figures[0][0], figures[-1][1]), (figures[-1][0], figures[0][1])]
    return found


_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)


def _one_from_each(passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any]) -> list[tuple[Any, Any]]:
    """(claim figure, the passage figure at its name's place) where a claim name and figure are matched in a
    passage sentence that pairs a list of names with a list of figures by "respectively"."""
    found = []
    for figure, matched in ((u, m) for u, m in pairs if u.kind == "figure"):
        start, end = _sentence_of(passage, matched.start)
        said = _RESPECTIVELY.search(passage, matched.start, end)  # the list's "respectively"; the one before ends
        before = [m.end() for m in _RESPECTIVELY.finditer(passage, start, matched.start)]  # the list before it
        if said is None:
            continue
        names = [u for u in passage_units if u.kind == "name" and start <= u.start < end]
        # not a model number that goes with its name ("the Trek 2, Trek 3 and Trek 4")
        figures = [u for u in passage_units if u.kind == "figure" and max([start, *before]) <= u.start < said.start()
                   and not any(n.end <= u.start and not passage[n.end:u.start].strip() for n in names)]
        if all(u is not matched for u in figures):
            continue  # the claim figure is no item of the list (a model number, or a figure after it)
        runs: list[list[Any]] = []  # the names, each of its words ("the Casavel Duo")
        for unit in (u for u in names if u.start < figures[0].start):
            if runs and not passage[runs[-1][-1].end:unit.start].strip(" -"):
                runs[-1].append(unit)
            else:
                runs.append([unit])
        places = {k for _, name in pairs for k, run in enumerate(runs) if any(name is n for n in run)}
        if len(runs) == len(figures) and len(places) == 1 and figures[place := places.pop()] is not matched:
            found.append((figure, figures[place]))
    return found


#: The preposition just before a figure that says which end of a change it is (a hedge or currency between).
_END = re.compile(r"\b(from|to|by)\s+(?:(?:about|around|roughly|nearly|almost|some|just|over|under)\s+)?[$£€¥]?\s*$",
                  re.IGNORECASE)


def changed_end(claim: str, passage: str, pairs: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """A claim figure the passage gives at the other end of a change: "The price fell to £10" is not stated
    by "fell from £10 to £8", nor "rose by 3%" by "rose to 3%". Read only where both sides say the end; or
    where the claim says in the present what the passage gives as a change's start ("its lead is 4.1 points"
    against "its lead has narrowed from 4.1 points last year to 1.7 points this year")."""
    found = []
    for unit, matched in pairs:
        if unit.kind != "figure" or not (theirs := _END.search(passage[max(0, matched.start - 30):matched.start])):
            continue
        ours = _END.search(claim[max(0, unit.start - 30):unit.start])
        if ours is not None and ours.group(1).lower() != theirs.group(1).lower() or ours is None and (
                theirs.group(1).lower() == "from" and _PRESENT.search(claim, 0, unit.start)
                and _TO_AFTER.match(passage, matched.end)):
            found.append((unit, matched))
    return found


#: A claim that says how things stand now ("its lead is 4.1 points").
_PRESENT = re.compile(r"\b(?:is|are|stands|now)\b", re.IGNORECASE)
#: The rest of a change after its start: "… last year to 1.7 points".
_TO_AFTER = re.compile(r"[^.;,]{0,40}?\bto\s+(?:about\s+|around\s+)?[$£€¥]?\d", re.IGNORECASE)


def _clause_with_apposition(text: str, at: int, named: list[tuple[int, int]]) -> tuple[int, int]:
    """The clause around ``at`` with the clauses after it that name no one (``named``: the passage's name
    units) up to the next that does: "the Northgate branch, 4.2 kilometres long with 9 stops, and the
    Fennick Hill branch, …" gives Northgate its 9 stops. Only for the last name of its clause, which the
    apposition follows: in "Northvale completed its acquisition of Ridgeway Savings, a regional savings
    bank …, for €310 million" it is said of Ridgeway Savings."""
    start, end = clause_of(text, at)
    own = _name_run(text, at, named)
    if any(own[1] <= n < end for n, _ in named):
        return start, end
    _, sentence_end = _sentence_of(text, at)
    while end < sentence_end:
        following = clause_of(text, end + 1)
        if following[1] <= end or any(following[0] <= n < following[1] for n, _ in named):
            break
        end = following[1]
    return start, end


def _name_run(text: str, at: int, named: list[tuple[int, int]]) -> tuple[int, int]:
    """The span of the name whose unit starts at ``at``, its words joined by spaces or hyphens ("Fennick Hill")."""
    ends = dict(named)
    first = last = at
    while (before := next((n for n, e in named if e < first and text[e:first].strip(" -") == ""), None)) is not None:
        first = before
    while last in ends and (after := next((n for n, _ in named if n > last and text[ends[last]:n].strip(" -") == ""),
                                          None)) is not None:
        last = after
    return first, ends.get(last, at + 1)


def clause_of(text: str, at: int) -> tuple[int, int]:
    """The clause of ``text`` around offset ``at``: between the clause ends of its sentence."""
    start, end = _sentence_of(text, at)
    cuts = [m.start() for m in _CLAUSE_END.finditer(text, start, end)]
    return max([start] + [c for c in cuts if c < at]), min([end] + [c for c in cuts if c > at])


def equated_apart(claim_doc: Any, passage: str, pairs: list[tuple[Any, Any]], passage_units: list[Any],
                  matches: Matches) -> list[tuple[Any, Any]]:
    """A name the claim equates with a noun by "be" ("its paediatric lead was Janet Wyburn") that the
    passage gives in another clause than that noun, whose own clause names someone else: "its paediatric
    lead was Dr Callum Fraine, and its lay member was Janet Wyburn"."""
    if claim_doc is None:
        return []
    found = []
    for _, doc in claim_doc.docs:
        for verb in doc:
            if verb.lemma_ != "be":
                continue
            sides = [c for c in verb.children if c.dep_ in ("nsubj", "attr")]
            units = [next((c for c, _ in pairs if c.start <= claim_doc.start(t) < c.end), None) for t in sides]
            if len(units) != 2 or None in units:
                continue
            name = next((u for u in units if u.kind == "name"), None)
            other = next((u for u in units if u is not name), None)
            if name is None or other is None or other.kind != "word":
                continue
            name_at = next(p for c, p in pairs if c is name)
            other_at = next(p for c, p in pairs if c is other)
            clause = clause_of(passage, other_at.start)
            if clause == clause_of(passage, name_at.start):
                continue
            rivals = [u for u in passage_units if u.kind == "name" and clause[0] <= u.start < clause[1]
                      and not any(matches(c, u) for c, _ in pairs)]
            if rivals:
                found.append((name, rivals[-1]))  # the surname of "Dr Callum Fraine"
    return found
