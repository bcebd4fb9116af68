"""``citemark mcp``: the engine as a stdio MCP server for desktop agents (official ``mcp`` SDK, v2).

Five typed tools with structured outputs: ``verify_answer``, ``verify_claims``,
``check_source``, ``snap_quote`` and ``check_references`` (does each entry of a
bibliography exist, through Crossref, arXiv and OpenAlex; only the references
are sent to them). Every tool names a source ``source``, and
what a source string is (URL, DOI, arXiv id, path, text) is decided by
``sources.classify``. Output is compact by default (no per-verdict scores;
``detail="full"`` adds them), and answers come with citation coverage (the
uncited factual sentences). All tools are read-only; those that fetch are
open-world. Long calls report progress after every verdict. Bad input is
raised as a tool error carrying citemark's error code, never returned as a
success payload.

An agent can be steered by a prompt injection, so local files are refused
unless the user lists directories in ``local_file_dirs`` (config file or
``CITEMARK_LOCAL_FILE_DIRS``); a refused path gives the same answer whether or
not it exists. Fetching follows the public-address-only policy, always.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field, model_validator

from citemark import __version__
from citemark.asks import Asks
from citemark.doors import EngineSlot, check_answer_size, collect, one_claim, serve_then_exit
from citemark.errors import AnswerTooLargeError, CitemarkError, InputError
from citemark.settings import Settings
from citemark.sources.localfiles import LocalFilePolicy

__all__ = ["lifespan", "run", "server"]

log = logging.getLogger("citemark.mcp")

VerdictWord = Literal[
    "supported", "partial", "contradicted", "unsupported", "unreachable", "paywalled", "retracted", "unverifiable"
]


class CitationOut(BaseModel):
    marker: str | None = None
    url: str | None = None
    title: str | None = None
    path: str | None = None
    excerpt: str | None = None


class EvidenceOut(BaseModel):
    quote: str = Field(description="the passage of the source that decided the verdict")
    start: int = Field(description="character offset of the quote in the extracted source text")
    end: int
    link: str | None = Field(None, description="the source opened at the quote (#:~:text= or #page=)")
    page: int | None = None


class DifferenceOut(BaseModel):
    claim_text: str | None = Field(None, description="the claim's words the passage does not account for")
    claim_start: int | None = Field(None, description="their offset in the claim")
    claim_end: int | None = None
    passage_text: str | None = Field(None, description="the passage's words they were compared with, or that qualify them")
    passage_start: int | None = Field(None, description="their offset in the evidence quote (None: outside it)")
    passage_end: int | None = None


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
    source_sha256: str | None = Field(None, description="SHA-256 of the extracted source text that was judged")
    quotes: list[EvidenceOut] = Field([], description="for reason 'conflicting': the passage saying the opposite")
    differences: list[DifferenceOut] = Field([], description="for partial, contradicted and unsupported: where the claim and the quote part")
    passages: list[EvidenceOut] = Field([], description="with top_k > 1: the best-ranked passages, the deciding one first")


class UnresolvedOut(BaseModel):
    marker: str
    claim: str


class SummaryOut(BaseModel):
    citations: int
    total: int
    supported: int
    pass_rate: float = Field(description="supported citations / all citations")
    counts: dict[str, int]
    unresolved: int
    text: str


class CoverageOut(BaseModel):
    sentences: int = Field(description="factual sentences of the answer, cited or not")
    cited: int
    share_cited: float | None
    uncited: list[str] = Field(description="factual sentences that carry no citation")


class SourceUseOut(BaseModel):
    source: str
    claims: int = Field(description="claims that cite this source")
    citations: int


class SourceReuseOut(BaseModel):
    sources: int = Field(description="distinct sources cited")
    citations: int
    by_source: list[SourceUseOut] = Field(description="most-cited first")
    most_cited: str | None = None
    most_cited_share: float | None = Field(None, description="share of the citations that rest on the most-cited source")


class VerifyResult(BaseModel):
    verdicts: list[VerdictOut]
    unresolved: list[UnresolvedOut] = []
    summary: SummaryOut
    model: str = Field(description="the model that judged, or 'none (lexical-only ...)'")
    policy: str = Field("strict", description="the verdict policy that judged: strict or balanced")
    pack_version: str | None = Field(None, description="the model pack's version (None: lexical-only)")
    source_reuse: SourceReuseOut
    dropped: int | None = Field(None, description="with valid_citations_only: the citations that did not pass, left out")
    coverage: CoverageOut | None = None


class SnappedQuote(BaseModel):
    found: bool = Field(description="whether a passage close enough to the anchor exists")
    exact: bool = Field(description="the anchor is verbatim in the source (after whitespace/quote normalising)")
    quote: str | None = Field(None, description="the verbatim passage, cut from the source text")
    start: int | None = None
    end: int | None = None
    similarity: float = Field(description="0-1 character similarity of anchor and quote")


class ClaimInput(BaseModel):
    claim: str = Field(description="one factual sentence")
    source: str = Field(description="an http(s) URL, a DOI / arXiv id, a path (allowed folders only), or the source text")


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
    source_sha256: str | None = Field(None, description="SHA-256 of the extracted text")


_READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=True, idempotentHint=True, destructiveHint=False)
_OFFLINE = ToolAnnotations(readOnlyHint=True, openWorldHint=False, idempotentHint=True, destructiveHint=False)


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



# ---------------------------------------------------------------- the server's one engine


@dataclass(frozen=True, slots=True)
class AgentDoor:
    """What every tool call shares: the settings, the one engine and the agent's local-file policy."""

    settings: Settings
    engines: EngineSlot
    local_files: LocalFilePolicy


