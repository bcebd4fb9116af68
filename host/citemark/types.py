"""The value types every layer shares: claims, citations, sources, evidence, verdicts.

They are plain frozen dataclasses with ``to_dict`` methods; the JSON shapes they
produce are the stable output of the CLI (``--json``), the native host and MCP.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "Citation",
    "Claim",
    "Difference",
    "Document",
    "Evidence",
    "Label",
    "ParsedAnswer",
    "Report",
    "Scores",
    "Unresolved",
    "Verdict",
]


class Label(enum.StrEnum):
    """The verdict vocabulary (docs/verdicts.md); every door uses these words."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    CONTRADICTED = "contradicted"
    UNSUPPORTED = "unsupported"
    UNREACHABLE = "unreachable"
    PAYWALLED = "paywalled"
    RETRACTED = "retracted"
    UNVERIFIABLE = "unverifiable"

    @property
    def passes(self) -> bool:
        """A citation passes only when supported: the gate behind ``verify``'s exit code and batch's pass rate
        counts these, and ``valid_citations_only`` keeps exactly these."""
        return self is Label.SUPPORTED


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a claim says its support comes from.

    Exactly one of ``url``, ``path`` (a local file, CLI only) or ``text`` (the
    source given inline) is set. ``marker`` is what the answer showed ("1" for
    ``[1]``, a link label, or the extension's element reference).
    """

    marker: str | None = None
    url: str | None = None
    title: str | None = None
    path: str | None = None
    text: str | None = None
    ref: str | None = None  # the extension's id for the link element it sent
    excerpt: str | None = None  # a passage the answer says it took from the source, checked verbatim

    def to_dict(self) -> dict[str, Any]:
        data = {"marker": self.marker, "url": self.url}
        for name in ("title", "path", "ref", "excerpt"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        return data


@dataclass(frozen=True, slots=True)
class Claim:
    """One sentence of the answer, markers removed, with the citations it carries."""

    text: str
    citations: tuple[Citation, ...]
    index: int = 0  # position of the sentence in the answer


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A citation marker the answer uses but never defines (e.g. ``[4]`` with 3 sources)."""

    marker: str
    claim: str

    def to_dict(self) -> dict[str, str]:
        return {"marker": self.marker, "claim": self.claim}


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    claims: tuple[Claim, ...]
    unresolved: tuple[Unresolved, ...] = ()
    format: str = "markdown"
    uncited: tuple[str, ...] = ()  # factual sentences of the answer that carry no citation
    factual_sentences: int = 0  # sentences that state something checkable (cited or not)

    def coverage(self) -> dict[str, Any]:
        """Citation coverage: the share of factual sentences that cite a source, and those that do not."""
        cited = len(self.claims)
        total = max(self.factual_sentences, cited + len(self.uncited))
        return {"sentences": total, "cited": cited, "share_cited": round(cited / total, 4) if total else None,
                "uncited": list(self.uncited)}

    @property
    def citation_count(self) -> int:
        return sum(len(claim.citations) for claim in self.claims)


@dataclass(frozen=True, slots=True)
class Document:
    """A source after fetching and extraction: its text is what offsets point into."""

    url: str
    text: str
    title: str | None = None
    kind: str = "html"  # html | pdf | text
    final_url: str | None = None
    page_starts: tuple[int, ...] = ()  # PDF: offset where each page begins
    paywalled: bool = False
    retracted: str | None = None  # the retraction notice, when one was found
    from_cache: bool = False
    pdf_link: str | None = None  # a scholarly landing page's full text (``citation_pdf_url``), as the page gives it

    def page_of(self, offset: int) -> int | None:
        """1-based PDF page holding ``offset``, or None for non-paged sources."""
        if not self.page_starts:
            return None
        page = 0
        for index, start in enumerate(self.page_starts):
            if start <= offset:
                page = index
        return page + 1


@dataclass(frozen=True, slots=True)
class Evidence:
    """The passage that decided a verdict, located exactly in the source text."""

    quote: str
    start: int
    end: int
    link: str | None = None  # the source URL with a #:~:text= fragment
    page: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"quote": self.quote, "start": self.start, "end": self.end, "link": self.link}
        if self.page is not None:
            data["page"] = self.page
        return data


@dataclass(frozen=True, slots=True)
class Scores:
    """The signals behind a verdict; model fields are None in lexical-only mode."""

    support: float  # the final P(supported) the decision used
    entailment: float | None = None
    contradiction: float | None = None
    coverage: float = 0.0  # share of the claim's content words in the evidence
    weighted_coverage: float = 0.0  # the same, rare words weighted up
    retrieval: float = 0.0  # BM25 of the best window
    number_mismatch: bool = False
    entity_mismatch: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True, slots=True)
