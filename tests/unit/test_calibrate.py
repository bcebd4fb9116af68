import math

import numpy as np

from citemark.scoring.calibrate import Combiner, fit, load_default


def test_fit_recovers_the_direction_of_a_clean_signal():
    rng = np.random.default_rng(0)
    rows, labels = [], []
    for _ in range(400):
        label = bool(rng.random() < 0.5)
        rows.append({"good": rng.normal(1.0 if label else -1.0), "noise": rng.normal()})
        labels.append(label)
    weights, bias = fit(rows, labels, ["good", "noise"], l2=0.1)
    assert weights[0] > 1.0 and abs(weights[1]) < 0.3 and abs(bias) < 0.5


def test_sample_weights_shift_the_fit_towards_the_weighted_rows():
    rows = [{"x": 1.0}] * 10 + [{"x": 1.0}] * 10
    labels = [True] * 10 + [False] * 10
    _, neutral = fit(rows, labels, ["x"])
    _, tilted = fit(rows, labels, ["x"], sample_weights=[3.0] * 10 + [1.0] * 10)
    assert tilted > neutral


def test_combiner_probability_and_round_trip():
    combiner = Combiner(("a", "b"), (2.0, -1.0), 0.5, threshold=0.6, fitted_on="test")
    assert math.isclose(combiner.probability({"a": 1.0, "b": 1.0}), 1 / (1 + math.exp(-1.5)))
    assert combiner.probability({}) == 1 / (1 + math.exp(-0.5))  # missing features count as 0
    assert Combiner.from_dict(combiner.to_dict()) == combiner
    refuting = Combiner(("a",), (1.0,), 0.0, refutes=True)
    assert Combiner.from_dict(refuting.to_dict()).refutes
    # combiners written before "refutes" existed keep the old behaviour
    assert not Combiner.from_dict({"features": ["a"], "weights": [1.0], "bias": 0.0}).refutes


def test_a_shipped_lexical_combiner_exists():
    combiner = load_default("lexical")
    assert "weighted_coverage" in combiner.features and 0 < combiner.threshold < 1
