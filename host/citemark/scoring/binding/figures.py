"""Figure binding and dates: a claim figure the evidence gives for another subject or another year,
and a claim year the source gives the claim's event as another year ("completed in 2019").

Figures are read on a structure of their own (the quantities ``quantities.parse_quantities`` finds,
and ``_Layout``: where each figure stands and what each clause and sentence names), apart from the
word-by-word checks, so they have their own module.
"""

from __future__ import annotations

import bisect

from citemark.scoring.binding import grammar
from citemark.scoring.binding.grammar import Token
from citemark.scoring.quantities import Quantity, comparable, parse_quantities, same_quantity
from citemark.scoring.words import MONTH_ABBREVIATIONS, MONTHS

_UNIT_WORDS = frozenset(grammar.stem(w) for w in grammar.words("""m km cm mm metre metres meter meters kilometre kilometres kilometer
kilometers mile miles ft feet foot inch inches kg g mg lb lbs pound pounds tonne tonnes ton tons percent per cent
degrees c f celsius fahrenheit million billion trillion thousand bn k usd eur gbp dollars dollar euros euro pounds
years year months month days day hours hour minutes minute seconds second people patients staff employees
about around roughly approximately nearly almost some over under more less than up down high tall long wide"""))


#: More figures than this in the passage make a table, which these rules do not read.
MAX_FIGURES = 60
#: How many words either side of a claim's figure say what the figure belongs to.
FIGURE_REACH = 6
#: How many words after a figure its year may stand and still be its own ("$3.6bn in 2023").
PHRASE_AFTER = 4
#: How many words before a claim's year its event verb may stand ("took over as the firm's chief executive in 2024").
DATE_REACH = 9
_MONTH_WORDS = frozenset([*MONTHS, *MONTH_ABBREVIATIONS])


def _date_part(text: str, quantity: Quantity) -> bool:
    """"May 7", "7 May": a day of a date, not a figure of its own."""
    before = text[max(0, quantity.start - 12) : quantity.start].lower().split()
    after = text[quantity.end : quantity.end + 12].lower().split()
    return bool(before and before[-1].strip(".,") in _MONTH_WORDS or after and after[0].strip(".,") in _MONTH_WORDS)


def figure_conflicts(claim_text: str, claim: list[Token], evidence_text: str, evidence: list[Token],
                     common: frozenset[str] = frozenset(), document_figures: tuple[Quantity, ...] = ()) -> list[str]:
    """A claim figure found in the evidence only where the evidence attaches it to something else."""
    claim_quantities = parse_quantities(claim_text)
    evidence_quantities = parse_quantities(evidence_text)
    if not claim_quantities or not evidence_quantities or len(evidence_quantities) > MAX_FIGURES:
        return []  # a table of figures is beyond what these rules can read
    series = grammar.series(evidence)
    layout = _Layout(evidence, evidence_quantities, common, series)
    # The claim's names as the claim alone shows them, and with its sentence opener read as a name
    # where no text writes it in lower case ("Pelby had …"): the figure is misattached if either says so.
    readings = [grammar.names(claim, series=series)]
    if (opened := grammar.names(claim, common, series)) != readings[0]:
        readings.append(opened)
    # A number in a product line's name is no figure: "Brevantil 200" has no 200 puffs.
    claim_named = {i for run in readings[-1] for i in run if series and claim[i].lower.isdigit()}
    evidence_named = {i for run, _ in layout.runs for i in run if series and evidence[i].lower.isdigit()}
    found = []
    for quantity in claim_quantities:
        # What the claim attaches this figure to: its words and names within a few words of it.
        at = _token_at(claim, quantity.start) or 0
        near = range(max(0, at - FIGURE_REACH), at + FIGURE_REACH + 1)
        claim_context = {t.stem for k, t in enumerate(claim) if k in near and grammar.content(t)
                         and not t.lower[0].isdigit() and t.stem not in _UNIT_WORDS
                         and not any(q.start <= t.start < q.end for q in claim_quantities)}
        if _small_count(quantity):  # "six studies" belong to no one subject: presence decides, unless
            if counted := _counts_another(quantity, layout, claim_context):  # the claim's clause counts otherwise
                found.append(f"{quantity.text} {quantity.noun}s ({counted})")
            continue
        if quantity.is_year or _date_part(claim_text, quantity):
            continue  # a year belongs to an event, often stated sentences away
        if _token_at(claim, quantity.start) in claim_named:
            continue
        places = [q for q in evidence_quantities if same_quantity(quantity, q) and comparable(quantity, q)
                  and layout.at[id(q)] not in evidence_named]
        if not places:
            dated = any(q.is_year for q in claim_quantities)  # "1.2 million visitors in 2023": the year decides
            if not dated and any(same_quantity(quantity, q) and comparable(quantity, q) for q in document_figures) and (
                    other := _stated_otherwise(quantity, layout, claim_context,
                                               grammar.name_key_of(claim, readings[0]))):
                found.append(f"{quantity.text} (the source gives {other.text} where the claim's words are)")
            continue
        verdicts = []
        for place in places:
            reasons = []
            for runs in readings:
                local = [run for run in runs if any(k in near for k in run)] or runs
                claim_names = grammar.name_key_of(claim, local)
                reasons.append(_bound(quantity, place, claim_quantities, layout, claim_context, claim_names))
            verdicts.append(next((reason for reason in reasons if reason), None))
        if any(v is None for v in verdicts):
            continue
        reason = next(v for v in verdicts if v)
        found.append(f"{quantity.text} ({reason})")
    return found


