"""The claim's positive account: which passage word accounts for each content unit of the claim.

"supported" must be earned, not granted for lack of an objection (TRUST.md). ``align``
matches every content unit of the claim (each content word, name, figure and negation)
one to one against the quoted passage (its sentences and one sentence either side):

- a common word by its lemma or an inflection ("recovered" / "recovery"), by a known
  synonym (``SYNONYMS``), a verb with its particle by the verb it says ("turned down" /
  "rejected": ``phrasal.py``), or, given the model's token states, by a passage word that
  says it in other words ("shut" / "close": ``paraphrase.py``, never a listed opposite);
- a name only by identity of its words, an acronym, or a demonym ("Chinese" / "China");
  never by similarity: "C++" is not "OCaml", "Collins" is not "Aldrin";
- a figure only by an equal value, as ``quantities`` reads them ("64 km" / "40 miles"), and a
  comparison's amount or ratio by the two passage figures that work it out ("twice as many copies
  as": ``worked.py``);
- a negation only by a negation.

Two claim units may not lean on one passage word. A matched passage word's own
modifiers must be matched too: a negation ("not at run time"), an ordinal
("second-longest"), a modal or plan ("planned", "may"), a hedge ("not entirely",
"partly") or an attribution ("critics claimed"). The words the alignment may skip are
``SKIPPABLE``: articles, auxiliaries, pronouns and most prepositions, never "all",
"only", "most", "before", "after", "without" or "than".

What cannot be accounted for is named: ``Alignment.unmatched`` (claim units) and
``Alignment.unmatched_modifiers`` (passage words that qualify what the claim states),
and ``Alignment.differences`` pairs each with what the passage says in its place.

Relations are read with a dependency parser (``parse.py``) when one is installed (``frames.py``):
each verb of the claim that the passage matched must have the same matched words as its doer and
its object in the passage ("Harbourside beat Millbrook" is not "Millbrook beat Harbourside";
"Collins walked on the Moon" is not "Armstrong and Aldrin walked on the Moon while Collins stayed
in orbit"), read through the passive, conjunctions, appositions, relative clauses and a subject
shared with a following "to" verb; and a name or figure must qualify the same word in the passage
as in the claim where the passage qualifies that word otherwise ("9 seismometers" is not "24
seismometers … and 9 on Tiel": ``attachment.py``). Without the parser ``Alignment.relations_checked`` is False. Who stands on
which side of a word the claim and passage share, of a comparison or of a preposition, and which
clause gives a name's figure, is read by word order (``order.py``), parser or not ("Tansey is
older than Brackwell" is not "Brackwell is older than Tansey"). What the claim says together (a
subject and its predicate, a noun and its qualifiers) must be said in one passage sentence
(``together.py``).

Run ``python -m citemark.scoring.align`` for a small demonstration.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from citemark.scoring import order, parse
from citemark.scoring.attachment import misattached
from citemark.scoring.clauses import stated_clauses
from citemark.scoring.converses import crossed, pair_converses
from citemark.scoring.descriptions import DEFINITE, stands_for
from citemark.scoring.frames import Parsed, misbound, parsed
from citemark.scoring.guards import name_forms, name_spans
from citemark.scoring.implied import by_comparison, by_measure, by_span
from citemark.scoring.language import WORD
from citemark.scoring.lexical import stem
from citemark.scoring.modifiers import MODIFIERS, misplaced_modifiers, unmatched_modifiers
from citemark.scoring.paraphrase import Paraphraser, TokenStates, eligible, similar_enough
from citemark.scoring.phrasal import pair_phrasal
from citemark.scoring.quantities import Quantity, bound_kept, comparable, hedge_start, parse_quantities, same_quantity
from citemark.scoring.scope import narrowing
from citemark.scoring.segment import sentences
from citemark.scoring.together import said_apart
from citemark.scoring.worked import Worked, compared_otherwise, worked_comparisons

__all__ = ["DERIVED", "SKIPPABLE", "SYNONYMS", "Alignment", "Difference", "Unit", "align"]

#: Words the alignment may skip: they carry no content of their own. Not the lexical stop
#: words, which hold quantifiers, order and comparison words that change what a claim says.
SKIPPABLE = frozenset(
    ["a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "they", "them", "their", "he", "him", "his", "she", "her", "we", "our", "you", "your", "i", "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "having", "do", "does", "did", "will", "would", "shall", "should", "can", "could", "of", "in", "on", "at", "to", "for", "from", "by", "with", "into", "onto", "as", "and", "or", "also", "which", "who", "whom", "whose", "where", "when", "there", "s", "'s", "'t", "d", "ll", "re", "ve", "its", "own", "such", "so"])

_NEGATIONS = frozenset(["not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without", "cannot", "n't", "nt"])
#: Modifiers that say who states a thing, not how much of it is so.
_ATTRIBUTIONS = frozenset(["reportedly", "allegedly", "claimed", "claims", "alleged", "supposedly", "rumoured", "rumored"])

#: Groups of words that state the same thing in running text. Kept short and exact: a
#: pair here lets a claim be "supported" on the passage's word, so each must hold both ways.
SYNONYMS: tuple[frozenset[str], ...] = tuple(frozenset(stem(w) for w in group.split()) for group in (
    "begin start commence", "end finish conclude", "buy purchase acquire", "big large", "small little",
    "rise increase grow", "fall decrease decline drop", "show demonstrate", "use employ utilise utilize",
    "help assist aid", "die perish", "kill slay", "build construct", "make produce manufacture", "get obtain receive",
    "fast quick rapid", "area region", "car automobile", "child kid", "city town", "film movie", "firm company",
    "permit allow let", "about concern", "receive get", "say state", "award grant", "originally initially",
    "former previous", "enough sufficient", "main principal chief primary", "near close", "try attempt",
    "total overall", "nation country", "roughly approximately about around", "since after", "instead rather",
))
#: The same word in another part of speech where no suffix rule finds it: "60 miles long" / "a length of
#: 97 km", "weighs 1.6 kg" / "a weight of 1.6 kg". True both ways, like the synonyms.
DERIVED: tuple[frozenset[str], ...] = tuple(frozenset(stem(w) for w in group.split()) for group in (
    "long length", "wide width", "high height", "deep depth", "weigh weight", "strong strength", "grow growth",
    "die death", "sell sale", "lose loss", "fly flight", "choose choice", "succeed success", "absent absence",
    "decide decision", "able ability", "hot heat", "warm warmth", "young youth", "broad breadth",
))
_SYNONYM_OF: dict[str, frozenset[str]] = {}
for _group in SYNONYMS + DERIVED:
    for _word in _group:
        _SYNONYM_OF[_word] = _SYNONYM_OF.get(_word, frozenset()) | _group
_DERIVATIONS = ("y", "ion", "ions", "ation", "ment", "er", "ers", "or", "ors", "al", "ity", "ness", "ive", "ic", "ist")

_NUMBER_WORD = re.compile(r"\d")
_DIGITS = re.compile(r"\D")


@dataclass(frozen=True, slots=True)
class Unit:
    """One word of a claim or passage: where it is, and how it is compared."""

    text: str
    start: int
    end: int
    kind: str  # "word" | "name" | "figure" | "negation"
    key: str  # the stem a word is compared by (a figure's: its text)
    lemma: str = ""  # the parser's lemma, stemmed, where a parser ran ("took" → "take")


@dataclass(frozen=True, slots=True)
class Difference:
    """A claim unit the passage does not account for, with what the passage says in its place
    (``passage`` None: nothing comparable); or a passage modifier the claim leaves out, beside the
    claim word whose passage match it qualifies (``qualified``: "second" of "second-longest")."""

    claim: Unit | None
    passage: Unit | None
    qualified: Unit | None = None


@dataclass(frozen=True, slots=True)
class Alignment:
    """The claim's units matched one to one in the passage, and what is left over."""

    pairs: tuple[tuple[Unit, Unit], ...]
    unmatched: tuple[Unit, ...]
    unmatched_modifiers: tuple[Unit, ...]
    differences: tuple[Difference, ...] = field(default=())
    relations_checked: bool = True  # False: no parser, so who did what to whom was not read
    participants: int = 0  # the claim's names and figures: what a relation binds
    #: Clauses of a compound claim that the passage accounts for in full while another clause is not:
    #: "The museum holds 260,000 volumes" of "…, and its café serves breakfast every day."
    stated_clauses: tuple[str, ...] = ()
    #: The pairs matched by the model's token states, not by lemma or a listed synonym ("shut" / "close").
    paraphrased: tuple[tuple[Unit, Unit], ...] = ()
    #: The claim's comparisons that two passage figures work out ("one second faster than": ``worked.py``).
    worked: tuple[Worked, ...] = ()
    #: Figures matched by an equal value said in another unit or form ("72°F" / "22°C", "two decades" /
    #: "twenty years"): the model reads such a pair as a conflict, the figure check as the same value.
    converted: tuple[tuple[Unit, Unit], ...] = ()
    #: The passage holds the claim word for word ("Mireval ended the quarter with 3,870 employees, 240 more …").
    verbatim: bool = False

    @property
    def complete(self) -> bool:
        return not self.unmatched and not self.unmatched_modifiers

    @property
    def denies(self) -> bool:
        """The passage states the claim, every unit accounted for, under a negation of its own ("did
        not open in 1902"), attributed or not ("a survey claims … did not"): positive evidence of
        the opposite, which a source that also supports the claim elsewhere gives as a conflict."""
        left = [u.text.lower() for u in self.unmatched_modifiers]
        negations = [w for w in left if w in _NEGATIONS]
        return not self.unmatched and bool(negations) and all(w in _NEGATIONS or w in _ATTRIBUTIONS for w in left)

    @property
    def share(self) -> float:
        """The share of the claim's units the passage accounts for."""
        total = len(self.pairs) + len(self.unmatched)
        return len(self.pairs) / total if total else 0.0

    def explanation(self) -> str:
        """ "the passage does not say: first (it says: second); C++ (it says: OCaml)"."""
        parts = []
        for difference in self.differences:
            if difference.qualified is not None and difference.claim is not None and difference.passage is not None:
                between = " " if difference.qualified.start - difference.passage.end <= 1 else " … "
                parts.append(f"{difference.claim.text} (it says: {difference.passage.text}{between}"
                             f"{difference.qualified.text})")
            elif difference.claim is None:
                assert difference.passage is not None
                parts.append(f"“{difference.passage.text}”")
            elif difference.passage is None:
                parts.append(difference.claim.text)
            else:
                parts.append(f"{difference.claim.text} (it says: {difference.passage.text})")
        return "; ".join(parts)


