"""Verifying many answers in one run: JSON Lines in, one ``verify --json`` report per answer out, resumable.

Each input line is a JSON object with an ``id`` and one of:

- ``"answer"``: the answer as text in any supported format (Markdown, HTML, JSON;
  ``"format"`` and ``"page_url"`` as for ``verify``), or as structured JSON inline;
- ``"claims"``: a list of ``{"claim", "url" | "urls" | "source" | "source_text"}`` pairs;
- ``"claim"`` and ``"source"``: one claim against one source, as ``verify --claim``.

Other keys (a question, a model name, a timestamp) are left alone. Each output line is
``{"id": ..., **report}`` where ``report`` is exactly what ``verify --json`` prints for
that answer, or ``{"id": ..., "line": n, "error": {"code", "error", "message"}}`` for a
line that could not be verified; a bad line never stops the batch.

All answers share one ``Engine`` (``engine_slot``): one fetcher (so per-host politeness limits hold across
the whole batch), one model whose batches fill with the pairs of every answer in flight,
and ``BatchSources``, which loads each distinct source once for the whole batch, failures
included. ``ResultsFile`` (``batch_results``) makes a run resumable: ids already in the output are skipped,
and every finished answer is on disk before the next one is counted, so a crash or
Ctrl-C loses only the answers in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from citemark.answer import parse_answer, rebased
from citemark.answer.structured import parse_structured
from citemark.batch_results import BatchSummary, ResultsFile
from citemark.doors import EngineSlot, collect, one_claim
from citemark.errors import AnswerFormatError, AnswerTooLargeError, CitemarkError, InputError
from citemark.settings import Settings
from citemark.sources.cache import SourceCache
from citemark.sources.loader import LocalFilePolicy
from citemark.sources.resolve import resolve_reference
from citemark.types import Citation, Document, ParsedAnswer, Report

__all__ = [
    "BadLine",
    "BatchItem",
    "BatchSources",
    "RemoteRunner",
    "Verifier",
    "bounded_lines",
    "engine_slot",
    "error_record",
    "read_items",
    "run_batch",
    "take_shard",
    "Unfinished",
    "verify_batch",
    "verify_item",
]

log = logging.getLogger(__name__)

#: Answers verified at once by one engine: enough to keep the model busy while sources download.
DEFAULT_CONCURRENCY = 16
#: Runs a batch's items elsewhere than in this process and yields their records (``batch_ray.on_ray``
#: makes one); called with the items and keyword options ``settings``, ``concurrency``, ``local_files``,
#: ``paths_relative_to`` and ``shared_cache``. Handed in by the door, so this module never imports Ray's.
RemoteRunner = Callable[..., Iterator[dict[str, Any]]]
#: Sources whose evidence index the engine keeps between answers (a batch returns to the same sources).
BATCH_INDEXES_KEPT = 512  # as many as scoring keeps per-source readings for (quantities, guards)


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One input line with an id: the line's JSON object, not yet parsed as an answer."""

    id: str | int
    line: int
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that cannot even be given to the engine (not JSON, no id, a repeated id, too long)."""

    line: int
    id: str | int | None
    error: CitemarkError

    def to_record(self) -> dict[str, Any]:
        return error_record(self.id, self.line, self.error)


def error_record(item_id: str | int | None, line: int, error: CitemarkError) -> dict[str, Any]:
    return {"id": item_id, "line": line, "error": error.to_dict()}


class Unfinished(Exception):
    """Raised by a remote runner after its last record: ``answers`` of the batch were sent to a worker that
    died (or lost its shard), so they have no record yet and the next run verifies them."""

    def __init__(self, answers: int) -> None:
        super().__init__(f"{answers} answers were not verified")
        self.answers = answers


def take_shard(source: Iterator[BatchItem | BadLine], size: int) -> tuple[list[dict[str, Any]], list[BatchItem], bool]:
    """The next shard of up to ``size`` answers for a remote worker (a process, a Ray actor), with the records
    of the bad lines read on the way (they are written at once, never sent), and whether ``source`` is spent."""
    bad: list[dict[str, Any]] = []
    shard: list[BatchItem] = []
    for item in source:
        if isinstance(item, BadLine):
            bad.append(item.to_record())
            continue
        shard.append(item)
        if len(shard) >= size:
            return bad, shard, False
    return bad, shard, True


# ---------------------------------------------------------------- reading input


def read_items(lines: Iterable[bytes], *, max_line_bytes: int, skip: set[str] = frozenset(),  # type: ignore[assignment]
               skip_lines: set[int] = frozenset()) -> Iterator[BatchItem | BadLine]:  # type: ignore[assignment]
    """Items of a JSON Lines stream, in order; ids in ``skip`` (already done) are passed over.

    ``lines`` yields raw lines (a file opened in binary mode does); a line longer than
    ``max_line_bytes`` arrives as its first ``max_line_bytes + 1`` bytes (``bounded_lines``).
    Blank lines are ignored. Lines without an id are matched on resume by number
    (``skip_lines``), so each is reported once.
    """
    seen: set[str] = set()
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        item = _item(number, raw, max_line_bytes)
        key = _id_key(item.id)
        if key is None:
            if number not in skip_lines:
                yield item
            continue
        if key in skip:
            seen.add(key)
            continue
        if key in seen:
            yield BadLine(number, None, InputError(f"line {number}: id {item.id!r} was already used by an earlier line"))
            continue
        seen.add(key)
        yield item


def _item(number: int, raw: bytes, max_line_bytes: int) -> BatchItem | BadLine:
    if len(raw) > max_line_bytes:
        return BadLine(number, None, AnswerTooLargeError(f"line {number} is longer than {max_line_bytes:,} bytes"))
    try:
        data = json.loads(raw)
    except UnicodeDecodeError as error:
        return BadLine(number, None, AnswerFormatError(f"line {number}: not UTF-8 ({error.reason} at byte {error.start})"))
    except ValueError as error:
        return BadLine(number, None, AnswerFormatError(f"line {number}: not valid JSON ({error})"))
    except RecursionError:
        return BadLine(number, None, AnswerFormatError(f"line {number}: JSON nested too deeply to read"))
    return _with_id(number, data)


def _with_id(number: int, data: Any) -> BatchItem | BadLine:
    if not isinstance(data, dict):
        return BadLine(number, None, AnswerFormatError(f"line {number}: expected a JSON object with an 'id'"))
    item_id = data.get("id")
    if isinstance(item_id, bool) or not isinstance(item_id, str | int) or item_id == "":
        return BadLine(number, None, InputError(f"line {number}: needs an 'id' (a string or an integer)"))
    return BatchItem(item_id, number, data)


def _id_key(item_id: str | int | None) -> str | None:
    return None if item_id is None else str(item_id)


def bounded_lines(stream: BinaryIO, limit: int) -> Iterator[bytes]:
    """Lines of ``stream``, each cut at ``limit + 1`` bytes (the rest of a long line is skipped unread into memory)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while (rest := stream.readline(1 << 20)) and not rest.endswith(b"\n"):
                pass
        yield line


