"""From a citation to a readable ``Document``: resolve → cache → fetch → extract.

Concurrent requests for one source share a single load, so a page cited by
five claims (or by two browser tabs) is fetched and extracted once.
Local files are read only where the caller's ``LocalFilePolicy`` allows: the
CLI reads the paths its user typed, MCP reads under an allow-list, the
browser host reads none.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from citemark.errors import ExtractionError, SourceTooLarge, SourceUnreachable
from citemark.settings import Settings
from citemark.sources.cache import SourceCache
from citemark.sources.extract import MIN_TEXT_CHARS, extract
from citemark.sources.fetch import Fetcher
from citemark.sources.localfiles import LocalFilePolicy
from citemark.sources.resolve import resolve_reference
from citemark.types import Citation, Document

__all__ = ["LocalFilePolicy", "SourceLoader"]


class SourceLoader:
    def __init__(self, settings: Settings, fetcher: Fetcher, cache: SourceCache | None) -> None:
        self.settings = settings
        self.fetcher = fetcher
        self.cache = cache
        self._inflight: dict[str, asyncio.Task[Document]] = {}

    async def load(self, citation: Citation, local_files: LocalFilePolicy = LocalFilePolicy()) -> Document:
        """The citation's source as text; raises a SourceError subclass when it cannot be read."""
        if citation.text is not None:
            return Document(url="", text=citation.text, title=citation.title, kind="text")
        if citation.path is not None:
            path = local_files.check(citation.path)
            return await asyncio.to_thread(self._read_file, path)
        url = resolve_reference(citation.url or "")
        task = self._inflight.get(url)
        if task is None:
            task = asyncio.ensure_future(self._load_url(url))
            self._inflight[url] = task
            task.add_done_callback(lambda _: self._inflight.pop(url, None))
        return await asyncio.shield(task)

    async def _load_url(self, url: str) -> Document:
        cached = await asyncio.to_thread(self.cache.get, url) if self.cache else None
        if cached and cached.is_fresh(self.settings.cache_ttl):
            return cached.document
        result = await self.fetcher.fetch(
            url,
            etag=cached.etag if cached else None,
            last_modified=cached.last_modified if cached else None,
        )
        if result.status == 304 and cached:
            await asyncio.to_thread(self.cache.touch, url)
            return cached.document
        document = await asyncio.wait_for(
            asyncio.to_thread(
                extract,
                result.body,
                url=result.final_url,
                content_type=result.content_type,
                extractor=self.settings.html_extractor,
                max_chars=self.settings.max_text_chars,
                max_pdf_pages=self.settings.max_pdf_pages,
                time_budget=self.settings.source_deadline,
            ),
            self.settings.source_deadline + 5,
        )
        document = _with_request_url(document, url, result.final_url)
        if self.cache and len(document.text) >= MIN_TEXT_CHARS:
            await asyncio.to_thread(
                self.cache.put, url, document, body=result.body, content_type=result.content_type,
                etag=result.etag, last_modified=result.last_modified,
            )
        return document

    def _read_file(self, path: Path) -> Document:
        try:
            size = path.stat().st_size
            if size > self.settings.max_body_bytes:
                raise SourceTooLarge(f"{path.name} is {size:,} bytes, over the {self.settings.max_body_bytes:,}-byte limit")
            body = path.read_bytes()
        except FileNotFoundError:
            raise SourceUnreachable(f"file not found: {path}") from None
        except IsADirectoryError:
            raise SourceUnreachable(f"{path} is a directory") from None
        except PermissionError:
            raise SourceUnreachable(f"permission denied: {path}") from None
        content_type = {
            ".pdf": "application/pdf", ".html": "text/html", ".htm": "text/html",
            ".txt": "text/plain", ".md": "text/plain",
        }.get(path.suffix.lower()) or _sniff(body)
        try:
            return extract(
                body, url=path.as_uri(), content_type=content_type,
                max_chars=self.settings.max_text_chars, max_pdf_pages=self.settings.max_pdf_pages,
            )
        except ExtractionError:
            raise
        except UnicodeDecodeError as error:
            raise ExtractionError(f"{path.name}: {error}") from None


def _sniff(body: bytes) -> str:
    """The type of a local file without a known suffix ("README"): PDF, HTML, or plain text."""
    head = body[:512].lstrip().lower()
    if head.startswith(b"%pdf"):
        return "application/pdf"
    return "text/html" if head.startswith((b"<!doctype html", b"<html")) else "text/plain"


def _with_request_url(document: Document, url: str, final_url: str) -> Document:
    from dataclasses import replace

    return replace(document, url=url, final_url=final_url if final_url != url else None)
