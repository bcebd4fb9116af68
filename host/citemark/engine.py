"""The engine: one request from answer to verdicts, streamed as each is ready.

``Engine.verify`` parses the answer, starts one load per distinct source (a
source cited by several claims is fetched and indexed once), and judges every
(claim, citation) as soon as its source is readable through
``scoring.judge`` (retrieval, the model batched with every other claim in
flight, features and guards, the combiner and ``verdict.decide``). Verdicts come out of an async iterator in
the order they finish, so the first badge appears before the last source is
fetched. The CLI, the native host and the MCP server are thin adapters over it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path

import httpx

from citemark.answer import parse_answer
from citemark.errors import CitemarkError, SourceBlocked
from citemark.models import registry
from citemark.models.pack import ModelPack
from citemark.scoring.calibrate import Combiner, load_default
from citemark.scoring.judge import judge
from citemark.scoring.nli import BatchingScorer, Scorer
from citemark.scoring.retrieve import EvidenceIndex
from citemark.settings import Settings
from citemark.sources.cache import SourceCache
from citemark.sources.fetch import CredentialLookup, Fetcher
from citemark.sources.loader import LocalFilePolicy, SourceLoader
from citemark.sources.resolve import resolve_reference
from citemark.types import Citation, Claim, Document, Label, ParsedAnswer, Report, Verdict
from citemark.verdict import Decision, decide_failure

__all__ = ["Engine", "source_citation"]

log = logging.getLogger(__name__)

LEXICAL_ONLY = "none (lexical-only: word overlap and number/name checks, no entailment model)"
_AUTO = "auto"


class Engine:
    """Long-lived verifier: owns the fetcher, the cache, the model session and the index cache."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        scorer: Scorer | None | str = _AUTO,
        transport: httpx.AsyncBaseTransport | None = None,
        credentials: CredentialLookup | None = None,
        cache: SourceCache | None | str = _AUTO,
        combiner: Combiner | None = None,
        indexes_kept: int = 64,
    ) -> None:
        self.settings = settings or Settings.load()
        self.pack: ModelPack | None = None
        if scorer == _AUTO:
            self.pack = registry.resolve(self.settings)
            scorer = _lazy_scorer(self.pack) if self.pack else None
        self._scorer = BatchingScorer(scorer) if scorer is not None and not isinstance(scorer, str) else None
        self.combiner = combiner or self._combiner()
        if cache == _AUTO:
            cache = SourceCache(self.settings.cache_dir / "sources.sqlite3")
        self.cache = cache if isinstance(cache, SourceCache) else None
        self.fetcher = Fetcher(self.settings, transport=transport, credentials=credentials)
        self.loader = SourceLoader(self.settings, self.fetcher, self.cache)
        self._indexes: OrderedDict[str, asyncio.Future[EvidenceIndex]] = OrderedDict()
        self._indexes_kept = indexes_kept  # a batch keeps more: its answers return to the same sources

    @property
    def model_name(self) -> str:
        return self._scorer.name if self._scorer else LEXICAL_ONLY

    @property
    def pairs_scored(self) -> int:
        return self._scorer.pairs_scored if self._scorer else 0

    def _combiner(self) -> Combiner:
        if self._scorer is None:
            return load_default("lexical")
        if self.pack is not None and self.pack.combiner:
            return Combiner.from_dict(self.pack.combiner)
        return load_default(self._scorer.name)

    async def aclose(self) -> None:
        await self.fetcher.aclose()
        if self.cache:
            self.cache.close()

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def warm_up(self) -> None:
        """Load the model now (otherwise the first claim pays for it)."""
        if self._scorer is not None and hasattr(self._scorer.scorer, "load"):
            self._scorer.scorer.load()

    # ------------------------------------------------------------------ requests

    async def report(
        self,
        answer: str | ParsedAnswer,
        *,
        fmt: str | None = None,
        page_url: str | None = None,
        local_files: LocalFilePolicy = LocalFilePolicy(),
    ) -> Report:
        """All verdicts of one answer, collected (``verify`` streams them instead)."""
        parsed = answer if isinstance(answer, ParsedAnswer) else parse_answer(answer, fmt, page_url=page_url)
        report = Report(unresolved=list(parsed.unresolved), model=self.model_name)
        async for verdict in self.verify(parsed, local_files=local_files):
            report.verdicts.append(verdict)
        return report

    async def verify(
        self,
        answer: str | ParsedAnswer,
        *,
        fmt: str | None = None,
        page_url: str | None = None,
        local_files: LocalFilePolicy = LocalFilePolicy(),
    ) -> AsyncIterator[Verdict]:
        """Yield one Verdict per (claim, citation), in the order they are ready."""
        parsed = answer if isinstance(answer, ParsedAnswer) else parse_answer(answer, fmt, page_url=page_url)
        loads: dict[str, asyncio.Future[Document]] = {}
        jobs: dict[asyncio.Future[Verdict], tuple[Claim, Citation]] = {}
        if parsed.citation_count > self.settings.max_citations:
            log.warning("answer has %d citations; checking the first %d", parsed.citation_count, self.settings.max_citations)
        budget = self.settings.max_citations
        for claim in parsed.claims:
            for citation in claim.citations[: max(0, budget)]:
                budget -= 1
                key = _source_key(citation)
                if key not in loads:
                    loads[key] = asyncio.ensure_future(self.loader.load(citation, local_files))
                job = asyncio.ensure_future(self._judge(claim, citation, loads[key]))
                jobs[job] = (claim, citation)
        pending = set(jobs)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.request_deadline
        try:
            while pending:
                done, pending = await asyncio.wait(
                    pending, timeout=max(0.0, deadline - loop.time()), return_when=asyncio.FIRST_COMPLETED
                )
                if not done:
                    for job in pending:
                        claim, citation = jobs[job]
                        yield _failed(claim, citation, Decision(
                            Label.UNVERIFIABLE, "deadline",
                            f"Not finished within the {self.settings.request_deadline:.0f} s request limit.",
                        ))
                    break
                for job in done:
                    yield job.result()
        finally:
            for future in [*pending, *loads.values()]:
                future.cancel()

    async def verify_claim(self, claim: str, source: str, *, local_files: LocalFilePolicy = LocalFilePolicy()) -> Verdict:
        """One claim against one source: a URL, a local path (policy permitting) or the text itself."""
        citation = source_citation(source, local_files)
        parsed = ParsedAnswer(claims=(Claim(text=claim, citations=(citation,)),), format="claim")
        async for verdict in self.verify(parsed, local_files=local_files):
            return verdict
        raise AssertionError("one citation gives one verdict")

    async def check_source(self, url: str) -> dict[str, object]:
        """Reachability and what citemark reads from one source (no claim)."""
        try:
            document = await self.loader.load(Citation(url=url))
        except CitemarkError as error:
            decision = decide_failure(error)
            return {"url": url, "reachable": False, "verdict": decision.label.value, "reason": decision.reason,
                    "error": error.to_dict()}
        return {
            "url": url, "reachable": True, "final_url": document.final_url or document.url,
            "title": document.title, "kind": document.kind, "text_chars": len(document.text),
            "paywalled": document.paywalled, "retracted": document.retracted, "from_cache": document.from_cache,
        }

    # ------------------------------------------------------------------ judging

    async def _judge(self, claim: Claim, citation: Citation, load: asyncio.Future[Document]) -> Verdict:
        try:
            document = await asyncio.shield(load)
        except CitemarkError as error:
            return _failed(claim, citation, decide_failure(error))
        except ValueError as error:  # a URL the parser could not read
            return _failed(claim, citation, decide_failure(SourceBlocked(f"malformed URL: {error}")))
        index = await self._index(document)
        judgement = await judge(claim.text, document, index, self._scorer, self.combiner,
                                windows=self.settings.evidence_windows)
        decision = judgement.decision
        return Verdict(
            claim=claim.text, citation=citation, label=decision.label, reason=decision.reason,
            explanation=decision.explanation, scores=judgement.scores, evidence=judgement.evidence,
            source_title=document.title or citation.title, missing=decision.missing, claim_index=claim.index,
        )

    async def _index(self, document: Document) -> EvidenceIndex:
        """The source's evidence index, built once however many claims ask for it at the same moment."""
        key = hashlib.sha1(document.text.encode("utf-8", "surrogatepass")).hexdigest()
        index = self._indexes.get(key)
        if index is None or index.get_loop() is not asyncio.get_running_loop():  # an engine reused by a new loop
            index = asyncio.ensure_future(asyncio.to_thread(EvidenceIndex, document.text))
            self._indexes[key] = index
            while len(self._indexes) > self._indexes_kept:
                self._indexes.popitem(last=False)
        else:
            self._indexes.move_to_end(key)
        return await asyncio.shield(index)