# ---------------------------------------------------------------- verifying


class BatchSources:
    """Each distinct URL of the batch loaded once: the document, or the failure, shared by every answer citing it.

    The engine's loader already shares a load between concurrent requests and the cache
    keeps readable pages; this also remembers failures (a dead link cited by a thousand
    answers is requested once; after ``failure_ttl`` seconds it is tried again, as a long
    batch outlives a server's bad minute) and keeps recent documents in memory, up to
    ``max_chars``. It stands in for ``Engine.loader`` with the same ``load`` method.
    """

    def __init__(self, loader: Any, *, max_chars: int = 100_000_000, max_entries: int = 100_000,
                 failure_ttl: float = 600.0) -> None:
        self.loader = loader
        self.failure_ttl = failure_ttl
        self._failed_at: dict[str, float] = {}
        self.max_chars = max_chars
        self.max_entries = max_entries
        self._loads: OrderedDict[str, asyncio.Future[Document]] = OrderedDict()
        self._chars = 0
        self.loaded = 0  # loads started (a URL pushed out of memory and cited again counts twice)

    async def load(self, citation: Citation, local_files: LocalFilePolicy = LocalFilePolicy()) -> Document:
        if citation.url is None:
            return await self.loader.load(citation, local_files)
        try:
            key = resolve_reference(citation.url)
        except ValueError:
            return await self.loader.load(citation, local_files)  # the loader raises the error the engine reports
        future = self._loads.get(key)
        failed_at = self._failed_at.get(key)
        if future is not None and failed_at is not None and time.monotonic() - failed_at > self.failure_ttl:
            del self._loads[key], self._failed_at[key]
            future = None
        if future is None:
            future = asyncio.ensure_future(self.loader.load(citation, local_files))
            future.add_done_callback(lambda done: self._settled(key, done))
            self._loads[key] = future
            self.loaded += 1
        else:
            self._loads.move_to_end(key)
        return await asyncio.shield(future)

    def _settled(self, key: str, future: asyncio.Future[Document]) -> None:
        if self._loads.get(key) is not future:
            return
        if future.cancelled():  # the batch is shutting down
            del self._loads[key]
            return
        if future.exception() is None:
            self._chars += len(future.result().text)
        else:
            self._failed_at[key] = time.monotonic()
        while (self._chars > self.max_chars or len(self._loads) > self.max_entries) and len(self._loads) > 1:
            oldest_key, oldest = next(iter(self._loads.items()))
            if not oldest.done():
                break  # still loading: it is counted, and can be let go, once it settles
            del self._loads[oldest_key]
            self._failed_at.pop(oldest_key, None)
            if not oldest.cancelled() and oldest.exception() is None:
                self._chars -= len(oldest.result().text)


