"""Accuracy metrics for "supported vs not": balanced accuracy with bootstrap intervals, false-supported rates, AUC.

Pure functions over (gold label, predicted label) lists, so they are tested on a
tiny hand-made set with known answers (tests/unit/test_bench_metrics.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

SUPPORTED = "supported"


def is_supported(label: str) -> bool:
    return label == SUPPORTED


def balanced_accuracy(gold: Sequence[str], predicted: Sequence[str]) -> float:
    """Mean of the recall on "supported" and on "not supported" (partial, unsupported, contradicted...)."""
    recalls = []
    for side in (True, False):
        indices = [i for i, g in enumerate(gold) if is_supported(g) == side]
        if indices:
            recalls.append(sum(is_supported(predicted[i]) == side for i in indices) / len(indices))
    return sum(recalls) / len(recalls) if recalls else float("nan")


def accuracy(gold: Sequence[str], predicted: Sequence[str]) -> float:
    return sum(is_supported(g) == is_supported(p) for g, p in zip(gold, predicted)) / len(gold) if gold else float("nan")


def false_supported_rate(gold: Sequence[str], predicted: Sequence[str], only: str | None = None) -> float | None:
    """Share of not-supported cases (or only those labelled ``only``) that were badged supported."""
    indices = [i for i, g in enumerate(gold) if not is_supported(g) and (only is None or g == only)]
    if not indices:
        return None
    return sum(is_supported(predicted[i]) for i in indices) / len(indices)


def precision(gold: Sequence[str], predicted: Sequence[str]) -> float:
    """Of the cases badged supported, the share labelled supported: how far a green badge can be trusted."""
    badged = [g for g, p in zip(gold, predicted) if is_supported(p)]
    return sum(map(is_supported, badged)) / len(badged) if badged else float("nan")


def recall(gold: Sequence[str], predicted: Sequence[str]) -> float:
    """Of the cases labelled supported, the share badged supported: what strictness costs."""
    wanted = [p for g, p in zip(gold, predicted) if is_supported(g)]
    return sum(map(is_supported, wanted)) / len(wanted) if wanted else float("nan")


def bootstrap_interval(
    gold: Sequence[str], predicted: Sequence[str], *, rounds: int = 1000, seed: int = 0, level: float = 0.95,
    statistic: Callable[[Sequence[str], Sequence[str]], float] = balanced_accuracy,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic`` (default balanced accuracy; cases resampled with
    replacement; resamples where it is undefined are left out)."""
    rng = random.Random(seed)
    n = len(gold)
    values = []
    for _ in range(rounds):
        sample = [rng.randrange(n) for _ in range(n)]
        values.append(statistic([gold[i] for i in sample], [predicted[i] for i in sample]))
    values = sorted(v for v in values if v == v)
    low = values[int((1 - level) / 2 * len(values))]
    high = values[min(len(values) - 1, int((1 + level) / 2 * len(values)))]
    return low, high


def confusion(gold: Sequence[str], predicted: Sequence[str]) -> dict[str, dict[str, int]]:
    table: dict[str, Counter[str]] = {}
    for g, p in zip(gold, predicted):
        table.setdefault(g, Counter())[p] += 1
    return {g: dict(c) for g, c in sorted(table.items())}


def roc_auc(scores: Sequence[float], positive: Sequence[bool]) -> float:
    """Probability that a random positive scores above a random negative (ties count half)."""
    pos = [s for s, p in zip(scores, positive) if p]
    neg = [s for s, p in zip(scores, positive) if not p]
    if not pos or not neg:
        return float("nan")
    ranked = sorted([(s, 1) for s in pos] + [(s, 0) for s in neg])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        average = (i + j + 1) / 2
        rank_sum += average * sum(flag for _, flag in ranked[i:j])
        i = j
    return (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))
