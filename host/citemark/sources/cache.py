"""The source cache: fetched bodies and extracted text in SQLite, shared by every citemark process.

Keyed by the normalised URL (``resolve.normalise_url``). WAL mode and a busy
timeout make it safe for a browser host, an MCP server and a CLI run at once.
Entries older than the TTL are revalidated with ETag / Last-Modified instead of
refetched. The cache is an optimisation, never a point of failure: a locked,
full or corrupt database is logged and verification goes on without it (a
corrupt file is moved aside, never deleted, and a fresh one started).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

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
    size INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sources_fetched_at ON sources(fetched_at);
"""
#: Bump when extraction changes so that old extracted text is not reused.
EXTRACTION_VERSION = 1


@dataclass(frozen=True, slots=True)
class CachedSource:
    document: Document
    fetched_at: float
    etag: str | None
    last_modified: str | None

    def is_fresh(self, ttl: float, now: float | None = None) -> bool:
        return (now or time.time()) - self.fetched_at < ttl


class SourceCache:
    """One SQLite file; methods are synchronous and thread-safe (call them off the event loop)."""

    def __init__(self, path: Path, *, max_bytes: int = 500_000_000) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._open()

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
        except sqlite3.DatabaseError as error:
            if not self.path.exists():
                log.warning("source cache disabled: %s", error)
                return
            aside = self.path.with_suffix(f".corrupt-{int(time.time())}")
            log.warning("source cache %s is unreadable (%s); moved to %s", self.path, error, aside)
            self.path.rename(aside)
            try:
                self._db = self._connect()
            except sqlite3.DatabaseError as again:
                log.warning("source cache disabled: %s", again)
        except OSError as error:
            log.warning("source cache disabled: %s", error)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=5.0, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(_SCHEMA)
        db.execute("SELECT count(*) FROM sources").fetchone()  # fails fast on a corrupt file
        return db

    @property
    def available(self) -> bool:
        return self._db is not None

    def get(self, url: str) -> CachedSource | None:
        row = self._run("SELECT fetched_at, etag, last_modified, document FROM sources WHERE url = ?", (url,))
        if not row:
            return None
        fetched_at, etag, last_modified, raw = row[0]
        data = json.loads(raw)
        if data.pop("extraction_version", None) != EXTRACTION_VERSION:
            return None
        data["page_starts"] = tuple(data.get("page_starts", ()))
        document = Document(**{**data, "from_cache": True})
        return CachedSource(document, fetched_at, etag, last_modified)

    def put(
        self, url: str, document: Document, *, body: bytes = b"", content_type: str = "",
        etag: str | None = None, last_modified: str | None = None,
    ) -> None:
        fields = {name: getattr(document, name) for name in Document.__dataclass_fields__}
        fields.pop("from_cache")
        fields["page_starts"] = list(document.page_starts)
        fields["extraction_version"] = EXTRACTION_VERSION
        raw = json.dumps(fields, ensure_ascii=False)
        packed = zlib.compress(body, 6) if body else None
        size = len(raw) + len(packed or b"")
        self._run(
            "INSERT OR REPLACE INTO sources (url, fetched_at, etag, last_modified, content_type, body, document, size)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (url, time.time(), etag, last_modified, content_type, packed, raw, size),
        )

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
        row = self._run("SELECT coalesce(sum(size), 0) FROM sources", ())
        total = row[0][0] if row else 0
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
        return removed

    def clear(self) -> None:
        self._run("DELETE FROM sources", ())

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _run(self, sql: str, params: tuple) -> list[tuple]:
        if self._db is None:
            return []
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                log.warning("source cache: %s (%s)", error, sql.split()[0])
                return []
