"""``citemark batch --ray``: the same batch pipeline on a Ray cluster, when one machine is not enough.

The driver (this process) reads the input, skips what is done and writes every result,
exactly as a local run does. The work goes to ``Verifier`` actors: each is an async
actor holding one engine (one loaded model, one fetcher with its politeness limits,
one cache client and the batch's source memory), fed shards of answers from a queue
that keeps every actor two shards ahead. An actor verifies a shard with the same
``verify_batch`` a local run uses, so the records are the same for the same input.

Sources are deduplicated per actor (``BatchSources``) and per node (actors on one
machine share its SQLite source cache), not across nodes: sharing documents between
machines would cost more than fetching a page again.

Ray is an optional extra (``pip install 'citemark[ray]'``), imported only here; every
worker needs the citemark wheel (with its model pack) installed in its Python, and any
local files the answers cite at the same path.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from citemark.batch import DEFAULT_CONCURRENCY, BadLine, BatchItem, RemoteRunner, engine_slot, verify_batch
from citemark.errors import InputError
from citemark.settings import Settings
from citemark.sources.loader import LocalFilePolicy

__all__ = ["Verifier", "on_ray", "verify_on_ray"]

log = logging.getLogger(__name__)

#: Answers sent to an actor at a time: large enough to amortise a round trip, small enough to lose little.
SHARD_SIZE = 16
#: CPUs an actor asks for: onnxruntime runs a model on up to four threads.
CPUS_PER_ACTOR = 4


class Verifier:
    """One engine on one worker; ``verify`` takes a shard of items and returns their records."""

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

    async def _engine_ready(self) -> Any:
        engine = await self._slot.get()
        if not self._warm:
            self._warm = True
            engine.warm_up()
        return engine


def on_ray(address: str, *, actors: int | None = None) -> RemoteRunner:
    """The runner ``run_batch(remote=...)`` hands its items to: ``verify_on_ray`` on the cluster at ``address``."""
    return functools.partial(verify_on_ray, address=address, actors=actors)


def verify_on_ray(
    items: Iterable[BatchItem | BadLine],
    *,
    address: str,
    settings: Settings,
    actors: int | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    local_files: LocalFilePolicy = LocalFilePolicy(),
    paths_relative_to: Path | None = None,
    shared_cache: bool = True,
    shard_size: int = SHARD_SIZE,
) -> Iterator[dict[str, Any]]:
    """Records for ``items``, verified by actors on the Ray cluster at ``address``, in the order shards finish.

    ``address``: ``auto`` (the cluster this machine belongs to), ``ray://HOST:10001``,
    ``HOST:6379``, or ``local`` (start a cluster in this process). If Ray is already
    initialised (a notebook, a test), that connection is used. ``shared_cache=False``
    gives each actor a temporary source cache. A shard whose actor dies is not written,
    so running the batch again verifies it.
    """
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=None if address == "local" else address, log_to_driver=False)
    try:
        pool = _start_actors(ray, settings, actors, [concurrency, local_files, paths_relative_to, shared_cache])
        yield from _feed(ray, pool, items, shard_size)
    finally:
        if started_here:
            ray.shutdown()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise InputError("--ray needs Ray: pip install 'citemark[ray]'") from None
    return ray


def _start_actors(ray: Any, settings: Settings, actors: int | None, options: list[Any]) -> list[Any]:
    cpus = int(ray.cluster_resources().get("CPU", 1))
    per_actor = min(CPUS_PER_ACTOR, cpus)
    count = actors or max(1, cpus // per_actor)
    if actors:
        per_actor = max(1, min(per_actor, cpus // actors))
    remote = ray.remote(num_cpus=per_actor)(Verifier)
    pool = [remote.remote(settings, *options) for _ in range(count)]
    models = set(ray.get([actor.ready.remote() for actor in pool]))
    if len(models) > 1:
        raise InputError(f"the Ray workers judge with different models ({', '.join(sorted(models))}); "
                         "install the same citemark wheel on every worker")
    log.info("ray: %d actors of %d CPUs, model %s", count, per_actor, next(iter(models)))
    return pool


def _feed(ray: Any, pool: list[Any], items: Iterable[BatchItem | BadLine], shard_size: int) -> Iterator[dict[str, Any]]:
    """Keep every actor two shards ahead; yield bad lines at once and each shard's records as it returns."""
    source = iter(items)
    idle = [actor for actor in pool for _ in range(2)]
    running: dict[Any, tuple[Any, int]] = {}  # result ref → (actor, answers in the shard)
    exhausted = False
    while running or not exhausted:
        while idle and not exhausted:
            shard: list[BatchItem] = []
            for item in source:
                if isinstance(item, BadLine):
                    yield item.to_record()
                    continue
                shard.append(item)
                if len(shard) >= shard_size:
                    break
            else:
                exhausted = True
            if shard:
                actor = idle.pop()
                running[actor.verify.remote(shard)] = (actor, len(shard))
        if not running:
            continue
        (ref,), _ = ray.wait(list(running), num_returns=1)
        actor, size = running.pop(ref)
        try:
            records = ray.get(ref)
        except ray.exceptions.RayError as error:
            log.warning("ray: a shard of %d answers was lost (%s); run the batch again to verify them", size,
                        type(error).__name__)
            if isinstance(error, ray.exceptions.RayActorError):
                pool[:] = [alive for alive in pool if alive is not actor]
                idle = [alive for alive in idle if alive is not actor]
                if not pool:
                    raise InputError("every Ray worker has died; see the Ray dashboard for why") from None
                continue
            idle.append(actor)
            continue
        idle.append(actor)
        yield from records
