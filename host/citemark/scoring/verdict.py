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
   Not for a figure the claim words as a difference of two of the passage's figures
   ("grew by 45,000" against "from 140,000 to 185,000"): that is ``partial``.
4. ``P(supported)`` reaches the threshold and every figure and name of the claim
   is in the source → ``supported``. A figure or name missing → ``partial``; a
   word the evidence states the opposite of ("smallest" against "largest") →
   ``contradicted``.
5. Most of the claim is there but not all → ``partial`` (naming the missing words).
6. Otherwise → ``unsupported``.

That is the ``balanced`` policy: silence of the checks means "supported". The default
policy, ``strict``, turns it round (TRUST.md): "supported" must be earned by a positive
account of the claim (``scoring/align.py``):

- every rule above that finds positive evidence against the claim stands (contradicted,
  the binding findings, a negation the source lacks, a worked-out figure);
- **supported** (reason ``aligned``) = every content unit of the claim is matched in the
  quoted passage, and the model's P(contradiction) of that passage is below
  ``STRICT_CONTRADICTION`` (no model: the alignment alone). The combiner's score no
  longer decides it;
- an incomplete alignment on a passage about the claim → **partial**, reason
  ``not_matched``, naming what the passage does not say;
- a claim the alignment cannot read (another language) → at most **partial**, reason
  ``alignment_unavailable``: strict never falls back to balanced silently.

A verifier's first duty is never to call a false claim supported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from citemark.errors import (
    CitemarkError,
    ExtractionError,
    LocalFileRefused,
    MalformedURL,
    RobotsDisallowed,
    SourceBlocked,
    SourceTooLarge,
    SourceUnreachable,
)
from citemark.scoring.align import Alignment
from citemark.scoring.features import Measurement
from citemark.scoring.thresholds import (
    CONTRADICTION,
    MODEL_AGREES,
    NOT_DISCUSSED_COVERAGE,
    NUMBER_CONFLICT_COVERAGE,
    ON_TOPIC,
    PARTIAL_COVERAGE,
    PARTIAL_MARGIN,
    REFUTED_ENTAILMENT,
    STRICT_CONTRADICTION,
)
from citemark.settings import POLICIES
from citemark.types import Label, Verdict

if TYPE_CHECKING:
    from citemark.asks import Asks

__all__ = ["BINDING_REASONS", "POLICIES", "STRICT_CONTRADICTION", "Decision", "answer_asks", "decide", "decide_failure"]

# The thresholds it decides by are one set, in ``scoring/thresholds``.


@dataclass(frozen=True, slots=True)
class Decision:
    label: Label
    reason: str
    explanation: str
    missing: tuple[str, ...] = ()


def decide(m: Measurement, policy: str = "strict") -> Decision:
    """Scores → verdict under ``policy``; pure, so its table of cases is tested directly."""
    balanced = _balanced(m)
    return _half_stated(m, balanced) if policy == "balanced" else _strict(m, balanced)


#: Balanced findings that strict keeps as they are: positive evidence against the claim, or a figure
#: strict could not match either.
_OBJECTIONS = frozenset(["negation_mismatch", "worked_out", "overstated"])


def _strict(m: Measurement, balanced: Decision) -> Decision:
    # The binding checks stand where they fire (letting a complete alignment overrule them moved the
    # development contrast set's false "supported" from 0.7 % to 5.2 % for 0.2 points of true claims).
    alignment = m.alignment
    # The model and the figure check read a comparison worked out from two figures as a conflict
    # (the figure is not in the passage); the alignment accounts for it by arithmetic (worked.py).
    worked = alignment is not None and bool(alignment.worked)
    # A passage that holds the claim word for word states it: what the checks read around it does not
    # stand (the model's doubt of the quoted passage still does, below; a retraction or a failure to read
    # stands whatever the passage says).
    overruled = worked and balanced.reason in _FIGURE_CONFLICTS | {"worked_out"} or (
        alignment is not None and alignment.verbatim
        and balanced.reason in BINDING_REASONS | _OBJECTIONS | _FIGURE_CONFLICTS)
    if not overruled and (balanced.label not in (Label.SUPPORTED, Label.PARTIAL, Label.UNSUPPORTED) or
                          balanced.reason in _OBJECTIONS or balanced.reason in BINDING_REASONS):
        return balanced
    # On topic (partial, not unsupported): what balanced would badge, a passage holding the share of the
    # claim's words that makes a window about it (ON_TOPIC), or one the model reads as more likely stating
    # the claim than not (a paraphrase shares few words: "unsupported" would call a true claim false)
    about_it = balanced.label is not Label.UNSUPPORTED or m.coverage >= ON_TOPIC or (
        m.model_entailment is not None and m.model_entailment >= MODEL_AGREES) or (
        alignment is not None and (alignment.share >= ON_TOPIC or bool(alignment.stated_clauses)))
    if alignment is None:
        if not about_it:
            return balanced
        return Decision(Label.PARTIAL, "alignment_unavailable",
                        "Alignment unavailable: citemark cannot account for the words of this claim (a language "
                        "other than English, or a claim or passage too long to align).")
    if alignment.complete and not alignment.relations_checked and alignment.participants >= 2:
        return Decision(Label.PARTIAL, "relations_unchecked",
                        "Every word of the claim is in the passage, but who did what to whom was not checked "
                        "(the dependency parser is not installed, which ./scripts/setup does, or it failed: "
                        "see the log).")
    if alignment.complete:
        # the model reads a figure said in another unit as a conflict ("72°F" against "22°C"), as it does arithmetic
        if m.quoted_contradiction is None or m.quoted_contradiction < STRICT_CONTRADICTION or worked or \
                alignment.converted:
            return Decision(Label.SUPPORTED, "aligned", "The passage states every part of this" + _in_other_words(alignment)
                            + _worked_out(alignment) + _converted(alignment))
        return Decision(Label.PARTIAL, "model_doubts",
                        "Every word of the claim is in the passage, but the model reads the passage as saying otherwise.")
    if not about_it:
        return balanced
    unmatched = tuple(u.text for u in alignment.unmatched) + tuple(u.text for u in alignment.unmatched_modifiers)
    return Decision(Label.PARTIAL, "not_matched", _stated_part(alignment) + f"The passage does not say: "
                    f"{alignment.explanation()}.", unmatched)


