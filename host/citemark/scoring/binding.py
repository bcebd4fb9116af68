"""Binding checks: does the evidence attach the claim's words the way the claim does?

The presence guards (``guards.py``) ask whether a claim's figures and names are
*in* the source. That is not enough: "Rust uses a garbage collector" shares every
word with "Rust enforces memory safety without a garbage collector", "Everest is
8,611 m tall" finds 8,611 m in the sentence about K2, and "designed by Brendan
Eich" finds Brendan Eich among the contributors. A small model rewards the
overlap. These checks read the evidence's structure instead, with rules a reader
can follow, and each names what it found:

- **negation scope**: a negation or privative word in the evidence ("not",
  "without", "no longer", "rather than", "instead of", "fails to", "far from")
  whose scope holds the words of the clause that states the claim, while the
  claim asserts them;
- **opposites**: a claim word the aligned evidence replaces by its opposite
  ("absorbs" / "reflects"), unless a comparison is merely turned round ("A is
  heavier than B" and "B is lighter than A" say the same);
- **figure binding**: a figure of the claim that the evidence gives for another
  subject or another year;
- **role binding**: a name of the claim that the evidence puts in another role
  (the clause holding the claim's relation word names someone else);
- **role reversal**: the two parties of the claim's relation swapped ("A beat B"
  against "B beat A"), with passive voice read as such;
- **quantifiers**: the claim says "all", "always", "will" or "proves" where the
  evidence says "most", "often", "may" or "suggests";
- **dates**: a year of the claim that the source gives to another event, while the
  clause with the claim's event word gives another year ("completed in 2019").

Precision is the point: a check that cannot tell stays silent, so that what it
reports can be trusted to keep a false claim from being badged supported.

Run ``python -m citemark.scoring.binding`` for a small demonstration.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from citemark.scoring import relations
from citemark.scoring.lexical import stem
from citemark.scoring.quantities import Quantity, comparable, parse_quantities, same_quantity

__all__ = ["Binding", "Token", "check", "opposite_pairs", "tokenize"]


def _words(text: str) -> list[str]:
    return text.split()


def _stem(word: str) -> str:
    """The lexical stem, taken twice, so that "buildings" and "building" meet at "build", and
    without a final "e", so that "include" and "includes" meet at "includ"."""
    stemmed = stem(stem(word))
    return stemmed[:-1] if len(stemmed) > 4 and stemmed.endswith("e") else stemmed


def _inflections(word: str) -> set[str]:
    """The stems of a word's usual forms: "oppose" → oppose, opposes, opposed, opposing."""
    forms = {word, word + "s", word + "ed", word + "ing", word + "es"}
    if word.endswith("e"):
        forms |= {word + "d", word[:-1] + "ing"}
    return {_stem(form) for form in forms}


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    lower: str
    stem: str
    start: int
    end: int
    sentence: int
    clause: int
    capital: bool
    joined: bool = False  # only spaces (or "&") between it and the word before ("Mozilla Research", not "March, JetBlue")


@dataclass(frozen=True, slots=True)
class Binding:
    """What the evidence attaches differently from the claim (each item a short, readable phrase)."""

    negated: tuple[str, ...] = ()  # claim words the evidence states under a negation (or the reverse)
    opposites: tuple[str, ...] = ()  # "absorbs ≠ reflects"
    unbound_figures: tuple[str, ...] = ()  # "8,611 m (the source gives it for K2)"
    other_roles: tuple[str, ...] = ()  # "Brendan Eich (designed: the source names Graydon Hoare)"
    reversed_roles: tuple[str, ...] = ()  # "tenant / landlord (pay)"
    overstated: tuple[str, ...] = ()  # "all ≠ most"
    redated: tuple[str, ...] = ()  # "2015 (the source dates it 2019)"

    @property
    def conflicts(self) -> bool:
        return bool(self.negated or self.opposites or self.unbound_figures or self.other_roles
                    or self.reversed_roles or self.redated)


_WORD = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*|[;:\u2014]|\s[\u2013-]\s", re.UNICODE)
#: A clause ends at these words when a comma stands before them ("…, with contributions from …").
_COMMA_BREAKS = frozenset(["with", "who", "which", "while", "whereas", "but", "although", "though", "unlike",
                           "compared", "followed", "ahead", "behind", "beating", "defeating", "whose", "where",
                           "when", "after", "before", "as", "making", "leaving", "and"])
_BREAKS = frozenset(["but", "whereas", "while", "although", ";", ":", "—", "–", "-"])
_RELATIVES = frozenset(["which", "who", "whose"])
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*\s+(?=[\"'“‘(\[]*[A-Z0-9])|\n+")


def tokenize(text: str) -> list[Token]:
    """Words with their sentence and clause numbers (punctuation only marks boundaries)."""
    sentence_starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text)]
    tokens: list[Token] = []
    sentence = clause = 0
    boundary = 1
    relative = False  # the clause is a relative one opened by ", which" / ", who"
    for match in _WORD.finditer(text):
        raw = match.group().strip()
        while boundary < len(sentence_starts) and match.start() >= sentence_starts[boundary]:
            boundary += 1
            sentence += 1
            clause += 1
            relative = False
        if raw in _BREAKS:
            clause += 1
            relative = False
            continue
        lower = "".join(ch for ch in unicodedata.normalize("NFKD", raw.lower()) if not unicodedata.combining(ch))
        if not lower:
            continue  # a lone combining mark ("ﾞ")
        before = text[max(0, match.start() - 2) : match.start()]
        if "," in before and lower in _COMMA_BREAKS or lower in _BREAKS or (
                lower == "from" and tokens and tokens[-1].lower in ("up", "down")) or (
                lower in ("with", "to") and tokens and tokens[-1].lower == "compared"):
            clause += 1  # "…, down from 4.6 million": the figure compared with is another clause's
            relative = "," in before and lower in _RELATIVES
        elif relative and "," in before and _past_or_present(lower):
            clause += 1  # "KR-2, which was developed by …, broke down 62%": the main clause goes on
            relative = False
        token_stem = lower.replace(",", "") if lower[0].isdigit() else _stem(
            _LEMMAS.get(lower, re.sub(r"['’]s$", "", lower)))
        joined = bool(tokens) and text[tokens[-1].end : match.start()].strip() in ("", "&")  # "Holt & Greaves"
        tokens.append(Token(raw, lower, token_stem, match.start(), match.end(), sentence, clause, raw[0].isupper(),
                            joined))
    return tokens


# ---------------------------------------------------------------------------------------- words

_STOP = frozenset(
    _words("a an the of to in on at by for from with as is are was were be been being has have had do does did it its "
    "this that these those there their his her he she they we you i and or so than then also which who whom whose "
    "what when where while about into over under after before during between among per via s off him them me us "
    "itself himself herself themselves can could will "
    "would may might must should shall")
)


def _content(token: Token) -> bool:
    return token.lower not in _STOP and token.lower not in _NEGATORS and len(token.lower) > 1


def _aligned(claim: list[Token], evidence: list[Token]) -> dict[int, list[int]]:
    """Claim token index → the evidence token indexes with the same stem (content words only)."""
    where: dict[str, list[int]] = {}
    for j, token in enumerate(evidence):
        if _content(token):
            where.setdefault(token.stem, []).append(j)
    return {i: where[t.stem] for i, t in enumerate(claim) if _content(t) and t.stem in where}


# ------------------------------------------------------------------------------------- negation

_NEGATORS = frozenset(["not", "no", "never", "none", "neither", "nor", "without", "cannot", "lacks", "lack",
                       "lacked", "lacking", "nobody", "nothing", "nowhere", "n't", "absent"])
#: Multi-word negators, as lower-case word sequences.
_PHRASES = (("no", "longer"), ("rather", "than"), ("instead", "of"), ("far", "from"), ("fails", "to"),
            ("failed", "to"), ("fail", "to"), ("unable", "to"), ("refused", "to"), ("refuses", "to"),
            ("free", "of"), ("absence", "of"), ("ruled", "out"), ("rules", "out"), ("other", "than"),
            ("stops", "short", "of"), ("stopped", "short", "of"), ("stop", "short", "of"), ("decided", "against"),
            ("voted", "against"), ("opted", "against"), ("declined", "to"), ("declines", "to"), ("yet", "to"),
            ("rejected", "calls", "to"), ("rejected", "a", "proposal", "to"), ("rejected", "plans", "to"))
