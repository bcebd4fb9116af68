"""Cross-validating the combiner: every claim judged by a combiner fitted without its page."""

from __future__ import annotations

import random

from train.fit_combiner import cross_validate, featurise

from citemark.scoring.calibrate import FEATURES_LEXICAL

TOWNS = ["Leeds", "Oslo", "Lyon", "Porto", "Graz", "Turin", "Ghent", "Cork", "Bergen", "Malmo", "Basel", "Split"]


def _rows() -> list[dict]:
    rows = []
    for i, town in enumerate(TOWNS * 3):
        year = 1850 + i
        premise = (f"The bridge of {town} number {i} was opened in {year} by the mayor. "
                   f"It carries a railway over the river and was repainted in {year + 60}.")
        group = "a" if i % 2 else "b"
        rows.append({"premise": premise, "hypothesis": f"The bridge of {town} number {i} was opened in {year}.",
                     "label": "entailment", "group": group})
        rows.append({"premise": premise, "hypothesis": f"The cathedral of {town} burned down in {year - 40} during a storm.",
                     "label": "not", "group": group})
    return rows


def test_claims_the_words_decide_are_judged_right_on_unseen_pages() -> None:
    rows = _rows()
    result = cross_validate(featurise(rows, None, k=2), rows, FEATURES_LEXICAL, 1.0, refutable=False, draws=(1, 2))
    assert result["draws"] == 2 and set(result["balanced_accuracy"]) == {"a", "b"}
    assert min(result["balanced_accuracy"].values()) >= 0.9


def test_each_dev_set_gets_its_own_score() -> None:
    rows = _rows()
    noise = [r["label"] for r in rows if r["group"] == "b"]
    random.Random(3).shuffle(noise)
    labels = iter(noise)
    rows = [{**r, "label": next(labels)} if r["group"] == "b" else r for r in rows]
    result = cross_validate(featurise(rows, None, k=2), rows, FEATURES_LEXICAL, 1.0, refutable=False, draws=(1, 2))
    assert result["balanced_accuracy"]["a"] >= 0.9
    assert result["balanced_accuracy"]["b"] <= 0.7
