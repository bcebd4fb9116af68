"""``citemark batch IN.jsonl --out OUT.jsonl``: the batch door, its progress bar and its closing summary.

The work is ``citemark.batch.run_batch``; this module only shows it, and its arguments
are declared in ``cli.py`` (so building the parser imports nothing heavy). On a
terminal a progress line is redrawn in place (answers/min, claims/s, ETA, counts by
verdict); when stderr is a file or a pipe, the same line is logged every ``LOG_EVERY``
seconds. Ctrl-C or SIGTERM stops the batch after the lines already written, prints the
summary so far, and exits 130; the same command resumes it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from citemark.batch import RemoteRunner, run_batch
from citemark.batch_results import BatchSummary
from citemark.doors import cache_dir
from citemark.errors import AnswerFormatError, InputError
from citemark.report import GLYPHS
from citemark.settings import Settings
from citemark.sources.loader import LocalFilePolicy
from citemark.types import Label

__all__ = ["BatchProgress", "run"]

LOG_EVERY = 10.0  # seconds between progress lines when stderr is not a terminal
REDRAW_EVERY = 0.2
EXIT_INTERRUPTED = 130
#: Input lines from which a batch starts a worker process per core by default: each loads its own model (a few
#: seconds), which a short batch would not win back.
AUTO_WORKERS_FROM = 64
#: Worker processes a batch starts by default at most: each holds its own model and parser (about 0.5 GB).
AUTO_WORKERS_MAX = 4
#: A worker (a process, a Ray actor) died with answers in hand: the output is short of them until the next run.
EXIT_UNFINISHED = 1


def _local_files(args: argparse.Namespace) -> LocalFilePolicy:
    """A batch file is untrusted input, like an answer file: the paths it cites are read only under
    its own folder (the current folder for stdin) and the folders named with ``--allow-dir``."""
    folder = Path.cwd() if str(args.input) == "-" else Path(args.input).resolve().parent
    return LocalFilePolicy.under(folder, *(args.allow_dir or []))


def default_workers(lines: int | None, *, ray: bool = False) -> int:
    """Worker processes when ``--workers`` is not given: one per core (at most ``AUTO_WORKERS_MAX``) for an input
    of ``AUTO_WORKERS_FROM`` lines or more, else one process (standard input: its length is unknown)."""
    if ray or lines is None or lines < AUTO_WORKERS_FROM:
        return 1
    from citemark.models.runtime import usable_cpus

    return max(1, min(usable_cpus(), AUTO_WORKERS_MAX))


def _remote(args: argparse.Namespace, workers: int) -> RemoteRunner | None:
    """``--ray ADDRESS``: the answers run on that Ray cluster (``batch_ray``); ``workers`` above 1: in that many
    worker processes on this machine (``batch_processes``); else in this process."""
    if args.ray is not None:
        from citemark.batch_ray import on_ray

        return on_ray(args.ray, actors=args.ray_actors)
    if workers > 1:
        from citemark.batch_processes import in_processes

        return in_processes(workers)
    return None


def run(args: argparse.Namespace) -> int:
    if args.concurrency < 1:
        raise InputError("--concurrency must be at least 1")
    if args.ray_actors is not None and args.ray_actors < 1:
        raise InputError("--ray-actors must be at least 1")
    if args.ray is None and args.ray_actors is not None:
        raise InputError("--ray-actors goes with --ray")
    if args.workers is not None and args.workers < 1:
        raise InputError("--workers must be at least 1")
    if args.ray is not None and args.workers is not None:
        raise InputError("--workers runs on this machine; on a Ray cluster use --ray-actors")
    settings = Settings.load(model=args.model, policy=getattr(args, "policy", None),
                             cache_dir=cache_dir(args.cache_dir, no_cache=args.no_cache))
    summary = BatchSummary()
    total = _count_lines(args.input)
    workers = args.workers or default_workers(total, ray=args.ray is not None)
    progress = BatchProgress(summary, total, stream=sys.stderr, enabled=not args.quiet)
    interrupted = False
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        run_batch(args.input, args.out, settings=settings, summary=summary, concurrency=args.concurrency,
                  local_files=_local_files(args), cache=None if args.no_cache else "auto",
                  remote=_remote(args, workers), on_record=progress.step)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        progress.done()
    if not args.quiet:
        if interrupted:
            print(f"citemark: interrupted; {args.out} holds every finished answer: run the same command to resume",
                  file=sys.stderr)
        sys.stderr.write(summary.to_text())
    if args.summary:
        args.summary.write_text(json.dumps(summary.to_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if interrupted:
        return EXIT_INTERRUPTED
    if summary.unfinished:
        return EXIT_UNFINISHED
    if summary.errors and not summary.answers:  # a binary file, the wrong file: not one line was an answer
        raise AnswerFormatError(f"{args.input}: none of its {summary.errors:,} lines is an answer citemark could "
                                f"verify (each error is in {args.out})")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _count_lines(path: str) -> int | None:
    """Input lines, for the ETA (None for standard input)."""
    if str(path) == "-" or not Path(path).is_file():
        return None
    count, last = 0, b"\n"
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")  # a last line without its newline is a line too


class BatchProgress:
    """The progress line: redrawn in place on a terminal, logged every ``LOG_EVERY`` s elsewhere."""

    def __init__(self, summary: BatchSummary, total: int | None, *, stream: TextIO, enabled: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.summary, self.total, self.stream, self.clock = summary, total, stream, clock
        self.enabled = enabled
        self.tty = enabled and stream.isatty()
        self.started = clock()
        self._shown = self.started
        self.handled = 0  # records of this run (the summary also counts resumed ones)
        self.claims = 0

    def step(self, record: dict[str, Any]) -> None:
        self.handled += 1
        self.claims += len({verdict.get("claim_index") for verdict in record.get("verdicts", [])})
        if not self.enabled:
            return
        now = self.clock()
        if now - self._shown >= (REDRAW_EVERY if self.tty else LOG_EVERY):
            self._shown = now
            self._show(self.line(now))

    def done(self) -> None:
        if self.enabled:
            self._show(self.line(self.clock()))
            if self.tty:
                self.stream.write("\n")
                self.stream.flush()

    def line(self, now: float) -> str:
        summary = self.summary
        elapsed = max(now - self.started, 1e-9)
        rate = self.handled / elapsed
        parts = [f"citemark: {summary.answers + summary.errors:,}"
                 + (f"/{self.total:,}" if self.total is not None else "") + " answers",
                 f"{rate * 60:,.0f}/min", f"{self.claims / elapsed:,.1f} claims/s"]
        if self.total is not None and rate > 0:
            left = max(0, self.total - summary.answers - summary.errors) / rate
            parts.append(f"ETA {_duration(left)}")
        parts.append(" ".join(f"{GLYPHS[label]} {summary.verdicts[label.value]:,}" for label in Label
                              if summary.verdicts[label.value]))
        if summary.errors:
            parts.append(f"{summary.errors:,} bad")
        return "  ".join(part for part in parts if part)

    def _show(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r\033[K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"
