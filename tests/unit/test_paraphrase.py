"""Paraphrase matches: a claim word said in other words, read from token states, never for
closed-class words, names or listed opposites. The states here are small fakes that say which
words are close; tests/integration/test_paraphrase_shipped_model.py reads the shipped model's own."""

from __future__ import annotations

import re

import numpy as np
import pytest

from citemark.scoring import thresholds
from citemark.scoring.align import align
from citemark.scoring.paraphrase import TokenStates, eligible, similar_enough, states_from

#: Word pairs the fake states make close (cosine 0.9); every other pair of words is orthogonal.
CLOSE = {("shut", "close"), ("rose", "fell"), ("all", "no"), ("collins", "aldrin"), ("bought", "sold")}


def fake_states(claim: str, passage: str) -> TokenStates:
    """One token per word; a word close to another shares most of its direction."""
    words = sorted({w.lower() for w in re.findall(r"\w+", claim + " " + passage)})
    axis = {w: i for i, w in enumerate(words)}

    def vector(word: str) -> np.ndarray:
        v = np.zeros(len(words) * 2)
        v[axis[word]] = 1.0
        for a, b in CLOSE:
            if word in (a, b) and a in axis and b in axis:
                v[len(words) + axis[a]] = 2.0  # the shared direction of the pair
        return v

    def read(text: str) -> tuple[list[tuple[int, int]], np.ndarray]:
        found = list(re.finditer(r"\w+", text))
        return [m.span() for m in found], np.array([vector(m.group().lower()) for m in found])

    (claim_spans, claim_rows), (passage_spans, passage_rows) = read(claim), read(passage)
    return states_from(claim_spans, claim_rows, passage_spans, passage_rows)


def test_a_word_said_in_other_words_is_matched_and_recorded_as_a_paraphrase():
    found = align("Okafor said the branches would shut.", "Okafor said the branches would close.",
                  paraphraser=fake_states)
    assert found.complete
    assert [(c.text, p.text) for c, p in found.paraphrased] == [("shut", "close")]


def test_without_token_states_the_same_claim_is_not_complete():
    found = align("Okafor said the branches would shut.", "Okafor said the branches would close.")
    assert not found.complete and [u.text for u in found.unmatched] == ["shut"]


@pytest.mark.parametrize(("claim", "passage", "left"), [
    ("Shares rose on Monday.", "Shares fell on Monday.", "rose"),  # a listed opposite vetoes
    ("All branches would close.", "No branches would close.", "All"),  # a closed-class word matches by identity
    ("Collins walked on the Moon.", "Aldrin walked on the Moon.", "Collins"),  # a name matches by identity
])
def test_opposites_closed_class_words_and_names_are_never_matched_by_their_states(claim, passage, left):
    found = align(claim, passage, paraphraser=fake_states)
    assert not found.complete and left in [u.text for u in found.unmatched] + [d.claim.text for d in found.differences
                                                                               if d.claim is not None]
    assert not found.paraphrased


def test_eligible_words_are_common_content_words():
    assert eligible("shut") and eligible("close", "VERB", "VB")
    assert not eligible("all") and not eligible("second") and not eligible("before") and not eligible("may")
    assert not eligible("longer", "ADJ", "JJR") and not eligible("largest", "ADJ", "JJS")
    assert not eligible("Paris", "PROPN", "NNP") and not eligible("of") and not eligible("42")


def test_similar_enough_needs_the_threshold_and_no_listed_opposite():
    bar = thresholds.PARAPHRASE_SIMILARITY
    assert similar_enough("shut", "close", bar) and not similar_enough("shut", "close", bar - 0.01)
    assert not similar_enough("rose", "fell", 0.99) and not similar_enough("shut", "close", None)


def test_a_word_s_state_is_the_mean_of_its_word_pieces_and_a_cut_word_has_none():
    states = states_from([(0, 3), (3, 6)], np.array([[1.0, 0.0], [0.0, 1.0]]), [(0, 4)], np.array([[1.0, 1.0]]))
    assert states.similarity((0, 6), (0, 4)) == pytest.approx(1.0)
    assert states.similarity((0, 3), (0, 4)) == pytest.approx(2 ** -0.5)
    assert states.similarity((0, 3), (10, 14)) is None
