"""The trust measures (bench/trust.py, bench/contrast_suite.py) and the accuracy run's handling of
cases the engine refuses, on small fakes with known answers."""

import asyncio
from types import SimpleNamespace

import pytest

from bench import accuracy, metrics, trust
from bench.cases import Case
from bench.contrast_suite import differences_name_changed, names_changed, plain_false_contradicted, true_split
from bench.systems import ERROR, Citemark, Prediction


def case(kind, gold, predicted, changed="", differences=()):
    return {"id": kind, "kind": kind, "gold": gold, "predicted": predicted, "reason": "r", "changed": changed,
            "differences": list(differences)}


def difference(claim_text=None, passage_text=None):
    return {"claim_text": claim_text, "claim_start": None, "claim_end": None, "passage_text": passage_text,
            "passage_start": None, "passage_end": None}


# ------------------------------------------------------------ differences name the changed word


def test_a_difference_names_the_changed_word_on_either_side_whatever_the_case():
    assert names_changed(case("date_shift", "contradicted", "contradicted", "1945", [difference("1945", "1949")]))
    assert names_changed(case("antonym", "contradicted", "partial", "voted in favour of",
                              [difference(None, "rejected"), difference("Favour", None)]))
    assert names_changed(case("antonym", "contradicted", "partial", "largest", [difference(None, "LARGEST")]))


def test_a_difference_elsewhere_or_sharing_only_a_small_word_does_not_name_it():
    assert not names_changed(case("date_shift", "contradicted", "partial", "1945", [difference("Norway", "Sweden")]))
    assert not names_changed(case("polarity", "contradicted", "partial", "did not remain", [difference("in", None)]))
    assert not names_changed(case("polarity", "contradicted", "partial", "the first", [difference("the", "the")]))
    assert not names_changed(case("date_shift", "contradicted", "unsupported", "1945", []))
    assert not names_changed(case("verbatim", "supported", "partial", "", [difference("1945", None)]))


def test_the_share_counts_only_false_claims_with_an_edit_that_were_not_badged_supported():
    cases = [case("date_shift", "contradicted", "contradicted", "1945", [difference("1945", "1949")]),
             case("date_shift", "contradicted", "unsupported", "1946", []),
             case("date_shift", "contradicted", "supported", "1947", [difference("1947", None)]),  # badged supported
             case("unaddressed", "unsupported", "unsupported", "", []),  # no recorded edit
             case("verbatim", "supported", "partial", "", [])]
    assert differences_name_changed(cases) == {"n": 2, "named": 1, "share": 0.5}


# ------------------------------------------------------------ the true split and red stays red


def test_true_claims_split_into_supported_partial_and_called_false():
    cases = [case("verbatim", "supported", "supported"), case("paraphrase", "supported", "partial"),
             case("paraphrase", "supported", "partial"), case("multi_sentence", "supported", "unsupported"),
             case("polarity", "contradicted", "supported")]
    assert true_split(cases) == {"n": 4, "supported": 0.25, "partial": 0.5, "supported_or_partial": 0.75,
                                 "contradicted_or_unsupported": 0.25}


def test_red_stays_red_counts_plain_false_kinds_only():
    cases = [case("polarity", "contradicted", "contradicted"), case("ordinal_superlative", "contradicted", "partial"),
             case("added_detail", "unsupported", "contradicted"), case("unaddressed", "unsupported", "contradicted")]
    assert plain_false_contradicted(cases) == {"n": 2, "contradicted": 0.5}


# ------------------------------------------------------------ precision and recall of "supported"


def test_precision_and_recall_of_supported():
    gold = ["supported", "supported", "supported", "partial", "unsupported"]
    predicted = ["supported", "partial", "supported", "supported", "unsupported"]
    assert metrics.precision(gold, predicted) == pytest.approx(2 / 3)
    assert metrics.recall(gold, predicted) == pytest.approx(2 / 3)
    low, high = metrics.bootstrap_interval(gold, predicted, statistic=metrics.precision, rounds=200)
    assert 0.0 <= low <= 2 / 3 <= high <= 1.0


# ------------------------------------------------------------ a case that cannot be judged


def test_an_empty_source_is_an_error_of_that_case_not_of_the_run():
    system = Citemark("none", "text")
    cases = [Case("judged", "t", "The waggle dance was decoded by Karl von Frisch.",
                  "Bees\nThe waggle dance was decoded by Karl von Frisch.", "supported"),
             Case("empty", "t", "The sky is blue.", "", "supported")]
    predictions = asyncio.run(system.predict(cases))
    assert predictions[0].label != ERROR
    assert predictions[1].label == ERROR and "empty" in predictions[1].error
    summary = accuracy.summarise(system, cases, predictions, 1.0)
    assert summary["n"] == 1
    assert summary["errors"]["n"] == 1 and summary["errors"]["ids"] == ["empty"]


def test_errors_are_left_out_of_every_score():
    system = SimpleNamespace(name="fake", model=lambda: "none")
    cases = [Case(str(i), "t", "c", "s", label) for i, label in enumerate(["supported", "unsupported", "supported"])]
    predictions = [Prediction("supported"), Prediction("unsupported"), Prediction(ERROR, error="InputError: empty")]
    summary = accuracy.summarise(system, cases, predictions, 1.0)
    assert summary["balanced_accuracy"] == 1.0 and summary["n"] == 2
    assert summary["errors"] == {"n": 1, "ids": ["2"], "why": {"InputError: empty": 1}}
    assert trust.precision_recall(cases, predictions)["recall"] == 1.0


def test_the_policy_reaches_the_engine_and_the_name():
    system = Citemark("none", "text", policy="balanced")
    assert system.engine.settings.policy == "balanced"
    assert system.name.endswith(", balanced)")
    assert Citemark("none", "text").name.endswith(", strict)")


def test_without_parser_restores_the_parser():
    from citemark.scoring import parse

    available = parse.available
    with trust.without_parser():
        assert parse.available() is False
    assert parse.available is available