def engine_slot(settings: Settings, *, cache: Any = "auto", **engine_options: Any) -> EngineSlot:
    """The ``EngineSlot`` a batch runs on: ``BatchSources`` in front of its loader, a large index cache, and
    no stored credentials (a batch file is untrusted input, like an answer file).

    ``cache=None`` still gives the batch a cache: a temporary SQLite file, deleted
    when the slot closes, so that even then every source is fetched once.
    """
    return EngineSlot(settings, requester=None, loader=BatchSources, indexes_kept=BATCH_INDEXES_KEPT,
                      cache=SourceCache.temporary() if cache is None else cache, **engine_options)


async def verify_item(engine: Any, item: BatchItem, local_files: LocalFilePolicy = LocalFilePolicy(),
                      paths_relative_to: Path | None = None) -> dict[str, Any]:
    """One output record: ``{"id", **verify --json report}``, or an error record; raises nothing but cancellation.

    ``paths_relative_to``: where relative local paths in answers are read from (the input
    file's folder, as ``verify`` reads them from the answer file's); None leaves them be.
    """
    try:
        report = await _report(engine, item.fields, local_files, paths_relative_to)
    except CitemarkError as error:
        return error_record(item.id, item.line, error)
    except Exception as error:  # a bug met by one answer is that answer's error, not the end of the batch
        log.warning("line %d (id %r): internal error", item.line, item.id, exc_info=True)
        return error_record(item.id, item.line, CitemarkError(f"internal error: {type(error).__name__}: {error}"))
    return {"id": item.id, **report.to_dict()}