def align(claim: str, passage: str, *, subject_context: str = "", paraphraser: Paraphraser | None = None) -> Alignment:
    """Account for each content unit of ``claim`` in ``passage``.

    ``subject_context`` is the text where the claim's subject may be named instead (the page's
    opening and the sentences around the passage): pages name their subject once and then say
    "she" or "the company", so the claim's first name may be found there.

    Words are first compared by their stems. The parser (lemmas: "took" / "take"; relations) runs
    only when that leaves at most ``PARSE_GAP`` units unaccounted for: a parse costs more than the
    rest of the alignment, and a claim that far from the passage cannot become complete.

    ``paraphraser`` reads the model's token states for the pair: with it, common words still unaccounted
    for may be matched by a passage word that says them in other words (``paraphrase.py``), when no
    more than ``PARAPHRASE_GAP`` are left and all are common words."""
    claim_quantities, passage_quantities = parse_quantities(claim), parse_quantities(passage)
    claim_figures = {q.start: q for q in claim_quantities}
    passage_figures = {q.start: q for q in passage_quantities}
    claim_units = _units(claim, claim_quantities)
    passage_units = _units(passage, passage_quantities)
    spans = [(span.start, span.end) for span in sentences(passage)]
    pairs, unmatched, used = _account(claim_units, passage_units, claim_figures, passage_figures, passage, spans)
    unmatched = _named_elsewhere(claim, unmatched, pairs, passage_units, used, subject_context, passage)
    unmatched = by_measure(claim, unmatched, pairs, claim_figures, passage, spans)
    comparisons = worked_comparisons(claim, passage)
    pairs, unmatched, worked = by_comparison(pairs, unmatched, passage_units, comparisons)
    gap = PARSE_GAP if paraphraser is None else max(PARSE_GAP, PARAPHRASE_GAP)
    claim_doc, passage_doc = _parses(claim, passage) if len(unmatched) <= gap else (None, None)
    if claim_doc is not None and passage_doc is not None:
        claim_units = _units(claim, claim_quantities, claim_doc)
        passage_units = _units(passage, passage_quantities, passage_doc)
        pairs, unmatched, used = _account(claim_units, passage_units, claim_figures, passage_figures, passage, spans)
        unmatched = _named_elsewhere(claim, unmatched, pairs, passage_units, used, subject_context, passage, claim_doc)
        unmatched = by_measure(claim, unmatched, pairs, claim_figures, passage, spans)
        pairs, unmatched, worked = by_comparison(pairs, unmatched, passage_units, comparisons)
    spanned, unmatched = by_span(unmatched, pairs, passage_units, claim_figures, passage_figures, passage)
    pairs += spanned
    converse: list[tuple[Unit, Unit]] = []
    if claim_doc is not None and passage_doc is not None and unmatched:  # "lent … to" for "borrowed … from"
        converse, unmatched = pair_converses(claim_doc, passage_doc, unmatched, passage_units, used)
        phrasal, unmatched = pair_phrasal(claim_doc, passage_doc, unmatched, passage_units, used)  # "turned down"
        pairs += converse + phrasal
    paraphrased: list[tuple[Unit, Unit]] = []
    if paraphraser is not None and 0 < len(unmatched) <= PARAPHRASE_GAP and all(u.kind == "word" for u in unmatched):
        paraphrased, unmatched = _paraphrased(claim, passage, unmatched, passage_units, used, paraphraser, claim_doc,
                                              passage_doc)
        pairs += paraphrased
    modifiers = sorted({m[0].start: m for m in unmatched_modifiers(passage, passage_units, used)
                        + narrowing(passage_doc, passage_units, used)}.values(), key=lambda m: m[0].start)
    wrong: list[tuple[Unit, Unit | None]] = []  # matched units the passage puts in another relation
    matches = functools.partial(_matches, claim_figures=claim_figures, passage_figures=passage_figures)
    # a converse's participants are read by its mapping of roles, not by their sides or prepositions
    plain = [pair for pair in pairs if all(pair[0] is not verb for verb, _ in converse)]
    placed: set[int] = set()
    if claim_doc is not None and passage_doc is not None and not unmatched:
        wrong, placed = crossed(claim_doc, passage_doc, converse, pairs, passage_units, matches)
        wrong += misbound(claim_doc, passage_doc, plain, passage_units, matches, subject_context)
        wrong += [(unit, rival) for unit, rival in misattached(claim_doc, passage_doc, plain, passage_units, matches)
                  if all(unit is not m for m, _ in wrong) and id(unit) not in placed]
        if not wrong:  # words said apart, where no check above has named what is wrong
            wrong = [(unit, rival) for unit, rival in said_apart(claim_doc, passage_doc, passage, plain, passage_units,
                                                                 spans) if id(unit) not in placed]
    if not unmatched:  # who is who by word order (order.py), where the parse may be wrong
        ordered = (order.reversed_around(claim, passage, plain, passage_units, matches, claim_doc, passage_doc)
                   + order.mixed_across(claim, passage, plain, passage_units, claim_doc)
                   + order.swapped_across(claim, passage, plain, passage_units, matches, claim_doc)
                   + order.figure_of_another(passage, plain, passage_units, _kind_of(claim_figures),
                                       _kind_of(passage_figures), matches)
                   + order.listed_otherwise(passage, plain, passage_units, _kind_of(claim_figures),
                                            _kind_of(passage_figures), matches)
                   + order.owned_by_another(passage, plain, passage_units, matches)
                   + order.named_otherwise(claim, passage, plain, passage_units, _name_spans(claim), _name_spans(passage))
                   + order.respectively_crossed(claim, passage, plain, passage_units)
                   + order.changed_end(claim, passage, plain)
                   + compared_otherwise(claim, passage, plain, comparisons)
                   + order.equated_apart(claim_doc, passage, plain, passage_units, matches))
        wrong += [(unit, rival) for unit, rival in ordered if all(unit is not m for m, _ in wrong)
                  and id(unit) not in placed]
    # a negation or privative over other words than the claim's (after the checks that name a rival participant)
    wrong += [(unit, rival) for unit, rival in misplaced_modifiers(claim, claim_units, passage, passage_units, used)
              if all(unit is not m for m, _ in wrong)]
    # who stands on which side of a comparison worked out from the figures, the figures have settled
    wrong = [(unit, rival) for unit, rival in wrong if not any(w.names_a_side(unit.start) for w in comparisons)]
    unmatched = sorted(unmatched + [unit for unit, _ in wrong], key=lambda u: u.start)
    differences = _differences([u for u in unmatched if all(u is not m for m, _ in wrong)], modifiers,
                               passage_units, used, claim_figures, passage_figures) + tuple(
        Difference(u, where) for u, where in wrong)
    participants = len({u.key for u in claim_units if u.kind in ("name", "figure")})
    # relations were read, or the claim is too far from complete for them to matter and a parser is there
    checked = claim_doc is not None or len(unmatched) > PARSE_GAP and parse.installed()
    return Alignment(tuple(sorted(pairs + worked, key=lambda p: p[0].start)), tuple(unmatched),
                     tuple(m for m, _ in modifiers), differences, checked, participants,
                     stated_clauses(claim, claim_units, unmatched), tuple(paraphrased),
                     tuple(w for w in comparisons if any(w.covers(u.start, u.end) for u, _ in worked)),
                     _converted(pairs, claim_figures, passage_figures), not unmatched and _said(claim) in _said(passage))


