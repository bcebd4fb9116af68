"""Paraphrase matches: a common word of the claim that the passage says in other words.

"would shut" / "would close", "checking" / "examining", "stood in" / "filled in": the
alignment (``align.py``) matches words by lemma and a short synonym list, which leaves
most paraphrases unaccounted for. Here a claim word may also be matched by the shipped
model's own contextual token states (BERTScore, Zhang et al. 2020): the model reads the
claim and the passage together, and a word whose state is close enough
(``thresholds.PARAPHRASE_SIMILARITY``, chosen on training rows by ``train/fit_paraphrase.py``) to a
passage word's state is said by that word.

Only common words: names, figures, dates and negations match by identity or value alone
(``align.py``), and so do the closed-class words whose change is the whole of a false
claim (``EXACT_ONLY``: quantifiers, order, comparison, modality). A listed opposite
("rose" / "fell", "first" / "second") vetoes a match whatever the similarity: embeddings
place opposites close together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from citemark.scoring import thresholds
from citemark.scoring.binding.opposites import are_opposites

__all__ = ["EXACT_ONLY", "Paraphraser", "TokenStates", "eligible", "similar_enough"]

#: Words matched only by identity or a listed synonym: a change in one of them is what a
#: false claim changes ("all" / "most", "first" / "second", "before" / "after", "may" / "will").
EXACT_ONLY = frozenset([
    "all", "every", "each", "any", "some", "most", "many", "much", "few", "fewer", "several", "both", "either",
    "neither", "none", "only", "just", "alone", "sole", "more", "less", "least", "than", "as", "same", "different",
    "other", "another", "else", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "last", "final", "next", "previous", "former", "latter", "penultimate", "before", "after",
    "earlier", "later", "since", "until", "till", "during", "while", "once", "already", "still", "yet", "again",
    "ever", "never", "always", "often", "sometimes", "usually", "rarely", "seldom", "frequently", "occasionally",
    "soon", "recently", "above", "below", "over", "under", "up", "down", "in", "out", "on", "off", "into", "onto",
    "within", "without", "inside", "outside", "between", "among", "against", "may", "might", "must", "can",
    "could", "would", "should", "shall", "will", "likely", "unlikely", "possibly", "probably", "perhaps",
    "certainly", "planned", "plan", "plans", "proposed", "expected", "intended", "claimed", "alleged",
    "reportedly", "allegedly", "partly", "partially", "entirely", "fully", "almost", "nearly", "largely", "mostly",
    "mainly", "barely", "hardly", "exactly", "about", "approximately", "not", "no", "nor",
])

#: The parser's content parts of speech: only these may be matched by their state.
CONTENT = frozenset(["NOUN", "VERB", "ADJ", "ADV"])
#: The parser's tags of comparatives and superlatives.
_COMPARED = frozenset(["JJR", "JJS", "RBR", "RBS"])


@dataclass(frozen=True, slots=True)
class TokenStates:
    """The model's token states for one (claim, passage) reading: each token's character span in its
    own text and its unit-length state vector."""

    claim_spans: np.ndarray  # (n, 2) character offsets in the claim
    claim: np.ndarray  # (n, d), rows of unit length
    passage_spans: np.ndarray  # (m, 2) character offsets in the passage
    passage: np.ndarray  # (m, d)

    def similarity(self, claim_word: tuple[int, int], passage_word: tuple[int, int]) -> float | None:
        """The cosine of the two words' states (each the mean of its word pieces); None when either
        word has no token (the passage was cut at the model's length)."""
        a = _word(self.claim_spans, self.claim, claim_word)
        b = _word(self.passage_spans, self.passage, passage_word)
        return None if a is None or b is None else float(a @ b)


#: Reads the model's token states for a (claim, passage) pair: None when the model has none.
Paraphraser = Callable[[str, str], TokenStates | None]


def _word(spans: np.ndarray, states: np.ndarray, word: tuple[int, int]) -> np.ndarray | None:
    inside = (spans[:, 0] < word[1]) & (spans[:, 1] > word[0]) if len(spans) else np.zeros(0, dtype=bool)
    if not inside.any():
        return None
    vector = states[inside].mean(axis=0)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else None


def eligible(word: str, pos: str | None = None, tag: str | None = None) -> bool:
    """Whether a word may be matched by its state: a common content word, not a closed-class word
    (``EXACT_ONLY``) and, where the parser read it, a noun, verb, adjective or adverb, not a
    comparative or superlative ("longer" / "longest" are matched by identity)."""
    lower = word.lower()
    if lower in EXACT_ONLY or not lower.isalpha() or len(lower) < 3:
        return False
    return (pos is None or pos in CONTENT) and tag not in _COMPARED


def similar_enough(claim_word: str, passage_word: str, similarity: float | None) -> bool:
    """A paraphrase match: similar enough, and not a listed opposite ("rose" / "fell")."""
    return similarity is not None and similarity >= thresholds.PARAPHRASE_SIMILARITY and not are_opposites(claim_word, passage_word)


def states_from(claim_offsets: Sequence[tuple[int, int]], claim: np.ndarray, passage_offsets: Sequence[tuple[int, int]],
                passage: np.ndarray) -> TokenStates:
    """TokenStates from raw token offsets and states (rows normalised here)."""
    def unit(rows: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.where(norms == 0, 1, norms)

    return TokenStates(np.asarray(claim_offsets, dtype=np.int64).reshape(-1, 2), unit(np.asarray(claim, dtype=np.float32)),
                       np.asarray(passage_offsets, dtype=np.int64).reshape(-1, 2),
                       unit(np.asarray(passage, dtype=np.float32)))