def _small_count(quantity: Quantity) -> bool:
    """"Six studies", "two planets": a small whole number without a unit belongs to no one subject
    (presence decides); "2.9 times the mass of Earth" is a measurement."""
    return quantity.dimension is None and quantity.value <= 12 and quantity.value == int(quantity.value)


def _stated_otherwise(quantity: Quantity, layout: _Layout, claim_context: set[str],
                      claim_names: frozenset[str]) -> Quantity | None:
    """For a claim figure the page states elsewhere, not around the evidence: the one figure of its
    kind in the one clause that holds the claim's words about it ("a fourth cuts the rate to 1.5 %"
    for "a fourth withdrawal cuts its rate to 3.75 %", where 3.75 % is another account's). The
    clause must share two of those words with the claim, name no one the claim does not, and be
    the only such clause."""
    scored: dict[tuple[str, int], list[Quantity]] = {}
    for other in layout.quantities:
        at = layout.at[id(other)]
        if at is None or other.is_year or not comparable(quantity, other) or other.kind != quantity.kind:
            continue
        scored.setdefault(layout.unit(at, True), []).append(other)
    candidates = [(len(claim_context & layout.stems[unit]), unit, figures) for unit, figures in scored.items()
                  if not layout.foreign(unit, claim_names)]
    best = max((score for score, _, _ in candidates), default=0)
    if best < 2:
        return None
    winners = [(unit, figures) for score, unit, figures in candidates if score == best]
    if len(winners) != 1 or len(winners[0][1]) != 1:
        return None
    if any(q.is_year for q in layout.held.get(winners[0][0], [])):
        return None  # "900,000 visitors in 2022": another year's figure, for the date checks to weigh
    return winners[0][1][0]


def _counts_another(quantity: Quantity, layout: _Layout, claim_context: set[str]) -> str | None:
    """A small count the source gives only to something else, while the clause with the claim's
    words counts the claim's thing otherwise: "carrying 9 passengers" where "The tram was carrying
    63 passengers. Nine suffered minor injuries". Silent when a nine of the source counts the claim's
    thing, or nothing it can read ("nine of them"), or stands where the claim's words are."""
    if not quantity.noun or quantity.noun in grammar.STOP:
        return None
    stated = layout.quantities
    places = [q for q in stated if same_quantity(quantity, q) and comparable(quantity, q)]
    if not places or any(not q.noun or q.noun == quantity.noun or q.noun in grammar.STOP for q in places):
        return None
    rivals = [q for q in stated if q.kind == quantity.kind and q.value != quantity.value]
    if len(rivals) != 1:
        return None
    context = claim_context - {grammar.stem(quantity.noun)}

    def said(figure: Quantity) -> int:
        at = layout.at[id(figure)]
        return len(context & layout.stems[layout.unit(at, True)]) if at is not None else 0
    if said(rivals[0]) <= max(said(q) for q in places):
        return None
    return f"the source counts {rivals[0].text} {quantity.noun}s"


