"""Role reversal: the two parties of the claim's relation swapped ("A beat B" against "B beat A"),
with passive voice and prepositions read as such, and relations stated as a noun or a converse verb
rewritten with their verb first (``relations``).

Only this check reads the parties of a verb, so it has its own module.
"""

from __future__ import annotations

from citemark.scoring import relations
from citemark.scoring.binding import grammar
from citemark.scoring.binding.grammar import Token, tokenize

_SYMMETRIC = frozenset(grammar.stem(w) for w in grammar.words("""married met meet played play drew draw tied tie merged merge
collaborated collaborate partnered partner versus vs against with and between compete competed shared share
signed sign faced face fought fight debated debate"""))


def _passive(tokens: list[Token], verb: int) -> bool:
    """"was beaten", "can be dissolved", "is owed … by": the word before the verb is not its agent
    ("will be joining" is no passive)."""
    if tokens[verb].lower.endswith("ing"):
        return False
    before = [t.lower for t in tokens[max(0, verb - 2) : verb]]
    if before and before[-1] in grammar.BE or len(before) == 2 and before[0] in grammar.BE and before[1].endswith("ly"):
        return True
    return any(t.lower == "by" for t in tokens[verb + 1 : verb + 3])


def _participant(tokens: list[Token], i: int, names: set[int]) -> bool:
    """A party of a relation: part of a name, or a noun after a determiner ("the tenant", "a lender");
    a capitalised function word ("About 400 volunteers") is none."""
    return i in names or (tokens[i].capital and tokens[i].lower not in grammar.NO_PARTY) or (
        i > 0 and tokens[i - 1].lower in grammar.DETERMINERS)


def _verb_like(tokens: list[Token], i: int) -> bool:
    token = tokens[i]
    return not token.capital and (i == 0 or tokens[i - 1].lower not in grammar.DETERMINERS) and (
        i + 1 >= len(tokens) or tokens[i + 1].lower != "of")


def reversals(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
              common: frozenset[str] = frozenset(), read_elsewhere: frozenset[str] = frozenset()) -> list[str]:
    """"A beat B" against "B beat A": the parties of the same verb in swapped roles. Roles are read
    with the voice ("A was beaten by B" is B's win) and the preposition ("bought from A" makes A
    the seller, "lost to A" the winner). One party is enough when it stands in the wrong role and
    nothing there says it the claim's way: "… lost to A" for "A lost to B", "B sued" for "A sued B"."""
    claim_runs, evidence_runs = grammar.names(claim, common), grammar.names(evidence, common)
    claim_names = {i for run in claim_runs for i in run}
    evidence_names = {i for run in evidence_runs for i in run}
    lemmas = [grammar.lemma(t.lower) for t in evidence]  # for the claim verb's synonyms, read once
    found = []
    for v in sorted(aligned):
        if claim[v].stem in _SYMMETRIC or not _verb_like(claim, v) or claim[v].lower[0].isdigit() or not _sure_verb(claim, v):
            continue
        parties = _parties(claim, v, claim_names, 5)
        if len(parties) < 2 or claim[parties[0][0]].stem == claim[parties[1][0]].stem:
            continue
        group = _SAME_VERB.get(grammar.lemma(claim[v].lower), {grammar.lemma(claim[v].lower)})
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


def rewritten_reversals(claim: str, evidence: str, evidence_tokens: list[Token], common: frozenset[str]
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
    stated = frozenset(grammar.lemma(t.lower) for t in evidence_tokens) & _CONVERSE_REWRITTEN \
        if claim_verbs == claim else frozenset()
    claim_read, evidence_read = tokenize(claim_verbs), tokenize(evidence_verbs)
    return swapped + reversals(claim_read, evidence_read, grammar.aligned(claim_read, evidence_read), common, stated)


#: The verbs the rewriting gives converse verbs ("lost to" → "beat", "sold to" → "bought").
_CONVERSE_REWRITTEN = frozenset(grammar.lemma(w) for w in ("beat", "bought", "sold"))
#: Verbs that state one relation: "acquired" for "bought", "defeated" for "beat".
_SAME_VERB: dict[str, set[str]] = {}
for _group in (("buy", "acquir", "purchas"), ("beat", "defeat"), ("succeed", "replac")):
    for _member in _group:
        _SAME_VERB[_member] = set(_group)
#: The role a preposition gives the party after a verb: "bought from A", "lost to A", "beaten by A".
_PREPOSITION_ROLES = {"by": "agent", "from": "source", "to": "to"}
#: Nouns of a time phrase ("the same year", "last season"), never a party of a relation.
_TIME_NOUNS = frozenset(grammar.words("same year month week day time season decade century morning evening night"))
#: Prepositions of an adjunct: what follows them is no party of the verb.
_ADJUNCTS = frozenset(grammar.words("""in on at with for over of into onto during after before since under about against
between through across near without within per via as among until"""))
#: Words that stand in for a party of a relation ("she raised …").
_STANDS_IN = grammar.PRONOUNS | {"who", "which", "that"}


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
        if word == "to" and k + 1 < len(tokens) and not (tokens[k + 1].capital
                                                         or tokens[k + 1].lower in grammar.DETERMINERS
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
    if not grammar.claim_verb(tokens, i):
        # a present form between a name and a determiner: "Sallowford University teaches the …"
        return 0 < i < len(tokens) - 1 and tokens[i - 1].capital and tokens[i + 1].lower in grammar.DETERMINERS \
            and grammar.past_or_present(tokens[i].lower) and not tokens[i].capital
    if i > 0 and tokens[i - 1].lower == "to":
        return i > 1 and (grammar.claim_verb(tokens, i - 2) or grammar.past_or_present(tokens[i - 2].lower))
    return True


def _same_party(claim: list[Token], mine: list[int], evidence: list[Token], theirs: list[int]) -> bool:
    """One party named twice: every word of one name in the other ("Marra" for "Marra Foods"), not
    a shared surname ("Henry Sallis" is not "Edmund Sallis")."""
    ours, other = {claim[i].stem for i in mine}, {evidence[j].stem for j in theirs}
    return bool(ours & other) and (ours <= other or other <= ours)


def _run_of(runs: list[list[int]], index: int) -> list[int]:
    """The name a token belongs to (all its words), or the token alone."""
    return next((run for run in runs if index in run), [index])
