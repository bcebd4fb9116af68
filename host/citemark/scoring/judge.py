"""Judging one claim against one readable source: the one place where the sequence lives.

Text gate → figures restated in the source's spelling → retrieval → model →
features and guards → combiner → ``verdict.decide`` → the quote, its scores and
its deep link. The engine calls ``judge`` for every (claim, citation) once the
source is loaded; ``train/fit_combiner.py`` calls ``gather`` (the same steps up
to the features) to fit the combiner on exactly what the engine will measure.
The verdicts reached without judging the text are here too: ``failed`` (a source
that cannot be read, a citation past a limit), and ``check_quotes`` after judging.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, replace

from citemark.errors import ExtractionError
from citemark.scoring import guards
from citemark.scoring.align import Alignment, align
from citemark.scoring.calibrate import Combiner
from citemark.scoring.features import NEGATION_WINDOWS, ClaimEvidence, Measurement, measure, nearby
from citemark.scoring.language import readable
from citemark.scoring.lexical import content_terms
from citemark.scoring.nli import BatchingScorer
from citemark.scoring.numerals import arabic
from citemark.scoring.paraphrase import Paraphraser
from citemark.scoring.quantities import parse_quantities, restate, stated_in
from citemark.scoring.quotes import falsified_quote, quoted_spans, snap_quote
from citemark.scoring.retrieve import EvidenceIndex, Hit
from citemark.scoring.thresholds import CONFLICT_CONTRADICTION, CONFLICT_COVERAGE
from citemark.scoring.verdict import BINDING_REASONS, Decision, decide, decide_failure
from citemark.sources.extract import MIN_TEXT_CHARS
from citemark.sources.resolve import text_fragment_link
from citemark.types import Citation, Claim, Difference, Document, Evidence, Label, Scores, Verdict

__all__ = ["Judgement", "check_quotes", "failed", "gather", "judge", "over_citation_limit", "past_deadline"]


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict's parts for one claim: the decision, and the quote with its scores when there is one."""

    decision: Decision
    evidence: Evidence | None = None
    scores: Scores | None = None
    quotes: tuple[Evidence, ...] = ()  # for "conflicting": the passage that says the opposite
    differences: tuple[Difference, ...] = ()  # for partial and contradicted: where the claim and the quote part


@dataclass(frozen=True, slots=True)
class Gathered:
    """What was measured before the combiner: the evidence, or the decision already reached without it."""

    evidence: ClaimEvidence | None
    decision: Decision | None


async def gather(claim: str, document: Document, index: EvidenceIndex, scorer: BatchingScorer | None,
                 *, windows: int) -> Gathered:
    """The text gate, retrieval, the model and the features: everything the combiner reads."""
    too_little = MIN_TEXT_CHARS if document.kind in ("html", "pdf") else 1
    if len(document.text.strip()) < too_little:
        if document.retracted:  # the record says so, whatever could (not) be read
            return Gathered(None, Decision(Label.RETRACTED, "retraction_notice", f"The source carries a notice: {document.retracted}"))
        if document.paywalled:
            return Gathered(None, Decision(Label.PAYWALLED, "paywall", "Only a login or paywall page could be read."))
        return Gathered(None, decide_failure(ExtractionError(
            "no readable text (the page may need JavaScript, or the PDF is scanned)")))
    # Retrieval and the checks are CPU work over the whole source: in a worker
    # thread, so a long source never holds up the event loop (other requests, pings).
    wording, hits = await asyncio.to_thread(_retrieve, claim, document, index, windows)
    if not hits:
        return Gathered(None, decide(_nothing_found(claim, document)))
    # The model reads figures as digits: 第三十六条 and 第36条 are one article to it too.
    pairs = [(arabic(h.text), arabic(wording)) for h in hits]
    nli = list(await scorer.score(pairs)) if scorer else None
    return Gathered(await asyncio.to_thread(measure, wording, index, hits, nli), None)


