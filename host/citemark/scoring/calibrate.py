"""The combiner: one calibrated P(supported) from the model's probabilities and cheap features.

Neither signal is enough alone: word overlap misses paraphrase, a small
cross-encoder misses "adds a detail". A logistic regression over both, fitted by
``train/fit_combiner.py`` on the dev sets (about a dozen weights; cross-fitted in
bench/REPORT.md), turns them into one probability whose threshold means the
same for every model.

A pack may carry its own combiner (``"combiner"`` in its manifest); lexical-only
mode and packs without one use the defaults in ``combiners.json`` beside this
module, fitted the same way.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Combiner", "FEATURES_LEXICAL", "FEATURES_MODEL", "fit", "load_default"]

FEATURES_LEXICAL = (
    "union_coverage", "coverage", "weighted_coverage", "bigrams", "document_coverage", "missing_numbers", "missing_names",
    "negation_mismatch",
)
FEATURES_MODEL = ("entailment", "best_entailment", "contradiction", "contradiction_at_best", *FEATURES_LEXICAL)

_DEFAULTS = Path(__file__).with_name("combiners.json")


@dataclass(frozen=True, slots=True)
class Combiner:
    """``P(supported) = sigmoid(bias + Σ weight·feature)`` and the threshold to call it supported.

    ``refutes``: whether the model's confident contradiction of the quoted passage
    overrules word overlap (``verdict.decide``'s ``evidence_refutes``). Fitting turns
    it on only for a model whose contradictions hold up on the dev sets: a real
    3-way NLI head's do, the aegis pair's detector's do not.
    """

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float = 0.5
    fitted_on: str = ""
    refutes: bool = False

    def probability(self, values: Mapping[str, float]) -> float:
        z = self.bias + sum(w * float(values.get(f, 0.0)) for f, w in zip(self.features, self.weights))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_dict(self) -> dict:
        return {
            "features": list(self.features), "weights": [round(w, 6) for w in self.weights],
            "bias": round(self.bias, 6), "threshold": round(self.threshold, 4), "fitted_on": self.fitted_on,
            "refutes": self.refutes,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Combiner:
        features = tuple(data["features"])
        weights = tuple(float(w) for w in data["weights"])
        if len(features) != len(weights):
            raise ValueError("combiner: features and weights differ in length")
        return cls(features, weights, float(data["bias"]), float(data.get("threshold", 0.5)), str(data.get("fitted_on", "")),
                   bool(data.get("refutes", False)))


def load_default(kind: str) -> Combiner:
    """The shipped combiner for ``kind``: "lexical", or a model name with a fitted entry."""
    table = json.loads(_DEFAULTS.read_text(encoding="utf-8")) if _DEFAULTS.exists() else {}
    if kind in table:
        return Combiner.from_dict(table[kind])
    if kind == "lexical":
        return Combiner(FEATURES_LEXICAL, (0.5, 1.0, 4.5, 1.0, 1.0, -2.0, -1.5, -2.0), -4.5, 0.5, "hand-set")
    return Combiner(FEATURES_MODEL, (4.0, 0.0, -1.0, -2.0, 0.5, 1.0, 2.5, 0.5, 0.5, -2.0, -1.5, -2.0), -5.0, 0.5, "hand-set")


def fit(
    rows: Sequence[Mapping[str, float]], labels: Sequence[bool], features: Sequence[str],
    *, l2: float = 1.0, iterations: int = 500, sample_weights: Sequence[float] | None = None,
) -> tuple[tuple[float, ...], float]:
    """L2-regularised (weighted) logistic regression by Newton's method; returns (weights, bias)."""
    import numpy as np  # only fitting needs it: the native host's hello reads packs without loading numpy

    x = np.array([[float(r.get(f, 0.0)) for f in features] for r in rows], dtype=np.float64)
    y = np.array(labels, dtype=np.float64)
    s = np.ones(len(y)) if sample_weights is None else np.asarray(sample_weights, dtype=np.float64)
    s = s * len(y) / s.sum()
    x = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(x.shape[1])
    penalty = np.eye(x.shape[1]) * l2
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (s * (p - y)) + penalty @ w
        hessian = (x * (s * p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return tuple(float(v) for v in w[:-1]), float(w[-1])