def _said(text: str) -> str:
    """Text as compared word for word: its words and figures in lower case, one space between."""
    return " ".join(WORD.findall(text.lower().replace("’", "'")))


def _converted(pairs: list[tuple[Unit, Unit]], claim_figures: dict[int, Quantity],
               passage_figures: dict[int, Quantity]) -> tuple[tuple[Unit, Unit], ...]:
    """The figure pairs whose two figures give one value in another unit or form ("60 miles" / "96 km")."""
    figures = [(unit, other, claim_figures[int(unit.key[1:])], passage_figures[int(other.key[1:])])
               for unit, other in pairs if unit.kind == other.kind == "figure"]
    return tuple((unit, other) for unit, other, ours, theirs in figures if ours.unit != theirs.unit or ours.value != theirs.value)


def _parses(claim: str, passage: str) -> tuple[Parsed, Parsed] | tuple[None, None]:
    """The claim (whole) and the passage (sentence by sentence) parsed; neither without the parser, or
    where it failed on the way."""
    if not parse.available():
        return None, None
    claim_doc, passage_doc = parsed(claim, whole=True), parsed(passage)
    return (claim_doc, passage_doc) if claim_doc is not None and passage_doc is not None else (None, None)


#: Common words a lemma-matched alignment may leave for paraphrase matching (each costs the model
#: one reading of the claim with the passage; a claim further from the passage is not paraphrased).
PARAPHRASE_GAP = 3