def _retrieve(claim: str, document: Document, index: EvidenceIndex, windows: int) -> tuple[str, list[Hit]]:
    # A claim without figures has nothing to restate: the page's figures are not read for it (on a
    # page of 50,000 sentences that reading holds the interpreter for a third of a second at a time).
    wording = restate(claim, list(stated_in(document.text))) if parse_quantities(claim) else claim
    return wording, index.search(wording, k=windows)


async def judge(claim: str, document: Document, index: EvidenceIndex, scorer: BatchingScorer | None,
                combiner: Combiner, *, windows: int, policy: str = "strict") -> Judgement:
    """One claim against one readable source → its decision (under ``policy``), quote and scores."""
    gathered = await gather(claim, document, index, scorer, windows=windows)
    evidence = gathered.evidence
    if evidence is None:
        assert gathered.decision is not None
        return Judgement(gathered.decision)
    support = combiner.probability(evidence.features)
    paraphraser = scorer.paraphraser() if scorer is not None else None
    alignment = await asyncio.to_thread(aligned, claim, index, evidence.best, paraphraser)
    measurement = evidence.measurement(support, combiner.threshold, refutes=combiner.refutes,
                                       retracted=document.retracted, paywalled=document.paywalled, alignment=alignment)
    decision = decide(measurement, policy)
    shown, shown_nli = evidence.best, evidence.best_nli
    if decision.reason == "contradicted_by_source" and evidence.contradiction_hit:
        shown, shown_nli = evidence.contradiction_hit, evidence.contradiction
        alignment = await asyncio.to_thread(aligned, claim, index, shown, paraphraser) or alignment
    differences = located(alignment, index, shown) if alignment is not None and decision.label in _LOCATED else ()
    if not differences and decision.reason in BINDING_REASONS:
        differences = found_differences(decision.missing, claim, shown.text)
    scores = Scores(
        support=support,
        entailment=shown_nli.entailment if shown_nli else None,
        contradiction=shown_nli.contradiction if shown_nli else None,
        coverage=shown.coverage.terms,
        weighted_coverage=shown.coverage.weighted,
        retrieval=shown.bm25,
        number_mismatch=evidence.guards.number_mismatch,
        entity_mismatch=evidence.guards.entity_mismatch,
    )
    conflict = await asyncio.to_thread(_conflicting, claim, index, decision, evidence, alignment)
    if conflict is not None:
        return Judgement(Decision(
            Label.PARTIAL, "conflicting",
            "The source says both: one passage supports the claim and another contradicts it.",
        ), quote(shown, document), scores, (quote(conflict, document),))
    return Judgement(decision, quote(shown, document), scores, differences=differences)


#: The verdicts whose card shows where the claim and the quote part.
_LOCATED = frozenset([Label.PARTIAL, Label.CONTRADICTED, Label.UNSUPPORTED])
#: Sentences either side of the quoted window that the alignment may read (TRUST.md: its sentence, plus one either side).
ALIGN_AROUND = 1


def _passage_span(index: EvidenceIndex, hit: Hit) -> tuple[int, int]:
    spans = index.sentences
    first = max(0, hit.window.first - ALIGN_AROUND)
    last = min(len(spans) - 1, hit.window.last + ALIGN_AROUND)
    return spans[first].start, spans[last].end


#: Longer claims and passages are not aligned (each claim word is compared with each passage word,
#: and a parse holds the interpreter): a claim over this many characters …
ALIGN_CLAIM_CHARS = 1_000
#: … or a passage (the quoted window with a sentence either side, else the window alone) over this many.
ALIGN_PASSAGE_CHARS = 6_000
#: The text where a claim's subject may be named, at most this long.
SUBJECT_CONTEXT_CHARS = 20_000


def _aligned_span(index: EvidenceIndex, hit: Hit) -> tuple[int, int]:
    """The text the alignment reads: the window with a sentence either side, or the window alone when
    that is over ALIGN_PASSAGE_CHARS (``aligned`` and ``located`` must agree on it for the offsets)."""
    start, end = _passage_span(index, hit)
    return (start, end) if end - start <= ALIGN_PASSAGE_CHARS else (hit.window.start, hit.window.end)


