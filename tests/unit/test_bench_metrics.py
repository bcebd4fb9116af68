"""The benchmark's metrics on tiny hand-made sets with known answers."""

import pytest

from bench import metrics
from bench.cases import Case, perturb

GOLD = ["supported", "supported", "supported", "supported", "partial", "unsupported", "contradicted", "unsupported"]
PRED = ["supported", "supported", "supported", "unsupported", "supported", "unsupported", "supported", "partial"]


def test_balanced_accuracy_is_the_mean_of_both_recalls():
    # supported recall 3/4, not-supported recall 2/4
    assert metrics.balanced_accuracy(GOLD, PRED) == pytest.approx((0.75 + 0.5) / 2)
    assert metrics.accuracy(GOLD, PRED) == pytest.approx(5 / 8)


def test_the_trivial_floor_is_fifty_percent():
    assert metrics.balanced_accuracy(GOLD, ["unsupported"] * len(GOLD)) == 0.5
    assert metrics.balanced_accuracy(GOLD, ["supported"] * len(GOLD)) == 0.5


def test_false_supported_rates_overall_and_on_contradicted():
    assert metrics.false_supported_rate(GOLD, PRED) == pytest.approx(2 / 4)
    assert metrics.false_supported_rate(GOLD, PRED, "contradicted") == 1.0
    assert metrics.false_supported_rate(["supported"], ["supported"], "contradicted") is None


def test_confusion_counts_every_pair():
    table = metrics.confusion(GOLD, PRED)
    assert table["supported"] == {"supported": 3, "unsupported": 1}
    assert table["contradicted"] == {"supported": 1}


def test_auc_on_known_rankings():
    assert metrics.roc_auc([0.9, 0.8, 0.1, 0.2], [True, True, False, False]) == 1.0
    assert metrics.roc_auc([0.1, 0.2, 0.9, 0.8], [True, True, False, False]) == 0.0
    assert metrics.roc_auc([0.5, 0.5], [True, False]) == 0.5


def test_bootstrap_interval_contains_the_estimate_and_is_deterministic():
    low, high = metrics.bootstrap_interval(GOLD * 10, PRED * 10, rounds=300)
    assert low <= metrics.balanced_accuracy(GOLD, PRED) <= high
    assert (low, high) == metrics.bootstrap_interval(GOLD * 10, PRED * 10, rounds=300)


def test_perturbations_are_contradicted_variants_of_supported_claims():
    source = "Title\nThe bridge was opened in 1932 by John Smith in Sydney. Later it was painted by Anna Brown."
    cases = [Case("c1", "wice-dev", "The bridge was opened in 1932 by John Smith.", source, "supported"),
             Case("c2", "wice-dev", "Something else.", source, "unsupported")]
    changed = {c.id: c for c in perturb(cases, seed=1)}
    assert set(changed) == {"c1-number", "c1-entity", "c1-negation"}
    assert all(c.label == "contradicted" and c.source == source for c in changed.values())
    assert changed["c1-entity"].claim == "The bridge was opened in 1932 by Anna Brown."
    assert changed["c1-negation"].claim == "The bridge was not opened in 1932 by John Smith."
    assert "1932" not in changed["c1-number"].claim


def test_entity_swaps_take_a_name_the_page_writes_after_the_same_word():
    source = ("Life\nSmith was born in Marion, Ohio.\nWhen he retired he moved to Blackville.\n"
              "Comments\nPrivacy\nHe died in Blackville, New Brunswick.")
    case = Case("c1", "wice-dev", "Smith died in Blackville, New Brunswick, on 24 January 1957.", source, "supported")
    swaps = {v.claim for seed in range(20) for v in perturb([case], seed=seed) if v.id.endswith("-entity")}
    assert swaps == {"Smith died in Marion, New Brunswick, on 24 January 1957."}


def test_a_case_keeps_its_variants_whatever_other_cases_there_are():
    source = "T\nThe tower was built in 1901 by Ada Lovelace and Paul Mason in Leeds."
    first = Case("a", "wice-dev", "The tower was built in 1901 by Ada Lovelace.", source, "supported")
    second = Case("b", "wice-dev", "The tower was built in Leeds.", source, "supported")
    alone = perturb([first])
    assert [c for c in perturb([second, first]) if c.id.startswith("a-")] == alone


def test_seed_spread_counts_what_a_system_lets_through_per_seed():
    from bench.report import seed_spread
    from bench.systems import Prediction

    class PassesNameSwaps:
        """A fake checker that badges every name swap supported and nothing else."""

        async def predict(self, cases):
            return [Prediction("supported" if c.id.endswith("-entity") else "unsupported") for c in cases]

    source = "T\nThe bridge was opened in 1932 by John Smith in Sydney. Later it was painted by Anna Brown."
    cases = [Case("c1", "wice-dev", "The bridge was opened in 1932 by John Smith.", source, "supported")]
    spread = seed_spread(PassesNameSwaps(), cases, seeds=[1, 2])
    assert [s["seed"] for s in spread] == [1, 2]
    assert all(s["n"] == 3 and s["supported"] == 1 and s["n_entity"] == 1 and s["supported_entity"] == 1 for s in spread)
