import pytest

from citemark.errors import (
    ExtractionError,
    LocalFileRefused,
    RobotsDisallowed,
    SourceBlocked,
    SourceTooLarge,
    SourceUnreachable,
)
from citemark.scoring.align import align
from citemark.scoring.binding import Binding
from citemark.scoring.features import Measurement
from citemark.scoring.guards import GuardResult
from citemark.scoring.thresholds import MODEL_AGREES, ON_TOPIC
from citemark.scoring.verdict import STRICT_CONTRADICTION, decide, decide_failure
from citemark.types import Label


def measure(**changes) -> Measurement:
    values = dict(
        support=0.9, threshold=0.5, coverage=0.9, document_coverage=0.9, contradiction=0.02,
        contradiction_coverage=0.9, context_coverage=0.9, guards=GuardResult(),
    )
    values.update(changes)
    return Measurement(**values)


@pytest.mark.parametrize(
    ("changes", "label", "reason"),
    [
        ({}, Label.SUPPORTED, "entailed"),
        ({"retracted": "RETRACTED: fabricated data"}, Label.RETRACTED, "retraction_notice"),
        ({"has_claim": False}, Label.UNVERIFIABLE, "no_claim"),
        ({"support": 0.1, "contradiction": 0.97}, Label.CONTRADICTED, "contradicted_by_source"),
        # a confident contradiction in a window that is not about the claim does not count
        ({"support": 0.1, "contradiction": 0.97, "contradiction_coverage": 0.2, "coverage": 0.2, "document_coverage": 0.2},
         Label.UNSUPPORTED, "not_found"),
        # word overlap does not outvote a model that is sure the quoted passage says the opposite
        ({"evidence_contradiction": 0.98, "evidence_entailment": 0.01}, Label.CONTRADICTED, "evidence_refutes"),
        ({"evidence_contradiction": 0.98, "evidence_entailment": 0.3}, Label.SUPPORTED, "entailed"),
        # a supporting window wins over a contradicting one elsewhere
        ({"contradiction": 0.97}, Label.SUPPORTED, "entailed"),
        ({"support": 0.2, "guards": GuardResult(("12%",), ("12%",), ())}, Label.CONTRADICTED, "number_conflict"),
        ({"guards": GuardResult(("12%",), (), ())}, Label.PARTIAL, "number_missing"),
        ({"guards": GuardResult((), (), ("Cambridge",))}, Label.PARTIAL, "name_missing"),
        # a binding finding: contradicted when the model agrees, "say less" when it does not or no model runs
        ({"guards": GuardResult(binding=Binding(opposites=("smallest ≠ largest",))), "model_entailment": 0.1},
         Label.CONTRADICTED, "opposite_word"),
        ({"guards": GuardResult(binding=Binding(opposites=("smallest ≠ largest",))), "model_entailment": 0.9},
         Label.UNSUPPORTED, "opposite_word"),
        ({"guards": GuardResult(binding=Binding(negated=("collector",)))}, Label.UNSUPPORTED, "negated_in_source"),
        ({"guards": GuardResult(binding=Binding(reversed_roles=("tenant / landlord (pay)",))),
          "model_entailment": 0.2}, Label.CONTRADICTED, "roles_reversed"),
        ({"guards": GuardResult(binding=Binding(other_roles=("Eich (designed: the source names Hoare)",)))},
         Label.UNSUPPORTED, "name_in_other_role"),
        ({"guards": GuardResult(binding=Binding(unbound_figures=("8,611 m (the source gives it for K2)",)))},
         Label.UNSUPPORTED, "figure_of_other_subject"),
        ({"guards": GuardResult(binding=Binding(overstated=("all ≠ most",)))}, Label.PARTIAL, "overstated"),
        # an off-topic passage's binding findings do not turn "not found" into "contradicted"
        ({"support": 0.1, "coverage": 0.3, "document_coverage": 0.1,
          "guards": GuardResult(binding=Binding(negated=("x",)))}, Label.UNSUPPORTED, "not_found"),
        ({"guards": GuardResult(unstated_names=("Oxford",))}, Label.PARTIAL,
         "name_not_in_evidence"),
        ({"support": 0.35, "coverage": 0.7}, Label.PARTIAL, "partly_stated"),
        ({"support": 0.1, "coverage": 0.3, "document_coverage": 0.1}, Label.UNSUPPORTED, "not_found"),
        ({"support": 0.1, "coverage": 0.4, "document_coverage": 0.6}, Label.UNSUPPORTED, "not_entailed"),
        ({"support": 0.1, "paywalled": True}, Label.PAYWALLED, "paywall"),
        # a figure worked out from two of the passage's: never "contradicted" for it, and never "supported"
        ({"support": 0.1, "contradiction": 0.97, "guards": GuardResult(("45,000",), worked_out=(
            "45,000 (from 140,000 and 185,000)",))}, Label.PARTIAL, "worked_out"),
        ({"support": 0.2, "guards": GuardResult(("45,000",), ("45,000",), worked_out=("45,000 (from 140,000 and 185,000)",))},
         Label.PARTIAL, "worked_out"),
        ({"guards": GuardResult(("45,000",), worked_out=("45,000 (from 140,000 and 185,000)",))},
         Label.PARTIAL, "number_missing"),
        # a binding finding or a refuting passage stands: the claim says something else of the difference
        ({"guards": GuardResult(("45,000",), worked_out=("45,000 (from 140,000 and 185,000)",),
                                binding=Binding(opposites=("fell ≠ grew",))), "model_entailment": 0.1},
         Label.CONTRADICTED, "opposite_word"),
        ({"evidence_contradiction": 0.98, "evidence_entailment": 0.01,
          "guards": GuardResult(("45,000",), worked_out=("45,000 (from 140,000 and 185,000)",))},
         Label.CONTRADICTED, "evidence_refutes"),
        # lexical-only: no model contradiction, still never supported with a wrong figure
        ({"contradiction": None, "guards": GuardResult(("1925",), (), ())}, Label.PARTIAL, "number_missing"),
    ],
)
def test_decision_table(changes, label, reason):
    """The balanced policy: the combiner's score decides unless a check objects."""
    decision = decide(measure(**changes), "balanced")
    assert (decision.label, decision.reason) == (label, reason)
    assert decision.explanation