#: The words of a "supported" explanation that say it rests on a paraphrase match (bench/trust.py counts them).
IN_OTHER_WORDS = "in other words"


def _in_other_words(alignment: Alignment) -> str:
    """ "." or ", some in other words: shut (it says: close)." for a verdict that rests on paraphrase matches."""
    if not alignment.paraphrased:
        return "."
    said = "; ".join(f"{claim.text} (it says: {passage.text})" for claim, passage in alignment.paraphrased)
    return f", some {IN_OTHER_WORDS}: {said}."


def _worked_out(alignment: Alignment) -> str:
    """ " Worked out from its figures: 1.6 seconds against 2.6 seconds." for a claim that compares them."""
    if not alignment.worked:
        return ""
    return " Worked out from its figures: " + "; ".join(f"{w.ours.text} against {w.theirs.text}"
                                                         for w in alignment.worked) + "."


def _converted(alignment: Alignment) -> str:
    """ " Figures in another unit or form: 72°F (it says: 22°C)." for a claim whose figures the passage gives so."""
    if not alignment.converted:
        return ""
    return " Figures in another unit or form: " + "; ".join(f"{ours.text} (it says: {theirs.text})"
                                                          for ours, theirs in alignment.converted) + "."


def _stated_part(alignment: Alignment) -> str:
    """ "The passage states “…”. " for a compound claim whose one clause it states in full."""
    return "".join(f"The passage states “{clause}”. " for clause in alignment.stated_clauses)


def _half_stated(m: Measurement, decision: Decision) -> Decision:
    """balanced: a compound claim found unsupported while the passage states one of its clauses in full
    is partial, naming the half that is stated and the words of the other (never "unsupported" with
    nothing missing)."""
    alignment = m.alignment
    if decision.reason not in ("not_found", "not_entailed") or alignment is None or not alignment.stated_clauses:
        return decision
    missing = tuple(u.text for u in alignment.unmatched)
    return Decision(Label.PARTIAL, "partly_stated", _stated_part(alignment) + "It does not say: "
                    f"{alignment.explanation()}.", missing)


def _balanced(m: Measurement) -> Decision:
    """The balanced policy: the combiner's score decides "supported" unless a check objects.

    A claim whose figure is worked out from the source's figures ("grew by 45,000" against
    "from 140,000 to 185,000") is never called contradicted for it: the model and the figure
    checks read arithmetic as a conflict. citemark says less: partial, naming the figures."""
    decision = _decide(m)
    if decision.reason in _FIGURE_CONFLICTS and m.guards.worked_out:
        return Decision(Label.PARTIAL, "worked_out",
                        f"The source does not state {'; '.join(m.guards.worked_out)} itself: the figure is worked "
                        "out from its figures, and citemark does not check what the claim says of it.",
                        m.guards.worked_out)
    return decision


#: The contradictions a worked-out figure explains: the model's, or the figure check's. A binding
#: finding (an opposite, a negation, roles) or a refuting passage stands.
_FIGURE_CONFLICTS = frozenset(["contradicted_by_source", "number_conflict"])