#: The first words of the multi-word cues, as a clause's sign that it negates something.
_PRIVATIVE_WORDS = frozenset(phrase[0] for phrase in _PHRASES) - {"other", "free", "far", "yet"}
#: Contrastive privatives: "MQL rather than SQL" says the claim's "SQL" is the road not taken.
CONTRASTIVE = ("rather than", "instead of")
#: Words after "not" that make it deny nothing, or deny only a degree ("not only", "no later than").
_NOT_DENYING = frozenset(["only", "just", "merely", "simply", "least", "until", "later", "earlier", "less",
                          "more", "fewer", "doubt", "sooner", "unlike", "unusual", "uncommon", "surprisingly"])
_AUXILIARIES = frozenset(_words("is are was were has have had can could will would may might must should does did shall"))
_PRONOUNS = frozenset(_words("i you he she it we they this that there"))
#: How many words a negation reaches.
SCOPE = 8
#: Privatives bind only their object: "without a garbage collector", "instead of oil".
PRIVATIVE_SCOPE = 5


def _negation_scopes(tokens: list[Token], reach: int | None = None) -> list[tuple[int, int, str]]:
    """(first, last, cue) token ranges that a negation covers, within one clause (``reach``: how
    many words a plain negation covers at most)."""
    plain_reach = SCOPE if reach is None else reach
    scopes = []
    n = len(tokens)
    i = 0
    while i < n:
        token = tokens[i]
        lower = token.lower
        cue, width, reach = None, 1, plain_reach
        for phrase in _PHRASES:
            if tuple(t.lower for t in tokens[i : i + len(phrase)]) == phrase:
                cue, width = " ".join(phrase), len(phrase)
                reach = PRIVATIVE_SCOPE if phrase in (("rather", "than"), ("instead", "of"), ("free", "of"),
                                                      ("other", "than")) else plain_reach
                break
        if cue is None and (lower in _NEGATORS or lower.endswith("n't")):
            cue = lower
            if lower == "without":
                reach = PRIVATIVE_SCOPE
        if cue is None:
            i += 1
            continue
        following = tokens[i + width] if i + width < n else None
        soon = {t.lower for t in tokens[i + width : i + width + 3]}
        if (cue in ("not", "no") or cue.endswith("n't")) and (following is not None and following.lower in _NOT_DENYING
                                                             or soon & {"only", "just", "merely", "solely"}):
            i += width
            continue
        if cue == "not" and i > 0 and tokens[i - 1].lower in ("if", "whether", "or"):
            i += width
            continue
        if following is not None and following.lower in _PRONOUNS and cue.endswith("n't"):
            i += width  # "aren't they", "isn't it": a tag question denies nothing
            continue
        last = i + width - 1
        while last + 1 < n and last + 1 - (i + width) < reach and tokens[last + 1].clause == token.clause:
            nxt = tokens[last + 1]
            if not nxt.joined and last + 1 > i + width:
                break  # "but not naive, CD4+ cells …": a comma ends what a negation covers
            if nxt.lower in ("and", "or") and last + 2 < n and (tokens[last + 2].lower in _AUXILIARIES | _PRONOUNS | {
                    "then", "plus", "also", "so", "yet", "still"} or _past_or_present(tokens[last + 2].lower)):
                break  # "refuses to do it and considers leaving": the second verb is its own
            if nxt.lower in ("but", "which", "because", "so", "since"):
                break
            if nxt.lower == "that" and not _reports(tokens[last]):
                break  # "the cells that produce" ends it; "stops short of claiming that …" does not
            last += 1
        if last >= i + width:
            scopes.append((i + width, last, cue))
        # A cue's own scope is also reached backwards for "X is absent", "X was ruled out".
        if cue in ("absent", "ruled out", "rules out") and i > 0:
            scopes.append((max(0, i - 3), i - 1, cue))
        i += width
    return scopes


def _reports(token: Token) -> bool:
    """A verb whose "that" clause it governs: "claiming that", "did not say that"."""
    return token.lower.endswith("ing") or _lemma(token.lower) in _REPORTING


_REPORTING = frozenset(["say", "said", "claim", "show", "prove", "suggest", "find", "think", "believ", "expect",
                        "confirm", "stat", "report", "mean", "conclud", "agre"])


def _covered(scopes: list[tuple[int, int, str]], index: int) -> str | None:
    for first, last, cue in scopes:
        if first <= index <= last:
            return cue
    return None


def _negation_conflicts(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]]) -> list[str]:
    """Negated words of the clauses that state most of the claim ("… without a garbage collector"),
    when the claim asserts them. (A claim that negates what the evidence states without any
    negation is ``GuardResult.negation_mismatch``.)"""
    claim_scopes = _negation_scopes(claim, reach=SCOPE + 6)  # generous: "could not afford … to compete"
    evidence_scopes = _negation_scopes(evidence)
    words = [i for i in aligned if not claim[i].lower[0].isdigit()]
    clauses: dict[int, set[int]] = {}
    for i in words:
        for j in aligned[i]:
            clauses.setdefault(evidence[j].clause, set()).add(i)
    if not clauses:
        return []
    denied = _denied_by_claim(claim, evidence, aligned, claim_scopes, evidence_scopes, clauses)
    if denied:
        return denied
    for first, last, cue in evidence_scopes:
        if cue not in CONTRASTIVE:
            continue
        rejected = [i for i in words if any(first <= j <= last for j in aligned[i]) and not _covered(claim_scopes, i)]
        chosen = next((evidence[j] for j in range(first - len(cue.split()) - 1, -1, -1) if _content(evidence[j])), None)
        if len(clauses.get(evidence[first].clause, ())) < max(len(found) for found in clauses.values()):
            continue  # not the clause that states the claim
        if rejected and chosen is not None and chosen.stem not in {t.stem for t in claim}:
            return [f"{claim[rejected[0]].text} (the source: “{chosen.text} {cue} {claim[rejected[0]].text}”)"]
    negative_claim = any(t.lower in _NEGATORS or t.lower.endswith("n't") for t in claim)
    for i in words:
        if negative_claim:
            break  # "have found no evidence", "while mixtures are not": the claim denies something itself
        if _claim_verb(claim, i) and _covered(claim_scopes, i) is None and all(
                _covered(evidence_scopes, j) for j in aligned[i]):
            scope = next(sc for sc in evidence_scopes if sc[0] <= aligned[i][0] <= sc[1])
            if _someone_else(claim, i, evidence, scope[0] - len(scope[2].split()), aligned):
                continue  # "the company did not take part" says nothing against "2,300 adults took part"
            objects = _neighbours(claim, i, aligned, +1, 3)
            verb_at = aligned[i][0]
            if objects and all(j > scope[1] and evidence[j].clause != evidence[verb_at].clause
                               for k in objects for j in aligned[k]):
                continue  # "not permitted on Hollm but allowed on Ulla" says nothing against "permitted on Ulla"
            return [f"{claim[i].text} (the source: “{scope[2]} … {evidence[aligned[i][0]].text}”)"]
    scoped_in: dict[int, list[tuple[int, str]]] = {}
    for clause, stated in clauses.items():
        scoped = []
        for i in stated:
            cues = [_covered(evidence_scopes, j) for j in aligned[i] if evidence[j].clause == clause]
            if cues and all(cues) and _covered(claim_scopes, i) is None:
                scoped.append((i, cues[0]))
        if scoped and len(scoped) * 3 >= len(stated):
            scoped_in[clause] = scoped
    for clause, scoped in list(scoped_in.items()):
        cue_at = next((first - len(cue.split()) for first, _, cue in evidence_scopes
                       if evidence[first].clause == clause), None)
        if cue_at is not None and _someone_else(claim, min(i for i, _ in scoped), evidence, cue_at, aligned):
            del scoped_in[clause]  # the negated clause is about someone else ("the company did not take part")
            clauses = {c: stated for c, stated in clauses.items() if c != clause}
    for clause in list(scoped_in):
        # The claim negates what that clause negates ("does not guarantee the bonds" against "the bonds are
        # not guaranteed by …"): the two agree, whatever else the clause's negation reaches.
        if any(_covered(claim_scopes, i) for i in clauses[clause]):
            del scoped_in[clause]
            clauses = {c: stated for c, stated in clauses.items() if c != clause}
    plain = [stated for clause, stated in clauses.items() if clause not in scoped_in]
    best_plain = max((len(stated) for stated in plain), default=0)
    found = []
    for clause, scoped in scoped_in.items():
        # A negated clause counts when no plain clause states more of the claim, and what it
        # negates is not stated plainly there ("carries road traffic only; it has never carried trains").
        if len(clauses[clause]) < best_plain:
            continue
        unstated = [(i, cue) for i, cue in scoped if not any(i in stated for stated in plain
                                                             if len(stated) == best_plain)]
        found += [f"{claim[i].text} (the source: “{cue} … {claim[i].text}”)" for i, cue in sorted(unstated)]
    if not found and words and not claim_scopes:
        # What the claim ends on (its object or complement) is stated only under a negation.
        last = max(words)
        cues = [_covered(evidence_scopes, j) for j in aligned[last]]
        if all(cues) and _covered(claim_scopes, last) is None:
            found.append(f"{claim[last].text} (the source: “{cues[0]} … {claim[last].text}”)")
    if not found and not negative_claim:
        # A negated clause with the claim's verb holds the word that sets the claim apart, which no
        # plain clause has: "No third planet was found" against "found a third planet", whatever
        # "Two planets found orbiting …" says.
        plain_words = {i for stated in plain for i in stated}
        for scoped in scoped_in.values():
            denied = dict(scoped)
            verbs = [i for i in denied if _claim_verb(claim, i)]
            apart = [i for i in denied if i not in plain_words and i not in verbs]
            if verbs and apart:
                found.append(f"{claim[apart[0]].text} (the source: “{denied[apart[0]]} … {claim[apart[0]].text}”)")
                break
    return found


