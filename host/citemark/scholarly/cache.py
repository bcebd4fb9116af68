"""Scholarly API answers kept in SQLite, beside the source cache (its own table, its own connection).

A record found is kept ``scholarly_ttl`` (a month: metadata changes slowly, but a
retraction may arrive, so it is not kept for ever); a "not found" is kept one day,
since a DOI may be registered after it was first cited. Failures are never
cached. Like the source cache, this one is an optimisation: an unusable database
is logged and lookups go on without it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

__all__ = ["RecordCache"]

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS scholarly_records (
    url TEXT PRIMARY KEY,
    fetched_at REAL NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL
);
"""
NOT_FOUND_TTL = 24 * 3600.0


class RecordCache:
    """``get(url) -> (status, body) | None``, ``put(url, status, body)``; synchronous and thread-safe."""

    def __init__(self, path: Path, *, ttl: float) -> None:
        self.ttl = ttl
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=5.0, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as error:
            log.warning("scholarly record cache disabled: %s", error)
            self._db = None

    def get(self, url: str, now: float | None = None) -> tuple[int, bytes] | None:
        rows = self._run("SELECT fetched_at, status, body FROM scholarly_records WHERE url = ?", (url,))
        if not rows:
            return None
        fetched_at, status, body = rows[0]
        ttl = self.ttl if status == 200 else NOT_FOUND_TTL
        if (now or time.time()) - fetched_at >= ttl:
            return None
        return status, bytes(body)

    def put(self, url: str, status: int, body: bytes) -> None:
        self._run("INSERT OR REPLACE INTO scholarly_records (url, fetched_at, status, body) VALUES (?, ?, ?, ?)",
                  (url, time.time(), status, body))

    def clear(self) -> None:
        self._run("DELETE FROM scholarly_records", ())

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
                log.warning("scholarly record cache: %s", error)
                return []
