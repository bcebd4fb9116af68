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

A cluster citemark starts itself (``--ray local``, ``local_cluster``) stays on this
machine and leaves nothing behind: its servers listen on 127.0.0.1 only, and its session
files, logs and the auth token Ray makes for a new cluster live in one temporary folder
that is removed when the run ends, not under ``/tmp/ray`` or the user's home.

Ray is an optional extra (``pip install 'citemark[ray]'``), imported only here; every
worker needs the citemark wheel (with its model pack) installed in its Python, and any
local files the answers cite at the same path.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import secrets
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from citemark.batch import DEFAULT_CONCURRENCY, BadLine, BatchItem, RemoteRunner, Unfinished, Verifier, take_shard
from citemark.errors import InputError
from citemark.settings import Settings
from citemark.sources.loader import LocalFilePolicy

__all__ = ["local_cluster", "on_ray", "verify_on_ray"]

log = logging.getLogger(__name__)

#: Answers sent to an actor at a time: large enough to amortise a round trip, small enough to lose little.
SHARD_SIZE = 16
#: CPUs an actor asks for: onnxruntime runs a model on up to four threads.
CPUS_PER_ACTOR = 4
#: Seconds the actors get to close their engines at the end of a run.
CLOSE_TIMEOUT = 10
#: Read by Ray when it is imported; "0" makes a cluster it starts take 127.0.0.1 as its node address, the only
#: address on which Ray's servers listen on loopback alone (with any other, even 127.0.0.2, they listen on
#: every interface). Meant for Windows and macOS, relied on here as Ray 2.60 behaves;
#: tests/integration/test_batch_ray.py checks the sockets.
_LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
#: Ray's Unix sockets live in its session folder (``ROOT/citemark-ray-XXXXXXXX/session_DATE_PID/sockets/
#: plasma_store``), and a socket's path holds at most 107 bytes: the temporary folder's root gets what is left.
_LONGEST_TEMP_ROOT = 20


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
    with contextlib.ExitStack() as cluster:
        if not ray.is_initialized():
            cluster.enter_context(local_cluster() if address == "local" else _connected(ray, address))
        pool = _start_actors(ray, settings, actors, [concurrency, local_files, paths_relative_to, shared_cache])
        try:
            yield from _feed(ray, pool, items, shard_size)
        finally:
            _close(ray, pool)


@contextlib.contextmanager
def local_cluster(*, num_cpus: int | None = None) -> Iterator[None]:
    """A Ray cluster started on this machine for one run, and confined to it.

    Every Ray process listens on 127.0.0.1 only (no dashboard); Ray's session folder
    (sockets, logs, spilled objects) and the token Ray's authentication needs are in one
    temporary folder, removed with the cluster. The environment variables this sets for
    Ray's processes are restored afterwards.
    """
    folder = Path(tempfile.mkdtemp(prefix="citemark-ray-", dir=_temp_root()))  # 0700: only this user reads it
    token = folder / "auth_token"
    token.write_text(secrets.token_hex(32), encoding="ascii")
    # Without a token path Ray writes a new token to ~/.ray/auth_token and keeps it there.
    confined = {_LOOPBACK_ONLY: "0", "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
    saved = {name: os.environ.get(name) for name in confined}
    os.environ.update(confined)  # before Ray is imported, and inherited by every process it starts
    try:
        ray = _import_ray()
        try:
            with _confined_settings_read(), _sigterm_kept():
                ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                         _node_ip_address="127.0.0.1", _temp_dir=str(folder))
            yield
        finally:
            ray.shutdown()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(folder, ignore_errors=True)


def _temp_root() -> str | None:
    """The system's temporary folder, or ``/tmp`` where that one's path is too long for Ray's sockets (macOS)."""
    root = tempfile.gettempdir()
    return root if len(root) <= _LONGEST_TEMP_ROOT or not os.path.isdir("/tmp") else "/tmp"


@contextlib.contextmanager
def _confined_settings_read() -> Iterator[None]:
    """Make a Ray imported before ``local_cluster`` set its variables read them: Ray keeps the
    loopback switch in a constant, and the authentication mode and token in caches of its own."""
    from ray._private import ray_constants

    with contextlib.suppress(ImportError):  # a Ray without token authentication
        from ray._raylet import AuthenticationTokenLoader, Config

        Config.initialize("")  # as Ray's own ray.init does after it turns token mode on
        AuthenticationTokenLoader.instance().reset_cache()
    kept = ray_constants.ENABLE_RAY_CLUSTER
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = kept


@contextlib.contextmanager
def _sigterm_kept() -> Iterator[None]:
    """The caller's SIGTERM handler back after ``ray.init``, which installs its own (the core worker's ends
    the process there and then): ``citemark batch`` stops as after Ctrl-C, and the folder above is removed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, kept)


@contextlib.contextmanager
def _connected(ray: Any, address: str) -> Iterator[None]:
    """This process attached to the cluster at ``address`` for one run."""
    with _sigterm_kept():
        ray.init(address=address, log_to_driver=False)
    try:
        yield
    finally:
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


def _close(ray: Any, pool: list[Any]) -> None:
    with contextlib.suppress(ray.exceptions.RayError):  # a dead actor has nothing left to close
        ray.get([actor.close.remote() for actor in pool], timeout=CLOSE_TIMEOUT)


def _feed(ray: Any, pool: list[Any], items: Iterable[BatchItem | BadLine], shard_size: int) -> Iterator[dict[str, Any]]:
    """Keep every actor two shards ahead; yield bad lines at once and each shard's records as it returns."""
    source = iter(items)
    idle = [actor for actor in pool for _ in range(2)]
    running: dict[Any, tuple[Any, int]] = {}  # result ref → (actor, answers in the shard)
    exhausted, lost = False, 0
    while running or not exhausted:
        while idle and not exhausted:
            bad, shard, exhausted = take_shard(source, shard_size)
            yield from bad
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
            lost += size
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
    if lost:
        raise Unfinished(lost)