@asynccontextmanager
async def lifespan(_: MCPServer) -> AsyncIterator[AgentDoor]:
    """The server owns one engine for its whole life and closes it when the client goes.

    The engine is built on the first call that needs it, not here: loading a model
    takes seconds, and ``initialize`` and ``tools/list`` must not wait for it.
    """
    settings = Settings.load()
    engines = EngineSlot(settings, requester="agent")
    try:
        yield AgentDoor(settings, engines, LocalFilePolicy.agent(settings.local_file_dirs))
    finally:
        await engines.aclose()


def _door(ctx: Context) -> AgentDoor:
    return ctx.request_context.lifespan_context


# ---------------------------------------------------------------- tools

_TOOLS: list[Tool] = []
_Fn = TypeVar("_Fn", bound=Callable[..., Any])


def _tool(title: str, annotations: ToolAnnotations = _READ_ONLY) -> Callable[[_Fn], _Fn]:
    """Register a top-level function as a tool that refuses arguments it does not take.

    An agent that sends ``url_map`` where the tool takes ``sources`` must learn that it
    changed nothing, not get a quiet success. The SDK drops unknown arguments and offers
    no switch, so the tool's argument model (which ``FuncMetadata`` reads live) is
    tightened before the tool is handed to the server, and its schema says so.
    """

    def register(fn: _Fn) -> _Fn:
        tool = Tool.from_function(fn, title=title, annotations=annotations)
        tool.fn_metadata.arg_model = _strict(tool.name, tool.fn_metadata.arg_model)
        tool.parameters["additionalProperties"] = False
        _TOOLS.append(tool)
        return fn

    return register


def _strict(name: str, model: type[BaseModel]) -> type[BaseModel]:
    taken = sorted(field.alias or field_name for field_name, field in model.model_fields.items())

    class Strict(model):  # type: ignore[misc, valid-type]
        @model_validator(mode="before")
        @classmethod
        def _only_known(cls, data: Any) -> Any:
            unknown = sorted(set(data) - set(taken)) if isinstance(data, dict) else []
            if unknown:
                raise ValueError(f"{InputError.code}: {name} does not take {', '.join(unknown)} "
                                 f"(it takes {', '.join(taken)})")
            return data

    Strict.__name__ = model.__name__
    return Strict