class _Layout:
    """The evidence read once for figure binding: where each figure stands, and the word stems
    and names of every clause and sentence."""

    def __init__(self, evidence: list[Token], quantities: list[Quantity], common: frozenset[str] = frozenset(),
                 series: frozenset[str] = frozenset()) -> None:
        self.evidence = evidence
        self.quantities = quantities
        self.at = {id(q): _token_at(evidence, q.start) for q in quantities}
        # A clause that opens on "and" + verb has the subject of the clause before it: "GR-2 is shorter,
        # at 0.8 metres, and covers only the last 5,600 years" gives GR-2 the 5,600 years.
        # A clause that goes on after a relative clause has the subject before it: "KR-2, which was
        # developed by the Varnholt Institute, broke down 62%" gives KR-2 the 62%.
        self.owner: dict[int, int] = {}
        first: dict[int, int] = {}  # each clause's first token
        for i, token in enumerate(evidence):
            if token.clause in self.owner:
                continue
            first[token.clause] = i
            same = i > 0 and evidence[i - 1].sentence == token.sentence
            elided = (token.lower in ("and", "but", "or") and i + 1 < len(evidence) and same
                      and grammar.past_or_present(evidence[i + 1].lower))
            opened = first.get(evidence[i - 1].clause, 0) if same else 0
            resumed = (same and opened > 0 and evidence[opened].lower in grammar.RELATIVES
                       and grammar.past_or_present(token.lower) and evidence[opened - 1].sentence == token.sentence)
            self.owner[token.clause] = (self.owner[evidence[i - 1].clause] if elided else
                                        self.owner[evidence[opened - 1].clause] if resumed else token.clause)
        self.stems: dict[tuple[str, int], set[str]] = {}
        for i, token in enumerate(evidence):
            self.stems.setdefault(self.unit(i, True), set()).add(token.stem)
            self.stems.setdefault(("sentence", token.sentence), set()).add(token.stem)
        self.runs = [(run, grammar.name_key(evidence, run)) for run in grammar.names(evidence, common, series)]
        self.held: dict[tuple[str, int], list[Quantity]] = {}  # the figures of each clause and sentence
        for quantity in quantities:
            if (at := self.at[id(quantity)]) is not None:
                for by_clause in (True, False):
                    self.held.setdefault(self.unit(at, by_clause), []).append(quantity)

    def unit(self, index: int, by_clause: bool) -> tuple[str, int]:
        token = self.evidence[index]
        return ("clause", self.owner[token.clause]) if by_clause else ("sentence", token.sentence)

    def foreign(self, unit: tuple[str, int], names: frozenset[str]) -> bool:
        """Whether the clause or sentence names someone the claim does not."""
        return any(not key <= names and self.unit(run[0], unit[0] == "clause") == unit for run, key in self.runs)

    def variant(self, ours: tuple[str, int], theirs: tuple[str, int], names: frozenset[str]) -> bool:
        """Whether ``theirs`` names the claim's subject and ``ours`` only a variant of it, a name with the
        same first words: "the City 3 … 21.5 kg; the City 3 Plus … 24 kg" for the City 3 Plus, or
        "Brevantil 100" against "Brevantil 200". "Everest" and "Mount Everest" are one subject."""
        def named(unit: tuple[str, int]) -> list[tuple[tuple[str, ...], frozenset[str]]]:
            return [(tuple(self.evidence[i].stem for i in run if self.evidence[i].lower not in grammar.PARTICLES), key)
                    for run, key in self.runs if key & names and self.unit(run[0], unit[0] == "clause") == unit]
        ours_names, theirs_names = named(ours), named(theirs)
        best_ours = max((len(key) for _, key in ours_names if key <= names), default=0)
        for mine, my_key in theirs_names:
            if not my_key <= names or len(my_key) <= best_ours:
                continue
            for other, other_key in ours_names:
                shorter = len(other) < len(mine) and mine[: len(other)] == other  # "City 3" for "City 3 Plus"
                if other != mine and (shorter or not other_key <= names and other[0] == mine[0]):
                    return True
        return False


