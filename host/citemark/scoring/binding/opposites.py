"""Opposites: a claim word the aligned evidence replaces by its opposite ("absorbs" / "reflects"),
unless a comparison is merely turned round ("A is heavier than B" and "B is lighter than A").

The list of opposite pairs is data that grows on its own (``opposite_pairs`` also feeds the training
rows of ``train/binding_rows.py``), and the rules that weigh it use no other check's, so the list and
its rules have a module of their own.
"""

from __future__ import annotations

from citemark.scoring.binding import grammar
from citemark.scoring.binding.grammar import Token

_PAIRS = """
absorb reflect; absorb emit; rise fall; rose fell; risen fallen; rising falling; increase decrease; increase decline;
increase reduce; grow shrink; growth decline; gain lose; gained lost; gain loss; win lose; won lost;
winner loser; expand contract; expansion contraction; accelerate decelerate; heat cool; warm cool; warmer cooler;
open close; opened closed; allow forbid; allow prohibit; permit prohibit; permitted prohibited; allowed banned;
include exclude; accept reject; approve reject; approved rejected; approve deny; uphold overturn; upheld overturned;
upheld reversed; affirmed reversed; acquit convict; acquitted convicted; acquittal conviction; guilty innocent;
admit deny; succeed fail; succeeded failed; success failure; successful unsuccessful; pass fail; passed failed;
survive die; survived died; arrive depart; import export; imports exports; importer exporter; buy sell; bought sold;
buyer seller; lend borrow; lent borrowed; lender borrower; creditor debtor; employer employee; start end; begin end;
first last; before after; earlier later; early late; earliest latest; above below; inside outside; north south;
east west; northern southern; eastern western; northernmost southernmost; upper lower; maximum minimum; more less;
most least; many few; high low; higher lower; highest lowest; large small; larger smaller; largest smallest;
big small; bigger smaller; biggest smallest; long short; longer shorter; longest shortest; heavy light;
heavier lighter; heaviest lightest; fast slow; faster slower; fastest slowest; quick slow; quicker slower;
strong weak; stronger weaker; strongest weakest; old young; older younger; oldest youngest; older newer; hot cold;
hotter colder; hottest coldest; wide narrow; wider narrower; thick thin; thicker thinner; deep shallow;
deeper shallower; rich poor; richer poorer; cheap expensive; cheapest expensive; hard soft; harder softer;
dense sparse; easy difficult; easier harder; safe dangerous; safe unsafe; legal illegal; lawful unlawful;
valid invalid; constitutional unconstitutional; effective ineffective; positive negative; profit loss;
profitable unprofitable; surplus deficit; asset liability; majority minority; best worst; better worse;
acidic alkaline; soluble insoluble; visible invisible; possible impossible; likely unlikely; common rare;
present absent; presence absence; dominant recessive; benign malignant; acute chronic; aerobic anaerobic;
internal external; domestic foreign; public private; active inactive; inhibit stimulate; inhibit promote;
inhibit activate; inhibitor activator; agonist antagonist; upregulate downregulate; enable disable;
encrypt decrypt; synchronous asynchronous; static dynamic; mutable immutable; upload download; ascend descend;
ascending descending; sink float; freeze melt; condense evaporate; attract repel; appreciate depreciate;
inflation deflation; raise lower; raise cut; hire fire; join leave; enter exit; add remove; support oppose;
favor oppose; favour oppose; agree disagree; accept refuse; ally enemy; home away; offensive defensive;
attack defend; vertical horizontal; clockwise anticlockwise; clockwise counterclockwise; wet dry; light dark;
lighter darker; bright dim; loud quiet; louder quieter; full empty; true false; correct incorrect; accurate inaccurate;
odd even; overestimate underestimate; overweight underweight; excess deficiency; rural urban; predator prey;
upstream downstream; inbound outbound; ancient modern; prior subsequent; precede follow; preceded followed;
increasing decreasing; increased decreased; increases decreases; plaintiff defendant; prosecution defence;
prosecution defense; winner runner; champion runner; host guest; parent subsidiary; minimum maximum;
overturn uphold; relax tighten; loosen tighten; eased tightened; cut hiked; slashed raised; lowered raised;
surged plunged; soared plummeted; rallied slumped; strengthened weakened; widened narrowed; improved worsened;
improve worsen; approve veto; grow fall; grown fallen; grew fell; hot cool; hotter cooler; warmer colder;
cheaper expensive; cheap costly; faster slowly; quickly slowly; quicker slowly; louder quieter; support opposed;
accept refused; accept decline; accepted declined; elder younger; eldest youngest; senior junior; increase cut; increased cut; raises cuts;
bow stern; welcomed criticised; welcomed criticized; praised criticised; praised criticized; allies rivals; ratified rejected; legalised banned; legalized banned; adopted abandoned;
""".replace("\n", " ")
_OPPOSITE: dict[str, set[str]] = {}
for _pair in _PAIRS.split(";"):
    _pair_words = _pair.split()
    if len(_pair_words) == 2:
        _a, _b = (grammar.inflections(w) for w in _pair_words)
        for _form in _a:
            _OPPOSITE.setdefault(_form, set()).update(_b)
        for _form in _b:
            _OPPOSITE.setdefault(_form, set()).update(_a)