def aligned(claim: str, index: EvidenceIndex, hit: Hit, paraphraser: Paraphraser | None = None) -> Alignment | None:
    """The claim aligned with the quoted window and a sentence either side; its subject may be named
    in the page's opening or the sentences around; ``paraphraser``: the model's token states, for
    paraphrase matches. None: a claim the alignment cannot read (another language), or a claim or
    passage too long to align."""
    start, end = _aligned_span(index, hit)
    if not readable(claim) or len(claim) > ALIGN_CLAIM_CHARS or end - start > ALIGN_PASSAGE_CHARS:
        return None
    return align(claim, index.text[start:end], subject_context=nearby(index, hit)[:SUBJECT_CONTEXT_CHARS],
                 paraphraser=paraphraser)


#: A binding finding's shape: the claim's words, then "≠ the source's word", or "(what the source says)".
_FINDING = re.compile(r"^(?P<claim>.+?)(?:\s+≠\s+(?P<passage>.+)|\s+\(.*|\s+/\s+.*)?$")


def found_differences(findings: tuple[str, ...], claim: str, quote: str) -> tuple[Difference, ...]:
    """Differences from a binding check's findings ("rose ≠ fell", "9 seismometers (the source gives 24 …)"),
    for a verdict whose alignment is complete and so locates nothing: the claim's words each finding names,
    and the source's word where the finding gives one, each with its offsets where it is found."""
    result = []
    for finding in findings:
        match = _FINDING.match(finding)
        if match is None:
            continue
        said, other = match.group("claim").strip(), (match.group("passage") or "").strip() or None
        at = claim.find(said)
        there = quote.find(other) if other else -1
        if at < 0 and there < 0:
            continue
        result.append(Difference(said if at >= 0 else None, at if at >= 0 else None, at + len(said) if at >= 0 else None,
                                 other if there >= 0 else None, there if there >= 0 else None,
                                 there + len(other) if other and there >= 0 else None))
    return tuple(result)


def located(alignment: Alignment, index: EvidenceIndex, hit: Hit) -> tuple[Difference, ...]:
    """The alignment's differences with offsets in the claim and in the quote (``hit.text``)."""
    shift = _aligned_span(index, hit)[0] - hit.window.start
    result = []
    for difference in alignment.differences:
        claim, passage = difference.claim, difference.passage
        inside = passage is not None and passage.start + shift >= 0 and passage.end + shift <= len(hit.text)
        result.append(Difference(
            claim.text if claim else None, claim.start if claim else None, claim.end if claim else None,
            passage.text if passage else None, passage.start + shift if passage and inside else None,
            passage.end + shift if passage and inside else None))
    return tuple(result)


def _conflicting(claim: str, index: EvidenceIndex, decision: Decision, evidence: ClaimEvidence,
                 alignment: Alignment | None) -> Hit | None:
    """The contradicting passage of a source that also supports the claim elsewhere (RefSentry's warning):
    the model is sure it says the opposite, or it states every part of the claim under a negation of its
    own. The model alone seldom is that sure of a plain denial ("did not open in 1902": 0.73).

    "Supports elsewhere": the verdict is supported, or only the negation check (which reads beyond the
    quoted passage) objects while the quoted passage accounts for every part of the claim."""
    supports = decision.label is Label.SUPPORTED or (
        decision.reason == "negated_in_source" and alignment is not None and alignment.complete)
    if not supports:
        return None
    hit, scores = evidence.contradiction_hit, evidence.contradiction
    if hit is not None and scores is not None and scores.contradiction >= CONFLICT_CONTRADICTION \
            and _elsewhere(hit, evidence.best) and hit.coverage.terms >= CONFLICT_COVERAGE:
        return hit
    for hit in index.search(claim, k=NEGATION_WINDOWS):
        if _elsewhere(hit, evidence.best) and hit.coverage.terms >= CONFLICT_COVERAGE and _DENIAL.search(hit.text):
            denial = aligned(claim, index, hit)
            if denial is not None and denial.denies:
                return hit
    return None


