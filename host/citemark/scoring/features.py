"""Claim-level evidence features: what the combiner reads to give P(supported).

For one claim and its retrieved windows (and the model's scores of them, if a
model runs) this picks the window to quote and measures everything the
decision needs. The engine and ``train/fit_combiner.py`` both call
``measure``, so the combiner is fitted on exactly what it sees at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from citemark.scoring import guards
from citemark.scoring.align import Alignment
from citemark.scoring.guards import GuardResult
from citemark.scoring.lexical import content_terms, coverage
from citemark.scoring.nli import NLIScores
from citemark.scoring.retrieve import EvidenceIndex, Hit
from citemark.scoring.thresholds import ON_TOPIC

__all__ = ["ClaimEvidence", "Measurement", "measure", "nearby"]

#: Sentences either side of the quoted window where the claim's names other than its subject must be.
AROUND = 2
#: Fewer words than this make a heading, not a passage to quote.
MIN_QUOTE_WORDS = 5
#: Sentences either side of the quoted window in which a figure's binding is read.
NEIGHBOURHOOD = 2
#: Windows retrieval reads for a negation of the claim: more than the model scores, since the
#: sentence that denies a claim ("Vasko did not give evidence") shares fewer of its words.
NEGATION_WINDOWS = 6


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
    model_entailment: float | None = None  # model P(entailment) of the quoted window (None: no model)
    quoted_contradiction: float | None = None  # model P(contradiction) of the quoted window (None: no model)
    alignment: Alignment | None = None  # the claim's units in the quoted passage (None: a language it cannot read)
    guards: GuardResult
    missing_terms: tuple[str, ...] = ()
    retracted: str | None = None
    paywalled: bool = False
    has_claim: bool = True


@dataclass(frozen=True, slots=True)
class ClaimEvidence:
    best: Hit  # the window to quote
    best_nli: NLIScores | None
    contradiction: NLIScores | None  # the most contradicting on-topic window's scores
    contradiction_hit: Hit | None
    guards: guards.GuardResult
    context_coverage: float  # claim words other than figures, in the best window
    features: dict[str, float]

    def measurement(self, support: float, threshold: float, *, refutes: bool = False, retracted: str | None = None,
                    paywalled: bool = False, alignment: Alignment | None = None) -> Measurement:
        """What ``verdict.decide`` reads, given the combiner's P(supported), threshold and
        whether the model's contradiction of the quoted passage may overrule overlap."""
        contra = self.contradiction
        quoted = self.best_nli if refutes else None
        return Measurement(
            support=support,
            threshold=threshold,
            coverage=self.best.coverage.terms,
            document_coverage=self.features["document_coverage"],
            contradiction=contra.contradiction if contra else None,
            contradiction_coverage=self.contradiction_hit.coverage.terms if self.contradiction_hit else 0.0,
            context_coverage=self.context_coverage,
            evidence_entailment=quoted.entailment if quoted else None,
            evidence_contradiction=quoted.contradiction if quoted else None,
            model_entailment=self.best_nli.entailment if self.best_nli else None,
            quoted_contradiction=self.best_nli.contradiction if self.best_nli else None,
            alignment=alignment,
            guards=self.guards,
            missing_terms=self.best.coverage.missing,
            retracted=retracted,
            paywalled=paywalled,
        )


def measure(claim: str, index: EvidenceIndex, hits: list[Hit], nli: list[NLIScores] | None) -> ClaimEvidence:
    """Choose the evidence window and compute the combiner's features."""
    document_coverage = index.document_coverage(claim).weighted
    top = hits[0]  # best by retrieval
    # A heading ("Terms", "Output") is no evidence: it cannot be the quoted passage when a sentence can.
    quotable = [i for i, h in enumerate(hits) if len(h.text.split()) >= MIN_QUOTE_WORDS] or list(range(len(hits)))
    if nli is not None:
        best_i = _most_precise(hits, [s.entailment if i in quotable else -1.0 for i, s in enumerate(nli)])
        on_topic = [i for i, h in enumerate(hits) if h.coverage.terms >= ON_TOPIC]
        contra_i = max(on_topic, key=lambda i: nli[i].contradiction) if on_topic else None
    else:
        best_i = _most_precise(hits, [h.coverage.weighted if i in quotable else -1.0 for i, h in enumerate(hits)])
        contra_i = None
    best = hits[best_i]
    guard = guards.check(claim, best.text, index.text, nearby=nearby(index, best), around=nearby(index, best, AROUND, 0),
                         neighbourhood=nearby(index, best, NEIGHBOURHOOD, 0),
                         retrieved=_retrieved(index, hits),
                         wider=_retrieved(index, hits + index.search(claim, k=NEGATION_WINDOWS)))
    union = coverage(content_terms(claim), [t for h in hits for t in index.window_terms(h.window)],
                     index.idf, index.unseen_idf)
    features = {
        "union_coverage": union.weighted,
        "coverage": top.coverage.terms,
        "weighted_coverage": top.coverage.weighted,
        "bigrams": max(h.coverage.bigrams for h in hits),
        "document_coverage": document_coverage,
        "missing_numbers": float(bool(guard.missing_numbers)),
        "missing_names": float(bool(guard.missing_names)),
        "negation_mismatch": float(guard.negation_mismatch),
    }
    if nli is not None:
        features["entailment"] = nli[best_i].entailment
        features["contradiction"] = nli[contra_i].contradiction if contra_i is not None else 0.0
        features["contradiction_at_best"] = nli[best_i].contradiction
        features["best_entailment"] = max(s.entailment for s in nli)
    return ClaimEvidence(
        best=best,
        best_nli=nli[best_i] if nli is not None else None,
        contradiction=nli[contra_i] if nli is not None and contra_i is not None else None,
        contradiction_hit=hits[contra_i] if contra_i is not None else None,
        guards=guard,
        context_coverage=_context_coverage(claim, best, index),
        features=features,
    )


def nearby(index: EvidenceIndex, hit: Hit, radius: int = 8, opening: int = 5) -> str:
    """The evidence with ``radius`` sentences around it and the page's first sentences (its subject)."""
    spans = index.sentences
    first = max(0, hit.window.first - radius)
    last = min(len(spans) - 1, hit.window.last + radius)
    parts = [index.text[spans[i].start : spans[i].end] for i in range(min(opening, len(spans)))]
    parts.append(index.text[spans[first].start : spans[last].end])
    return "\n".join(parts)


def _retrieved(index: EvidenceIndex, hits: list[Hit]) -> str:
    """Every sentence of the retrieved windows, once each, in page order."""
    chosen = sorted({i for h in hits for i in range(h.window.first, h.window.last + 1)})
    return "\n".join(index.text[index.sentences[i].start : index.sentences[i].end] for i in chosen)


def _most_precise(hits: list[Hit], scores: list[float]) -> int:
    """The best-scoring window; among near-ties the shortest, so the quote is precise."""
    top = max(scores)
    close = [i for i, s in enumerate(scores) if s >= top - 0.02]
    return min(close, key=lambda i: (hits[i].window.last - hits[i].window.first, -scores[i]))


def _context_coverage(claim: str, hit: Hit, index: EvidenceIndex) -> float:
    """Coverage of the claim's words that are not figures: "is everything but the number here?"."""
    words = {term for term in content_terms(claim) if not term[0].isdigit()}
    if not words:
        return 0.0
    return len(words & set(index.window_terms(hit.window))) / len(words)