async def _report(engine: Any, fields: dict[str, Any], local_files: LocalFilePolicy, base: Path | None) -> Report:
    kinds = [name for name in ("answer", "claims", "claim") if name in fields]
    if len(kinds) != 1:
        raise InputError("a line needs exactly one of 'answer', 'claims', or 'claim' with 'source'")
    limit = engine.settings.max_answer_chars
    if kinds == ["claim"]:
        claim, source = fields.get("claim"), fields.get("source")
        if not isinstance(claim, str) or not claim.strip() or not isinstance(source, str) or not source.strip():
            raise InputError("'claim' and 'source' must both be non-empty strings")
        if len(claim) + len(source) > limit:
            raise AnswerTooLargeError(f"claim and source are longer than {limit:,} characters")
        parsed = ParsedAnswer(claims=(one_claim(claim, source, base=base),), format="claim")
        return await collect(engine, parsed, local_files=local_files)
    answer = fields[kinds[0]]
    if kinds == ["claims"] and not isinstance(answer, list):
        raise AnswerFormatError("'claims' must be a list of {claim, url} objects")
    if isinstance(answer, str):
        if len(answer) > limit:
            raise AnswerTooLargeError(f"answer is longer than {limit:,} characters")
        fmt, page_url = fields.get("format"), fields.get("page_url")
        if fmt is not None and not isinstance(fmt, str) or page_url is not None and not isinstance(page_url, str):
            raise InputError("'format' and 'page_url' must be strings")
        parsed = parse_answer(answer, fmt, page_url=page_url, base=base)
    elif isinstance(answer, list | dict):
        parsed = parse_structured(answer)
        parsed = rebased(parsed, base) if base is not None else parsed
    else:
        raise AnswerFormatError("'answer' must be a string, or structured JSON (a list or an object)")
    return await collect(engine, parsed, local_files=local_files, coverage=True)  # as ``verify --json`` reports it


async def verify_batch(
    items: Iterable[BatchItem | BadLine | dict[str, Any]] | AsyncIterable[BatchItem | BadLine | dict[str, Any]],
    *,
    engine: Any,
    concurrency: int = DEFAULT_CONCURRENCY,
    local_files: LocalFilePolicy = LocalFilePolicy(),
    paths_relative_to: Path | None = None,
) -> AsyncIterator[dict[str, Any]]:
    """One record per item, in the order they finish, with up to ``concurrency`` answers in flight.

    ``items`` may be plain dicts (``{"id": ..., "answer": ...}``), numbered as lines from 1.
    The input is read lazily, so a million-line file never sits in memory.
    """
    if concurrency < 1:
        raise InputError("concurrency must be at least 1")
    source = _as_async(items)
    running: set[asyncio.Task[dict[str, Any]]] = set()
    exhausted = False
    try:
        while running or not exhausted:
            while not exhausted and len(running) < concurrency:
                try:
                    item = await anext(source)
                except StopAsyncIteration:
                    exhausted = True
                    break
                if isinstance(item, BadLine):
                    yield item.to_record()
                    continue
                running.add(asyncio.ensure_future(verify_item(engine, item, local_files, paths_relative_to)))
            if not running:
                continue
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                yield task.result()
    finally:
        for task in running:
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)


class Verifier:
    """One engine on one worker (a Ray actor, a worker process); ``verify`` takes a shard of items and returns
    their records, as a local run would write them."""

    def __init__(self, settings: Settings, concurrency: int, local_files: LocalFilePolicy,
                 paths_relative_to: Path | None, shared_cache: bool = True) -> None:
        self.paths_relative_to = paths_relative_to
        self.concurrency = concurrency
        self.local_files = local_files
        self._slot = engine_slot(settings, cache="auto" if shared_cache else None)
        self._warm = False

    async def ready(self) -> str:
        """Load the model now; returns its name (the driver checks every actor uses the same)."""
        engine = await self._engine_ready()
        return engine.model_name

    async def verify(self, items: list[BatchItem]) -> list[dict[str, Any]]:
        engine = await self._engine_ready()
        return [record async for record in verify_batch(items, engine=engine, concurrency=self.concurrency,
                                                        local_files=self.local_files,
                                                        paths_relative_to=self.paths_relative_to)]

    async def close(self) -> None:
        """Close the engine: a temporary source cache is a folder to remove, which ending the actor would leave."""
        await self._slot.aclose()

    async def _engine_ready(self) -> Any:
        engine = await self._slot.get()
        if not self._warm:
            self._warm = True
            engine.warm_up()
        return engine


