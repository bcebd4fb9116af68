"""The SQLite source cache: revalidation over real HTTP, several processes at once, corruption."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from pathlib import Path

from citemark.sources.cache import SourceCache
from citemark.sources.fetch import Fetcher
from citemark.sources.loader import SourceLoader
from citemark.types import Citation, Document
from tests.conftest import Reply

PAGE = "<html><body><article><p>The cached page says the river is 120 km long.</p></article></body></html>"


def test_put_get_roundtrip_keeps_the_document(tmp_path):
    cache = SourceCache(tmp_path / "c.sqlite3")
    document = Document(url="https://a.example/x", text="Some text.", title="T", kind="pdf", page_starts=(0, 5))
    cache.put("https://a.example/x", document, body=b"raw", etag='"v1"')
    cached = cache.get("https://a.example/x")
    assert cached.document.text == "Some text." and cached.document.page_starts == (0, 5)
    assert cached.document.from_cache and cached.etag == '"v1"'
    assert cache.body("https://a.example/x") == b"raw"
    assert cache.stats()["entries"] == 1


async def test_stale_entries_are_revalidated_with_etag(server, settings):
    hits = []

    def page(handler):
        hits.append(handler.headers.get("If-None-Match"))
        if handler.headers.get("If-None-Match") == '"v1"':
            return Reply(status=304, headers={"ETag": '"v1"'})
        return Reply(PAGE, headers={"Content-Type": "text/html", "ETag": '"v1"'})

    server.routes["/page"] = page
    cache = SourceCache(settings.cache_dir / "s.sqlite3")
    fetcher = Fetcher(settings)
    loader = SourceLoader(settings.with_(cache_ttl=0.0), fetcher, cache)
    try:
        first = await loader.load(Citation(url=server.url("/page")))
        second = await loader.load(Citation(url=server.url("/page")))
    finally:
        await fetcher.aclose()
    assert hits == [None, '"v1"']
    assert "120 km" in first.text and second.text == first.text and second.from_cache


async def test_fresh_entries_are_not_refetched_and_tracking_variants_share_one_entry(server, settings):
    server.routes["/page"] = Reply(PAGE)
    cache = SourceCache(settings.cache_dir / "s.sqlite3")
    fetcher = Fetcher(settings)
    loader = SourceLoader(settings, fetcher, cache)
    try:
        await loader.load(Citation(url=server.url("/page?utm_source=chatgpt.com")))
        await loader.load(Citation(url=server.url("/page")))
    finally:
        await fetcher.aclose()
    assert [path for path, _ in server.requests if path != "/robots.txt"] == ["/page"]


def _writer(path: str, worker: int) -> None:
    cache = SourceCache(Path(path))
    for index in range(40):
        cache.put(f"https://w{worker}.example/{index}", Document(url="u", text=f"text {worker} {index}" * 50))
        cache.get(f"https://w{(worker + 1) % 4}.example/{index}")


def test_several_processes_share_the_cache_safely(tmp_path):
    path = tmp_path / "shared.sqlite3"
    SourceCache(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(path), n)) for n in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert SourceCache(path).stats()["entries"] == 160


def test_a_corrupt_file_is_moved_aside_and_a_fresh_cache_started(tmp_path):
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    cache = SourceCache(path)
    assert cache.available
    cache.put("https://a.example/", Document(url="u", text="ok text"))
    assert cache.get("https://a.example/") is not None
    assert list(tmp_path.glob("c.sqlite3.corrupt-*"))  # the old file is kept for inspection


def test_a_locked_database_degrades_to_no_cache_not_to_an_error(tmp_path):
    path = tmp_path / "c.sqlite3"
    cache = SourceCache(path)
    blocker = sqlite3.connect(path, timeout=0.1)
    blocker.execute("BEGIN EXCLUSIVE")
    started = time.monotonic()
    cache._db.execute("PRAGMA busy_timeout=200")
    cache.put("https://a.example/", Document(url="u", text="x"))  # logged, not raised
    assert time.monotonic() - started < 5
    blocker.rollback()
    blocker.close()


def test_writing_keeps_the_cache_under_its_size(tmp_path):
    cache = SourceCache(tmp_path / "c.sqlite3", max_bytes=20_000)
    for index in range(20):
        assert cache.put(f"https://a.example/{index}", Document(url="u", text="y" * 2000))
    assert cache.stats()["bytes"] <= 20_000  # put pruned the least recently fetched
    assert cache.get("https://a.example/0") is None
    assert cache.get("https://a.example/19") is not None  # the newest survive