def _paraphrased(claim: str, passage: str, unmatched: list[Unit], passage_units: list[Unit], used: dict[int, Unit],
                 paraphraser: Paraphraser, claim_doc: Parsed | None,
                 passage_doc: Parsed | None) -> tuple[list[tuple[Unit, Unit]], list[Unit]]:
    """Unmatched common words of the claim matched, one to one, to unused common words of the passage
    whose token states say the same (most similar first); a verb particle ("turned *down*", "filled
    *in*") goes with its verb when the verb was matched so. Returns (new pairs, still unmatched);
    ``used`` is updated."""
    def tagged(doc: Parsed | None, unit: Unit) -> tuple[str | None, str | None]:
        token = doc.token_at(unit.start) if doc is not None else None
        return (token.pos_, token.tag_) if token is not None else (None, None)

    wanted = [u for u in unmatched if eligible(u.text, *tagged(claim_doc, u))]
    # the candidates: in the sentences where the claim's other words were matched, each read with the
    # claim on its own (a word's state is read in its sentence, as the threshold was chosen)
    spans = [(span.start, span.end) for span in sentences(passage)]
    anchored = [(start, end) for start, end in spans if any(start <= passage_units[j].start < end for j in used)]
    free = [(j, span) for j, u in enumerate(passage_units) if j not in used and u.kind == "word"
            and eligible(u.text, *tagged(passage_doc, u))
            and (span := next((s for s in anchored if s[0] <= u.start < s[1]), None)) is not None]
    if not wanted or not free:
        return [], unmatched
    # one reading of the claim with each candidate sentence
    states: dict[tuple[int, int], TokenStates | None] = {
        (start, end): paraphraser(claim, passage[start:end]) for start, end in dict.fromkeys(span for _, span in free)}
    scored = []
    for i, unit in enumerate(wanted):
        for j, (start, end) in free:
            read = states[(start, end)]
            other = passage_units[j]
            similarity = read.similarity((unit.start, unit.end), (other.start - start, other.end - start)) if read else None
            if similar_enough(unit.text, other.text, similarity):
                scored.append((similarity, i, j))
    scored.sort(reverse=True)
    found: dict[int, Unit] = {}
    for _, i, j in scored:
        if i not in found and j not in used:
            found[i] = passage_units[j]
            used[j] = wanted[i]
    new = [(wanted[i], other) for i, other in found.items()]
    matched = {id(unit) for unit, _ in new}
    verbs = {unit.start for unit, _ in new}
    left = []
    for unit in unmatched:
        token = claim_doc.token_at(unit.start) if claim_doc is not None else None
        if id(unit) in matched or token is not None and token.dep_ == "prt" and claim_doc.start(token.head) in verbs:
            continue
        left.append(unit)
    return new, left