async def _as_async(items: Iterable[Any] | AsyncIterable[Any]) -> AsyncIterator[BatchItem | BadLine]:
    numbered = 0

    def wrap(item: Any) -> BatchItem | BadLine:
        nonlocal numbered
        numbered += 1
        if isinstance(item, BatchItem | BadLine):
            return item
        return _with_id(numbered, item)

    if isinstance(items, AsyncIterable):
        async for item in items:
            yield wrap(item)
    else:
        for item in items:
            yield wrap(item)


# ---------------------------------------------------------------- one batch, file to file


def run_batch(
    input_path: str | Path,
    output_path: str | Path,
    *,
    settings: Settings,
    summary: BatchSummary | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    local_files: LocalFilePolicy = LocalFilePolicy(),
    cache: Any = "auto",
    remote: RemoteRunner | None = None,
    on_record: Any = None,
) -> BatchSummary:
    """Verify every answer of ``input_path`` (``-``: standard input) not yet in ``output_path``.

    ``summary`` (filled as records are written, so it is current even after Ctrl-C) starts
    with what the output file already held. ``on_record(record)`` is called after each line
    is written (progress displays use it). ``remote`` runs the answers somewhere else
    (``citemark.batch_ray.on_ray``: a Ray cluster) instead of in this process; answers a remote worker
    took and never returned are counted in ``summary.unfinished``.
    """
    summary = summary if summary is not None else BatchSummary()
    base = None
    if local_files.allow_any or local_files.directories:  # local files allowed: relative ones are read from its folder
        base = Path.cwd() if str(input_path) == "-" else Path(input_path).resolve().parent
    with _open_input(input_path) as stream, ResultsFile(Path(output_path), summary=summary,
                                                        input_stat=os.fstat(stream.fileno())) as results:
        if results.policies - {settings.policy}:
            raise InputError(f"{output_path} holds verdicts of the {', '.join(sorted(results.policies))} policy; "
                             f"this run uses {settings.policy}: resume with --policy "
                             f"{sorted(results.policies)[0]}, or write to another --out")
        items = read_items(bounded_lines(stream, _max_line_bytes(settings)), max_line_bytes=_max_line_bytes(settings),
                           skip=results.done_ids, skip_lines=results.done_lines)

        def write(record: dict[str, Any]) -> None:
            results.write(record)
            summary.add(record)
            if on_record is not None:
                on_record(record)

        if remote is not None:
            try:
                for record in remote(items, settings=settings, concurrency=concurrency, local_files=local_files,
                                     paths_relative_to=base, shared_cache=cache is not None):
                    write(record)
            except Unfinished as error:
                summary.unfinished += error.answers
        else:
            asyncio.run(_run_local(items, settings, write, concurrency=concurrency, local_files=local_files,
                                   cache=cache, base=base))
    return summary


async def _run_local(items: Iterable[BatchItem | BadLine], settings: Settings, write: Any, *, concurrency: int,
                     local_files: LocalFilePolicy, cache: Any, base: Path | None) -> None:
    async with engine_slot(settings, cache=cache) as slot:
        engine = await slot.get()
        engine.warm_up()
        async for record in verify_batch(items, engine=engine, concurrency=concurrency, local_files=local_files,
                                         paths_relative_to=base):
            write(record)


def _max_line_bytes(settings: Settings) -> int:
    return settings.max_answer_chars * 4 + 4096  # an answer of the maximum length in 4-byte UTF-8, and its keys


@contextlib.contextmanager
def _open_input(path: str | Path) -> Iterator[BinaryIO]:
    if str(path) == "-":
        import sys

        yield sys.stdin.buffer
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory") from None
    with stream:
        yield stream
