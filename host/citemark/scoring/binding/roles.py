"""Role binding: a name of the claim that the evidence puts in another role ("designed by N" where
the source names someone else as the designer, or gives N another title).

Only this check reads the role a name fills (after "by", as a subject, beside a role noun or a
title), so that reading has its own module; how names are found (``grammar.names``) lives in the
grammar, since the figure, opposite and reversal checks read names too.
"""

from __future__ import annotations

from citemark.scoring.binding import grammar
from citemark.scoring.binding.grammar import Token

#: Nouns that name a role a person fills: "the winner was N", "N, the designer, …", "founder N".
_ROLE_NOUNS = frozenset(grammar.stem(w) for w in grammar.words("""winner champion designer creator inventor founder cofounder author
writer editor director producer composer discoverer captain coach manager ceo chairman chairwoman chair president
judge plaintiff defendant prosecutor lender borrower buyer seller architect engineer pilot leader runner-up
runner nominee recipient laureate curator conductor presenter host owner chief head sponsor investigator
statistician translator illustrator publisher narrator drummer guitarist bassist singer vocalist goalkeeper
striker witness barrister solicitor lawyer attorney claimant respondent appellant landlord tenant treasurer
secretary spokesperson spokesman spokeswoman analyst physician surgeon supervisor chancellor mayor governor
ambassador commissioner inspector referee umpire""".lower()))


def _slot(tokens: list[Token], run: list[int]) -> tuple[str, str] | None:
    """The role a name fills in its clause: ("by", "designed") for "designed by N", ("subject",
    "designed") for "N designed", ("role", "winner") for "the winner, N" / "N was the winner"."""
    first, last = run[0], run[-1]
    if len(run) == 1 and grammar.demonym(tokens[first].lower):
        return None  # "a Dutch astronomer", "by American band X": an attribute, not a party
    if tokens[last].lower.endswith(("'s", "’s")):
        return None  # "Veloran's product lead": the name owns the role, it does not fill it
    for k in range(first - 1, max(0, first - 5), -1):  # "created by the Danish engineer Aksel Brandt"
        if tokens[k].lower == "by":
            verb = next((v for v in range(k - 1, max(-1, k - 4), -1) if grammar.claim_verb(tokens, v)), k - 1)
            # "by the Danish engineer Aksel Brandt", and "by our partner, Dunmere College" (a noun in apposition)
            apposed = first - k <= 4 and tokens[k + 1].lower in grammar.DETERMINERS and not any(
                t.capital for t in tokens[k + 1 : first])
            if k >= 1 and grammar.content(tokens[verb]) and (
                    all(t.joined for t in tokens[k + 1 : first + 1]) or apposed):
                # "translated into German by N": the verb, not "German"
                return ("by", grammar.lemma(tokens[verb].lower))
            break
        apposition = k + 1 == first and k > 0 and tokens[k - 1].lower in grammar.DETERMINERS  # "our partner, N"
        if tokens[k].lower in _LINKS or not tokens[k + 1].joined and not apposition:
            break
    for k in range(max(0, first - 3), first):
        between = {t.lower for t in tokens[k + 1 : first]}
        if tokens[k].stem in _ROLE_NOUNS and tokens[k].clause == tokens[first].clause and not between & _LINKS:
            return ("role", _title(tokens, k))
    after = [t for t in tokens[last + 1 : last + 6] if t.clause == tokens[last].clause]
    for n, t in enumerate(after):
        verb = n == 0 and len(after) > 1 and after[1].lower in grammar.DETERMINERS and grammar.past_or_present(t.lower)
        if t.stem in _ROLE_NOUNS and not verb and not {u.lower for u in after[:n]} & _LINKS:
            return ("role", _title(tokens, last + 1 + n))  # "N chairs the panel" is no "chair" role
    if first > 0 and tokens[first - 1].lower in grammar.DETERMINERS:
        return None
    head = after[0] if after else None
    if head is not None and head.lower in ("originally", "first", "later", "also", "has", "had", "was", "then"):
        head = after[1] if len(after) > 1 else None
    if head is not None and grammar.content(head) and not head.capital and grammar.past_or_present(head.lower):
        return ("subject", grammar.lemma(head.lower))
    return None