PASSAGE = "The Danube is Europe's second-longest river, after the Volga. It flows through ten countries."


@pytest.mark.parametrize(
    ("claim", "changes", "label", "reason"),
    [
        # earned: every unit accounted for, and the model does not read a contradiction
        ("The Danube flows through ten countries.", {}, Label.SUPPORTED, "aligned"),
        # the combiner's score no longer decides "supported", either way
        ("The Danube flows through ten countries.", {"support": 0.1}, Label.SUPPORTED, "aligned"),
        ("The Danube is the longest river in Europe.", {}, Label.PARTIAL, "not_matched"),
        ("The Danube flows through ten countries.", {"quoted_contradiction": STRICT_CONTRADICTION + 0.01},
         Label.PARTIAL, "model_doubts"),
        # positive evidence against the claim stands as balanced found it
        ("The Danube flows through ten countries.", {"support": 0.1, "contradiction": 0.97}, Label.CONTRADICTED,
         "contradicted_by_source"),
        ("The Danube flows through ten countries.", {"guards": GuardResult(negation_mismatch=True)},
         Label.UNSUPPORTED, "negation_mismatch"),
    ],
)
def test_strict_decision_table(claim, changes, label, reason):
    """strict: "supported" needs a complete alignment; a missing word makes it partial, naming the word."""
    values = {"alignment": align(claim, PASSAGE, subject_context=PASSAGE), "quoted_contradiction": 0.02, **changes}
    decision = decide(measure(**values))
    assert (decision.label, decision.reason) == (label, reason)
    if reason == "not_matched":
        assert "second" in decision.explanation


def test_strict_takes_a_figure_in_another_unit_over_the_model_s_doubt():
    """The model reads "about 1,770 miles" against "about 2,850 km" as a conflict; the figures agree, and
    the explanation says the passage gives the figure in another unit."""
    passage = "The Danube is about 2,850 km long and flows through ten countries."
    alignment = align("The Danube is about 1,770 miles long.", passage, subject_context=passage)
    decision = decide(measure(alignment=alignment, quoted_contradiction=0.9))
    assert (decision.label, decision.reason) == (Label.SUPPORTED, "aligned")
    assert "1,770 miles (it says: 2,850 km)" in decision.explanation
    same_unit = align("The Danube is about 2,850 km long.", passage, subject_context=passage)
    assert decide(measure(alignment=same_unit, quoted_contradiction=0.9)).reason == "model_doubts"


