"""``citemark batch --workers N``: the batch in N worker processes on this machine.

One process verifies with one interpreter lock. Its Python work (parsing, alignment,
retrieval, judging) fills one core while the model's sessions wait for the lock, so on
two cores one process leaves about a third of the CPU idle (``bench/batch.py``). Worker
processes each hold their own lock: N workers each run one engine (``Verifier``, as a
Ray actor does) on shards of answers, and this process reads the input, skips what is
done and writes every record, exactly as a local run does. Each worker's model keeps
cores ÷ N sessions, so the model's threads never outnumber the cores.

The workers share the SQLite source cache, so a source is fetched once per batch (with
``--no-cache``, one temporary cache, removed at the end); each extracts and indexes the
sources its own answers cite. Records arrive in the
order shards finish. Ctrl-C stops the workers; a shard that was not finished is verified
by the next run, and so is a shard whose worker died.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import queue
import signal
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from citemark.batch import DEFAULT_CONCURRENCY, BadLine, BatchItem, RemoteRunner, Unfinished, Verifier, take_shard
from citemark.errors import InputError
from citemark.models.runtime import usable_cpus
from citemark.settings import Settings
from citemark.sources.loader import LocalFilePolicy

__all__ = ["in_processes", "verify_in_processes"]

log = logging.getLogger(__name__)

#: Answers sent to a worker at a time: large enough to keep its engine's batches full, small enough to lose little.
SHARD_SIZE = 8
#: Shards each worker has in hand, so it never waits for the next.
AHEAD = 2
#: Seconds a worker gets to load its model, and to close its engine at the end.
START_TIMEOUT = 300.0
CLOSE_TIMEOUT = 10.0
#: How often the parent looks for a dead worker while it waits for records (seconds).
POLL = 0.5


def in_processes(workers: int) -> RemoteRunner:
    """The runner ``run_batch(remote=...)`` hands its items to: ``verify_in_processes`` with ``workers``."""
    return functools.partial(verify_in_processes, workers=workers)


def verify_in_processes(
    items: Iterable[BatchItem | BadLine],
    *,
    settings: Settings,
    workers: int,
    concurrency: int = DEFAULT_CONCURRENCY,
    local_files: LocalFilePolicy = LocalFilePolicy(),
    paths_relative_to: Path | None = None,
    shared_cache: bool = True,
    shard_size: int = SHARD_SIZE,
) -> Iterator[dict[str, Any]]:
    """Records for ``items``, verified by ``workers`` processes, in the order their shards finish; bad lines
    at once. Each worker verifies ``concurrency`` answers at a time, as one local run does."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no lock or thread copied from this one
    outbox: Any = context.Queue()
    sessions = max(1, usable_cpus() // workers)
    with contextlib.ExitStack() as cleanup:
        if not shared_cache:  # one temporary cache for all the workers: a source is still fetched once
            scratch = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="citemark-batch-"))
            settings = settings.with_(cache_dir=Path(scratch))
        options = (settings, concurrency, local_files, paths_relative_to, True)
        pool = []
        for number in range(workers):
            inbox: Any = context.Queue()
            process = context.Process(target=_work, args=(number, inbox, outbox, sessions, options),
                                      name=f"citemark-batch-{number}", daemon=True)
            process.start()
            pool.append((process, inbox))
        finished = False
        try:
            _await_ready(pool, outbox)
            yield from _feed(pool, outbox, items, shard_size)
            finished = True
        finally:
            _stop(pool, wait=finished)  # before the temporary cache goes: the workers close it first


def _await_ready(pool: list[tuple[Any, Any]], outbox: Any) -> None:
    """Wait until every worker has loaded its model; a worker that cannot is the run's error."""
    models, waited = {}, 0.0
    while len(models) < len(pool):
        try:
            number, kind, detail = outbox.get(timeout=POLL)
        except queue.Empty:
            waited += POLL
            dead = [process for process, _ in pool if not process.is_alive()]
            if dead or waited > START_TIMEOUT:
                raise InputError("a batch worker process could not start; run with --workers 1 to see why") from None
            continue
        if kind == "failed":
            raise InputError(f"a batch worker could not start: {detail}")
        models[number] = detail
    if len(set(models.values())) > 1:
        raise InputError(f"the batch workers judge with different models ({', '.join(sorted(set(models.values())))})")


