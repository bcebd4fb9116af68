"""From a citation to a readable ``Document``: resolve → cache → fetch → extract.

Concurrent requests for one source share a single load, so a page cited by
five claims (or by two browser tabs) is fetched and extracted once.
Local files are read only where the caller's ``LocalFilePolicy`` allows: the
CLI reads the paths its user typed, MCP reads under an allow-list, the
browser host reads none.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from citemark.errors import ExtractionError, MalformedURL, SourceTooLarge, SourceUnreachable
from citemark.settings import Settings
from citemark.sources.cache import CachedSource, SourceCache
from citemark.sources.extract import MIN_TEXT_CHARS, extract
from citemark.sources.fetch import Fetcher
from citemark.sources.localfiles import LocalFilePolicy
from citemark.sources.resolve import resolve_reference
from citemark.types import Citation, Document

__all__ = ["LocalFilePolicy", "SourceLoader"]


class PaperSources(Protocol):
    """Where DOIs and arXiv ids are read as papers (``citemark.scholarly.fulltext.ScholarlySources``)."""

    def handles(self, url: str) -> bool: ...

    def load(self, url: str, load_url: Callable[[str], Awaitable[Document]]) -> Awaitable[Document]: ...


class SourceLoader:
    def __init__(self, settings: Settings, fetcher: Fetcher, cache: SourceCache | None,
                 papers: PaperSources | None = None) -> None:
        self.settings = settings
        self.fetcher = fetcher
        self.cache = cache
        self.papers = papers
        self._inflight: dict[str, asyncio.Task[Document]] = {}

    async def load(self, citation: Citation, local_files: LocalFilePolicy = LocalFilePolicy()) -> Document:
        """The citation's source as text; raises a SourceError subclass when it cannot be read."""
        if citation.text is not None:
            return Document(url="", text=citation.text, title=citation.title, kind="text")
        if citation.path is not None:
            path = local_files.check(citation.path)
            return await asyncio.to_thread(self._read_file, path)
        try:
            url = resolve_reference(citation.url or "")
        except ValueError as error:  # a port that is not a number, a bracketed host that is not IPv6
            raise MalformedURL(f"malformed URL: {error}") from None
        task = self._inflight.get(url)
        if task is None:
            task = asyncio.ensure_future(self._load_source(url))
            self._inflight[url] = task
            task.add_done_callback(lambda _: self._inflight.pop(url, None))
        return await asyncio.shield(task)

    def _load_source(self, url: str) -> Awaitable[Document]:
        """A DOI or arXiv URL is read as a paper (record, open full text, retraction); anything else as itself."""
        if self.papers is not None and self.papers.handles(url):
            return self.papers.load(url, self._load_url)
        return self._load_url(url)

    async def _load_url(self, url: str) -> Document:
        cached = await asyncio.to_thread(self.cache.get, url) if self.cache else None
        if cached and not self._may_serve(cached):
            cached = None  # fetched under a policy this request does not have: fetch it afresh
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
                etag=result.etag, last_modified=result.last_modified, scope=result.scope,
            )
        return document

    def _may_serve(self, cached: CachedSource) -> bool:
        """Only to a request that could have fetched the entry itself (``sources.scope``)."""
        return cached.scope is not None and cached.scope.served_to(
            private_network=self.fetcher.private_network, credential_for=self.fetcher.credential_for
        )

    def _read_file(self, path: Path) -> Document:
        cap = self.settings.max_body_bytes
        try:
            # O_NONBLOCK: opening a FIFO with no writer must not block; only regular files are read
            # (a FIFO, /dev/zero or a socket would hang or never end).
            descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            with open(descriptor, "rb", closefd=True) as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    raise SourceUnreachable(f"{path} is not a regular file")
                body = handle.read(cap + 1)
            if len(body) > cap:
                raise SourceTooLarge(f"{path.name} is over the {cap:,}-byte limit")
        except FileNotFoundError:
            raise SourceUnreachable(f"file not found: {path}") from None
        except IsADirectoryError:
            raise SourceUnreachable(f"{path} is a directory") from None
        except PermissionError:
            raise SourceUnreachable(f"permission denied: {path}") from None
        except OSError as error:  # a dangling link, too many levels of links, an I/O error
            raise SourceUnreachable(f"cannot read {path}: {error.strerror or error}") from None
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
