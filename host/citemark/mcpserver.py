"""``citemark mcp``: the engine as a stdio MCP server for desktop agents (official ``mcp`` SDK, v2).

Four typed tools with structured outputs: ``verify_answer``, ``verify_claims``,
``check_source``, and ``check_references`` (does each entry of a bibliography exist,
through Crossref, arXiv and OpenAlex; only the references are sent to them). All are read-only and open-world (they fetch the web). Long
calls report progress after every verdict. Bad input is raised as a tool
error carrying citemark's error code, never returned as a success payload.

An agent can be steered by a prompt injection, so local files are refused
unless the user lists directories in ``local_file_dirs`` (config file or
``CITEMARK_LOCAL_FILE_DIRS``); a refused path gives the same answer whether or
not it exists. Fetching follows the public-address-only policy, always.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from citemark import __version__
from citemark.errors import AnswerTooLargeError, CitemarkError
from citemark.settings import Settings

__all__ = ["build_server", "run"]

log = logging.getLogger("citemark.mcp")

VerdictWord = Literal[
    "supported", "partial", "contradicted", "unsupported", "unreachable", "paywalled", "retracted", "unverifiable"
]


class CitationOut(BaseModel):
    marker: str | None = None
    url: str | None = None
    title: str | None = None


class EvidenceOut(BaseModel):
    quote: str = Field(description="the passage of the source that decided the verdict")
    start: int = Field(description="character offset of the quote in the extracted source text")
    end: int
    link: str | None = Field(None, description="the source opened at the quote (#:~:text= or #page=)")
    page: int | None = None


class VerdictOut(BaseModel):
    claim: str
    citation: CitationOut
    verdict: VerdictWord
    reason: str = Field(description="stable reason code, e.g. entailed, number_conflict, unreachable")
    explanation: str
    scores: dict[str, float | bool | None] | None = None
    evidence: EvidenceOut | None = None
    source_title: str | None = None
    missing: list[str] = []
    read_from: str | None = Field(None, description="the copy that was read when not the cited URL (an open PDF)")


class UnresolvedOut(BaseModel):
    marker: str
    claim: str


class SummaryOut(BaseModel):
    citations: int
    counts: dict[str, int]
    unresolved: int
    text: str


class VerifyResult(BaseModel):
    verdicts: list[VerdictOut]
    unresolved: list[UnresolvedOut] = []
    summary: SummaryOut
    model: str = Field(description="the model that judged, or 'none (lexical-only ...)'")


class ClaimInput(BaseModel):
    claim: str = Field(description="one factual sentence")
    source: str = Field(description="an http(s) URL, a DOI / arXiv id, or the source text itself")


class SourceCheck(BaseModel):
    url: str
    reachable: bool
    final_url: str | None = None
    title: str | None = None
    kind: str | None = Field(None, description="html, pdf or text")
    text_chars: int | None = Field(None, description="length of the text citemark could read")
    paywalled: bool | None = None
    retracted: str | None = Field(None, description="the retraction notice, when the source carries one")
    verdict: VerdictWord | None = Field(None, description="when unreachable: the verdict a citation of it gets")
    reason: str | None = None
    error: str | None = None


_READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=True, idempotentHint=True, destructiveHint=False)


class _Engines:
    """One engine per server process, created on first use and shared by every call."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._engine = None
        self._lock = asyncio.Lock()

    async def get(self):  # noqa: ANN201 - citemark.engine.Engine
        async with self._lock:
            if self._engine is None:
                from citemark.credentials import lookup_for
                from citemark.engine import Engine

                self._engine = await asyncio.to_thread(Engine, self.settings, credentials=lookup_for("agent"))
            return self._engine