def _bound(quantity: Quantity, place: Quantity, claim_quantities: list[Quantity], layout: _Layout,
           claim_context: set[str], claim_names: frozenset[str]) -> str | None:
    """None when ``place`` (an occurrence of the claim's figure) is attached as the claim attaches
    it; otherwise what it is attached to.

    The figure is misattached when another figure of its kind stands where the claim's subject
    is named more fully: "Lake Orvan reaches 188 m; Lake Tessel is 312 m deep" gives 312 m to
    Lake Tessel and 188 m to Lake Orvan. Within one sentence its clauses compete; across
    sentences, the sentences. The subject is the claim's names when it has any ("it made
    £512 million, while Tessel made £58 million" gives Tessel £58 million), else its words.
    """
    evidence, evidence_quantities = layout.evidence, layout.quantities
    index = layout.at[id(place)]
    if index is None:
        return None
    # The claim's other figures name its subject too: "the £350 million tranche … pays 5.125%" where
    # "a £350 million tranche … pays 5.375%", or "revenue for 2026 was …" where 2026 stands by another figure.
    # A year counts only for the other passage, when it lacks ours: a page often dates two figures once.
    others = [c for c in claim_quantities if c is not quantity]

    def identified(unit: tuple[str, int], against: tuple[str, int] | None = None) -> int:
        def holds(where: tuple[str, int], claimed: Quantity) -> bool:
            return any(same_quantity(claimed, q) for q in layout.held.get(where, []))
        return sum(holds(unit, c) and (not c.is_year or against is not None and not holds(against, c)) for c in others)

    def weigh(unit_key: tuple[str, int], unit: set[str], against: tuple[str, int] | None = None) -> int:
        return len((claim_names or claim_context) & unit) + identified(unit_key, against)
    enough = 2
    for other in evidence_quantities:
        if other.is_year or other is place or not comparable(quantity, other) or not comparable(place, other):
            continue
        if _small_count(other) and other.kind != quantity.kind or any(same_quantity(c, other) for c in claim_quantities):
            # "eight rooms" competes with "23 rooms"; a stray "two" does not
            continue
        if abs(other.value - place.value) <= 0.02 * max(abs(other.value), abs(place.value)):
            continue  # 828 m and 830 m are one figure told two ways, not two subjects' figures
        at = layout.at[id(other)]
        if at is None:
            continue
        by_clause = evidence[at].sentence == evidence[index].sentence
        ours_unit, theirs_unit = layout.unit(index, by_clause), layout.unit(at, by_clause)
        ours, theirs = layout.stems[ours_unit], layout.stems[theirs_unit]
        mine, yours = weigh(ours_unit, ours), weigh(theirs_unit, theirs, ours_unit)
        if not claim_names and identified(theirs_unit, ours_unit) > identified(ours_unit):
            misplaced = yours > mine  # the claim's other figure stands by the other one
        elif claim_names:
            foreign = layout.foreign(ours_unit, claim_names)
            # A passage that names no one ("The crossing takes 2 hours 15 minutes") loses only to one
            # that names no one but the claim's subject, not to "boats from Kirkvik to Ulla take 40 minutes".
            misplaced = yours > mine and (foreign or mine == 0) and (
                foreign or not layout.foreign(theirs_unit, claim_names))
        else:  # by the claim's words: more of them there, or there the words that tell the two apart
            misplaced = yours >= max(enough, mine + 2) or (
                yours >= enough and bool(claim_context & (theirs - ours)) and not claim_context & (ours - theirs))
        if not misplaced and ours_unit == theirs_unit and claim_names:
            misplaced = _interleaved(layout, index, at, claim_names)
        elif not misplaced and claim_names:
            misplaced = layout.variant(ours_unit, theirs_unit, claim_names)
        if misplaced:
            return f"the source gives the claim's subject {other.text}"
    # A claim's year goes with its other figure: "$3.6bn in 2022" is not "$3.6bn in 2023".
    claim_years = [q for q in claim_quantities if q.is_year]
    if not place.is_year and claim_years:
        years = [q for q in evidence_quantities if q.is_year and layout.at[id(q)] is not None
                 and evidence[layout.at[id(q)]].sentence == evidence[index].sentence]
        if years:
            def distance(year: Quantity) -> float:
                at = layout.at[id(year)]
                return at - index - 100 if 0 < at - index <= PHRASE_AFTER else abs(at - index)  # "$3.6bn in 2023"
            nearest = min(years, key=distance)
            if not any(same_quantity(year, nearest) for year in claim_years):
                return f"the source gives it for {nearest.text}"
    return None