class Difference:
    """Where the claim and the quoted passage part: a claim word the passage does not account for and the
    passage word it was compared with ("1963" against "1953"), or a passage word that qualifies what the claim
    states ("second" of "second-longest"). Offsets index the verdict's ``claim`` and its ``evidence.quote``;
    a side is None when it has no word here (or the passage word lies outside the quote)."""

    claim_text: str | None
    claim_start: int | None
    claim_end: int | None
    passage_text: str | None
    passage_start: int | None
    passage_end: int | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One citation of one claim, judged."""

    claim: str
    citation: Citation
    label: Label
    reason: str  # a stable reason code, e.g. "entailed", "number_mismatch"
    explanation: str  # the reason in plain words, for badges and reports
    scores: Scores | None = None
    evidence: Evidence | None = None
    source_title: str | None = None
    missing: tuple[str, ...] = ()  # for "partial": claim words the source lacks
    claim_index: int = 0
    read_from: str | None = None  # the copy that was read, when not the cited URL (a paper's open PDF, a redirect)
    source_sha256: str | None = None  # of the extracted text judged, to re-check a report later
    quotes: tuple[Evidence, ...] = ()  # more passages: for "conflicting", the one that says the opposite
    differences: tuple[Difference, ...] = ()  # for partial and contradicted: what to highlight on each side
    passages: tuple[Evidence, ...] = ()  # top_k > 1: the best-ranked passages, the deciding one first

    def to_dict(self) -> dict[str, Any]:
        extra = {"read_from": self.read_from} if self.read_from else {}
        return {
            "claim": self.claim,
            "citation": self.citation.to_dict(),
            "verdict": self.label.value,
            "reason": self.reason,
            "explanation": self.explanation,
            "scores": self.scores.to_dict() if self.scores else None,
            "evidence": self.evidence.to_dict() if self.evidence else None,
            "source_title": self.source_title,
            "missing": list(self.missing),
            "claim_index": self.claim_index,
            **extra,
            "source_sha256": self.source_sha256,
            **({"quotes": [q.to_dict() for q in self.quotes]} if self.quotes else {}),
            "differences": [d.to_dict() for d in self.differences],
            **({"passages": [p.to_dict() for p in self.passages]} if self.passages else {}),
        }


@dataclass(slots=True)
class Report:
    """All verdicts of one request, with the summary and the model that judged."""

    verdicts: list[Verdict] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    model: str = "none (lexical-only)"
    coverage: dict[str, Any] | None = None  # ParsedAnswer.coverage(), where the door asked for it
    policy: str = "strict"  # the verdict policy that judged (verdict.POLICIES)
    pack_version: str | None = None  # the model pack's version (None: lexical-only)
    valid_only: bool = False  # list only the citations that pass; the summary still counts them all
    source_reuse: dict[str, Any] | None = None  # reuse.source_reuse of the verdicts, filled by ``collect``

    @property
    def shown(self) -> list[Verdict]:
        """The verdicts the report lists: all, or with ``valid_only`` those that pass (``Label.passes``)."""
        return [v for v in self.verdicts if v.label.passes] if self.valid_only else self.verdicts

    def summary(self) -> dict[str, Any]:
        """Counts per verdict, and ``pass_rate``: supported citations over all citations (0 when none)."""
        counts = {label.value: 0 for label in Label}
        for verdict in self.verdicts:
            counts[verdict.label.value] += 1
        total = len(self.verdicts)
        return {
            "citations": total,
            "total": total,
            "supported": counts[Label.SUPPORTED.value],
            "pass_rate": round(counts[Label.SUPPORTED.value] / total, 4) if total else 0.0,
            "counts": counts,
            "unresolved": len(self.unresolved),
            "text": summary_text(counts, total),
        }

    def to_dict(self) -> dict[str, Any]:
        ordered = sorted(self.shown, key=_answer_order)
        data = {
            "verdicts": [v.to_dict() for v in ordered],
            "unresolved": [u.to_dict() for u in self.unresolved],
            "summary": self.summary(),
            "model": self.model,
            "policy": self.policy,
            "pack_version": self.pack_version,
        }
        if self.source_reuse is not None:
            data["source_reuse"] = self.source_reuse
        if self.valid_only:
            data["dropped"] = len(self.verdicts) - len(ordered)
        if self.coverage is not None:
            data["coverage"] = self.coverage
        return data


def _answer_order(verdict: Verdict) -> tuple[int, int, str, str]:
    """Claims in answer order, a claim's citations by marker: the same order however the verdicts arrived."""
    marker = verdict.citation.marker or ""
    citation = verdict.citation
    return (verdict.claim_index, int(marker) if marker.isdigit() else 1 << 30, marker,
            citation.url or citation.path or citation.text or "")


def summary_text(counts: dict[str, int], total: int) -> str:
    """ "7 of 9 citations supported, 1 contradicted, 1 unreachable"."""
    if not total:
        return "no citations found"
    parts = [f"{counts.get('supported', 0)} of {total} citation{'s' if total != 1 else ''} supported"]
    parts += [f"{n} {label}" for label, n in counts.items() if label != "supported" and n]
    return ", ".join(parts)
