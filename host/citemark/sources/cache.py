"""The source cache: fetched bodies and extracted text in SQLite, shared by every citemark process.

Keyed by the normalised URL (``resolve.normalise_url``). WAL mode and a busy
timeout make it safe for a browser host, an MCP server and a CLI run at once.
Entries older than the TTL are revalidated with ETag / Last-Modified instead of
refetched. The cache is an optimisation, never a point of failure: a locked,
full, read-only or corrupt database is logged and verification goes on without
it. Only a file SQLite calls corrupt ("not a database", "malformed") is moved
aside, never deleted, and a fresh one started; a locked or read-only file is
left as it is. Opening and recovery are serialised across processes by a lock
file, so twenty processes opening one corrupt file move it aside once and no
acknowledged write (``put`` returned True) is lost. Each entry records the
``FetchScope`` it was fetched under (``sources.scope``); ``put`` keeps the file
under ``max_bytes`` by dropping the least recently fetched entries.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock
from filelock import Timeout as LockTimeout

from citemark.sources.scope import FetchScope
from citemark.types import Document

__all__ = ["CachedSource", "SourceCache"]

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sources (
    url TEXT PRIMARY KEY,
    fetched_at REAL NOT NULL,
    etag TEXT,
    last_modified TEXT,
    content_type TEXT,
    body BLOB,
    document TEXT NOT NULL,
    size INTEGER NOT NULL,
    scope TEXT
);
CREATE INDEX IF NOT EXISTS sources_fetched_at ON sources(fetched_at);
"""
#: Bump when extraction changes so that old extracted text is not reused.
EXTRACTION_VERSION = 1
_CORRUPT = ("not a database", "malformed", "encrypted")


@dataclass(frozen=True, slots=True)
class CachedSource:
    document: Document
    fetched_at: float
    etag: str | None
    last_modified: str | None
    scope: FetchScope | None = None  # None: recorded before scopes were; served to no one

    def is_fresh(self, ttl: float, now: float | None = None) -> bool:
        return (now or time.time()) - self.fetched_at < ttl