def _failed(claim: Claim, citation: Citation, decision: Decision, document: Document | None = None) -> Verdict:
    return Verdict(
        claim=claim.text, citation=citation, label=decision.label, reason=decision.reason,
        explanation=decision.explanation, source_title=(document.title if document else None) or citation.title,
        claim_index=claim.index,
    )


def source_citation(source: str, local_files: LocalFilePolicy, marker: str = "1") -> Citation:
    """Read a source given as one string: URL / DOI / arXiv id, a local path, or text."""
    stripped = source.strip()
    if re.match(r"(?i)^(?:https?://|doi:|10\.\d{4,9}/|arxiv:)", stripped):
        return Citation(marker=marker, url=stripped)
    if _looks_like_path(stripped):
        return Citation(marker=marker, path=stripped.removeprefix("file://"))
    return Citation(marker=marker, text=source)


def _looks_like_path(text: str) -> bool:
    if "\n" in text or len(text) > 4096:
        return False
    return text.startswith(("/", "~/", "./", "../", "file://")) or bool(re.match(r"^[A-Za-z]:[\\/]", text))


def _source_key(citation: Citation) -> str:
    if citation.url:
        try:
            return "url:" + resolve_reference(citation.url)
        except ValueError:
            return "url:" + citation.url
    if citation.path:
        return "path:" + str(Path(citation.path).expanduser())
    return "text:" + hashlib.sha1((citation.text or "").encode("utf-8", "surrogatepass")).hexdigest()


def _lazy_scorer(pack: ModelPack) -> Scorer:
    from citemark.models.runtime import PackScorer

    return PackScorer(pack, threads=None)