async def _verify(parsed: Any, ctx: Context, detail: str, coverage: bool, policy: str | None,
                  asks: Asks) -> VerifyResult:
    door = _door(ctx)
    engine = await door.engines.get()
    total = parsed.citation_count
    await ctx.report_progress(0, total, "fetching sources")
    done = 0

    async def step(verdict: Any) -> None:
        nonlocal done
        done += 1
        await ctx.report_progress(done, total, f"{verdict.label.value}: {verdict.claim[:60]}")

    report = await collect(engine, parsed, local_files=door.local_files, on_verdict=step, coverage=coverage,
                           policy=policy, asks=asks)
    data = report.to_dict()
    if detail != "full":
        for verdict in data["verdicts"]:
            verdict["scores"] = None
    return VerifyResult.model_validate(data)


@_tool("Verify an AI answer's citations")
async def verify_answer(
    answer: str, ctx: Context, format: Literal["markdown", "html", "json"] | None = None,
    page_url: str | None = None, sources: dict[str, str] | None = None,
    detail: Literal["compact", "full"] = "compact", coverage: bool = True,
    policy: Literal["strict", "balanced"] | None = None, top_k: int = 1, valid_citations_only: bool = False,
    expect_sha256: str | None = None, support_threshold: float | None = None,
) -> VerifyResult:
    """Check every citation of an answer against its source.

    Give the answer as Markdown (markers [1] or [id:x] with a Sources list,
    reference-style pills, inline links, bare URLs), HTML, or JSON
    ([{"claim", "url"}], citesure's {"citations", "sources"}, or
    {"answer", "sources"}). ``sources`` maps markers ("1", "id:x") to a URL,
    DOI, arXiv id or the source text, for answers that do not list them.
    Every cited source is fetched (public http(s) only) and each (claim,
    citation) gets a verdict — supported, partial, contradicted,
    unsupported, unreachable, paywalled, retracted or unverifiable — with
    the evidence quote, a deep link to it and the source text's SHA-256.
    ``detail="full"`` adds the scores; ``coverage`` lists uncited factual
    sentences. ``policy``: "strict" (the default: supported only when every
    part of the claim is accounted for in the quoted passage) or "balanced"
    (more recall, less precision). ``top_k`` (1-10): up to that many ranked
    evidence passages per verdict (``passages``). ``valid_citations_only``:
    list only the citations that pass (supported); ``dropped`` counts the rest.
    ``expect_sha256``: the SHA-256 the source text should have; a source whose
    text differs is unverifiable (reason source_changed).
    ``support_threshold`` (0-1) only raises the bar: a supported verdict whose
    support score is below it becomes partial (below_support_threshold).
    """
    from citemark.answer import parse_answer

    settings = _door(ctx).settings
    try:
        asks = Asks(top_k=top_k, expect_sha256=expect_sha256, support_threshold=support_threshold,
                    valid_only=valid_citations_only)
        check_answer_size(answer, settings)
        if not answer.strip():
            raise InputError("the answer is empty")
        # Off the event loop, as the native host parses: a hostile answer must not stop
        # this server answering tools/list, pings or its input closing.
        parsed = await asyncio.to_thread(parse_answer, answer, format, page_url=page_url, sources=sources)
    except CitemarkError as error:
        raise _tool_error(error) from None
    return await _verify(parsed, ctx, detail, coverage, policy, asks)