def _someone_else(claim: list[Token], verb: int, evidence: list[Token], cue: int,
                  aligned: dict[int, list[int]]) -> bool:
    """Whether the negated clause has a subject of its own that is not the claim's: content words
    before the negation cue, in its clause, none of them a word of the claim."""
    subject = [k for k in range(verb) if claim[k].clause == claim[verb].clause and _content(claim[k])
               and not claim[k].lower[0].isdigit()]
    theirs, j = [], cue - 1
    while j >= 0 and evidence[j].clause == evidence[cue].clause:  # from the word before the cue back
        if _content(evidence[j]) and not evidence[j].lower[0].isdigit():
            theirs.append(j)
        j -= 1
    stated = {j for places in aligned.values() for j in places}
    return bool(subject and theirs) and not stated & set(theirs)


def _denied_by_claim(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
                     claim_scopes: list[tuple[int, int, str]], evidence_scopes: list[tuple[int, int, str]],
                     clauses: dict[int, set[int]]) -> list[str]:
    """The claim negates ("will not join the board") what the clause stating it says plainly
    ("will join the board")."""
    # Only forward cues deny a predicate here: "X is absent from Y" denies X-in-Y, which "home to X" does not state.
    claim_scopes = [_alternative_only(claim, scope) for scope in claim_scopes
                    if scope[2] not in ("absent", "ruled out", "rules out")]
    targets = set()
    for first, last, _cue in claim_scopes:
        target = next((k for k in range(first, last + 1) if _content(claim[k])), None)
        if target is not None:
            targets.add(target)
    if not targets & set(aligned):
        return []  # "showed no remorse during the trial": what is denied (remorse) is not in the source
    # What is denied is a predicate, not the names it is denied of ("Neither Rendle Point nor Gannet Rock has had …").
    negated = [i for i in aligned if _covered(claim_scopes, i) and not claim[i].lower[0].isdigit()
               and not claim[i].capital]
    if not negated:
        return []
    holding = {clause: stated & set(negated) for clause, stated in clauses.items()}
    best = max(len(found) for found in holding.values())
    if best * 2 < len(negated):
        return []
    cues = [j for j, t in enumerate(evidence)
            if t.lower in _NEGATORS or t.lower.endswith("n't") or t.lower in _PRIVATIVE_WORDS]
    for clause, found in holding.items():
        places = [j for i in found for j in aligned[i] if evidence[j].clause == clause]
        cued = any(evidence[j].clause == clause and j < max(places, default=j + 1)  # a cue denies what follows it
                   and not _verb_between(evidence, j, min(places, default=j)) for j in cues)
        if len(found) == best and (cued or any(_covered(evidence_scopes, j) for j in places)):
            return []  # the source negates it too ("unable, due to her condition, to attend")
    i = min(negated)
    return [f"{claim[i].text} (the claim says “{_covered(claim_scopes, i)}”; the source states it without)"]


def _alternative_only(tokens: list[Token], scope: tuple[int, int, str]) -> tuple[int, int, str]:
    """"a ferry rather than a bridge links the banks": "rather than" rejects the noun phrase after it,
    not the verb that follows it."""
    first, last, cue = scope
    if cue not in CONTRASTIVE:
        return scope
    verb = next((k for k in range(first + 1, last + 1) if tokens[k].lower in _AUXILIARIES or (
        not tokens[k].capital and _past_or_present(tokens[k].lower) and tokens[k - 1].lower not in _DETERMINERS)), None)
    return (first, verb - 1, cue) if verb is not None else scope


def _verb_between(tokens: list[Token], cue: int, place: int) -> bool:
    """"without a piano part and uses recordings": a verb joined by "and" / "or" after the cue
    and before ``place`` starts what the cue does not deny."""
    return any(tokens[k].lower in ("and", "or") and _past_or_present(tokens[k + 1].lower)
               for k in range(cue + 1, min(place, len(tokens) - 1)))


def _claim_verb(tokens: list[Token], i: int) -> bool:
    """A verb of the claim, as far as a word's form tells: after an auxiliary or "to", or a past form."""
    token = tokens[i]
    if token.capital or not _content(token):
        return False
    if i > 0 and tokens[i - 1].lower in _AUXILIARIES | {"to", "will", "would", "can", "could", "may", "might"}:
        return True
    word = token.lower
    return word in _IRREGULAR or word.endswith("ed") and (
        len(word) > 4 or len(word) == 4 and not word.endswith("eed") and word not in ("shed", "sled"))  # "sued", "owed"


# ------------------------------------------------------------------------------------ opposites

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
        _a, _b = (_inflections(w) for w in _pair_words)
        for _form in _a:
            _OPPOSITE.setdefault(_form, set()).update(_b)
        for _form in _b:
            _OPPOSITE.setdefault(_form, set()).update(_a)


def opposite_pairs() -> list[tuple[str, str]]:
    """The opposite words as written ("rose", "fell"), for tools that make training rows."""
    return [(words[0], words[1]) for words in (pair.split() for pair in _PAIRS.split(";")) if len(words) == 2]


#: Relations that say the same thing turned round: "A is heavier than B" = "B is lighter than A".
_CONVERSE = frozenset(form for w in _words("""heavier lighter faster slower larger smaller bigger smaller higher lower
taller shorter longer shorter older younger newer earlier later before after above below precede follow preceded
followed more less richer poorer stronger weaker wider narrower deeper shallower hotter colder warmer cooler cheaper
lend borrow lent borrowed lender borrower buy sell bought sold buyer seller import export exporter importer
creditor debtor employer employee win lose won lost winner loser parent subsidiary host guest greater fewer
""") for form in _inflections(w))
#: How far (in words) a claim word's neighbours may be from the opposite word in the evidence.
OPPOSITE_REACH = 6


def _opposite_conflicts(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
                        common: frozenset[str] = frozenset()) -> list[str]:
    claim_stems = {t.stem for t in claim}
    evidence_stems = {t.stem for t in evidence}
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
            before, after = _neighbours(claim, i, aligned, -1), _neighbours(claim, i, aligned, +1)
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