#: Units a stem-only alignment may leave unaccounted for and still be parsed (lemmas may account for them).
PARSE_GAP = 2

#: The sentences where most claim units find a match that are each tried as where the claim is read.
ANCHORS = 2


def _account(claim_units: list[Unit], passage_units: list[Unit], claim_figures: dict[int, Quantity],
             passage_figures: dict[int, Quantity], passage: str,
             spans: list[tuple[int, int]]) -> tuple[list[tuple[Unit, Unit]], list[Unit], dict[int, Unit]]:
    """The claim read where the passage states it most fully: of the readings that start in the passage's
    first match and in the sentences where most claim units find one (``ANCHORS``), the one that leaves
    fewest claim units unaccounted for, in the fewest sentences (a negation the claim leaves out is no
    reason to read a name in a table's heading instead: "neither of which is available on the Lumen 14"),
    with the fewest passage modifiers left over, then the most compact ("- Wickmoor will keep a half-hourly
    service", not the "no longer stop at Wickmoor" of the line before)."""
    candidates_of = {id(unit): [j for j, other in enumerate(passage_units)
                                if _matches(unit, other, claim_figures, passage_figures)] for unit in claim_units}
    counts = [sum(any(start <= passage_units[j].start < end for j in found) for found in candidates_of.values())
              for start, end in spans]
    anchors = [None, *sorted((span for span, n in zip(spans, counts, strict=True) if n),
                             key=lambda span: -counts[spans.index(span)])[:ANCHORS]]
    best, best_cost = None, None
    for anchor in anchors:
        reading = _read_at(anchor, claim_units, passage_units, candidates_of, spans)
        used = reading[2]
        cost = (len(reading[1]), len({k for j in used for k, (a, b) in enumerate(spans) if a <= passage_units[j].start < b}),
                len(unmatched_modifiers(passage, passage_units, used)),
                max((u.start for u in (passage_units[j] for j in used)), default=0)
                - min((u.start for u in (passage_units[j] for j in used)), default=0))
        if best_cost is None or cost < best_cost:
            best, best_cost = reading, cost
    assert best is not None
    return best