def _interleaved(layout: _Layout, ours: int, theirs: int, claim_names: frozenset[str]) -> bool:
    """One clause with two figures and two subjects, each figure beside its own: "about 17 °C in the
    South Basin and 14 °C in the North Basin" gives the North Basin 14 °C. Each figure goes with the
    nearest subject on one side: after it when a subject follows the last figure, else before it."""
    evidence = layout.evidence
    clause = layout.unit(ours, True)
    inside = [j for j in range(len(evidence)) if layout.unit(j, True) == clause]
    figures = {j for j in inside for q in layout.quantities if q.start <= evidence[j].start < q.end}  # "17 °C", whole
    named = {j for run, key in layout.runs if not key <= claim_names for j in run}
    subjects = {j: "claim" for j in inside if evidence[j].stem in claim_names and j not in figures and j not in named}
    subjects.update({j: "other" for j in inside if j in named})
    if "claim" not in subjects.values() or "other" not in subjects.values():
        return False
    # "… 14 °C in the North Basin": a subject after the last figure means each subject follows its figure.
    after = max(subjects) > max(ours, theirs)

    def subject_of(figure: int) -> str | None:
        side = [j for j in subjects if (j > figure if after else j < figure)
                and not any(min(j, figure) < f < max(j, figure) for f in (ours, theirs) if f != figure)]
        return subjects[min(side, key=lambda j: abs(j - figure))] if side else None
    return subject_of(ours) == "other" and subject_of(theirs) == "claim"


def _token_at(tokens: list[Token], offset: int) -> int | None:
    """The token at (or just after) a character offset; None past the end."""
    at = bisect.bisect_right([t.start for t in tokens], offset) - 1
    if at >= 0 and offset < tokens[at].end:
        return at
    return at + 1 if at + 1 < len(tokens) else None


def date_conflicts(claim_text: str, claim: list[Token], evidence_text: str, evidence: list[Token]) -> list[str]:
    """A claim's year that the source gives to the claim's event as another year: "completed in
    2015" where the clause with "completed" says 2019 and not 2015 (2015 being the floods')."""
    found = []
    evidence_years = [q for q in parse_quantities(evidence_text) if q.is_year]
    if not evidence_years:
        return []
    year_at = {(_token_at(evidence, q.start) or 0): q for q in evidence_years}
    for year in (q for q in parse_quantities(claim_text) if q.is_year):
        at = _token_at(claim, year.start)
        if at is None:
            continue
        context = next((claim[k] for k in range(at - 1, max(-1, at - DATE_REACH - 1), -1) if not claim[k].capital and (
            claim[k].lower in grammar.IRREGULAR or claim[k].lower in grammar.LEMMAS or grammar.claim_verb(claim, k)
            or len(claim[k].lower) > 4 and claim[k].lower.endswith("ed"))), None)  # the event: "completed in 2015"
        if context is None:
            continue
        places = [j for j, t in enumerate(evidence) if t.stem == context.stem]
        verdicts = []
        for j in places:
            years = {i: q for i, q in year_at.items() if evidence[i].clause == evidence[j].clause}
            if not years:
                continue
            if any(same_quantity(year, q) for q in years.values()):
                verdicts.append(None)
                break
            after = [i for i in years if i > j]
            nearest = years[min(after) if after else max(years)]
            verdicts.append(nearest.text)
        if verdicts and all(verdicts):
            found.append(f"{year.text} (the source: “{context.text} … {verdicts[0]}”)")
    return found