def _subject_moved(claim: list[Token], i: int, evidence: list[Token], common: frozenset[str]) -> list[str]:
    """"Wenlow lies at the southern end" where "At its southern end is Carrowby … At the northern end
    … is the village of Wenlow": the evidence gives the claim's subject the opposite word, and the
    claim's word only to others. The subject is the name nearest before the word in its clause."""
    word = claim[i]
    if word.stem in _CONVERSE:
        return []  # "sold to the bottler" is "the bottler bought": the subject moves with the word
    subject = next((run for run in reversed(_names(claim, common)) if run[-1] < i
                    and claim[run[0]].clause == word.clause), None)
    if subject is None or len(subject) == 1 and _demonym(claim[subject[0]].lower):
        return []
    key = _name_key(claim, subject)
    runs = _names(evidence, common)

    def names_in(clause: int) -> tuple[bool, bool]:
        """(the subject is named there, someone else is)"""
        keys = [_name_key(evidence, run) for run in runs if evidence[run[0]].clause == clause]
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
    for k in _neighbours(claim, i, aligned, +1, 3):
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


def _neighbours(tokens: list[Token], i: int, aligned: dict[int, list[int]], step: int, reach: int = 4) -> list[int]:
    """Aligned content words within ``reach`` words of ``i`` on one side, nearest first, same clause."""
    result, k = [], i + step
    while 0 <= k < len(tokens) and abs(k - i) <= reach and tokens[k].clause == tokens[i].clause:
        if k in aligned:
            result.append(k)
        k += step
    return result


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


# ------------------------------------------------------------------------------- figure binding