#: Titles of more than one word, by their words' stems, as one role: "chief executive" is the CEO,
#: "chief financial officer" the CFO (both would otherwise read as the role "chief").
_TITLES = {tuple(grammar.stem(w) for w in phrase.split()): title for phrase, title in (
    ("chief executive", "ceo"), ("chief executive officer", "ceo"), ("chief financial officer", "cfo"),
    ("chief operating officer", "coo"), ("chief technology officer", "cto"), ("chief technical officer", "cto"),
    ("finance director", "cfo"), ("managing director", "managing director"), ("head coach", "coach"),
    ("lead investigator", "lead investigator"), ("principal investigator", "lead investigator"),
    ("chief investigator", "lead investigator"), ("chief engineer", "chief engineer"),
    ("chief scientist", "chief scientist"), ("head of product", "head of product"))}
_TITLES.update({(grammar.stem(title),): title for title in ("ceo", "cfo", "coo", "cto")})


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


#: Words between a role noun and a name that make the name its object: "director *of* George Lopez".
_LINKS = frozenset(grammar.words("of for at to in on from with about"))


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


def role_conflicts(claim: list[Token], evidence: list[Token], aligned: dict[int, list[int]],
                   common: frozenset[str] = frozenset()) -> list[str]:
    """A name the claim gives a role ("designed by N") where the evidence gives that role to another name."""
    claim_names = grammar.names(claim, common)
    if not claim_names:
        return []
    negates = bool(grammar.negation_scopes(claim))
    claim_name_stems = grammar.name_key_of(claim, claim_names)
    evidence_names = grammar.names(evidence, common)
    found = []
    for run in claim_names:
        key = grammar.name_key(claim, run)
        slot = _slot(claim, run)
        if slot is None or negates and slot[0] != "role":
            continue  # "N did not design it" denies the relation; a title ("the CEO, N, ruled out …") it keeps
        fillers = _fillers(evidence, evidence_names, slot)
        if any(len(key & grammar.name_key(evidence, other)) * 2 >= len(key) for other in fillers):
            continue
        strangers = [other for other in fillers if not grammar.name_key(evidence, other) & claim_name_stems]
        if strangers:
            names = " ".join(evidence[i].text for i in strangers[0])
            found.append(f"{' '.join(claim[i].text for i in run)} ({slot[1]}: the source names {names})")
        elif (other := _own_role(slot, key, claim, evidence, evidence_names)) is not None:
            found.append(f"{' '.join(claim[i].text for i in run)} ({slot[1]}: the source has them {other})")
    return found


#: Role nouns as the relation they name: "the translator, N" fills the slot of "translated by N".
_AGENT_NOUNS = {grammar.stem(noun): verb for noun, verb in (
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
    if slot[0] != "role" and not any(grammar.lemma(t.lower) == slot[1] and grammar.claim_verb(claim, k)
                                     for k, t in enumerate(claim)):
        return None  # the slot's word is no verb of the claim ("The Salt Harbour, by N")
    theirs = [_slot(evidence, run) for run in evidence_names
              if len(key & grammar.name_key(evidence, run)) * 2 >= len(key)]
    if slot[0] == "role" and slot[1] in _OFFICERS:
        # One officer title against another needs no more: "Chief financial officer N" is not the CEO;
        # every title in the clauses naming N counts ("N, formerly CFO, became chief executive").
        clauses = {evidence[run[0]].clause for run in evidence_names
                   if len(key & grammar.name_key(evidence, run)) * 2 >= len(key)}
        held = {_title(evidence, k) for k, t in enumerate(evidence) if t.clause in clauses and t.stem in _ROLE_NOUNS}
        other = sorted(held & _OFFICERS)
        return f"as {other[0]}" if other and slot[1] not in held else None
    if not any(_AGENT_NOUNS.get(t.stem, grammar.lemma(t.lower)) == wanted or t.stem == slot[1]
               for t in evidence) and not (
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