@_tool("Verify claims against sources")
async def verify_claims(
    claims: list[ClaimInput], ctx: Context, detail: Literal["compact", "full"] = "compact",
    policy: Literal["strict", "balanced"] | None = None, top_k: int = 1, valid_citations_only: bool = False,
    expect_sha256: str | None = None, support_threshold: float | None = None,
) -> VerifyResult:
    """Check each {claim, source} pair: does the source state the claim?

    ``source`` is an http(s) URL (fetched; public addresses only), a DOI or
    arXiv id (read as the PDF's full text), a local path inside the folders
    the user allowed, or the source text itself. Returns one verdict per
    pair with the evidence quote. ``policy``, ``top_k``, ``valid_citations_only``,
    ``expect_sha256`` and ``support_threshold`` as for verify_answer.
    """
    from citemark.types import ParsedAnswer

    settings = _door(ctx).settings
    try:
        asks = Asks(top_k=top_k, expect_sha256=expect_sha256, support_threshold=support_threshold,
                    valid_only=valid_citations_only)
        if not claims:
            raise InputError("give at least one {claim, source} pair")
        if len(claims) > settings.max_citations:
            raise InputError(f"at most {settings.max_citations} claims per call")
        size = sum(len(item.claim) + len(item.source) for item in claims)
        if size > settings.max_answer_chars:  # the answer limit, as the batch door applies it to claim + source
            raise AnswerTooLargeError(f"claims and sources of {size:,} characters are over the "
                                      f"{settings.max_answer_chars:,} limit")
        parsed = ParsedAnswer(
            claims=tuple(one_claim(item.claim, item.source, index=i) for i, item in enumerate(claims)),
            format="claims",
        )
    except CitemarkError as error:
        raise _tool_error(error) from None
    return await _verify(parsed, ctx, detail, coverage=False, policy=policy, asks=asks)


@_tool("Check a source")
async def check_source(source: str, ctx: Context) -> SourceCheck:
    """Fetch one source and report what citemark can read from it.

    ``source`` is a URL, DOI or arXiv id (or a path in an allowed folder).
    Reachability (with the verdict a citation of an unreachable source would
    get), HTTP-level errors, the title, the kind (html/pdf/text), the length of
    the extracted text, its SHA-256, and paywall and retraction flags.
    """
    door = _door(ctx)
    engine = await door.engines.get()
    try:
        result = await engine.check_source(source, local_files=door.local_files)
    except CitemarkError as error:
        raise _tool_error(error) from None
    if "error" in result:
        result["error"] = f"{result['error']['code']}: {result['error']['message']}"
    return SourceCheck.model_validate(result)


@_tool("Cut a verbatim quote out of a source", annotations=_OFFLINE)
def snap_quote(anchor: str, source_text: str, ctx: Context) -> SnappedQuote:
    """The verbatim passage of ``source_text`` that ``anchor`` (a remembered or paraphrased quote) points at.

    Use it to cite exact words: the quote comes back cut from the source
    bytes, with its offsets, whether the anchor was already verbatim, and
    how similar the two are. Nothing is fetched.
    """
    from citemark.scoring.quotes import snap_quote as snap

    settings = _door(ctx).settings
    if not anchor.strip() or not source_text.strip():
        raise _tool_error(InputError("anchor and source_text must not be empty"))
    if len(source_text) > settings.max_text_chars:
        raise _tool_error(InputError(f"source_text is over {settings.max_text_chars:,} characters"))
    return SnappedQuote.model_validate(snap(anchor, source_text).to_dict())


@_tool("Check that references exist")
async def check_references(
    bibliography: str, ctx: Context, format: Literal["bibtex", "latex", "list"] | None = None,
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
        report = await check_bibliography(bibliography, _door(ctx).settings, fmt=format)
    except CitemarkError as error:
        raise _tool_error(error) from None
    return ReferencesResult.model_validate(report.to_dict())


def _tool_error(error: CitemarkError) -> ToolError:
    return ToolError(f"{error.code}: {error.message}")


server = MCPServer("citemark", version=__version__, lifespan=lifespan, tools=_TOOLS)


def run(args: Any = None) -> int:
    """Serve MCP on stdio until the client disconnects; logs go to stderr only."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="citemark mcp: %(levelname)s %(message)s")
    Settings.load()  # a bad config file is an input error here, before serving, not a crash inside the lifespan
    serve_then_exit(server.run_stdio_async(), "mcp server")