_UNIT_WORDS = frozenset(_stem(w) for w in _words("""m km cm mm metre metres meter meters kilometre kilometres kilometer
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
_MONTH_WORDS = frozenset(_words("""january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec"""))


def _date_part(text: str, quantity: Quantity) -> bool:
    """"May 7", "7 May": a day of a date, not a figure of its own."""
    before = text[max(0, quantity.start - 12) : quantity.start].lower().split()
    after = text[quantity.end : quantity.end + 12].lower().split()
    return bool(before and before[-1].strip(".,") in _MONTH_WORDS or after and after[0].strip(".,") in _MONTH_WORDS)


def _figure_conflicts(claim_text: str, claim: list[Token], evidence_text: str, evidence: list[Token],
                      common: frozenset[str] = frozenset(), document_figures: tuple[Quantity, ...] = ()) -> list[str]:
    """A claim figure found in the evidence only where the evidence attaches it to something else."""
    claim_quantities = parse_quantities(claim_text)
    evidence_quantities = parse_quantities(evidence_text)
    if not claim_quantities or not evidence_quantities or len(evidence_quantities) > MAX_FIGURES:
        return []  # a table of figures is beyond what these rules can read
    series = _series(evidence)
    layout = _Layout(evidence, evidence_quantities, common, series)
    # The claim's names as the claim alone shows them, and with its sentence opener read as a name
    # where no text writes it in lower case ("Pelby had …"): the figure is misattached if either says so.
    readings = [_names(claim, series=series)]
    if (opened := _names(claim, common, series)) != readings[0]:
        readings.append(opened)
    # A number in a product line's name is no figure: "Brevantil 200" has no 200 puffs.
    claim_named = {i for run in readings[-1] for i in run if series and claim[i].lower.isdigit()}
    evidence_named = {i for run, _ in layout.runs for i in run if series and evidence[i].lower.isdigit()}
    found = []
    for quantity in claim_quantities:
        # What the claim attaches this figure to: its words and names within a few words of it.
        at = _token_at(claim, quantity.start) or 0
        near = range(max(0, at - FIGURE_REACH), at + FIGURE_REACH + 1)
        claim_context = {t.stem for k, t in enumerate(claim) if k in near and _content(t) and not t.lower[0].isdigit()
                         and t.stem not in _UNIT_WORDS and not any(q.start <= t.start < q.end for q in claim_quantities)}
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
                    other := _stated_otherwise(quantity, layout, claim_context, _name_key_of(claim, readings[0]))):
                found.append(f"{quantity.text} (the source gives {other.text} where the claim's words are)")
            continue
        verdicts = []
        for place in places:
            reasons = []
            for runs in readings:
                local = [run for run in runs if any(k in near for k in run)] or runs
                claim_names = _name_key_of(claim, local)
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


def _name_key_of(tokens: list[Token], runs: list[list[int]]) -> frozenset[str]:
    """The word stems of all the names in ``runs``."""
    return frozenset().union(*(_name_key(tokens, run) for run in runs))


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
    if not quantity.noun or quantity.noun in _STOP:
        return None
    stated = layout.quantities
    places = [q for q in stated if same_quantity(quantity, q) and comparable(quantity, q)]
    if not places or any(not q.noun or q.noun == quantity.noun or q.noun in _STOP for q in places):
        return None
    rivals = [q for q in stated if q.kind == quantity.kind and q.value != quantity.value]
    if len(rivals) != 1:
        return None
    context = claim_context - {_stem(quantity.noun)}

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
                      and _past_or_present(evidence[i + 1].lower))
            opened = first.get(evidence[i - 1].clause, 0) if same else 0
            resumed = (same and opened > 0 and evidence[opened].lower in _RELATIVES and _past_or_present(token.lower)
                       and evidence[opened - 1].sentence == token.sentence)
            self.owner[token.clause] = (self.owner[evidence[i - 1].clause] if elided else
                                        self.owner[evidence[opened - 1].clause] if resumed else token.clause)
        self.stems: dict[tuple[str, int], set[str]] = {}
        for i, token in enumerate(evidence):
            self.stems.setdefault(self.unit(i, True), set()).add(token.stem)
            self.stems.setdefault(("sentence", token.sentence), set()).add(token.stem)
        self.runs = [(run, _name_key(evidence, run)) for run in _names(evidence, common, series)]
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
            return [(tuple(self.evidence[i].stem for i in run if self.evidence[i].lower not in _PARTICLES), key)
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


def _date_conflicts(claim_text: str, claim: list[Token], evidence_text: str, evidence: list[Token]) -> list[str]:
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
            claim[k].lower in _IRREGULAR or claim[k].lower in _LEMMAS or _claim_verb(claim, k)
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


# --------------------------------------------------------------------------------- role binding

#: Small words inside names ("Karl von Frisch", "Duke of Sussex").
_PARTICLES = frozenset(["von", "van", "de", "la", "of", "der"])


def _model_number(tokens: list[Token], i: int) -> bool:
    """"Arc 5 weighs", "Brevantil 200 is", "City 3 Plus": a plain number after a name, before a verb,
    a name or the end, is the name's; "Kellenburg 120,000 thalers" is a figure."""
    if not tokens[i].lower.isdigit():
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) and tokens[i + 1].sentence == tokens[i].sentence else None
    return following is None or following.capital or following.lower in _BE or _past_or_present(following.lower)


def _series(tokens: list[Token]) -> frozenset[str]:
    """Capitalised words the text writes with two or more numbers after them, a product line's
    name: "Brevantil 100 … Brevantil 200", "the City 3 … the City 5"."""
    numbers: dict[str, set[str]] = {}
    for i, token in enumerate(tokens):
        if i and token.joined and token.lower.isdigit() and tokens[i - 1].capital:
            numbers.setdefault(tokens[i - 1].stem, set()).add(token.lower)
    return frozenset(word for word, seen in numbers.items() if len(seen) > 1)


def _names(tokens: list[Token], common: frozenset[str] = frozenset(), series: frozenset[str] = frozenset()
           ) -> list[list[int]]:
    """Runs of capitalised words. A lone sentence opener is a name when the text also capitalises it
    mid-sentence, or when ``common`` (the words the texts write in lower case) is given and lacks it:
    "Pelby had a population of …" names Pelby where no text writes "pelby". A number after a word
    of a ``series`` is part of the name ("Brevantil 200 inhaler")."""
    runs: list[list[int]] = []
    run: list[int] = []
    for i, token in enumerate(tokens):
        particle = token.lower in _PARTICLES and run and token.joined
        # "GR-2", "Kessler-42", "F-16": a number joined to a name by one character is part of it.
        numbered = bool(run) and token.lower[0].isdigit() and (
            token.start - tokens[i - 1].end == 1 and not token.joined or token.joined and (
                _model_number(tokens, i) or token.lower.isdigit() and tokens[i - 1].stem in series))
        # "Kessler-42 c", "Gliese 581 b": a lone letter after a numbered name is its last part.
        lettered = bool(run) and len(token.lower) == 1 and token.lower.isalpha() and not token.capital \
            and tokens[i - 1].lower[0].isdigit() and token.joined
        if numbered or lettered:
            run.append(i)
            continue
        if run and not token.joined:
            runs.append(run)
            run = []
        bare = re.sub(r"['’]s$", "", token.lower)
        if token.text.isupper() and len(token.text) == 3 and i + 1 < len(tokens) and tokens[i + 1].lower[0].isdigit():
            bare = "usd"  # "NOK 11.2 billion": a currency, not a party
        if (token.capital and not token.lower[0].isdigit() and bare not in _STOP and bare not in _CALENDAR) or particle:
            run.append(i)
            continue
        if run:
            runs.append(run)
        run = []
    if run:
        runs.append(run)
    cleaned = []
    midsentence = {tokens[r[0]].lower for r in runs if r[0] > 0 and tokens[r[0] - 1].sentence == tokens[r[0]].sentence}
    for r in runs:
        while r and tokens[r[-1]].lower in _PARTICLES:
            r = r[:-1]
        opens = r and (r[0] == 0 or tokens[r[0] - 1].sentence != tokens[r[0]].sentence)
        if opens and len(r) == 1 and tokens[r[0]].lower not in midsentence and (
                not common or re.sub(r"['’]s$", "", tokens[r[0]].lower) in common):
            continue  # "Calder sued" counts where the text also writes "paid Calder"
        if r:
            cleaned.append(r)
    return cleaned


#: Days and months are capitalised but name no party: "overnight Monday about 2 miles".
_CALENDAR = frozenset(_words("""usd monday tuesday wednesday thursday friday saturday sunday january february march april
june july august september october november december"""))


def _name_key(tokens: list[Token], run: list[int]) -> frozenset[str]:
    return frozenset(tokens[i].stem for i in run if tokens[i].lower not in _PARTICLES)


#: Nouns that name a role a person fills: "the winner was N", "N, the designer, …", "founder N".
_ROLE_NOUNS = frozenset(_stem(w) for w in _words("""winner champion designer creator inventor founder cofounder author
writer editor director producer composer discoverer captain coach manager ceo chairman chairwoman chair president
judge plaintiff defendant prosecutor lender borrower buyer seller architect engineer pilot leader runner-up
runner nominee recipient laureate curator conductor presenter host owner chief head sponsor investigator
statistician translator illustrator publisher narrator drummer guitarist bassist singer vocalist goalkeeper
striker witness barrister solicitor lawyer attorney claimant respondent appellant landlord tenant treasurer
secretary spokesperson spokesman spokeswoman analyst physician surgeon supervisor chancellor mayor governor
ambassador commissioner inspector referee umpire""".lower()))
_DETERMINERS = frozenset(_words("the a an its their his her our this that these those whose"))


def _slot(tokens: list[Token], run: list[int]) -> tuple[str, str] | None:
    """The role a name fills in its clause: ("by", "designed") for "designed by N", ("subject",
    "designed") for "N designed", ("role", "winner") for "the winner, N" / "N was the winner"."""
    first, last = run[0], run[-1]
    if len(run) == 1 and _demonym(tokens[first].lower):
        return None  # "a Dutch astronomer", "by American band X": an attribute, not a party
    if tokens[last].lower.endswith(("'s", "’s")):
        return None  # "Veloran's product lead": the name owns the role, it does not fill it
    for k in range(first - 1, max(0, first - 5), -1):  # "created by the Danish engineer Aksel Brandt"
        if tokens[k].lower == "by":
            verb = next((v for v in range(k - 1, max(-1, k - 4), -1) if _claim_verb(tokens, v)), k - 1)
            # "by the Danish engineer Aksel Brandt", and "by our partner, Dunmere College" (a noun in apposition)
            apposed = first - k <= 4 and tokens[k + 1].lower in _DETERMINERS and not any(
                t.capital for t in tokens[k + 1 : first])
            if k >= 1 and _content(tokens[verb]) and (all(t.joined for t in tokens[k + 1 : first + 1]) or apposed):
                return ("by", _lemma(tokens[verb].lower))  # "translated into German by N": the verb, not "German"
            break
        apposition = k + 1 == first and k > 0 and tokens[k - 1].lower in _DETERMINERS  # "our partner, N"
        if tokens[k].lower in _LINKS or not tokens[k + 1].joined and not apposition:
            break
    for k in range(max(0, first - 3), first):
        between = {t.lower for t in tokens[k + 1 : first]}
        if tokens[k].stem in _ROLE_NOUNS and tokens[k].clause == tokens[first].clause and not between & _LINKS:
            return ("role", _title(tokens, k))
    after = [t for t in tokens[last + 1 : last + 6] if t.clause == tokens[last].clause]
    for n, t in enumerate(after):
        verb = n == 0 and len(after) > 1 and after[1].lower in _DETERMINERS and _past_or_present(t.lower)
        if t.stem in _ROLE_NOUNS and not verb and not {u.lower for u in after[:n]} & _LINKS:
            return ("role", _title(tokens, last + 1 + n))  # "N chairs the panel" is no "chair" role
    if first > 0 and tokens[first - 1].lower in _DETERMINERS:
        return None
    head = after[0] if after else None
    if head is not None and head.lower in ("originally", "first", "later", "also", "has", "had", "was", "then"):
        head = after[1] if len(after) > 1 else None
    if head is not None and _content(head) and not head.capital and _past_or_present(head.lower):
        return ("subject", _lemma(head.lower))
    return None


#: Titles of more than one word, by their words' stems, as one role: "chief executive" is the CEO,
#: "chief financial officer" the CFO (both would otherwise read as the role "chief").
_TITLES = {tuple(_stem(w) for w in phrase.split()): title for phrase, title in (
    ("chief executive", "ceo"), ("chief executive officer", "ceo"), ("chief financial officer", "cfo"),
    ("chief operating officer", "coo"), ("chief technology officer", "cto"), ("chief technical officer", "cto"),
    ("finance director", "cfo"), ("managing director", "managing director"), ("head coach", "coach"),
    ("lead investigator", "lead investigator"), ("principal investigator", "lead investigator"),
    ("chief investigator", "lead investigator"), ("chief engineer", "chief engineer"),
    ("chief scientist", "chief scientist"), ("head of product", "head of product"))}
_TITLES.update({(_stem(title),): title for title in ("ceo", "cfo", "coo", "cto")})


#: Officer titles one person holds one of at a time.
_OFFICERS = frozenset(["ceo", "cfo", "coo", "cto"])


def _title(tokens: list[Token], k: int) -> str:
    """The role named by the role noun at ``k`` and the words after it: "chief executive" → "ceo",
    a lone "winner" → its stem."""
    for width in (3, 2):
        words = tuple(t.stem for t in tokens[k : k + width] if t.clause == tokens[k].clause)
        if len(words) == width and words in _TITLES:
            return _TITLES[words]
    return _TITLES.get((tokens[k].stem,), tokens[k].stem)


_LEMMAS = {"wrote": "write", "written": "write", "writes": "write", "led": "lead", "leads": "lead", "won": "win",
           "began": "begin", "begun": "begin", "built": "build", "made": "make", "makes": "make", "gave": "give",
           "given": "give", "took": "take", "taken": "take", "held": "hold", "holds": "hold", "sang": "sing",
           "sung": "sing", "drew": "draw", "drawn": "draw", "ran": "run", "beat": "beat", "beaten": "beat",
           "sold": "sell", "bought": "buy", "taught": "teach", "chose": "choose", "chosen": "choose",
           "oversaw": "oversee", "overseen": "oversee", "found": "find", "spoke": "speak", "broke": "break"}


def _lemma(word: str) -> str:
    """One key for a verb's forms: "designed", "designs", "design" → "design"; "wrote", "written" → "write"."""
    if word in _LEMMAS:
        return _LEMMAS[word]
    return _stem(word).removesuffix("e")


#: Words between a role noun and a name that make the name its object: "director *of* George Lopez".
_LINKS = frozenset(_words("of for at to in on from with about"))
_IRREGULAR = frozenset(_words("""won built wrote led made found beat took gave sold bought lost ran drew began became
held sang taught brought met paid kept left told saw chose struck shot threw drove rode flew grew knew oversaw spoke
broke stole sent set put hit cut read lent"""))
_DEMONYMS = frozenset(_words("""dutch french greek thai swiss irish welsh scottish british english danish swedish
finnish polish turkish spanish czech scots"""))


def _past_or_present(word: str) -> bool:
    """A verb form a name can be the subject of: "designed", "makes", "won"."""
    return word in _IRREGULAR or (len(word) > 3 and word.endswith(("ed", "es", "s")) and not word.endswith("ss"))


def _demonym(word: str) -> bool:
    return word in _DEMONYMS or (len(word) > 4 and word.endswith(("ian", "ean", "ese", "ish")))


def _fillers(tokens: list[Token], names: list[list[int]], slot: tuple[str, str]) -> list[list[int]]:
    """The names that fill ``slot`` in ``tokens`` (an active subject and a passive agent fill the same slot)."""
    kind, word = slot
    found = []
    for run in names:
        other = _slot(tokens, run)
        if other is None:
            continue
        if other[1] == word and (other[0] == kind or {other[0], kind} == {"by", "subject"}):
            found.append(run)
    return found


def _role_conflicts(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
                    common: frozenset[str] = frozenset()) -> list[str]:
    """A name the claim gives a role ("designed by N") where the evidence gives that role to another name."""
    claim_names = _names(claim, common)
    if not claim_names:
        return []
    negates = bool(_negation_scopes(claim))
    claim_name_stems = _name_key_of(claim, claim_names)
    evidence_names = _names(evidence, common)
    found = []
    for run in claim_names:
        key = _name_key(claim, run)
        slot = _slot(claim, run)
        if slot is None or negates and slot[0] != "role":
            continue  # "N did not design it" denies the relation; a title ("the CEO, N, ruled out …") it keeps
        fillers = _fillers(evidence, evidence_names, slot)
        if any(len(key & _name_key(evidence, other)) * 2 >= len(key) for other in fillers):
            continue
        strangers = [other for other in fillers if not _name_key(evidence, other) & claim_name_stems]
        if strangers:
            names = " ".join(evidence[i].text for i in strangers[0])
            found.append(f"{' '.join(claim[i].text for i in run)} ({slot[1]}: the source names {names})")
        elif (other := _own_role(slot, key, claim, evidence, evidence_names)) is not None:
            found.append(f"{' '.join(claim[i].text for i in run)} ({slot[1]}: the source has them {other})")
    return found


#: Role nouns as the relation they name: "the translator, N" fills the slot of "translated by N".
_AGENT_NOUNS = {_stem(noun): verb for noun, verb in (
    ("designer", "design"), ("founder", "found"), ("cofounder", "found"), ("writer", "write"), ("author", "write"),
    ("translator", "translat"), ("builder", "build"), ("inventor", "invent"), ("composer", "compos"),
    ("producer", "produc"), ("director", "direct"), ("creator", "creat"), ("discoverer", "discover"),
    ("editor", "edit"), ("illustrator", "illustrat"), ("publisher", "publish"))}


def _own_role(slot: tuple[str, str], key: frozenset[str], claim: list[Token], evidence: list[Token],
              evidence_names: list[list[int]]) -> str | None:
    """The role the evidence gives the claim's own name when it never gives it the claim's one, while
    stating the claim's relation (for someone): "wrote … translated by Ulrich Becker" against "Ulrich
    Becker wrote", "the statistician, Professor Marcus Tilling" against "Tilling was the lead investigator"."""
    wanted = _AGENT_NOUNS.get(slot[1], slot[1])
    if slot[0] != "role" and not any(_lemma(t.lower) == slot[1] and _claim_verb(claim, k) for k, t in enumerate(claim)):
        return None  # the slot's word is no verb of the claim ("The Salt Harbour, by N")
    theirs = [_slot(evidence, run) for run in evidence_names if len(key & _name_key(evidence, run)) * 2 >= len(key)]
    if slot[0] == "role" and slot[1] in _OFFICERS:
        # One officer title against another needs no more: "Chief financial officer N" is not the CEO;
        # every title in the clauses naming N counts ("N, formerly CFO, became chief executive").
        clauses = {evidence[run[0]].clause for run in evidence_names if len(key & _name_key(evidence, run)) * 2 >= len(key)}
        held = {_title(evidence, k) for k, t in enumerate(evidence) if t.clause in clauses and t.stem in _ROLE_NOUNS}
        other = sorted(held & _OFFICERS)
        return f"as {other[0]}" if other and slot[1] not in held else None
    if not any(_AGENT_NOUNS.get(t.stem, _lemma(t.lower)) == wanted or t.stem == slot[1] for t in evidence) and not (
            slot[0] == "role" and any(_slot(evidence, run) == slot for run in evidence_names)):
        return None  # the source does not state the relation at all: presence and the model decide
    # Like with like: a relation (a verb, or a role noun that names one) against relations, any other
    # role noun against role nouns ("statistician" against "investigator").
    relation = slot[0] != "role" or slot[1] in _AGENT_NOUNS
    # Only the attachments that say one thing: "by" and role nouns. A subject slot reads the first verb
    # after a name, and one party does several things ("Osterlund moved … and paid Calder").
    roles = {(kind, _AGENT_NOUNS.get(word, word)) for kind, word in (s for s in theirs if s is not None)
             if kind != "subject" and (kind != "role" or word in _AGENT_NOUNS) == relation}
    if not roles or any(word == wanted for _, word in roles):
        return None
    kind, word = sorted(roles)[0]
    return f"{word} by" if kind == "by" else f"as {word}"


# ------------------------------------------------------------------------------ role reversal

_SYMMETRIC = frozenset(_stem(w) for w in _words("""married met meet played play drew draw tied tie merged merge
collaborated collaborate partnered partner versus vs against with and between compete competed shared share
signed sign faced face fought fight debated debate"""))
_BE = frozenset(_words("is are was were be been being get got gets"))


def _passive(tokens: list[Token], verb: int) -> bool:
    """"was beaten", "can be dissolved", "is owed … by": the word before the verb is not its agent
    ("will be joining" is no passive)."""
    if tokens[verb].lower.endswith("ing"):
        return False
    before = [t.lower for t in tokens[max(0, verb - 2) : verb]]
    if before and before[-1] in _BE or len(before) == 2 and before[0] in _BE and before[1].endswith("ly"):
        return True
    return any(t.lower == "by" for t in tokens[verb + 1 : verb + 3])


def _participant(tokens: list[Token], i: int, names: set[int]) -> bool:
    """A party of a relation: part of a name, or a noun after a determiner ("the tenant", "a lender");
    a capitalised function word ("About 400 volunteers") is none."""
    return i in names or (tokens[i].capital and tokens[i].lower not in _NO_PARTY) or (
        i > 0 and tokens[i - 1].lower in _DETERMINERS)


def _verb_like(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    return not token.capital and (i == 0 or tokens[i - 1].lower not in _DETERMINERS) and (
        i + 1 >= len(tokens) or tokens[i + 1].lower != "of")


def _reversals(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
               common: frozenset[str] = frozenset(), read_elsewhere: frozenset[str] = frozenset()) -> list[str]:
    """"A beat B" against "B beat A": the parties of the same verb in swapped roles. Roles are read
    with the voice ("A was beaten by B" is B's win) and the preposition ("bought from A" makes A
    the seller, "lost to A" the winner). One party is enough when it stands in the wrong role and
    nothing there says it the claim's way: "… lost to A" for "A lost to B", "B sued" for "A sued B"."""
    claim_runs, evidence_runs = _names(claim, common), _names(evidence, common)
    claim_names = {i for run in claim_runs for i in run}
    evidence_names = {i for run in evidence_runs for i in run}
    lemmas = [_lemma(t.lower) for t in evidence]  # for the claim verb's synonyms, read once
    found = []
    for v in sorted(aligned):
        if claim[v].stem in _SYMMETRIC or not _verb_like(claim, v) or claim[v].lower[0].isdigit() or not _sure_verb(claim, v):
            continue
        parties = _parties(claim, v, claim_names, 5)
        if len(parties) < 2 or claim[parties[0][0]].stem == claim[parties[1][0]].stem:
            continue
        group = _SAME_VERB.get(_lemma(claim[v].lower), {_lemma(claim[v].lower)})
        if group & read_elsewhere:
            continue  # ``read_elsewhere``: verbs whose parties another reading of the source decides
        places = sorted(set(aligned[v]) | {j for j, lemma in enumerate(lemmas) if lemma in group})
        verdicts = []
        for ev in places:
            if not _verb_like(evidence, ev):
                continue
            theirs = _parties(evidence, ev, evidence_names, 6)
            agree = disagree = 0  # the parties' roles that decide: a shared patient does not outweigh
            for k, role in parties:  # a buyer who is the seller ("bought from A" for "A bought")
                mine = _run_of(claim_runs, k)
                for j, other in theirs:
                    if _same_party(claim, mine, evidence, _run_of(evidence_runs, j)):
                        decides = role != "patient" or other != "patient"
                        agree += other == role and decides
                        disagree += other != role
            verdicts.append("as claimed" if agree and not disagree else f"reversed {disagree}"
                            if disagree and not agree else None)
        wrong = {"reversed 1", "reversed 2", "reversed 3"}
        if "as claimed" in verdicts or not wrong & set(verdicts):
            continue
        found.append(f"{claim[parties[0][0]].text} / {claim[parties[1][0]].text} ({claim[v].text})")
    return sorted(set(found))


def _rewritten_reversals(claim: str, evidence: str, evidence_tokens: list[Token], common: frozenset[str]
                         ) -> list[str]:
    """Reversals of a relation that the claim or the evidence states as a noun or a converse verb
    ("the successor to", "a loan from", "lost to"), read once both are rewritten with its verb, or
    with the copula ("A is a trading name of B")."""
    swapped = relations.swapped(claim, evidence)
    claim_verbs, evidence_verbs = relations.as_verbs(claim), relations.as_verbs(evidence)
    if claim_verbs == claim and evidence_verbs == evidence:
        return swapped
    # A claim verb the source itself uses beside its converse is read there, not in the rewriting:
    # "Corran lost to Elmstead in 2019 but beat them in 2021" states the claim's "Corran beat Elmstead".
    stated = frozenset(_lemma(t.lower) for t in evidence_tokens) & _CONVERSE_REWRITTEN \
        if claim_verbs == claim else frozenset()
    claim_read, evidence_read = tokenize(claim_verbs), tokenize(evidence_verbs)
    return swapped + _reversals(claim_read, evidence_read, _aligned(claim_read, evidence_read), common, stated)


#: The verbs the rewriting gives converse verbs ("lost to" → "beat", "sold to" → "bought").
_CONVERSE_REWRITTEN = frozenset(_lemma(w) for w in ("beat", "bought", "sold"))
#: Verbs that state one relation: "acquired" for "bought", "defeated" for "beat".
_SAME_VERB: dict[str, set[str]] = {}
for _group in (("buy", "acquir", "purchas"), ("beat", "defeat"), ("succeed", "replac")):
    for _member in _group:
        _SAME_VERB[_member] = set(_group)
#: The role a preposition gives the party after a verb: "bought from A", "lost to A", "beaten by A".
_PREPOSITION_ROLES = {"by": "agent", "from": "source", "to": "to"}
#: Nouns of a time phrase ("the same year", "last season"), never a party of a relation.
_TIME_NOUNS = frozenset(_words("same year month week day time season decade century morning evening night"))
#: Prepositions of an adjunct: what follows them is no party of the verb.
_ADJUNCTS = frozenset(_words("""in on at with for over of into onto during after before since under about against
between through across near without within per via as among until"""))


def _parties(tokens: list[Token], verb: int, names: set[int], reach: int) -> list[tuple[int, str]]:
    """The parties of the verb at ``verb`` with their roles: the nearest one before it (its agent, or
    its patient in the passive), and after it the first without a preposition (the patient) and each
    after "by" (the agent), "from" (the source) or "to"."""
    passive = _passive(tokens, verb)
    clause = tokens[verb].clause
    found: list[tuple[int, str]] = []
    before = None
    for k in range(verb - 1, max(-1, verb - reach - 1), -1):
        if tokens[k].clause != clause or tokens[k].lower in _STANDS_IN:
            break  # "The same year, she raised …": the agent is "she", whoever that is
        if _participant(tokens, k, names) and tokens[k].lower not in _TIME_NOUNS:
            before = k
            break
    if before is not None:
        found.append((before, "patient" if passive else "agent"))
    k, preposition, roles = verb + 1, None, set()
    while k < len(tokens) and k <= verb + reach + 6 and tokens[k].clause == clause:
        word = tokens[k].lower
        if word == "to" and k + 1 < len(tokens) and not (tokens[k + 1].capital or tokens[k + 1].lower in _DETERMINERS
                                                         or tokens[k + 1].lower[0].isdigit()):
            break  # "raised $100 million to value the company": another verb's parties follow
        if word in _PREPOSITION_ROLES or word in _ADJUNCTS:
            preposition = word  # "in the survey", "at Millbrook Park": an adjunct, no party of the verb
        elif _participant(tokens, k, names) and (k == 0 or not (k - 1 in names and tokens[k].joined and k - 1 > verb)):
            role = _PREPOSITION_ROLES.get(preposition or "") if preposition else (None if passive else "patient")
            if role == "patient" and k > verb + reach:
                role = None  # an object is near its verb; only "by", "from", "to" reach further
            if role is not None and role not in roles:
                # "his assistant, Jory Penrose": the name a noun stands beside is the party
                named = next((n for n in range(k + 1, min(len(tokens), k + 4)) if n in names
                              and tokens[n].clause == clause), None) if k not in names else None
                found.append((k if named is None else named, role))
                roles.add(role)
            preposition = None
        k += 1
    return found


def _sure_verb(tokens: list[Token], i: int) -> bool:
    """A word that is surely a verb, so its parties can be read: a past form or one after an auxiliary
    ("sued", "lost", "must pay"), or after "to" that follows a verb ("agreed to pay"); not "planets",
    "gigs" or "home to historic imprints"."""
    if not _claim_verb(tokens, i):
        # a present form between a name and a determiner: "Sallowford University teaches the …"
        return 0 < i < len(tokens) - 1 and tokens[i - 1].capital and tokens[i + 1].lower in _DETERMINERS \
            and _past_or_present(tokens[i].lower) and not tokens[i].capital
    if i > 0 and tokens[i - 1].lower == "to":
        return i > 1 and (_claim_verb(tokens, i - 2) or _past_or_present(tokens[i - 2].lower))
    return True


def _same_party(claim: list[Token], mine: list[int], evidence: list[Token], theirs: list[int]) -> bool:
    """One party named twice: every word of one name in the other ("Marra" for "Marra Foods"), not
    a shared surname ("Henry Sallis" is not "Edmund Sallis")."""
    ours, other = {claim[i].stem for i in mine}, {evidence[j].stem for j in theirs}
    return bool(ours & other) and (ours <= other or other <= ours)


def _run_of(runs: list[list[int]], index: int) -> list[int]:
    """The name a token belongs to (all its words), or the token alone."""
    return next((run for run in runs if index in run), [index])


# -------------------------------------------------------------------------------- quantifiers

#: (strong words of a scale, weak words of it): a claim with a strong word is not stated
#: by evidence that uses only the scale's weak words.
_SCALES = (
    ({"all", "every", "entire", "whole", "universally", "everyone", "everybody"},
     {"most", "many", "some", "several", "majority", "few", "half", "part", "much"}),
    ({"most", "majority"}, {"several", "some", "few", "minority", "handful"}),
    ({"always", "invariably", "constantly"}, {"often", "usually", "sometimes", "frequently", "typically",
                                              "generally", "occasionally", "rarely", "mostly", "commonly"}),
    ({"will", "must", "definitely", "certainly", "guarantees", "guaranteed", "always"},
     {"may", "might", "could", "can", "possibly", "likely", "probably", "perhaps", "potentially", "expects",
      "expected", "expect", "plans", "aims", "intends", "hopes", "hoped"}),
    ({"prove", "proves", "proved", "proven", "demonstrate", "demonstrates", "demonstrated", "confirm", "confirms",
      "confirmed", "establish", "establishes", "established"},
     {"suggest", "suggests", "suggested", "indicate", "indicates", "indicated", "hint", "hints", "hinted",
      "associated", "linked", "correlated", "may", "might", "could", "preliminary"}),
    ({"completely", "entirely", "fully", "totally", "wholly", "eliminates", "eliminated", "cures", "cured"},
     {"partly", "partially", "largely", "mostly", "reduces", "reduced", "lowers", "lowered", "eases", "eased"}),
)


def _overstated(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]]) -> list[str]:
    """Read in the clause that states most of the claim: "will speed up" is not "may speed up",
    whatever "will not help" says in the next clause."""
    claim_words = {t.lower for t in claim}
    counts: dict[int, set[int]] = {}
    for i, places in aligned.items():
        for j in places:
            counts.setdefault(evidence[j].clause, set()).add(i)
    if not counts:
        return []
    best = max(len(found) for found in counts.values())
    # And the clause of the word a strong word governs: "will decide" read where "decide" is
    # ("…, which is expected to decide by …"), even when the names sit in the clause before.
    best_sentences = {t.sentence for t in evidence if len(counts.get(t.clause, ())) == best}
    governed = {evidence[j].clause for k, token in enumerate(claim) if any(token.lower in strong for strong, _ in _SCALES)
                for i in range(k + 1, min(k + 3, len(claim))) for j in aligned.get(i, ())
                if evidence[j].sentence in best_sentences}
    evidence_words = {t.lower for t in evidence if len(counts.get(t.clause, ())) == best or t.clause in governed}
    # A strong word the claim itself denies ("anticipated rather than guaranteed") claims nothing.
    denied = {claim[k].lower for first, last, _ in _negation_scopes(claim) for k in range(first, last + 1)}
    claim_words -= denied
    found = []
    for strong, weak in _SCALES:
        said = claim_words & strong
        if said and not evidence_words & strong and evidence_words & weak and not claim_words & weak:
            found.append(f"{sorted(said)[0]} ≠ {sorted(evidence_words & weak)[0]}")
    return found