def build_server(settings: Settings | None = None) -> MCPServer:
    settings = settings or Settings.load()
    engines = _Engines(settings)
    from citemark.sources.loader import LocalFilePolicy

    local_files = LocalFilePolicy(directories=settings.local_file_dirs)
    server = MCPServer("citemark", version=__version__) if _accepts_version() else MCPServer("citemark")

    async def collect(parsed: Any, ctx: Context) -> VerifyResult:
        from citemark.types import Report

        engine = await engines.get()
        total = parsed.citation_count
        report = Report(unresolved=list(parsed.unresolved), model=engine.model_name)
        await ctx.report_progress(0, total, "fetching sources")
        async for verdict in engine.verify(parsed, local_files=local_files):
            report.verdicts.append(verdict)
            await ctx.report_progress(len(report.verdicts), total, f"{verdict.label.value}: {verdict.claim[:60]}")
        return VerifyResult.model_validate(report.to_dict())

    @server.tool(annotations=_READ_ONLY, title="Verify an AI answer's citations")
    async def verify_answer(
        answer: str, ctx: Context, format: Literal["markdown", "html", "json"] | None = None,
        page_url: str | None = None,
    ) -> VerifyResult:
        """Check every citation of an answer against its source.

        Give the answer as Markdown (numbered markers [1] with a Sources list,
        inline links, bare URLs), HTML, or JSON [{"claim", "url"}]. Every cited
        source is fetched (public http(s) only) and each (claim, citation) gets a
        verdict — supported, partial, contradicted, unsupported, unreachable,
        paywalled, retracted or unverifiable — with the evidence quote and a
        deep link to it.
        """
        from citemark.answer import parse_answer

        if len(answer) > settings.max_answer_chars:
            raise _tool_error(AnswerTooLargeError(f"answer of {len(answer):,} characters is over the limit"))
        try:
            parsed = parse_answer(answer, format, page_url=page_url)
        except CitemarkError as error:
            raise _tool_error(error) from None
        return await collect(parsed, ctx)

    @server.tool(annotations=_READ_ONLY, title="Verify claims against sources")
    async def verify_claims(claims: list[ClaimInput], ctx: Context) -> VerifyResult:
        """Check each {claim, source} pair: does the source state the claim?

        ``source`` is an http(s) URL (fetched; public addresses only), a DOI or
        arXiv id, or the source text itself. Returns one verdict per pair with the
        evidence quote.
        """
        from citemark.engine import source_citation
        from citemark.types import Claim, ParsedAnswer

        if not claims:
            raise ToolError("E100: give at least one {claim, source} pair")
        if len(claims) > settings.max_citations:
            raise ToolError(f"E102: at most {settings.max_citations} claims per call")
        parsed = ParsedAnswer(
            claims=tuple(
                Claim(text=item.claim.strip(), citations=(source_citation(item.source, local_files),), index=i)
                for i, item in enumerate(claims)
            ),
            format="claims",
        )
        return await collect(parsed, ctx)

    @server.tool(annotations=_READ_ONLY, title="Check a source")
    async def check_source(url: str) -> SourceCheck:
        """Fetch one source and report what citemark can read from it.

        Reachability (with the verdict a citation of an unreachable source would
        get), HTTP-level errors, the title, the kind (html/pdf/text), the length of
        the extracted text, and paywall and retraction flags.
        """
        engine = await engines.get()
        result = await engine.check_source(url)
        if "error" in result:
            result["error"] = f"{result['error']['code']}: {result['error']['message']}"
        return SourceCheck.model_validate(result)

    _add_check_references(server, settings)
    return server


class ReferenceOut(BaseModel):
    index: int
    key: str | None = None
    raw: str
    title: str | None = None
    authors: list[str] = []
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None


class ReferenceCheckOut(BaseModel):
    reference: ReferenceOut
    status: Literal["exists", "mismatch", "not_found", "retracted", "unverifiable"]
    explanation: str
    record: dict[str, Any] | None = Field(None, description="the canonical metadata of the matching record")
    differences: list[dict[str, str]] = Field([], description="fields where citation and record disagree")
    fix: str | None = Field(None, description="what the entry needs")
    resolved_by: str | None = None
    notice: str | None = Field(None, description="the retraction notice: kind, date and link")


class ReferencesSummaryOut(BaseModel):
    references: int
    counts: dict[str, int]
    grade: str = Field(description="A-F for the list; '?' when nothing could be checked")
    score: float | None = None
    text: str


class ReferencesResult(BaseModel):
    references: list[ReferenceCheckOut]
    summary: ReferencesSummaryOut


def _add_check_references(server: MCPServer, settings: Settings) -> None:
    @server.tool(annotations=_READ_ONLY, title="Check that references exist")
    async def check_references(
        bibliography: str, format: Literal["bibtex", "latex", "list"] | None = None,
    ) -> ReferencesResult:
        """Check each reference of a bibliography against Crossref, arXiv and OpenAlex.

        Give BibTeX, LaTeX \\bibitem entries, or a Markdown / plain References list.
        Each entry is resolved by DOI, arXiv id, or title + first author + year and
        gets a status — exists, mismatch (with the differing fields), not_found,
        retracted (with the notice's date and link) or unverifiable — with what to
        fix, and the list gets a grade. Only the references are sent to the services.
        """
        from citemark.scholarly.checker import check_bibliography

        try:
            report = await check_bibliography(bibliography, settings, fmt=format)
        except CitemarkError as error:
            raise _tool_error(error) from None
        return ReferencesResult.model_validate(report.to_dict())


def _accepts_version() -> bool:
    import inspect

    return "version" in inspect.signature(MCPServer.__init__).parameters


def _tool_error(error: CitemarkError) -> ToolError:
    return ToolError(f"{error.code}: {error.message}")


def run(args: Any = None) -> int:
    """Serve MCP on stdio until the client disconnects; logs go to stderr only."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="citemark mcp: %(levelname)s %(message)s")
    build_server().run("stdio")
    return 0