def _feed(pool: list[tuple[Any, Any]], outbox: Any, items: Iterable[BatchItem | BadLine],
          shard_size: int) -> Iterator[dict[str, Any]]:
    """Keep every worker ``AHEAD`` shards ahead; yield bad lines at once and each shard's records as it returns."""
    source = iter(items)
    idle = [number for number in range(len(pool)) for _ in range(AHEAD)]
    running: dict[int, list[int]] = {number: [] for number in range(len(pool))}  # sizes of the shards in its hands
    alive = set(range(len(pool)))
    exhausted, lost = False, 0
    while alive and (not exhausted or any(running[number] for number in alive)):
        while idle and not exhausted:
            bad, shard, exhausted = take_shard(source, shard_size)
            yield from bad
            if shard:
                number = idle.pop(0)
                pool[number][1].put(shard)
                running[number].append(len(shard))
        if not any(running[number] for number in alive):
            continue
        try:
            number, kind, detail = outbox.get(timeout=POLL)
        except queue.Empty:
            for number in [n for n in alive if not pool[n][0].is_alive()]:
                log.warning("batch: a worker died with %d answers in hand; run the batch again to verify them",
                            sum(running[number]))
                lost += sum(running[number])
                alive.discard(number)
                idle = [n for n in idle if n != number]
            if not alive:
                raise InputError("every batch worker has died; run with --workers 1 to see why") from None
            continue
        size = running[number].pop(0)  # a worker returns its shards in the order it took them
        idle.append(number)
        if kind == "lost":
            log.warning("batch: a shard of %d answers was lost (%s); run the batch again to verify them", size, detail)
            lost += size
            continue
        yield from detail
    if lost:
        raise Unfinished(lost)


def _stop(pool: list[tuple[Any, Any]], *, wait: bool) -> None:
    """End the workers, each closing its engine first: after its shards (``wait``: the run is through), or at
    once (Ctrl-C, an error: SIGTERM, which a worker turns into a clean exit); kill any that outlast
    ``CLOSE_TIMEOUT``."""
    for process, inbox in pool:
        if process.is_alive():
            if wait:
                with contextlib.suppress(Exception):  # a queue whose worker is gone
                    inbox.put(None)
            else:
                process.terminate()
    for process, _ in pool:
        process.join(CLOSE_TIMEOUT)
        if process.is_alive():
            process.kill()
            process.join(CLOSE_TIMEOUT)


def _exit(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def _work(number: int, inbox: Any, outbox: Any, sessions: int, options: tuple[Any, ...]) -> None:
    """A worker: load the engine, verify each shard from ``inbox`` until None, close the engine."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the workers
    signal.signal(signal.SIGTERM, _exit)  # the parent's stop: close the engine on the way out
    from citemark.models import runtime

    runtime.MAX_SESSIONS = sessions  # this worker's share of the cores
    loop = asyncio.new_event_loop()
    verifier = Verifier(*options)
    try:
        try:
            outbox.put((number, "ready", loop.run_until_complete(verifier.ready())))
        except Exception as error:  # the model or the cache could not be opened: the parent says so
            outbox.put((number, "failed", f"{type(error).__name__}: {error}"))
            return
        while (shard := inbox.get()) is not None:
            try:
                outbox.put((number, "done", loop.run_until_complete(verifier.verify(shard))))
            except Exception as error:  # verify_item turns each answer's failure into its record; this is a bug
                log.warning("batch worker %d: a shard failed", number, exc_info=True)
                outbox.put((number, "lost", f"{type(error).__name__}: {error}"))
    finally:
        with contextlib.suppress(BaseException):  # stopped mid-shard: its answers are the next run's
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        with contextlib.suppress(BaseException):
            loop.run_until_complete(verifier.close())
        loop.close()