#: A window worth aligning for a denial holds a negation (the alignment costs more than this search).
_DENIAL = re.compile(r"\b(?:not|no|never|neither|nor|without|cannot)\b|n['’]t\b", re.IGNORECASE)


def _elsewhere(hit: Hit, best: Hit) -> bool:
    """Another passage than the quoted one: the same passage read two ways is no conflict."""
    return not (hit.window.start < best.window.end and best.window.start < hit.window.end)


def quote(hit: Hit, document: Document) -> Evidence:
    """The window as the card shows it, with a link that opens the source at it."""
    return quote_at(hit.window.start, hit.window.end, document, hit.text)


def quote_at(start: int, end: int, document: Document, text: str | None = None) -> Evidence:
    """``document.text[start:end]`` as evidence, with a link that opens the source at it."""
    text = document.text[start:end] if text is None else text
    link = None
    url = document.final_url or document.url
    page = document.page_of(start)
    if url and url.startswith(("http://", "https://")):
        link = f"{url.split('#')[0]}#page={page}" if page else text_fragment_link(url, text)
    return Evidence(quote=text, start=start, end=end, link=link, page=page)


def _nothing_found(claim: str, document: Document) -> Measurement:
    return Measurement(
        support=0.0, threshold=1.0, coverage=0.0, document_coverage=0.0, contradiction=None,
        contradiction_coverage=0.0, guards=guards.GuardResult(), retracted=document.retracted,
        paywalled=document.paywalled, has_claim=bool(content_terms(claim)),
    )


def check_quotes(verdict: Verdict, document: Document) -> Verdict:
    """``altered_quote``: words the claim quotes (or the answer's excerpt) that are not verbatim in the source.

    The source may still say the same thing, but a quotation is a promise
    about exact words: a supported verdict becomes partial, and the nearest
    verbatim passage is shown as the evidence. A quotation whose changed words
    reverse that passage is ``falsified_quote``: contradicted.
    """
    if verdict.label in (Label.CONTRADICTED, Label.RETRACTED):
        return verdict
    anchors = quoted_spans(verdict.claim) + ([verdict.citation.excerpt] if verdict.citation.excerpt else [])
    for anchor in anchors:
        snapped = snap_quote(anchor, document.text)
        if snapped.exact:
            continue
        label = Label.PARTIAL if verdict.label is Label.SUPPORTED else verdict.label
        if snapped.found:
            assert snapped.start is not None and snapped.end is not None
            evidence = quote_at(snapped.start, snapped.end, document)
            if (falsified := falsified_quote(verdict, anchor, evidence)) is not None:
                return falsified
            nearest = f" The nearest passage reads “{snapped.quote}”."
        else:
            evidence, nearest = verdict.evidence, " No passage of the source is close to it."
        return replace(verdict, label=label, reason="altered_quote", evidence=evidence,
                       explanation=f"The quoted words “{anchor}” are not verbatim in the source.{nearest}")
    return verdict


def failed(claim: Claim, citation: Citation, decision: Decision, document: Document | None = None) -> Verdict:
    """The verdict of a citation judged without its source's text (unreadable, past a limit)."""
    return Verdict(
        claim=claim.text, citation=citation, label=decision.label, reason=decision.reason,
        explanation=decision.explanation, source_title=(document.title if document else None) or citation.title,
        claim_index=claim.index,
    )


def over_citation_limit(total: int, limit: int) -> Decision:
    """A citation past ``max_citations``: it gets a verdict that says so, none is dropped silently."""
    return Decision(
        Label.UNVERIFIABLE, "over_citation_limit",
        f"Not checked: the answer has {total} citations and citemark checks the first "
        f"{limit} (setting max_citations).",
    )


def past_deadline(seconds: float) -> Decision:
    """A citation still being judged when the request's deadline passed."""
    return Decision(
        Label.UNVERIFIABLE, "deadline",
        f"Not finished within the {seconds:.0f} s request limit.",
    )
