"""The engine: one request from answer to verdicts, streamed as each is ready.

``Engine.verify`` parses the answer, starts one load per distinct source (a
source cited by several claims is fetched and indexed once), and judges every
(claim, citation) as soon as its source is readable through
``scoring.judge`` (retrieval, the model batched with every other claim in
flight, features and guards, the combiner and ``verdict.decide``). Verdicts come out of an async iterator in
the order they finish, so the first badge appears before the last source is
fetched. The CLI, the native host and the MCP server are thin adapters over it.
The engine decides no verdict itself: a source that cannot be read, a citation
past ``max_citations`` or the deadline, and an altered quote are all
``scoring``'s verdicts (``verdict.decide_failure``, ``judge``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx

from citemark.answer import parse_answer
from citemark.asks import Asks
from citemark.collect import collect, one_claim
from citemark.errors import CitemarkError, InputError
from citemark.models import registry
from citemark.models.pack import ModelPack
from citemark.scholarly.fulltext import ScholarlySources
from citemark.scholarly.services import Services
from citemark.scoring import parse
from citemark.scoring.calibrate import Combiner, load_default
from citemark.scoring.judge import check_quotes, failed, judge, over_citation_limit, past_deadline
from citemark.scoring.nli import BatchingScorer, Scorer
from citemark.scoring.passages import ranked_passages
from citemark.scoring.retrieve import EvidenceIndex
from citemark.scoring.verdict import answer_asks, decide_failure
from citemark.settings import POLICIES, Settings
from citemark.sources.cache import SourceCache
from citemark.sources.classify import citation_for
from citemark.sources.fetch import CredentialLookup, Fetcher
from citemark.sources.loader import LocalFilePolicy, SourceLoader
from citemark.sources.resolve import resolve_reference
from citemark.types import Citation, Claim, Document, ParsedAnswer, Report, Verdict

__all__ = ["Engine"]

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
        pack: ModelPack | None | str = _AUTO,
        transport: httpx.AsyncBaseTransport | None = None,
        credentials: CredentialLookup | None = None,
        cache: SourceCache | None | str = _AUTO,
        combiner: Combiner | None = None,
        indexes_kept: int = 64,
    ) -> None:
        self.settings = settings or Settings.load()
        self.pack: ModelPack | None = None
        if scorer == _AUTO:  # the settings' pack, unless the caller resolved it already (``pack``)
            self.pack = registry.resolve(self.settings) if isinstance(pack, str) else pack
            scorer = _lazy_scorer(self.pack) if self.pack else None
        self._scorer = BatchingScorer(scorer) if scorer is not None and not isinstance(scorer, str) else None
        self.combiner = combiner or self._combiner()
        if cache == _AUTO:
            cache = SourceCache(self.settings.cache_dir / "sources.sqlite3")
        self.cache = cache if isinstance(cache, SourceCache) else None
        self.fetcher = Fetcher(self.settings, transport=transport, credentials=credentials)
        self.papers = _paper_sources(self.settings, transport, self.cache)
        self.loader = SourceLoader(self.settings, self.fetcher, self.cache, self.papers)
        self._indexes: OrderedDict[str, asyncio.Future[EvidenceIndex]] = OrderedDict()
        self._indexes_kept = indexes_kept  # a batch keeps more: its answers return to the same sources

    @property
    def model_name(self) -> str:
        return self._scorer.name if self._scorer else LEXICAL_ONLY

    @property
    def pack_version(self) -> str | None:
        """The version of the model pack that judges (None: lexical-only, or a model given directly)."""
        return str(self.pack.manifest.get("version")) if self.pack is not None and "version" in self.pack.manifest else None

    @property
    def scorer(self) -> Scorer | None:
        """The model that scores (evidence, claim) pairs, called directly (None: lexical-only)."""
        return self._scorer.scorer if self._scorer else None

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
        if self.papers is not None:
            await self.papers.services.aclose()
        if self.cache:
            self.cache.close()

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def warm_up(self) -> None:
        """Start the dependency parser's process and load the model now (otherwise the first claim pays
        for them); the parser loads on another core meanwhile. Every policy aligns, so every policy parses."""
        parse.start()
        if self._scorer is not None and hasattr(self._scorer.scorer, "load"):
            self._scorer.scorer.load()

    # ------------------------------------------------------------------ requests

    async def report(
        self,
        answer: str | ParsedAnswer,
        *,
        fmt: str | None = None,
        page_url: str | None = None,
        sources: dict[str, str] | None = None,
        local_files: LocalFilePolicy = LocalFilePolicy(),
        policy: str | None = None,
        asks: Asks = Asks(),
    ) -> Report:
        """All verdicts of one answer, collected (``verify`` streams them instead); ``sources`` is a url_map.
        The doors' own path: ``collect``."""
        parsed = answer if isinstance(answer, ParsedAnswer) else parse_answer(answer, fmt, page_url=page_url,
                                                                              sources=sources)
        return await collect(self, parsed, local_files=local_files, policy=policy, asks=asks)

    async def verify(
        self,
        answer: str | ParsedAnswer,
        *,
        fmt: str | None = None,
        page_url: str | None = None,
        sources: dict[str, str] | None = None,
        local_files: LocalFilePolicy = LocalFilePolicy(),
        policy: str | None = None,
        asks: Asks = Asks(),
    ) -> AsyncIterator[Verdict]:
        """Yield one Verdict per (claim, citation), in the order they are ready (``sources``: a url_map;
        ``policy``: the verdict policy, default the settings'; ``asks``: top_k passages, an expected text
        hash, a raised support bar)."""
        policy = policy or self.settings.policy
        if policy not in POLICIES:
            raise InputError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        parsed = answer if isinstance(answer, ParsedAnswer) else parse_answer(answer, fmt, page_url=page_url,
                                                                              sources=sources)
        loads: dict[str, asyncio.Future[Document]] = {}
        jobs: dict[asyncio.Future[Verdict], tuple[Claim, Citation]] = {}
        over_limit: list[tuple[Claim, Citation]] = []
        limit = self.settings.max_citations
        total = parsed.citation_count  # once: it walks every claim, and 50k over-limit verdicts each named it
        if total > limit:
            log.warning("answer has %d citations; checking the first %d", total, limit)
        for claim in parsed.claims:
            for citation in claim.citations:
                if len(jobs) >= limit:
                    over_limit.append((claim, citation))
                    continue
                key = _source_key(citation)
                if key not in loads:
                    loads[key] = asyncio.ensure_future(self.loader.load(citation, local_files))
                job = asyncio.ensure_future(self._judge(claim, citation, loads[key], policy, asks))
                jobs[job] = (claim, citation)
        # Every citation gets a verdict: those past the limit say so, none is dropped silently.
        for count, (claim, citation) in enumerate(over_limit, 1):
            if count % 100 == 0:
                await asyncio.sleep(0)  # thousands of these: let the event loop serve others between them
            yield failed(claim, citation, over_citation_limit(total, limit))
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
                        yield failed(claim, citation, past_deadline(self.settings.request_deadline))
                    break
                for job in done:
                    yield job.result()
        finally:
            for future in [*pending, *loads.values()]:
                future.cancel()

    async def verify_claim(self, claim: str, source: str, *, local_files: LocalFilePolicy = LocalFilePolicy()) -> Verdict:
        """One claim against one source: a URL, DOI, arXiv id, a local path (policy permitting) or the text itself.
        The doors' own path: ``one_claim`` and ``collect``."""
        parsed = ParsedAnswer(claims=(one_claim(claim, source),), format="claim")
        (verdict,) = (await collect(self, parsed, local_files=local_files)).verdicts
        return verdict

    async def check_source(self, source: str, *, local_files: LocalFilePolicy = LocalFilePolicy()) -> dict[str, object]:
        """Reachability and what citemark reads from one source (no claim)."""
        citation = citation_for(source, inline_text=False)
        url = citation.url or citation.path or source
        try:
            document = await self.loader.load(citation, local_files)
        except CitemarkError as error:
            decision = decide_failure(error)
            return {"url": url, "reachable": False, "verdict": decision.label.value, "reason": decision.reason,
                    "error": error.to_dict()}
        return {
            "url": url, "reachable": True, "final_url": document.final_url or document.url,
            "title": document.title, "kind": document.kind, "text_chars": len(document.text),
            "paywalled": document.paywalled, "retracted": document.retracted, "from_cache": document.from_cache,
            "source_sha256": text_sha256(document.text),
        }

    # ------------------------------------------------------------------ judging

    async def _judge(self, claim: Claim, citation: Citation, load: asyncio.Future[Document], policy: str,
                     asks: Asks) -> Verdict:
        try:
            document = await asyncio.shield(load)
        except CitemarkError as error:
            return failed(claim, citation, decide_failure(error))
        digest = text_sha256(document.text)
        index = await self._index(document, digest)
        judgement = await judge(claim.text, document, index, self._scorer, self.combiner,
                                windows=self.settings.evidence_windows, policy=policy)
        verdict = Verdict(
            claim=claim.text, citation=citation, label=judgement.decision.label, reason=judgement.decision.reason,
            explanation=judgement.decision.explanation, scores=judgement.scores, evidence=judgement.evidence,
            source_title=document.title or citation.title, missing=judgement.decision.missing, claim_index=claim.index,
            read_from=document.final_url if document.final_url and document.final_url != document.url else None,
            source_sha256=digest, quotes=judgement.quotes, differences=judgement.differences,
        )
        verdict = await asyncio.to_thread(check_quotes, verdict, document)  # snapping a quote reads the whole source
        if asks.top_k > 1 and verdict.evidence is not None:
            passages = await asyncio.to_thread(ranked_passages, claim.text, document, index, verdict.evidence, asks.top_k)
            verdict = replace(verdict, passages=passages)
        return answer_asks(verdict, asks)

    async def _index(self, document: Document, key: str) -> EvidenceIndex:
        """The source's evidence index, built once however many claims ask for it at the same moment."""
        index = self._indexes.get(key)
        if index is None or index.get_loop() is not asyncio.get_running_loop():  # an engine reused by a new loop
            index = asyncio.ensure_future(asyncio.to_thread(EvidenceIndex, document.text))
            self._indexes[key] = index
            while len(self._indexes) > self._indexes_kept:
                self._indexes.popitem(last=False)
        else:
            self._indexes.move_to_end(key)
        return await asyncio.shield(index)


