"""Relations stated otherwise than by their verb: as nouns, converse verbs or the copula.

The role-reversal check (``binding.reversal.reversals``) reads the parties of one verb: "A beat B"
against "B beat A". Pages often state the same relation another way: "the DX6 replaces the
Duo D5" against the claim "the Duo D5 is the successor to the DX6"; "Marrick signed a
£300 million loan from the Bank" against "Marrick lent £300 million to the Bank"; "the
acquisition of Holt & Greaves by Marchbank"; "Elmstead lost to Corran". ``as_verbs`` rewrites
those forms of a text as the verb of their relation with its parties in the verb's own roles
(``replaced``, ``lent … to``, ``bought``, ``beat``), so that the claim and the source, each
rewritten, can be read by the same check.

``swapped`` reads a relation the copula states, "X is a trading name of Y", whose parties no verb
holds, and reports it turned round.

A rewrite needs both parties named beside the phrase (a capitalised name, or a pronoun left as
it is); anything else is left alone, so the check stays silent where it cannot read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["as_verbs", "swapped"]

#: A named party: capitalised words (numbers and "&" among them), after a determiner and up to
#: three lower-case words ("the Northern Infrastructure Bank", "our earlier Duo D5", "Holt & Greaves",
#: "the army of the Kingdom of Liravia").
_WORD = r"(?:[\w’'&-]|\.(?=\w)){0,40}"  # "U.S.", "D5", "Holt's"; not a sentence's full stop
_NAME = (rf"(?:(?i:the|a|an|its|our|their|his|her)\s+(?:[a-z][\w’'-]*\s+){{0,3}}?)?[A-Z]{_WORD}"
         rf"(?:\s+(?:[A-Z0-9]{_WORD}|&|of\s+(?:the\s+)?[A-Z]{_WORD})){{0,5}}")  # bounded: a page of capitals stays linear
_PARTY = rf"(?:{_NAME}|it|they|he|she)"
#: Words between "a" and "loan": its size and term ("a £300 million five-year").
_LOAN_SIZE = r"(?:(?:a|an|the|its|their)\s+)?(?P<size>[^.;:,]{0,40}?)\s*"
_COPULA = r"(?:(?:has|have|had)\s+been|is|was|are|were|became|becomes|remains|remained)"

#: Nouns of a relation and the verb that states it: "the siege of B by A" is "A besieged B".
_VERB_OF = {"acquisition": "bought", "takeover": "bought", "purchase": "bought", "siege": "besieged",
            "invasion": "invaded", "capture": "captured", "conquest": "conquered", "defeat": "defeated",
            "rescue": "rescued", "arrest": "arrested", "appointment": "appointed", "founding": "founded",
            "design": "designed", "translation": "translated", "discovery": "discovered"}
_NOUN = "|".join(_VERB_OF)
_NOUNS = " ".join(_VERB_OF)

#: (words one of which the text must hold as whole words, pattern, replacement): the words spare
#: texts without the relation its pattern.
_REWRITES: tuple[tuple[tuple[str, ...], re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (tuple(words.split()), re.compile(pattern), replacement) for words, pattern, replacement in (
    # "X is the successor to Y", "X was introduced as the replacement for Y" → "X replaced Y"
    ("successor replacement",
     rf"\b{_COPULA}\s+(?:\w+\s+)?(?:as\s+)?(?:the|a|its|their)\s+(?:\w+\s+)?(?:successor|replacement)\s+(?:to|of|for)\b",
     "replaced"),
    # "X is the predecessor of Y" → "X was replaced by Y"
    ("predecessor", rf"\b{_COPULA}\s+(?:the|a|its|their)\s+(?:\w+\s+)?predecessor\s+(?:to|of)\b", "was replaced by"),
    # "A signed a £300 million loan from B", "A borrowed £5 million from B" → "B lent £300 million to A"
    ("loan borrowed",
     rf"(?P<a>{_PARTY})\s+(?:\w+\s+)?(?:signed|took\s+out|received|obtained|secured|got|borrowed)\s+{_LOAN_SIZE}"
     rf"(?:loan\s+)?from\s+(?P<b>{_NAME})", r"\g<b> lent \g<size> to \g<a>"),
    # "a loan that B had made to A", "a loan from B to A" → "B lent to A"
    ("loan",
     rf"\bloan\s+(?:that|which)\s+(?P<b>{_NAME})\s+(?:had\s+|has\s+)?(?:made|granted|extended|provided|given)\s+to\b",
     r"loan: \g<b> lent to"),
    ("loan", rf"\bloan\s+from\s+(?P<b>{_NAME})\s+to\b", r"loan: \g<b> lent to"),
    # "a grant from B to A", "a donation from B to A" → "B gave to A"
    ("grant donation gift", rf"\b(?P<noun>grant|donation|gift)\s+from\s+(?P<b>{_NAME})\s+to\b",
     r"\g<noun>: \g<b> gave to"),
    # "the acquisition of B by A", "a siege of B by A" → "A bought B", "A besieged B"
    (_NOUNS, rf"\b(?:(?i:the|a|an)\s+)?(?P<noun>{_NOUN})\s+of\s+(?P<b>{_NAME})\s+by\s+(?P<a>{_NAME})",
     lambda m: f"{m['a']} {_VERB_OF[m['noun'].lower()]} {m['b']}"),
    # "A, whose acquisition of B …" → "A bought B"
    (_NOUNS, rf"(?P<a>{_NAME}),\s+whose\s+(?P<noun>{_NOUN})\s+of\s+(?P<b>{_NAME})",
     lambda m: f"{m['a']}, who {_VERB_OF[m['noun'].lower()]} {m['b']}"),
    # "A's acquisition of B" → "A bought B"
    (_NOUNS, rf"(?P<a>{_NAME})[’']s\s+(?:\w+\s+)?(?P<noun>{_NOUN})\s+of\s+(?P<b>{_NAME})",
     lambda m: f"{m['a']} {_VERB_OF[m['noun'].lower()]} {m['b']}"),
    # "A agrees the sale of B to C" → "A sold B to C" (and so, below, "C bought B from A")
    ("sale", rf"(?P<a>{_PARTY})\s+(?:\w+\s+)?(?:agrees|agreed|announces|announced|completes|completed|confirms|"
     rf"confirmed)\s+(?:the\s+)?sale\s+of\s+(?P<b>[^.;:]{{1,60}}?)\s+to\s+(?P<c>{_NAME})",
     r"\g<a> sold \g<b> to \g<c>"),
    # "A sold B to C" → "C bought B from A"
    ("sold", rf"(?P<a>{_PARTY})\s+sold\s+(?P<b>{_NAME})\s+to\s+(?P<c>{_NAME})", r"\g<c> bought \g<b> from \g<a>"),
    # "B lost to A" → "A beat B"
    ("lost", rf"(?P<b>{_NAME})\s+lost\s+(?:\w+\s+)?to\s+(?P<a>{_NAME})", r"\g<a> beat \g<b>"),
    # "A's 3–1 win over B", "A won a narrow victory over B" → "A beat B"
    ("victory win", rf"(?P<a>{_NAME})[’']s\s+(?:[\w–-]+\s+){{0,2}}?(?:victory|win)\s+(?:over|against)\s+(?P<b>{_NAME})",
     r"\g<a> beat \g<b>"),
    ("victory win",
     rf"(?P<a>{_PARTY})\s+(?:won|claimed|secured|earned|recorded|sealed|clinched)\s+(?:a|an|the|their|its|his|her)\s+"
     rf"(?:[\w–-]+\s+){{0,2}}?(?:victory|win)\s+(?:over|against)\s+(?P<b>{_NAME})", r"\g<a> beat \g<b>"),
    # "B suffered a heavy defeat to A", "B was runner-up to A" → "A beat B"
    ("defeat", rf"(?P<b>{_PARTY})\s+(?:suffered|slumped\s+to|fell\s+to)\s+(?:a|an|their|its|his|her)\s+"
     rf"(?:[\w–-]+\s+){{0,2}}?defeat\s+(?:to|against|by|at\s+the\s+hands\s+of)\s+(?P<a>{_NAME})", r"\g<a> beat \g<b>"),
    ("runner", rf"(?P<b>{_PARTY})\s+(?:was|were|is|are|finished|came)\s+(?:as\s+)?(?:the\s+)?runners?-up\s+to\s+"
     rf"(?P<a>{_NAME})", r"\g<a> beat \g<b>"),
    # "A is a wholly owned subsidiary of B" → "B owned A"
    ("subsidiary", rf"(?P<a>{_NAME})\s+{_COPULA}\s+(?:a|the|an)\s+(?:[\w-]+\s+){{0,2}}?subsidiary\s+of\s+(?P<b>{_NAME})",
     r"\g<b> owned \g<a>"),
    # "A took over as chief executive from B" → "A replaced B"
    ("took", rf"(?P<a>{_PARTY})\s+took\s+over\s+(?:[\w-]+\s+){{0,3}}?from\s+(?P<b>{_NAME})", r"\g<a> replaced \g<b>"),
))


#: Longest text the rewrites read: a claim or a quoted passage, never a whole page.
MAX_TEXT = 4000
#: Relation nouns that hold both ways: "A is a sister company of B" is "B is a sister company of A".
_BOTH_WAYS = frozenset(["sister", "twin", "partner", "rival", "ally", "neighbour", "neighbor", "counterpart",
                        "competitor", "peer", "friend", "colleague", "sibling", "cousin", "equivalent", "namesake"])
#: "X is a trading name of Y", "X was the parent company of Y": a relation the copula states, its two
#: parties on either side of a noun phrase and "of", "to" or "for".
_COPULAR = re.compile(rf"(?P<a>{_NAME})\s+{_COPULA}\s+(?:a|an|the|its|their)\s+(?P<noun>(?:[a-z][\w-]*\s+){{0,2}}?"
                      rf"[a-z][\w-]*)\s+(?P<link>of|to|for)\s+(?P<b>{_NAME})")


def swapped(claim: str, evidence: str) -> list[str]:
    """The claim's "A is a N of B" where the evidence says "B is a N of A": "Quorral Bank is a trading
    name of Sovra Direct" against "Sovra Direct is a trading name of Quorral Bank". Relations that
    hold both ways ("a sister company of", "a rival of") are no reversal."""
    if len(claim) > MAX_TEXT or len(evidence) > MAX_TEXT:
        return []
    theirs = [(m["noun"].lower(), m["link"], _words(m["a"]), _words(m["b"])) for m in _COPULAR.finditer(evidence)]
    found = []
    for m in _COPULAR.finditer(claim):
        noun, link, a, b = m["noun"].lower(), m["link"], _words(m["a"]), _words(m["b"])
        if set(noun.split()) & _BOTH_WAYS:
            continue
        for other_noun, other_link, other_a, other_b in theirs:
            if (other_noun, other_link) == (noun, link) and _same(a, other_b) and _same(b, other_a) \
                    and not _same(a, other_a):
                found.append(f"{m['a']} / {m['b']} ({noun} {link})")
    return found


def _words(name: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Z0-9][\w’'-]*", name)}


def _same(ours: set[str], theirs: set[str]) -> bool:
    """One party named twice: half the words of either name in the other."""
    shared = len(ours & theirs)
    return shared > 0 and shared * 2 >= min(len(ours), len(theirs))


def as_verbs(text: str) -> str:
    """``text`` with each relation it states as a noun or a converse verb rewritten as the
    relation's verb: "the successor to" → "replaced", "a loan from B" → "B lent … to". A text
    longer than MAX_TEXT (no claim or quoted passage is) is left as it is."""
    if len(text) > MAX_TEXT:
        return text
    words = set(re.findall(r"[a-z]+", text.lower()))
    for triggers, pattern, replacement in _REWRITES:
        if words.intersection(triggers):
            text = pattern.sub(replacement, text)
    return text