#: Hedges that make a figure a ceiling: "up to five times a day" is not "five times a day".
_CEILINGS = frozenset(["up to", "as many as", "as much as", "at most", "no more than", "a maximum of"])


def _ceilings(claim_text: str, evidence_text: str) -> list[str]:
    """A figure the claim states as such, where every place the evidence states it is a ceiling."""
    found = []
    stated = parse_quantities(evidence_text, incidental=True)
    for quantity in parse_quantities(claim_text):
        if quantity.is_year or quantity.hedge in _CEILINGS or _CEILING_BEFORE.search(claim_text[: quantity.start]):
            continue
        places = [q for q in stated if same_quantity(quantity, q)]
        if places and all(q.hedge in _CEILINGS or _CEILING_BEFORE.search(evidence_text[: q.start]) for q in places):
            found.append(f"{quantity.text} ≠ up to {places[0].text}")
    return found


_CEILING_BEFORE = re.compile(r"(?:up to|as (?:many|much) as|at most|no more than|a maximum of)\s+(?:a|an)?\s*$",
                             re.IGNORECASE)


# --------------------------------------------------------------------------------------- entry

def check(claim: str, evidence: str, neighbourhood: str | None = None, retrieved: str | None = None,
          wider: str | None = None, document_figures: Iterable[Quantity] = ()) -> Binding:
    """Read how ``evidence`` (the quoted passage) attaches the claim's words. Figures are read in
    ``neighbourhood`` (the passage with sentences either side), since the sentence that gives
    the claim's subject its own figure is often the next one; negation in ``retrieved`` (every
    passage retrieval found for the claim), since the sentence that denies a claim shares fewer
    of its words than the one that merely mentions them; and when those show none, in ``wider``
    (more passages), which may add a negation but never takes one away. ``document_figures`` (every
    figure of the page) lets a claim figure that the page states elsewhere be weighed against the one
    the clause with the claim's words gives."""
    claim_tokens = tokenize(claim)
    evidence_tokens = tokenize(evidence)
    aligned = _aligned(claim_tokens, evidence_tokens)
    if not aligned:
        return Binding()
    around = neighbourhood if neighbourhood is not None else evidence
    around_tokens = tokenize(around) if neighbourhood is not None else evidence_tokens
    read_tokens = tokenize(retrieved) if retrieved is not None else evidence_tokens
    common = _lower_case_words(claim_tokens, evidence_tokens, around_tokens, read_tokens)
    negated = _negation_conflicts(claim_tokens, read_tokens, _aligned(claim_tokens, read_tokens))
    if not negated and wider is not None and wider != retrieved:
        wider_tokens = tokenize(wider)
        negated = _negation_conflicts(claim_tokens, wider_tokens, _aligned(claim_tokens, wider_tokens))
    return Binding(
        negated=tuple(negated),
        opposites=tuple(_opposite_conflicts(claim_tokens, evidence_tokens, aligned, common)),
        unbound_figures=tuple(_figure_conflicts(claim, claim_tokens, around, around_tokens, common,
                                                tuple(document_figures))),
        other_roles=tuple(_role_conflicts(claim_tokens, evidence_tokens, aligned, common)),
        reversed_roles=tuple(_reversals(claim_tokens, evidence_tokens, aligned, common)
                             + _rewritten_reversals(claim, evidence, evidence_tokens, common)),
        overstated=tuple(_overstated(claim_tokens, evidence_tokens, aligned) + _ceilings(claim, evidence)),
        redated=tuple(_date_conflicts(claim, claim_tokens, evidence, evidence_tokens)),
    )