def text_sha256(text: str) -> str:
    """The SHA-256 of the extracted source text a verdict was judged on, so a report can be re-checked."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _source_key(citation: Citation) -> str:
    if citation.url:
        try:
            return "url:" + resolve_reference(citation.url)
        except ValueError:
            return "url:" + citation.url
    if citation.path:
        return "path:" + str(Path(citation.path).expanduser())
    return "text:" + hashlib.sha1((citation.text or "").encode("utf-8", "surrogatepass")).hexdigest()


def _paper_sources(settings: Settings, transport: httpx.AsyncBaseTransport | None,
                   cache: SourceCache | None) -> ScholarlySources | None:
    """DOIs and arXiv ids read as papers (Crossref / arXiv / OpenAlex), unless ``scholarly_lookups`` is off.
    Their records are kept beside the sources, in the same database: none without a cache, and a batch's
    temporary cache (``--no-cache``) leaves nothing in the user's cache folder."""
    if not settings.scholarly_lookups:
        return None
    return ScholarlySources(Services(settings, transport=transport, cache=cache is not None,
                                     cache_path=cache.path if cache is not None else None))


def _lazy_scorer(pack: ModelPack) -> Scorer:
    from citemark.models.runtime import PackScorer

    return PackScorer(pack, threads=None)
