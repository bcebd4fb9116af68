"""What the three doors — the CLI, the MCP server and the native host — share, so each stays an adapter.

- ``EngineSlot``: one engine per process, built on first use off the event
  loop (loading a model takes seconds) and closed once, with the dependency
  parser's process started first, so that it loads on another core meanwhile;
  it is told who its requests come from (``cli``, ``page`` or ``agent``), which
  decides the stored credentials it may send (``credentials.lookup_for``);
- ``collect`` and ``one_claim`` (from ``citemark.collect``, where
  ``Engine.report`` and ``Engine.verify_claim`` find them too): an answer's
  verdicts streamed into a ``Report``, and a claim with one source as an answer;
- ``check_answer_size``: the size limit every door applies before parsing;
- ``cache_dir``: a ``--cache-dir`` checked before anything is fetched or written.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from citemark.collect import OnVerdict, collect, one_claim
from citemark.errors import AnswerTooLargeError, InputError
from citemark.settings import DEFAULT_THRESHOLD, Settings
from citemark.types import Label, Report

if TYPE_CHECKING:
    from citemark.engine import Engine
    from citemark.models.pack import ModelPack

__all__ = ["DEFAULT_THRESHOLD", "EngineSlot", "OnVerdict", "answer_passed", "cache_dir", "check_answer_size", "collect",
           "one_claim", "serve_then_exit", "verification_passed"]


class EngineSlot:
    """The process's one engine, created on first ``get`` and shared by every request.

    ``requester`` decides the stored credentials the engine may send (None: none, as for
    a batch file); ``loader`` wraps the engine's source loader (the batch's
    ``BatchSources``); other options go to ``Engine``.
    """

    def __init__(self, settings: Settings, *, requester: str | None,
                 loader: Callable[[Any], Any] | None = None, **engine_options: Any) -> None:
        from citemark.credentials import lookup_for

        self.settings = settings
        self._options = {"credentials": lookup_for(requester) if requester else None, **engine_options}
        self._loader = loader
        self._engine: Engine | None = None
        self._lock = asyncio.Lock()

    def pack(self) -> ModelPack | None:
        """The model pack the engine judges with (None: lexical-only), resolved once: ``hello`` asks before
        the engine is built, and the engine is then built with the same pack."""
        if self._engine is not None:
            return self._engine.pack
        if "pack" not in self._options:
            from citemark.models import registry

            self._options["pack"] = registry.resolve(self.settings)
        return self._options["pack"]

    async def get(self) -> Engine:
        async with self._lock:
            if self._engine is None:
                from citemark.scoring import parse

                parse.start()  # first: spaCy loads on another core while the engine is imported and built
                from citemark.engine import Engine

                engine = await asyncio.to_thread(Engine, self.settings, **self._options)
                if self._loader is not None:
                    engine.loader = self._loader(engine.loader)
                self._engine = engine
            return self._engine

    @property
    def started(self) -> Engine | None:
        return self._engine

    async def aclose(self) -> None:
        if self._engine is not None:
            await self._engine.aclose()
            self._engine = None

    async def __aenter__(self) -> EngineSlot:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


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