def _read_at(anchor: tuple[int, int] | None, claim_units: list[Unit], passage_units: list[Unit],
             candidates_of: dict[int, list[int]], spans: list[tuple[int, int]]) -> tuple[list[tuple[Unit, Unit]], list[Unit], dict[int, Unit]]:
    """Each claim unit matched to a passage unit, one to one: (pairs, unmatched, passage index → claim unit).
    Most specific first (figures, names, words); negations last, so each finds the one that stands
    before the words already matched; the first near ``anchor``."""
    used: dict[int, Unit] = {}
    pairs: list[tuple[Unit, Unit]] = []
    unmatched: list[Unit] = []
    for unit in sorted(claim_units, key=lambda u: _ORDER.index(u.kind)):
        candidates = [j for j in candidates_of[id(unit)] if j not in used]
        # a figure the passage gives in the same digits is that one, not a near value ("about 108 million" is
        # the 108, not the "about 112 million" that a hedge would also admit); a name, likewise, is the
        # passage's same name before another form of it ("Savers … Easy Saver": each itself, not crosswise)
        exact = [j for j in candidates if unit.kind == "figure" and _DIGITS.sub("", unit.text) == _DIGITS.sub(
            "", passage_units[j].text) != "" or unit.kind == "name" and unit.text.lower() == passage_units[j].text.lower()]
        candidates = exact or candidates
        if candidates:
            # of two as near, the one on the claim's side of its nearest match ("7% of the 2 mg *arm*": after it)
            found = min(candidates, key=lambda j: (_distance(j, used, passage_units, anchor, spans),
                                                   not _in_claim_order(unit, j, used, passage_units)))
            used[found] = unit
            pairs.append((unit, passage_units[found]))
        else:
            unmatched.append(unit)
    return pairs, unmatched, used


_ORDER = ("figure", "name", "word", "negation")


def _in_claim_order(unit: Unit, j: int, used: dict[int, Unit], units: list[Unit]) -> bool:
    """Whether passage unit ``j`` stands on the same side of its nearest matched unit as ``unit`` of that
    unit's claim word."""
    if not used:
        return True
    k = min(used, key=lambda k: abs(units[j].start - units[k].start))
    return (units[j].start > units[k].start) == (unit.start > used[k].start)


def _distance(j: int, used: dict[int, Unit], units: list[Unit], anchor: tuple[int, int] | None = None,
              spans: list[tuple[int, int]] | None = None) -> int:
    """How far passage unit ``j`` lies from the words already matched, a sentence's end between them
    counting as ``_ELSEWHERE`` characters more (``spans``); before any is matched, how far from the
    ``anchor`` sentence. The claim's words are read where most of them are, not in a sentence that
    shares one of them ("- Wickmoor will keep a half-hourly service", not the "no longer stop at
    Wickmoor" of the line before)."""
    at = units[j].start
    if not used:
        return 0 if anchor is None or anchor[0] <= at < anchor[1] else min(abs(at - anchor[0]), abs(at - anchor[1]))
    own = next((span for span in spans or () if span[0] <= at < span[1]), None)
    return min(abs(at - units[k].start) + (0 if own is None or own[0] <= units[k].start < own[1] else _ELSEWHERE)
               for k in used)


#: What a sentence's end between two words adds to their distance, in characters: "the longest beach on the
#: coast at 7 kilometres" holds the "longest" of its figure, not the "second-longest" that opens the next sentence.
_ELSEWHERE = 40


