"""Negation scope: claim words the evidence states under a negation or privative ("without a garbage
collector"), and claim negations of what the evidence states plainly.

The largest check, with its own rules for which clause states the claim and whose clause a negation
is in, so it has its own module. How far a negation reaches (``grammar.negation_scopes``) lives in
the grammar, since the role and quantifier checks read it too.
"""

from __future__ import annotations

from citemark.scoring.binding import grammar
from citemark.scoring.binding.grammar import Token

#: The first words of the multi-word cues, as a clause's sign that it negates something.
_PRIVATIVE_WORDS = frozenset(phrase[0] for phrase in grammar.PHRASES) - {"other", "free", "far", "yet"}
#: Contrastive privatives: "MQL rather than SQL" says the claim's "SQL" is the road not taken.
CONTRASTIVE = ("rather than", "instead of")


def _covered(scopes: list[tuple[int, int, str]], index: int) -> str | None:
    for first, last, cue in scopes:
        if first <= index <= last:
            return cue
    return None


def negation_conflicts(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]]) -> list[str]:
    """Negated words of the clauses that state most of the claim ("… without a garbage collector"),
    when the claim asserts them. (A claim that negates what the evidence states without any
    negation is ``GuardResult.negation_mismatch``.)"""
    # generous: "could not afford … to compete"
    claim_scopes = grammar.negation_scopes(claim, reach=grammar.SCOPE + 6)
    evidence_scopes = grammar.negation_scopes(evidence)
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
        chosen = next((evidence[j] for j in range(first - len(cue.split()) - 1, -1, -1)
                       if grammar.content(evidence[j])), None)
        if len(clauses.get(evidence[first].clause, ())) < max(len(found) for found in clauses.values()):
            continue  # not the clause that states the claim
        if rejected and chosen is not None and chosen.stem not in {t.stem for t in claim}:
            return [f"{claim[rejected[0]].text} (the source: “{chosen.text} {cue} {claim[rejected[0]].text}”)"]
    negative_claim = any(t.lower in grammar.NEGATORS or t.lower.endswith("n't") for t in claim)
    for i in words:
        if negative_claim:
            break  # "have found no evidence", "while mixtures are not": the claim denies something itself
        if grammar.claim_verb(claim, i) and _covered(claim_scopes, i) is None and all(
                _covered(evidence_scopes, j) for j in aligned[i]):
            scope = next(sc for sc in evidence_scopes if sc[0] <= aligned[i][0] <= sc[1])
            if _someone_else(claim, i, evidence, scope[0] - len(scope[2].split()), aligned):
                continue  # "the company did not take part" says nothing against "2,300 adults took part"
            objects = grammar.neighbours(claim, i, aligned, +1, 3)
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
            verbs = [i for i in denied if grammar.claim_verb(claim, i)]
            apart = [i for i in denied if i not in plain_words and i not in verbs]
            if verbs and apart:
                found.append(f"{claim[apart[0]].text} (the source: “{denied[apart[0]]} … {claim[apart[0]].text}”)")
                break
    return found


def _someone_else(claim: list[Token], verb: int, evidence: list[Token], cue: int,
                  aligned: dict[int, list[int]]) -> bool:
    """Whether the negated clause has a subject of its own that is not the claim's: content words
    before the negation cue, in its clause, none of them a word of the claim."""
    subject = [k for k in range(verb) if claim[k].clause == claim[verb].clause and grammar.content(claim[k])
               and not claim[k].lower[0].isdigit()]
    theirs, j = [], cue - 1
    while j >= 0 and evidence[j].clause == evidence[cue].clause:  # from the word before the cue back
        if grammar.content(evidence[j]) and not evidence[j].lower[0].isdigit():
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
        target = next((k for k in range(first, last + 1) if grammar.content(claim[k])), None)
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
            if t.lower in grammar.NEGATORS or t.lower.endswith("n't") or t.lower in _PRIVATIVE_WORDS]
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
    verb = next((k for k in range(first + 1, last + 1) if tokens[k].lower in grammar.AUXILIARIES or (
        not tokens[k].capital and grammar.past_or_present(tokens[k].lower)
        and tokens[k - 1].lower not in grammar.DETERMINERS)), None)
    return (first, verb - 1, cue) if verb is not None else scope


def _verb_between(tokens: list[Token], cue: int, place: int) -> bool:
    """"without a piano part and uses recordings": a verb joined by "and" / "or" after the cue
    and before ``place`` starts what the cue does not deny."""
    return any(tokens[k].lower in ("and", "or") and grammar.past_or_present(tokens[k + 1].lower)
               for k in range(cue + 1, min(place, len(tokens) - 1)))
