"""The three scholarly clients over one shared, paced, cached HTTP client."""

from __future__ import annotations

from pathlib import Path

import httpx

from citemark.scholarly.arxiv import ArxivClient
from citemark.scholarly.cache import RecordCache
from citemark.scholarly.crossref import CrossrefClient
from citemark.scholarly.openalex import OpenAlexClient
from citemark.scholarly.service import ScholarlyHTTP
from citemark.settings import Settings

__all__ = ["Services"]


class Services:
    """Crossref, arXiv and OpenAlex; one per engine or ``refs`` run. ``cache=False`` reads and writes no cache;
    ``cache_path``: the database the records are kept in (default: the source cache's, in ``cache_dir``)."""

    def __init__(self, settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None,
                 cache: bool = True, cache_path: Path | None = None) -> None:
        path = cache_path or settings.cache_dir / "sources.sqlite3"
        records = RecordCache(path, ttl=settings.scholarly_ttl) if cache else None
        self.http = ScholarlyHTTP(settings, transport=transport, cache=records)
        self.crossref = CrossrefClient(self.http)
        self.arxiv = ArxivClient(self.http)
        self.openalex = OpenAlexClient(self.http)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> Services:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