def _named_elsewhere(claim: str, unmatched: list[Unit], pairs: list[tuple[Unit, Unit]], passage: list[Unit],
                     used: dict[int, Unit], context: str, passage_text: str, claim_doc: Parsed | None = None) -> list[Unit]:
    """Claim names accounted for outside the passage: pages name their subject once, then say "she"
    or "the company". A name word counts when the page names it around the passage and either it
    belongs to the claim's subject, or to a name another of whose words the passage matched
    ("Rhiannon Kesteven" for "Kesteven expects"), or the passage names nobody else in its place; or
    when the passage says it by a description the page ties to that name alone ("the band":
    ``descriptions.py``)."""
    if not context or not any(unit.kind == "name" for unit in unmatched):
        return unmatched
    known = {form for w in WORD.findall(context) for form in name_forms(w.lower())}
    spans = _name_spans(claim)
    subject = spans[0] if spans and len(claim[: spans[0][0]].split()) <= 2 else None
    matched_starts = [u.start for u, _ in pairs]
    nobody_else = not any(u.kind == "name" and j not in used for j, u in enumerate(passage))
    kept = []
    for unit in unmatched:
        span = next((s for s in spans if s[0] <= unit.start < s[1]), None)
        if unit.kind == "name" and span == (0, unit.end) and claim_doc is not None and (
                token := claim_doc.token_at(unit.start)) is not None and token.pos_ == "NOUN" and not re.search(
                rf"\b{re.escape(unit.text)}\b", context.split("\n", 1)[0][:300]):
            kept.append(unit)  # "Turnout in the … election was …": a word the parser reads as a common noun opens
            continue  # the claim, and the page's heading does not name it: no subject the page goes on about
        if unit.kind == "name" and span is not None and name_forms(unit.key) & known and (
                span == subject or nobody_else or any(span[0] <= at < span[1] for at in matched_starts)):
            continue
        description = next((j for j, u in enumerate(passage) if j not in used and u.kind == "word"
                            and _definite(passage_text, u.start) and stands_for(unit.text, u.text, context)), None)
        if unit.kind == "name" and description is not None and name_forms(unit.key) & known:
            used[description] = unit  # "in the town" for "in Caddenham": one description stands for one name
            continue
        kept.append(unit)
    return kept


def _definite(text: str, start: int) -> bool:
    """Whether the word at ``start`` of ``text`` follows a definite determiner ("*the* band")."""
    before = text[max(0, start - 7) : start].split()
    return bool(before) and before[-1].lower() in DEFINITE


def _name_spans(text: str) -> list[tuple[int, int]]:
    """Where the text's names stand; names joined by a hyphen or dash are one ("Comet Ambervale–Tsukino")."""
    spans: list[tuple[int, int]] = []
    for name, _, start in name_spans(text):
        if (at := text.find(name, start)) < 0:
            continue
        if spans and text[spans[-1][1] : at] in ("-", "\u2013"):
            spans[-1] = (spans[-1][0], at + len(name))
        else:
            spans.append((at, at + len(name)))
    return spans


#: A capital letter that names a model or a plan ("the S costs €249", "Plan B"), not "A" or "I".
_DESIGNATOR = re.compile(r"[B-HJ-Z]")
_RATHER = re.compile(r"\brather\s+$", re.IGNORECASE)
_COMPARED = re.compile(r"compared\s+(?:with|to)\b", re.IGNORECASE)
#: A lemma's degree, kept with it: "largest" is "large+est" (the parser's tags of comparatives and superlatives).
_DEGREES = {"JJR": "+er", "RBR": "+er", "JJS": "+est", "RBS": "+est"}


def _units(text: str, figures: list[Quantity], parsed: Parsed | None = None) -> list[Unit]:
    """The text's words as units (``figures``: its quantities); ``parsed`` gives each word's lemma."""
    hedged = [(hedge_start(text, q.start), q.start) for q in figures]  # "about 40": the figure's own hedge
    names = _name_spans(text)
    units = []
    for match in WORD.finditer(text):
        word, lower = match.group(), match.group().lower().replace("’", "'")
        start, end = match.span()
        figure = next((q for q in figures if q.start <= start < max(q.end, q.start + len(q.text))), None)
        if figure is None and any(first <= start < last for first, last in hedged):
            continue  # compared with the figure it hedges (``same_quantity`` reads "about", "more than")
        if figure is not None:
            kind, key = "figure", f"@{figure.start}"
        elif lower in _NEGATIONS or lower.endswith("n't"):
            kind, key = "negation", "not"
        elif (lower in SKIPPABLE and not (_DESIGNATOR.fullmatch(word) and text[start - 1 : start] not in ("'", "’"))
              or lower == "than" and _RATHER.search(text, 0, start)
              or _COMPARED.match(text, start)):
            continue  # "rather than": its "rather" is matched ("instead of"); "compared with" only sets two side by side
        elif any(first <= start < last for first, last in names) or _NUMBER_WORD.search(word):
            kind, key = "name", lower
        else:
            kind, key = "word", stem(lower)
        token = parsed.token_at(start) if parsed is not None and kind == "word" else None
        lemma = stem(token.lemma_.lower()) + _DEGREES.get(token.tag_, "") if token is not None else ""
        units.append(Unit(word, start, end, kind, key, lemma))
    return _merge_figures(units, text)