#: Words that open sentences without naming anyone: "Some participants …", "However, …".
_OPENERS = frozenset(_words("""some all most many much few several each every both either neither no none any
another other such only even just yet but nor not however although though because since if unless once until
after before here today now then thus hence instead later earlier meanwhile overall together currently recently"""))


#: Capitalised words that are no party of a relation, and words that stand in for one ("she raised …").
_NO_PARTY = _STOP | _OPENERS
_STANDS_IN = _PRONOUNS | {"who", "which", "that"}


def _lower_case_words(*texts: list[Token]) -> frozenset[str]:
    """Every word the texts write in lower case: a capitalised sentence opener outside it is a name."""
    return frozenset(t.lower for tokens in texts for t in tokens if not t.capital) | _NO_PARTY


def describe(binding: Binding) -> Iterable[str]:
    """One readable line per finding."""
    for label, items in (("negated", binding.negated), ("opposite", binding.opposites),
                         ("figure", binding.unbound_figures), ("role", binding.other_roles),
                         ("reversed", binding.reversed_roles), ("overstated", binding.overstated),
                         ("date", binding.redated)):
        for item in items:
            yield f"{label}: {item}"


if __name__ == "__main__":
    passage = ("Rust enforces memory safety without a garbage collector. Mount Everest rises 8,849 m; "
               "K2, the second-highest, reaches 8,611 m. Rust was designed by Graydon Hoare, with contributions "
               "from Brendan Eich.")
    for sentence in ("Rust uses a garbage collector.", "Mount Everest is 8,611 m tall.",
                     "Rust was designed by Brendan Eich.", "Rust was designed by Graydon Hoare."):
        print(sentence, "->", list(describe(check(sentence, passage))) or "nothing to object")
