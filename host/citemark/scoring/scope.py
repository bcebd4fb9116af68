"""What narrows a superlative: the words that set the class it ranks in.

"Japan's longest-serving post-war prime minister" does not state "Japan's longest-serving prime
minister": the longest-serving of all prime ministers may be another. So a passage superlative the
alignment matched ("longest", "largest", "most") stands for the claim's only with every word that
qualifies the noun it ranks ("post-war", "freshwater" of "the largest freshwater lake"): a word of
that noun's own phrase (before it, or in a phrase after it that names the class: "the highest
score *of any polytechnic*", "*among European cities*"), or the subject of a relative clause that ranks it ("the strictest *this county*
has ever imposed"), that no claim word matched is a modifier the claim leaves out.
Read on the passage's parse; without one nothing is read.
"""

from __future__ import annotations

from typing import Any

__all__ = ["narrowing"]

#: The parser's tags of a superlative adjective or adverb ("largest", "most", "longest").
_SUPERLATIVE = frozenset(["JJS", "RBS"])
#: How a word qualifies the noun a superlative ranks, or the superlative itself on its way up to it.
_QUALIFYING = frozenset(["amod", "compound", "nmod", "npadvmod", "advmod", "hmod", "punct"])


def narrowing(passage_doc: Any, units: list[Any], used: dict[int, Any]) -> list[tuple[Any, int]]:
    """(passage unit, index of the noun's unit) for each unmatched word that narrows a matched passage
    superlative's noun: "post-war" of "the longest-serving post-war prime minister"."""
    if passage_doc is None:
        return []
    index_at = {unit.start: k for k, unit in enumerate(units)}
    found: dict[int, tuple[Any, int]] = {}
    for j in used:
        token = passage_doc.token_at(units[j].start)
        if token is None or token.tag_ not in _SUPERLATIVE:
            continue
        chain = {token.i}
        noun = token
        while noun.pos_ not in ("NOUN", "PROPN") and noun.dep_ in _QUALIFYING and noun.head is not noun:
            noun = noun.head
            chain.add(noun.i)
        if noun.pos_ not in ("NOUN", "PROPN"):
            noun = token  # "the strictest this county has ever imposed": the superlative stands for its noun
        noun_index = index_at.get(passage_doc.start(noun))
        if noun_index is None or noun_index not in used:
            continue
        for child in noun.children:
            # a word of the noun's own phrase before it, or the subject of a relative clause that ranks it ("the
            # youngest player *the club* has ever signed")
            if child.dep_ == "relcl":
                words = [w for c in child.children if c.dep_ in ("nsubj", "nsubjpass") for w in c.subtree]
            elif child.dep_ == "prep" and child.i > noun.i and _of_a_class(child):
                words = list(child.subtree)  # "the highest teaching score *of any polytechnic*"
            elif child.i < noun.i and child.i not in chain and child.dep_ in _QUALIFYING - {"punct", "advmod"}:
                words = list(child.subtree)
            else:
                continue
            for word in words:
                k = index_at.get(passage_doc.start(word))
                if k is not None and k not in used and units[k].kind in ("word", "name"):
                    found.setdefault(k, (units[k], noun_index))
    return [found[k] for k in sorted(found)]


def _of_a_class(preposition: Any) -> bool:
    """Whether a phrase after a ranked noun names the class it ranks in: "of any polytechnic", "of all
    the entries", "among European cities" (not "the oldest part *of the ground*")."""
    if preposition.lower_ == "among":
        return True
    return preposition.lower_ == "of" and any(w.lower_ in ("any", "all") for w in preposition.subtree)