def _merge_figures(units: list[Unit], text: str) -> list[Unit]:
    """One unit for each figure, spelled as the text has it: "3.4 million people" is compared as one
    value, not three words."""
    merged: list[Unit] = []
    for unit in units:
        if unit.kind == "figure" and merged and merged[-1].kind == "figure" and merged[-1].key == unit.key:
            last = merged[-1]
            merged[-1] = Unit(text[last.start : unit.end], last.start, unit.end, "figure", unit.key)
        else:
            merged.append(unit)
    return merged


def _kind_of(figures: dict[int, Quantity]) -> Callable[[Unit], str | None]:
    """A figure unit's kind ("length", "count:homes", "year"), read from its text's quantities."""
    def kind(unit: Unit) -> str | None:
        quantity = figures.get(int(unit.key[1:])) if unit.key.startswith("@") else None
        return quantity.kind if quantity is not None else None
    return kind


def _matches(unit: Unit, other: Unit, claim_figures: dict[int, Quantity], passage_figures: dict[int, Quantity]) -> bool:
    if unit.kind == "figure":
        if other.kind == "figure" and not bound_kept(claimed := claim_figures[int(unit.key[1:])],
                                                     stated := passage_figures[int(other.key[1:])]):
            return False  # "more than 100" states neither "100" nor "fewer than 100"
        if other.kind == "figure" and not comparable(claimed, stated):
            return False  # "4,200 people" is not "£4,200"
        return other.kind == "figure" and same_quantity(claimed, stated) or unit.text.lower() == other.text.lower()
    if unit.kind == "negation":
        return other.kind == "negation"
    if unit.kind == "name":
        return other.kind in ("name", "word") and bool(name_forms(unit.key) & name_forms(other.text.lower()))
    if other.kind not in ("word", "name"):
        return False
    if _same_word(unit.key, other.key if other.kind == "word" else _stem(other.key)):
        return True
    # by lemma ("took" / "take", "biggest" / "largest"), in the claim's degree ("large" is not "largest"), or
    # the passage's superlative for the claim's plain word ("the longest beach, at 7 km" for "7 km long")
    (ours, degree), (theirs, their_degree) = (lemma.partition("+")[::2] for lemma in (unit.lemma, other.lemma))
    return bool(ours and theirs) and degree in (their_degree, "" if their_degree == "est" else None) and _same_word(
        ours, theirs)


_stem = functools.lru_cache(maxsize=65536)(stem)


def _same_word(a: str, b: str) -> bool:
    """The same lemma, an inflection or derivation ("recover" / "recovery"), or a listed synonym."""
    if a == b or b in _SYNONYM_OF.get(a, ()):
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 5 and long.startswith(short) and long[len(short):] in _DERIVATIONS


def _differences(unmatched: list[Unit], modifiers: list[tuple[Unit, int]], passage: list[Unit], used: dict[int, Unit],
                 claim_figures: dict[int, Quantity], passage_figures: dict[int, Quantity]) -> tuple[Difference, ...]:
    """Each unmatched claim unit beside the unused passage unit of its kind it most likely stands for
    (a figure of the same kind, a name for a name, an ordinal for an ordinal; the nearest to the words
    matched), and each unmatched modifier."""
    taken: set[int] = set()
    result = []
    for unit in unmatched:
        free = [j for j in range(len(passage)) if j not in used and j not in taken and _comparable(unit, passage[j])]
        if unit.kind == "figure":
            kind = claim_figures[int(unit.key[1:])].kind
            free = [j for j in free if passage_figures[int(passage[j].key[1:])].kind == kind] or free
        counterpart = min(free, key=lambda j: _distance(j, used, passage)) if free else None
        if counterpart is not None:
            taken.add(counterpart)
        result.append(Difference(unit, passage[counterpart] if counterpart is not None else None))
    for modifier, qualified in modifiers:
        if not any(d.passage is modifier for d in result):
            result.append(Difference(used[qualified], modifier, passage[qualified]))
    return tuple(result)


def _comparable(unit: Unit, other: Unit) -> bool:
    if unit.kind in ("figure", "negation", "name"):
        return other.kind == unit.kind
    return unit.text.lower() in MODIFIERS and other.text.lower() in MODIFIERS or (
        _ORDINAL.match(unit.text.lower()) is not None and _ORDINAL.match(other.text.lower()) is not None)


_ORDINAL = re.compile(r"^(?:first|second|third|fourth|fifth|last|\w+est|only|sole)$")


if __name__ == "__main__":
    page = "The Danube is Europe's second-longest river, after the Volga. The compiler was first written in OCaml."
    for text in ("The Danube is the longest river in Europe.", "The compiler was first written in C++."):
        print(f"{text}\n  complete={(result := align(text, page)).complete}  {result.explanation()}")