def test_strict_takes_a_passage_that_holds_the_claim_word_for_word_over_the_checks_around_it():
    """A check that reads the words around a verbatim claim ("240 more than in June" against a "fewer"
    elsewhere) does not stand against the passage's own words; the model's doubt of the passage still does."""
    passage = "Mireval ended the quarter with 3,870 employees, 240 more than in June. Its rival employs fewer."
    claim = "Mireval ended the quarter with 3,870 employees, 240 more than in June."
    objection = {"guards": GuardResult(binding=Binding(opposites=("more ≠ fewer",))), "model_entailment": 0.9}
    alignment = align(claim, passage, subject_context=passage)
    assert alignment.verbatim
    decision = decide(measure(alignment=alignment, quoted_contradiction=0.02, **objection))
    assert (decision.label, decision.reason) == (Label.SUPPORTED, "aligned")
    assert decide(measure(alignment=alignment, quoted_contradiction=0.9, **objection)).reason == "model_doubts"
    retracted = decide(measure(alignment=alignment, quoted_contradiction=0.02, retracted="RETRACTED: data"))
    assert retracted.label is Label.RETRACTED  # a retraction stands whatever the passage says
    reworded = align("Mireval ended the quarter with 3,870 staff, 240 more than in June.", passage,
                     subject_context=passage)
    assert not reworded.verbatim
    assert decide(measure(alignment=reworded, quoted_contradiction=0.02, **objection)).label is not Label.SUPPORTED


def test_strict_calls_an_incomplete_claim_partial_when_the_passage_is_about_it_and_unsupported_when_not():
    """A true claim in other words shares few words: strict says partial ("check this") when the passage is
    about it by the share of words that makes a window about a claim, or the model reads it as stated."""
    claim = "The Danube crosses ten nations, a record among waterways of the continent."
    alignment = align(claim, PASSAGE, subject_context=PASSAGE)
    assert 0 < alignment.share < ON_TOPIC
    far = {"support": 0.1, "coverage": 0.3, "alignment": alignment, "quoted_contradiction": 0.02}
    assert decide(measure(**far)).label is Label.UNSUPPORTED
    assert decide(measure(**far, model_entailment=MODEL_AGREES)).reason == "not_matched"
    assert decide(measure(**{**far, "coverage": ON_TOPIC})).label is Label.PARTIAL


def test_strict_without_an_alignment_says_so_and_never_falls_back_to_balanced():
    decision = decide(measure(alignment=None, quoted_contradiction=0.02))
    assert (decision.label, decision.reason) == (Label.PARTIAL, "alignment_unavailable")
    assert decide(measure(alignment=None), "balanced").label is Label.SUPPORTED


def test_number_conflict_needs_the_rest_of_the_claim_to_match():
    decision = decide(measure(support=0.2, context_coverage=0.4, guards=GuardResult(("12%",), ("12%",), ())))
    assert decision.label is not Label.CONTRADICTED


@pytest.mark.parametrize(
    ("error", "label", "reason"),
    [
        (SourceUnreachable("HTTP 404 Not Found", status=404), Label.UNREACHABLE, "unreachable"),
        (SourceUnreachable("HTTP 402", status=402), Label.PAYWALLED, "login_required"),
        (SourceUnreachable("timed out"), Label.UNREACHABLE, "unreachable"),
        (RobotsDisallowed("robots.txt disallows it"), Label.UNREACHABLE, "robots_disallowed"),
        (SourceBlocked("private address"), Label.UNREACHABLE, "blocked_by_policy"),
        (LocalFileRefused("no local files"), Label.UNREACHABLE, "local_file_refused"),
        (SourceTooLarge("too big"), Label.UNVERIFIABLE, "too_large"),
        (ExtractionError("scanned PDF"), Label.UNVERIFIABLE, "no_text"),
    ],
)
def test_unusable_sources_are_never_unsupported_or_contradicted(error, label, reason):
    decision = decide_failure(error)
    assert (decision.label, decision.reason) == (label, reason)
    assert decision.label not in {Label.UNSUPPORTED, Label.CONTRADICTED}