def _decide(m: Measurement) -> Decision:
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
    if conflicting and m.context_coverage >= NUMBER_CONFLICT_COVERAGE:
        return Decision(
            Label.CONTRADICTED, "number_conflict",
            f"The source gives a different figure than {', '.join(conflicting)}.", conflicting,
        )
    if supported or m.coverage >= PARTIAL_COVERAGE:
        bound = _binding_decision(m)
        if bound is not None:
            return bound
    if supported:
        if m.guards.missing_numbers:
            return Decision(
                Label.PARTIAL, "number_missing",
                f"The source does not state {', '.join(m.guards.missing_numbers)}.", m.guards.missing_numbers,
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
    if m.document_coverage < NOT_DISCUSSED_COVERAGE:
        return Decision(Label.UNSUPPORTED, "not_found", "The source does not discuss this.")
    return Decision(Label.UNSUPPORTED, "not_entailed", "The source discusses this but does not state it.")


#: (reason, what the card says) for each way the passage attaches the claim's words differently.
_BINDING_REASONS = (
    ("negated", "negated_in_source", "The source states this under a negation"),
    ("opposites", "opposite_word", "The source states the opposite"),
    ("reversed_roles", "roles_reversed", "The source has the roles the other way round"),
    ("other_roles", "name_in_other_role", "The source names someone else in this role"),
    ("unbound_figures", "figure_of_other_subject", "The source gives this figure for something else"),
    ("redated", "other_date", "The source dates this otherwise"),
)
#: The reasons a binding finding gives (what precision costs true claims is counted by these).
BINDING_REASONS = frozenset([reason for _, reason, _ in _BINDING_REASONS] + ["overstated"])


def _binding_decision(m: Measurement) -> Decision | None:
    """A binding finding keeps the claim from "supported". It is called contradicted only when
    the model does not read the passage as stating the claim; when the two disagree, or no
    model runs, citemark says less: unsupported, with the finding as the reason."""
    binding = m.guards.binding
    for field, reason, what in _BINDING_REASONS:
        found: tuple[str, ...] = getattr(binding, field)
        if not found:
            continue
        explanation = f"{what}: {'; '.join(found)}."
        if m.model_entailment is not None and m.model_entailment < MODEL_AGREES:
            return Decision(Label.CONTRADICTED, reason, explanation, found)
        note = " The model reads the passage as supporting it; citemark does not." if m.model_entailment else ""
        return Decision(Label.UNSUPPORTED, reason, explanation + note, found)
    if binding.overstated:
        return Decision(Label.PARTIAL, "overstated",
                        f"The source is more guarded: {'; '.join(binding.overstated)}.", binding.overstated)
    return None


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
    if isinstance(error, MalformedURL):
        return Decision(Label.UNREACHABLE, "malformed_url", f"The cited address cannot be fetched: {error.message}.")
    if isinstance(error, LocalFileRefused):
        return Decision(Label.UNREACHABLE, "local_file_refused", error.message + ".")
    if isinstance(error, SourceTooLarge):
        return Decision(Label.UNVERIFIABLE, "too_large", f"The source is too large to read: {error.message}.")
    if isinstance(error, ExtractionError):
        return Decision(Label.UNVERIFIABLE, "no_text", f"No text could be read from the source: {error.message}.")
    return Decision(Label.UNVERIFIABLE, "source_error", error.message)


def answer_asks(verdict: Verdict, asks: Asks) -> Verdict:
    """A judged verdict held to what the request asked (``asks.py``); pure, and it never grants "supported".

    - ``support_threshold`` only raises the bar: a supported verdict whose support
      score is below it becomes partial (``below_support_threshold``); nothing else moves.
    - ``expect_sha256``: a source whose extracted text has another hash was not the
      text the caller meant, so nothing is concluded about that text: ``unverifiable``
      (``source_changed``), with what the text read now would have given. A retraction
      stands whatever the text; a source that could not be read has no hash and keeps
      its own verdict.
    """
    threshold = asks.support_threshold
    if threshold is not None and verdict.label is Label.SUPPORTED:
        support = verdict.scores.support if verdict.scores else 0.0
        if support < threshold:
            verdict = replace(verdict, label=Label.PARTIAL, reason="below_support_threshold", explanation=(
                f"The source supports this, but its support score {support:.2f} is below the requested "
                f"support_threshold {threshold:.2f}."))
    expected, read = asks.expect_sha256, verdict.source_sha256
    if expected and read and read != expected and verdict.label is not Label.RETRACTED:
        verdict = replace(verdict, label=Label.UNVERIFIABLE, reason="source_changed", missing=(), differences=(),
                          explanation=(f"The source's text is not the expected one (SHA-256 {read[:12]}…, expected "
                                       f"{expected[:12]}…); on the text read now the verdict would be "
                                       f"{verdict.label.value} ({verdict.reason})."))
    return verdict