def are_opposites(a: str, b: str) -> bool:
    """Whether two words (as written, any inflection) are listed as opposites: "legal" / "illegal"."""
    return b.lower() in _OPPOSITE.get(a.lower(), ())


def opposite_pairs() -> list[tuple[str, str]]:
    """The opposite words as written ("rose", "fell"), for tools that make training rows."""
    return [(words[0], words[1]) for words in (pair.split() for pair in _PAIRS.split(";")) if len(words) == 2]


#: Relations that say the same thing turned round: "A is heavier than B" = "B is lighter than A".
_CONVERSE = frozenset(form for w in grammar.words("""heavier lighter faster slower larger smaller bigger smaller higher lower
taller shorter longer shorter older younger newer earlier later before after above below precede follow preceded
followed more less richer poorer stronger weaker wider narrower deeper shallower hotter colder warmer cooler cheaper
lend borrow lent borrowed lender borrower buy sell bought sold buyer seller import export exporter importer
creditor debtor employer employee win lose won lost winner loser parent subsidiary host guest greater fewer
""") for form in grammar.inflections(w))
#: How far (in words) a claim word's neighbours may be from the opposite word in the evidence.
OPPOSITE_REACH = 6


def opposite_conflicts(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
                       common: frozenset[str] = frozenset()) -> list[str]:
    claim_stems = {t.stem for t in claim}
    evidence_stems = {t.stem for t in evidence}
    claim_scopes, evidence_scopes = grammar.negation_scopes(claim), grammar.negation_scopes(evidence)
    found = []
    for i, word in enumerate(claim):
        if word.stem not in _OPPOSITE or _OPPOSITE[word.stem] & claim_stems:
            continue  # "the east and west shores": the claim names both poles itself
        if word.stem in evidence_stems:
            found.extend(_object_moved(claim, i, evidence, aligned) or _subject_moved(claim, i, evidence, common))
            continue
        for j, other in enumerate(evidence):
            if other.stem not in _OPPOSITE[word.stem] or other.stem in claim_stems:
                continue
            if _negated(evidence_scopes, j) != _negated(claim_scopes, i):
                continue  # "not allowed" says "banned": an opposite under a negation the claim's word lacks agrees
            before, after = grammar.neighbours(claim, i, aligned, -1), grammar.neighbours(claim, i, aligned, +1)
            near = [k for k in before + after for j2 in aligned[k]
                    if abs(j2 - j) <= OPPOSITE_REACH and evidence[j2].clause == other.clause]
            # "The levels … at the Harnley works were high" against "The levels found were low": the
            # opposite's clause holds two of the claim's words, wherever the claim has them.
            shared = {claim[k].stem for k in aligned if k != i and any(evidence[j2].clause == other.clause
                                                                      for j2 in aligned[k])}
            if not near and (len(shared) < 2 or word.stem in _CONVERSE):
                continue
            if word.stem in _CONVERSE and other.stem in _CONVERSE and _turned_round(claim, before, after, j, evidence,
                                                                                   aligned):
                continue
            found.append(f"{word.text} ≠ {other.text}")
            break
    return sorted(set(found))


