"""Running one answer through the engine into a Report: the one path every door and the engine's own API take.

- ``collect``: stream an answer's verdicts into a ``Report``, calling back
  after each one (progress bars, MCP progress, native ``verdict`` messages);
  ``Engine.report`` and the batch run through it too;
- ``one_claim``: a claim and one source string as a one-claim answer; what the
  source *is* is decided by ``sources.classify`` alone (``Engine.verify_claim``,
  ``verify --claim``, the MCP tools, a batch line, a selection in the browser).

It imports nothing heavy, so a door can import it before its engine is built.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from citemark.asks import Asks
from citemark.errors import InputError
from citemark.reuse import source_reuse
from citemark.sources.classify import citation_for
from citemark.sources.localfiles import LocalFilePolicy
from citemark.types import Citation, Claim, ParsedAnswer, Report, Verdict

if TYPE_CHECKING:
    from citemark.engine import Engine

__all__ = ["OnVerdict", "collect", "one_claim"]

OnVerdict = Callable[[Verdict], Awaitable[None] | None]


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
    report.source_reuse = source_reuse(report.verdicts)
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
