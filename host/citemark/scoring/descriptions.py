"""Which name a page's definite description stands for: "the band" for The Amberlights.

Pages name a participant once and then call it by what it is: "The Amberlights are a folk
band from Galway. … The band rarely uses keyboards." A claim that names it ("The Amberlights
rarely use keyboards") is stated by that sentence only if "the band" can be read as The
Amberlights, and only the page can say so. A description stands for a name when the page
ties the two together, and ties no other name to it:

- "The Amberlights are a folk band", "The Amberlights, a folk band": the name, then a copula or
  a comma, then the noun behind up to three other words;
- "the folk band the Amberlights", "the trawler Girl Annis": the noun just before the name;
- "the Havelmouth crossing": the name as the noun's first word;
- "Tessel Building Society": the noun as the name's own last word ("the society").

A compound noun is read by its last part: "the Tarrow Way footpath" ties "the path".

"The company" on a page about two companies ties to both, and so stands for neither: the
alignment then asks for the name itself.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from citemark.scoring.guards import name_forms, name_spans
from citemark.scoring.lexical import stem

#: The determiners that make a noun phrase point back at something already named.
DEFINITE = frozenset(["the", "this", "that", "these", "those"])
#: Words that end the noun phrase a name is tied to ("a folk-rock band *from* Carrowmore").
_PHRASE_ENDS = frozenset(["from", "of", "in", "on", "at", "with", "by", "for", "to", "that", "which", "who", "whose",
                          "and", "or", "but", "as", "than", "since", "until", "when", "where", "while"])
_WORDS = r"((?:[a-z][\w’'-]*\s+){0,4}[a-z][\w’'-]*)"
#: After a name: ", a/the …", " is/was a …": the phrase that says what it is.
_AFTER = re.compile(rf"^(?:['’]s?)?(?:\s*,\s*|\s+(?:is|was|are|were|became|remains)\s+)(?:an?|the)\s+{_WORDS}")
#: After a name that follows "the", the noun it qualifies ("the Havelmouth crossing").
_QUALIFIED = re.compile(r"^\s+([a-z][\w-]*)\b")
#: Before a name: "the/a … NOUN [of] NAME" ("the trawler Girl Annis", "the market town of Caddenham").
#: A noun's last part, at least this long, stands for the compound ("path" of "footpath").
_COMPOUND_PART = 4
_BEFORE = re.compile(r"\b(?:the|an?)\s+((?:(?!(?:the|an?)\s)[a-z][\w’'-]*\s+){0,3}[a-z][\w’'-]*)\s*,?\s+(?:of\s+)?(?:the\s+)?$")


def stands_for(name_word: str, noun: str, context: str) -> bool:
    """Whether a definite ``noun`` ("band") may be read as the name holding ``name_word``
    ("Amberlights"): ``context`` (the page around the passage) ties that noun to that name and to no
    other name."""
    ties = _described(context)
    key = stem(noun.lower())
    named = ties.get(key) or [words for tied, names in ties.items() if len(key) >= _COMPOUND_PART and tied.endswith(key)
                              for words in names]
    if not named:
        return False
    forms = name_forms(name_word.lower())
    return all(forms & words for words in named)


def _phrase(words: str) -> list[str]:
    """The nouns and modifiers of a phrase up to its first preposition or joining word; not a
    possessor's ("the band's first album" is an album)."""
    kept = []
    for word in words.split():
        if word in _PHRASE_ENDS:
            break
        if not word.endswith(("'s", "’s")):
            kept.append(word)
    return kept


@functools.lru_cache(maxsize=256)
def _described(context: str) -> dict[str, list[frozenset[str]]]:
    """Each noun the context ties to a name → the names it is tied to (each as its words' spellings)."""
    ties: dict[str, list[frozenset[str]]] = {}
    for name, _, start in name_spans(context):
        at = context.find(name, start)
        words = frozenset(form for word in name.split() if word.lower() != "the"
                          for form in name_forms(word.lower().strip("’'")))
        if at < 0 or not words:
            continue
        nouns = []
        following = context[at + len(name) : at + len(name) + 80]
        if after := _AFTER.match(following):
            nouns += _phrase(after.group(1))
        elif context[max(0, at - 4) : at].lower() == "the " and (qualified := _QUALIFIED.match(following)):
            nouns.append(qualified.group(1))
        if before := _BEFORE.search(context[max(0, at - 60) : at]):
            nouns += _phrase(before.group(1))
        if len(parts := name.split(". ")[0].split()) >= 2 and parts[-1].isalpha() and parts[-1][0].isupper():
            nouns.append(parts[-1].lower())  # "Tessel Building Society": the society
        for noun in nouns:
            if noun not in DEFINITE:
                named = ties.setdefault(stem(noun), [])
                if words not in named:
                    named.append(words)
    return ties


def described_as(name: Any) -> list[Any]:
    """The nouns a passage gives a name where it names it (parsed tokens): its title ("Chief executive
    Priyanka Rowe"), a noun in apposition to it ("his father Otto"), or one it stands in apposition to
    ("his daughter, Fiona Marchbank")."""
    while name.dep_ == "compound" and name.head is not name:
        name = name.head  # the name's last word, which its title and apposition hang on
    nouns = [c for c in name.children if c.dep_ in ("compound", "appos") and c.pos_ == "NOUN"]
    return nouns + ([name.head] if name.dep_ == "appos" and name.head.pos_ == "NOUN" else [])