def _negated(scopes: list[tuple[int, int, str]], index: int) -> bool:
    return any(first <= index <= last for first, last, _ in scopes)


def _subject_moved(claim: list[Token], i: int, evidence: list[Token], common: frozenset[str]) -> list[str]:
    """"Wenlow lies at the southern end" where "At its southern end is Carrowby … At the northern end
    … is the village of Wenlow": the evidence gives the claim's subject the opposite word, and the
    claim's word only to others. The subject is the name nearest before the word in its clause."""
    word = claim[i]
    if word.stem in _CONVERSE:
        return []  # "sold to the bottler" is "the bottler bought": the subject moves with the word
    subject = next((run for run in reversed(grammar.names(claim, common)) if run[-1] < i
                    and claim[run[0]].clause == word.clause), None)
    if subject is None or len(subject) == 1 and grammar.demonym(claim[subject[0]].lower):
        return []
    key = grammar.name_key(claim, subject)
    runs = grammar.names(evidence, common)

    def names_in(clause: int) -> tuple[bool, bool]:
        """(the subject is named there, someone else is)"""
        keys = [grammar.name_key(evidence, run) for run in runs if evidence[run[0]].clause == clause]
        ours = any(len(key & other) * 2 >= len(key) for other in keys)
        return ours, any(not key & other for other in keys)
    same = [names_in(e.clause) for e in evidence if e.stem == word.stem]
    opposite = [(names_in(e.clause), e) for e in evidence if e.stem in _OPPOSITE[word.stem]]
    if not same or any(ours or not others for ours, others in same):
        return []
    stated = next((e for (ours, _), e in opposite if ours), None)
    if stated is None:
        return []
    return [f"{word.text} (the source says {stated.text} of {' '.join(claim[k].text for k in subject)})"]


def _object_moved(claim: list[Token], i: int, evidence: list[Token], aligned: dict[int, list[int]]) -> list[str]:
    """"absorbs … green light" where the evidence says "absorbs red light and reflects green light":
    a word after the claim's verb that the evidence attaches only to the verb's opposite."""
    verb = claim[i]
    rivals = {j: e.stem for j, e in enumerate(evidence) if e.stem == verb.stem or e.stem in _OPPOSITE[verb.stem]}
    if len(set(rivals.values())) < 2:
        return []
    for k in grammar.neighbours(claim, i, aligned, +1, 3):
        if claim[k].lower[0].isdigit():
            continue  # "fell in 2019" and "rose 5 % in 2019": a year is no object
        owners = set()
        for j in aligned[k]:
            governing = [r for r in rivals if r < j and evidence[r].clause == evidence[j].clause]
            if governing:
                owners.add(rivals[max(governing)])
        if owners and verb.stem not in owners:
            other = next(e.text for j, e in enumerate(evidence) if j in rivals and e.stem != verb.stem)
            return [f"{verb.text} {claim[k].text} ≠ {other} {claim[k].text}"]
    return []


def _turned_round(claim: list[Token], before: list[int], after: list[int], j: int, evidence: list[Token],
                  aligned: dict[int, list[int]]) -> bool:
    """The claim's word before the relation stands after it in the evidence, and the other way round.
    A word on both sides of the claim's relation ("Storm Isadora … than Storm Odette") tells nothing."""
    both = {claim[k].stem for k in before} & {claim[k].stem for k in after}
    before = [k for k in before if claim[k].stem not in both]
    after = [k for k in after if claim[k].stem not in both]
    before_after = any(j2 > j for k in before for j2 in aligned[k] if evidence[j2].clause == evidence[j].clause)
    after_before = any(j2 < j for k in after for j2 in aligned[k] if evidence[j2].clause == evidence[j].clause)
    return before_after or after_before
