"""The verdict policy: one pure function from what was measured to a verdict and its reason.

Rules, in order (docs/verdicts.md is the user-facing version):

1. The source could not be fetched or read → ``unreachable`` / ``paywalled`` /
   ``unverifiable``. Never ``unsupported`` or ``contradicted``: we did not read it.
2. The source carries a retraction notice → ``retracted``.
3. The source clearly states otherwise → ``contradicted``: no window supports the
   claim and the model is confident of a contradiction in a window that is about
   it; or the model is that confident that the very passage quoted as evidence
   contradicts the claim, whatever the word overlap says; or the claim's figure
   is absent while the evidence states a different one and everything else matches.
4. ``P(supported)`` reaches the threshold and every figure and name of the claim
   is in the source → ``supported``. A figure or name missing → ``partial``; a
   word the evidence states the opposite of ("smallest" against "largest") →
   ``contradicted``.
5. Most of the claim is there but not all → ``partial`` (naming the missing words).
6. Otherwise → ``unsupported``.

A verifier's first duty is never to call a false claim supported, so every rule
that can say "supported" also has to pass the number and name guards.
"""

from __future__ import annotations

from dataclasses import dataclass

from citemark.errors import (
    CitemarkError,
    ExtractionError,
    LocalFileRefused,
    RobotsDisallowed,
    SourceBlocked,
    SourceTooLarge,
    SourceUnreachable,
)
from citemark.scoring.guards import GuardResult
from citemark.types import Label

__all__ = ["Decision", "Measurement", "decide", "decide_failure"]

#: A model P(contradiction) at least this high, in a window about the claim, contradicts.
CONTRADICTION = 0.9
#: The evidence window must hold this share of the claim's content words to contradict it.
ON_TOPIC = 0.5
#: The quoted passage itself refutes the claim: P(contradiction) ≥ CONTRADICTION and P(entailment) at most this.
REFUTED_ENTAILMENT = 0.1
#: Below the support threshold but this close to it, with most words present: partial.
PARTIAL_MARGIN = 0.25
PARTIAL_COVERAGE = 0.6


@dataclass(frozen=True, slots=True)
class Decision:
    label: Label
    reason: str
    explanation: str
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Measurement:
    """What the engine measured for one claim against one readable source."""

    support: float  # calibrated P(supported)
    threshold: float
    coverage: float  # share of the claim's content words in the best window
    document_coverage: float  # ... anywhere in the source
    contradiction: float | None  # model P(contradiction) of the most on-topic window
    contradiction_coverage: float  # coverage of that window
    context_coverage: float = 0.0  # share of the claim's words *other than figures* in the best window
    evidence_entailment: float | None = None  # model P(entailment) of the quoted window
    evidence_contradiction: float | None = None  # model P(contradiction) of the quoted window
    guards: GuardResult
    missing_terms: tuple[str, ...] = ()
    retracted: str | None = None
    paywalled: bool = False
    has_claim: bool = True


def decide(m: Measurement) -> Decision:
    """Scores → verdict; pure, so its table of cases is tested directly."""
    if m.retracted:
        return Decision(Label.RETRACTED, "retraction_notice", f"The source carries a notice: {m.retracted}")
    if not m.has_claim:
        return Decision(Label.UNVERIFIABLE, "no_claim", "The citation has no claim text to check.")
    supported = m.support >= m.threshold
    if (
        not supported
        and m.contradiction is not None
        and m.contradiction >= CONTRADICTION
        and m.contradiction_coverage >= ON_TOPIC
    ):
        return Decision(Label.CONTRADICTED, "contradicted_by_source", "The source states something different.")
    if (
        m.evidence_contradiction is not None
        and m.evidence_contradiction >= CONTRADICTION
        and (m.evidence_entailment or 0.0) <= REFUTED_ENTAILMENT
    ):
        # High word overlap with a passage that says the opposite ("was not the largest"
        # against "amassed the largest") must not become "supported".
        return Decision(Label.CONTRADICTED, "evidence_refutes", "The passage that matches best states the opposite.")
    conflicting = m.guards.conflicting_numbers
    if conflicting and m.context_coverage >= 0.75:
        return Decision(
            Label.CONTRADICTED, "number_conflict",
            f"The source gives a different figure than {', '.join(conflicting)}.", conflicting,
        )
    if supported:
        if m.guards.missing_numbers:
            return Decision(
                Label.PARTIAL, "number_missing",
                f"The source does not state {', '.join(m.guards.missing_numbers)}.", m.guards.missing_numbers,
            )
        if m.guards.opposites:
            return Decision(
                Label.CONTRADICTED, "opposite_word",
                f"The source states the opposite: {', '.join(m.guards.opposites)}.", m.guards.opposites,
            )
        if m.guards.negation_mismatch:
            return Decision(
                Label.UNSUPPORTED, "negation_mismatch", "The claim negates something the source states without a negation.",
            )
        if m.guards.missing_names:
            return Decision(
                Label.PARTIAL, "name_missing",
                f"The source does not mention {', '.join(m.guards.missing_names)}.", m.guards.missing_names,
            )
        if m.guards.unstated_names:
            return Decision(
                Label.PARTIAL, "name_not_in_evidence",
                f"The passage that matches does not mention {', '.join(m.guards.unstated_names)}.", m.guards.unstated_names,
            )
        return Decision(Label.SUPPORTED, "entailed", "The source states this.")
    if m.paywalled:
        return Decision(Label.PAYWALLED, "paywall", "Only a login or paywall page could be read.")
    if m.support >= m.threshold - PARTIAL_MARGIN and m.coverage >= PARTIAL_COVERAGE:
        missing = m.guards.missing_numbers + m.guards.missing_names or m.missing_terms
        what = f" Missing: {', '.join(missing[:6])}." if missing else ""
        return Decision(Label.PARTIAL, "partly_stated", "The source states part of this." + what, missing)
    if m.document_coverage < 0.3:
        return Decision(Label.UNSUPPORTED, "not_found", "The source does not discuss this.")
    return Decision(Label.UNSUPPORTED, "not_entailed", "The source discusses this but does not state it.")


def decide_failure(error: CitemarkError) -> Decision:
    """A source that could not be used → its own verdict, never unsupported/contradicted."""
    if isinstance(error, SourceUnreachable):
        if error.status in (401, 402):
            return Decision(Label.PAYWALLED, "login_required", f"The source requires a login ({error.message}).")
        return Decision(Label.UNREACHABLE, "unreachable", f"The source could not be reached: {error.message}.")
    if isinstance(error, RobotsDisallowed):
        return Decision(Label.UNREACHABLE, "robots_disallowed", error.message + ".")
    if isinstance(error, SourceBlocked):
        return Decision(Label.UNREACHABLE, "blocked_by_policy", error.message + ".")
    if isinstance(error, LocalFileRefused):
        return Decision(Label.UNREACHABLE, "local_file_refused", error.message + ".")
    if isinstance(error, SourceTooLarge):
        return Decision(Label.UNVERIFIABLE, "too_large", f"The source is too large to read: {error.message}.")
    if isinstance(error, ExtractionError):
        return Decision(Label.UNVERIFIABLE, "no_text", f"No text could be read from the source: {error.message}.")
    return Decision(Label.UNVERIFIABLE, "source_error", error.message)
