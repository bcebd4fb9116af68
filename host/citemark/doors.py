"""What the three doors — the CLI, the MCP server and the native host — share, so each stays an adapter.

- ``EngineSlot``: one engine per process, built on first use off the event
  loop (loading a model takes seconds) and closed once; it is told who its
  requests come from (``cli``, ``page`` or ``agent``), which decides the stored
  credentials it may send (``credentials.lookup_for``);
- ``collect``: stream an answer's verdicts into a ``Report``, calling back
  after each one (progress bars, MCP progress, native ``verdict`` messages);
- ``one_claim``: a claim and one source string as a one-claim answer; what the
  source *is* is decided by ``sources.classify`` alone;
- ``check_answer_size``: the size limit every door applies before parsing;
- ``cache_dir``: a ``--cache-dir`` checked before anything is fetched or written.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from citemark.asks import Asks
from citemark.errors import AnswerTooLargeError, InputError
from citemark.settings import Settings
from citemark.sources.classify import citation_for
from citemark.sources.localfiles import LocalFilePolicy
from citemark.types import Citation, Claim, Label, ParsedAnswer, Report, Verdict

if TYPE_CHECKING:
    from citemark.engine import Engine

__all__ = ["DEFAULT_THRESHOLD", "EngineSlot", "answer_passed", "cache_dir", "check_answer_size", "collect", "one_claim",
           "serve_then_exit", "verification_passed"]

OnVerdict = Callable[[Verdict], Awaitable[None] | None]


class EngineSlot:
    """The process's one engine, created on first ``get`` and shared by every request."""

    def __init__(self, settings: Settings, *, requester: str, **engine_options: Any) -> None:
        from citemark.credentials import lookup_for

        self.settings = settings
        self._options = {"credentials": lookup_for(requester), **engine_options}
        self._engine: Engine | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> Engine:
        async with self._lock:
            if self._engine is None:
                from citemark.engine import Engine

                self._engine = await asyncio.to_thread(Engine, self.settings, **self._options)
            return self._engine

    @property
    def started(self) -> Engine | None:
        return self._engine

    async def aclose(self) -> None:
        if self._engine is not None:
            await self._engine.aclose()
            self._engine = None


async def collect(
    engine: Engine,
    parsed: ParsedAnswer,
    *,
    local_files: LocalFilePolicy = LocalFilePolicy(),
    on_verdict: OnVerdict | None = None,
    coverage: bool = False,
    policy: str | None = None,
    asks: Asks = Asks(),
) -> Report:
    """Every verdict of ``parsed`` in one Report (with citation coverage when asked), under ``policy``
    (default: the engine's settings) and what the request ``asks``."""
    report = Report(unresolved=list(parsed.unresolved), model=engine.model_name, policy=policy or engine.settings.policy,
                    pack_version=engine.pack_version, valid_only=asks.valid_only,
                    coverage=parsed.coverage() if coverage else None)
    async for verdict in engine.verify(parsed, local_files=local_files, policy=report.policy, asks=asks):
        report.verdicts.append(verdict)
        if on_verdict is not None:
            pending = on_verdict(verdict)
            if pending is not None:
                await pending
    return report


def one_claim(
    claim: str, source: str, *, base: Path | None = None, index: int = 0, marker: str = "1", inline_text: bool = True,
    as_text: bool = False,
) -> Claim:
    """``claim`` citing ``source`` (URL, DOI, arXiv id, path, or — where ``inline_text`` — the text itself);
    ``as_text``: ``source`` is the text, whatever it looks like (``--source-text``)."""
    from citemark.answer.claims import clean_claim

    if not isinstance(claim, str) or not claim.strip():
        raise InputError("a claim must be a non-empty string")
    if not isinstance(source, str) or not source.strip():
        raise InputError("a source must be a non-empty string")
    citation = (Citation(marker=marker, text=source) if as_text
                else citation_for(source, marker=marker, base=base, inline_text=inline_text))
    return Claim(text=clean_claim(claim), citations=(citation,), index=index)


def check_answer_size(content: str, settings: Settings, what: str = "answer") -> None:
    """AnswerTooLargeError for content over ``settings.max_answer_chars``."""
    if len(content) > settings.max_answer_chars:
        raise AnswerTooLargeError(f"{what} of {len(content):,} characters is over the {settings.max_answer_chars:,} limit")


def cache_dir(value: Path | None, *, no_cache: bool = False) -> Path | None:
    """``--cache-dir DIR``: where the fetch cache lives (created when missing). A file there is an input
    error, as is asking for a cache folder and no cache at once; None leaves the settings' folder."""
    if value is None:
        return None
    if no_cache:
        raise InputError("--cache-dir and --no-cache contradict each other: give one")
    folder = value.expanduser()
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--cache-dir {value} is a file, not a folder")
    return folder


#: ``verify`` passes only when at least this share of citations is supported (citesure's gate); ``batch``
#: counts an answer as passed by the same gate, so the two never disagree.
DEFAULT_THRESHOLD = 0.8
_NOT_READ = frozenset({Label.UNREACHABLE.value, Label.PAYWALLED.value, Label.UNVERIFIABLE.value})


def verification_passed(report: Report, *, threshold: float, strict: bool = False) -> tuple[bool, str]:
    """The gate behind ``verify``'s exit code, and why it failed (``answer_passed`` on the report's verdicts)."""
    labels = [verdict.label.value for verdict in report.verdicts]
    return answer_passed(labels, unresolved=bool(report.unresolved), threshold=threshold, strict=strict)


def answer_passed(labels: list[str], *, unresolved: bool = False, threshold: float = DEFAULT_THRESHOLD,
                  strict: bool = False) -> tuple[bool, str]:
    """Whether an answer with these verdicts passes, and why not.

    Passing needs at least one citation judged against a readable source, none
    contradicted or retracted, and a pass rate of at least ``threshold``; ``strict``
    also needs every citation supported and every marker resolved.

    The pass rate is passing (``Label.passes``: supported) citations over all, under either policy: a gate passes
    what citemark stands behind. Under ``strict`` (the default) fewer citations are
    supported, since a partial may be a paraphrase or a swapped name alike; a CI job
    that wants the recall of the earlier policy runs ``--policy balanced``.
    """
    if not labels:
        return False, "no citations found"
    if all(label in _NOT_READ for label in labels):
        return False, "no cited source could be read"
    if Label.CONTRADICTED.value in labels or Label.RETRACTED.value in labels:
        return False, "a citation is contradicted or retracted"
    passing = sum(Label(label).passes for label in labels)
    rate = round(passing / len(labels), 4)
    if rate < threshold:
        return False, f"pass rate {rate:.2f} is below the threshold {threshold:.2f}"
    if strict and (passing != len(labels) or unresolved):
        return False, "--strict: not every citation is supported and resolved"
    return True, "passed"


def serve_then_exit(work: Coroutine[Any, Any, int | None], what: str) -> NoReturn:
    """Run a door's server until its input closes, then leave at once: a worker thread may still be
    inside a hostile answer or a source that ignores its time budget, and the door does not join it."""
    loop = asyncio.new_event_loop()
    try:
        code = loop.run_until_complete(work) or 0
    except Exception:
        logging.getLogger(__name__).exception("%s failed", what)
        code = 1
    logging.shutdown()
    sys.stderr.flush()
    os._exit(code)

