"""Words: the tokens, stems and overlap measures that retrieval and the verdict share.

Word overlap is a strong, cheap signal for "does this passage state the claim"
(ROC AUC ≈ 0.7 on our dev sets, better than the small packaged classifiers), so
it is computed carefully: stop words out, light stemming, rare words weighted up.

Run ``python -m citemark.scoring.lexical`` for a small demonstration.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citemark.scoring.words import STOP_WORDS

__all__ = ["Coverage", "content_terms", "coverage", "idf_table", "stem", "terms"]


_TOKEN = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*", re.UNICODE)
#: Han, kana and Hangul: scripts written without spaces, where a "word" is cut into character bigrams.
_CJK_RUN = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)")


def terms(text: str) -> list[str]:
    """Lower-cased word tokens, accents folded; numbers keep inner '.' and ','."""
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch)).lower()
    tokens: list[str] = []
    for token in _TOKEN.findall(folded):
        if _CJK_RUN.search(token):
            tokens.extend(_cjk_terms(token))
        elif token[0].isdigit():
            tokens.append(token.replace(",", ""))
        else:
            tokens.extend(part for part in re.split(r"[.,'’]", token) if part)
    return tokens


def _cjk_terms(token: str) -> list[str]:
    """A token mixing CJK and other characters: CJK runs as overlapping bigrams, the rest as words.

    Bigrams are the standard index unit for Chinese and Japanese without a
    dictionary: "東京タワー" and "タワーは東京" share "東京" and "タワ".
    """
    found: list[str] = []
    for part in _CJK_RUN.split(token):
        if not part:
            continue
        if _CJK_RUN.fullmatch(part):
            found.extend([part] if len(part) == 1 else [part[i : i + 2] for i in range(len(part) - 1)])
        else:
            found.extend(piece.replace(",", "") for piece in re.split(r"[.'’]", part) if piece)
    return found


def stem(word: str) -> str:
    """A light suffix stripper: enough to match "studies"/"study", "played"/"plays"."""
    if len(word) <= 3 or word[0].isdigit():
        return word
    for suffix, replacement in (
        ("ational", "ate"),
        ("ies", "y"),
        ("ied", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            return word[: len(word) - len(suffix)] + replacement
    return word


def content_terms(text: str) -> list[str]:
    """Stemmed tokens without stop words: what a claim is about."""
    return [stem(token) for token in terms(text) if token not in STOP_WORDS]


def idf_table(documents: Iterable[Sequence[str]]) -> tuple[dict[str, float], float]:
    """Inverse document frequencies over ``documents`` and the value for unseen terms."""
    frequency: Counter[str] = Counter()
    count = 0
    for document in documents:
        count += 1
        frequency.update(set(document))
    idf = {term: math.log(1 + (count - df + 0.5) / (df + 0.5)) for term, df in frequency.items()}
    return idf, math.log(1 + (count + 0.5) / 0.5)


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of a claim's wording a passage contains."""

    terms: float  # share of the claim's distinct content terms found
    weighted: float  # the same, each term weighted by its rarity (idf)
    bigrams: float  # share of the claim's adjacent content-term pairs found
    missing: tuple[str, ...]  # the claim's content terms the passage lacks


def coverage(
    claim: Sequence[str],
    passage: Iterable[str],
    idf: dict[str, float] | None = None,
    unseen_idf: float = 1.0,
) -> Coverage:
    """Measure how much of ``claim`` (content terms) appears in ``passage``."""
    tokens = list(passage)
    present = set(tokens)
    distinct = list(dict.fromkeys(claim))
    if not distinct:
        return Coverage(0.0, 0.0, 0.0, ())
    found = [term for term in distinct if term in present]
    weights = {term: (idf or {}).get(term, unseen_idf) for term in distinct}
    total = sum(weights.values()) or 1.0
    bigrams = list(zip(claim, claim[1:]))
    passage_bigrams = set(zip(tokens, tokens[1:])) if bigrams else set()
    bigram_share = (
        sum(1 for pair in bigrams if pair in passage_bigrams) / len(bigrams) if bigrams else 0.0
    )
    return Coverage(
        terms=len(found) / len(distinct),
        weighted=sum(weights[term] for term in found) / total,
        bigrams=bigram_share,
        missing=tuple(term for term in distinct if term not in present),
    )


if __name__ == "__main__":
    claim = content_terms("The studies found that 1,200 patients recovered in 2019.")
    passage = content_terms("In 2019 a study reported that 1200 patients had recovered.")
    print("claim  ", claim)
    print("passage", passage)
    print(coverage(claim, passage))