class SourceCache:
    """One SQLite file; methods are synchronous and thread-safe (call them off the event loop)."""

    def __init__(self, path: Path, *, max_bytes: int = 500_000_000) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._bytes = 0
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._open()

    @classmethod
    def temporary(cls) -> SourceCache:
        """A cache in a folder of its own, deleted on ``close``: a batch told to keep no cache still
        fetches each source once."""
        scratch = tempfile.TemporaryDirectory(prefix="citemark-batch-")
        cache = cls(Path(scratch.name) / "sources.sqlite3")
        cache._scratch = scratch
        return cache

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(self.path) + ".lock", timeout=30)
            with lock:
                self._db = self._connect_or_recover()
        except LockTimeout:
            log.warning("source cache disabled: %s.lock is held by another process", self.path)
        except (OSError, sqlite3.Error) as error:  # read-only folder or file, locked, full disk
            log.warning("source cache disabled: %s", error)
        if self._db is not None:
            self._bytes = self._total_bytes()

    def _connect_or_recover(self) -> sqlite3.Connection:
        """Runs under the lock file: another process cannot be moving the file meanwhile."""
        try:
            return self._connect()
        except sqlite3.DatabaseError as error:
            if not self.path.exists() or not any(mark in str(error) for mark in _CORRUPT):
                raise
            aside = self.path.with_name(f"{self.path.name}.corrupt-{time.time_ns()}-{os.getpid()}")
            log.warning("source cache %s is unreadable (%s); moved to %s", self.path, error, aside)
            self.path.rename(aside)
            for suffix in ("-wal", "-shm"):  # a journal of the corrupt file must not replay into the new one
                journal = self.path.with_name(self.path.name + suffix)
                if journal.exists():
                    journal.rename(aside.with_name(aside.name + suffix))
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=5.0, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=5000")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(sources)")}
            if "scope" not in columns:  # a cache written by citemark 0.1
                db.execute("ALTER TABLE sources ADD COLUMN scope TEXT")
            db.execute("SELECT count(*) FROM sources").fetchone()  # fails fast on a corrupt file
        except BaseException:
            db.close()
            raise
        return db

    @property
    def available(self) -> bool:
        return self._db is not None

    def get(self, url: str) -> CachedSource | None:
        row = self._run("SELECT fetched_at, etag, last_modified, document, scope FROM sources WHERE url = ?", (url,))
        if not row:
            return None
        fetched_at, etag, last_modified, raw, scope = row[0]
        try:
            data = json.loads(raw)
            if data.pop("extraction_version", None) != EXTRACTION_VERSION:
                return None
            data["page_starts"] = tuple(data.get("page_starts", ()))
            document = Document(**{**data, "from_cache": True})
        except (ValueError, TypeError) as error:  # a row another version or a disk error garbled
            log.warning("source cache: unreadable entry for %s (%s)", url, error)
            return None
        return CachedSource(document, fetched_at, etag, last_modified, FetchScope.from_json(scope))

    def put(
        self, url: str, document: Document, *, body: bytes = b"", content_type: str = "",
        etag: str | None = None, last_modified: str | None = None, scope: FetchScope = FetchScope(),
    ) -> bool:
        """Store an entry; True once it is written (False: the cache is unavailable or failing)."""
        fields = {name: getattr(document, name) for name in Document.__dataclass_fields__}
        fields.pop("from_cache")
        fields["page_starts"] = list(document.page_starts)
        fields["extraction_version"] = EXTRACTION_VERSION
        raw = json.dumps(fields, ensure_ascii=False)
        packed = zlib.compress(body, 6) if body else None
        size = len(raw) + len(packed or b"")
        written = self._write(
            "INSERT OR REPLACE INTO sources (url, fetched_at, etag, last_modified, content_type, body, document, size,"
            " scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (url, time.time(), etag, last_modified, content_type, packed, raw, size, scope.to_json()),
        )
        if written:
            self._bytes += size
            if self._bytes > self.max_bytes:
                self.prune()
        return written

    def touch(self, url: str) -> None:
        """Mark an entry fresh again (the server answered 304 Not Modified)."""
        self._run("UPDATE sources SET fetched_at = ? WHERE url = ?", (time.time(), url))

    def body(self, url: str) -> bytes | None:
        row = self._run("SELECT body FROM sources WHERE url = ?", (url,))
        return zlib.decompress(row[0][0]) if row and row[0][0] else None

    def stats(self) -> dict[str, object]:
        row = self._run("SELECT count(*), coalesce(sum(size), 0) FROM sources", ())
        entries, size = row[0] if row else (0, 0)
        return {"path": str(self.path), "available": self.available, "entries": entries, "bytes": size}

    def prune(self) -> int:
        """Drop the oldest entries until the cache is under ``max_bytes``; returns rows removed."""
        total = self._total_bytes()
        removed = 0
        while total > self.max_bytes:
            oldest = self._run("SELECT url, size FROM sources ORDER BY fetched_at LIMIT 100", ())
            if not oldest:
                break
            for url, size in oldest:
                self._run("DELETE FROM sources WHERE url = ?", (url,))
                total -= size
                removed += 1
                if total <= self.max_bytes:
                    break
        self._bytes = total
        return removed

    def _total_bytes(self) -> int:
        row = self._run("SELECT coalesce(sum(size), 0) FROM sources", ())
        return int(row[0][0]) if row else 0

    def clear(self) -> None:
        self._run("DELETE FROM sources", ())

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
            if self._scratch is not None:
                self._scratch.cleanup()
                self._scratch = None

    def _write(self, sql: str, params: tuple) -> bool:
        if self._db is None:
            return False
        with self._lock:
            try:
                self._db.execute(sql, params)
                return True
            except sqlite3.Error as error:
                log.warning("source cache: %s (%s)", error, sql.split()[0])
                return False

    def _run(self, sql: str, params: tuple) -> list[tuple]:
        if self._db is None:
            return []
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                log.warning("source cache: %s (%s)", error, sql.split()[0])
                return []
