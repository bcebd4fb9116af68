"""The cache under concurrent corrupt opens, read-only and locked files; device files given as sources."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citemark.engine import Engine
from citemark.sources.cache import SourceCache
from citemark.types import Document
from tests.conftest import Reply

PROCESSES = 20
ROUNDS = 20
PAGE = ("<html><body><article><p>The Danube flows for 2,850 kilometres.</p><p>It empties into the Black Sea.</p>"
        "</article></body></html>")


def _open_and_write(path: str, index: int, results) -> None:  # noqa: ANN001 - a multiprocessing queue
    cache = SourceCache(Path(path))
    url = f"https://writer.example/{index}"
    written = cache.put(url, Document(url=url, text=f"entry {index} " * 20))
    results.put((index, written, cache.available))
    cache.close()


@pytest.mark.parametrize("round_number", range(ROUNDS))
def test_twenty_processes_opening_a_corrupt_cache_lose_no_acknowledged_write(tmp_path, round_number):
    path = tmp_path / "sources.sqlite3"
    path.write_bytes(b"this is not a database " * 400)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [context.Process(target=_open_and_write, args=(str(path), i, results)) for i in range(PROCESSES)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0, "SourceCache() must never raise"
    outcomes = [results.get(timeout=5) for _ in workers]
    acknowledged = [index for index, written, _ in outcomes if written]
    assert len(acknowledged) == PROCESSES  # every process got a working cache
    survivor = SourceCache(path)
    for index in acknowledged:
        assert survivor.get(f"https://writer.example/{index}") is not None, f"write {index} lost"
    aside = list(tmp_path.glob("sources.sqlite3.corrupt-*"))
    assert len([p for p in aside if not p.name.endswith(("-wal", "-shm"))]) == 1  # moved aside once, kept
    assert aside[0].read_bytes().startswith(b"this is not a database")


def test_a_locked_database_at_open_is_not_treated_as_corrupt(tmp_path):
    path = tmp_path / "sources.sqlite3"
    first = SourceCache(path)
    assert first.put("https://a.example/", Document(url="https://a.example/", text="kept " * 20))
    first.close()
    blocker = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    blocker.execute("PRAGMA locking_mode=EXCLUSIVE")
    blocker.execute("BEGIN EXCLUSIVE")
    started = time.monotonic()
    locked = SourceCache(path)  # waits for the busy timeout, then goes on without a cache
    assert time.monotonic() - started < 20
    blocker.rollback()
    blocker.close()
    assert not list(tmp_path.glob("*.corrupt-*"))
    locked.close()
    assert SourceCache(path).get("https://a.example/") is not None


def _verify_with_a_read_only_cache(cache_dir: str, scratch: str, url: str, results) -> None:  # noqa: ANN001
    import asyncio

    from citemark.settings import Settings

    async def run(folder: str) -> tuple[str, bool]:
        settings = Settings(cache_dir=Path(folder), state_dir=Path(folder), data_dir=Path(folder),
                            allow_private_network=True, model="none", retries=0)
        async with Engine(settings) as engine:
            report = await engine.report(f"The Danube flows for 2,850 kilometres [1].\n\n[1]: {url}\n", fmt="markdown")
            return report.verdicts[0].label.value, engine.cache is not None and engine.cache.available

    if os.geteuid() == 0:
        # Root ignores permissions: become nobody so the folder really is read-only. A first
        # run imports every module while the interpreter's files are still readable.
        asyncio.run(run(scratch))
        os.setgid(65534)
        os.setuid(65534)
    results.put(asyncio.run(run(cache_dir)))


def test_a_read_only_cache_folder_leaves_verification_working(tmp_path, server):
    server.routes["/danube"] = Reply(PAGE)
    cache_dir = tmp_path / "ro"
    cache_dir.mkdir()
    SourceCache(cache_dir / "sources.sqlite3").close()
    tmp_path.chmod(0o755)
    cache_dir.chmod(0o555)
    for item in cache_dir.iterdir():
        item.chmod(0o444)
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    worker = context.Process(target=_verify_with_a_read_only_cache, args=(str(cache_dir), str(tmp_path / "scratch"), server.url("/danube"), results))
    worker.start()
    worker.join(60)
    assert worker.exitcode == 0
    label, _cache_on = results.get(timeout=5)
    assert label == "supported"


def cli(*args: str, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess:
    env = {**os.environ, "CITEMARK_MODEL": "none", "HOME": str(cwd), "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "citemark.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)


def test_a_fifo_source_is_refused_and_the_cli_exits(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    result = cli("verify", "--claim", "The pipe says something", "--source", str(fifo), "--json", cwd=tmp_path)
    assert time.monotonic() - started < 25
    assert "Traceback" not in result.stderr
    assert "not a regular file" in result.stdout


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_file_is_refused_without_a_traceback(tmp_path, device):
    result = cli("verify", "--claim", "The device says something", "--source", device, "--json", cwd=tmp_path)
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert "not a regular file" in result.stdout
