"""A cited DOI or arXiv id → the paper's readable text, with the retraction its record carries.

The source loader hands doi.org and arxiv.org/abs URLs here (``handles``), with its
own cached, guarded ``load_url`` to read any URL through:

- **DOI.** Crossref's record gives the landing page (``resource.primary.URL``) and
  the updates. The landing page is read; its ``citation_pdf_url`` (the paper
  itself, with page numbers) is preferred when it reads. When the landing page is
  paywalled or unreadable, the open copies are tried in turn: that PDF link, the
  record's PDF links, OpenAlex's open-access locations, and an arXiv preprint
  (Crossref ``has-preprint`` or an arXiv location in OpenAlex). ``final_url`` says
  which copy was read, and evidence links point into it (``#page=N`` for PDFs).
- **arXiv.** The arXiv API gives the PDF link (and a withdrawal, from the
  comment); the PDF is read, the abstract page only when the PDF cannot be.
- **Retraction.** A retraction, withdrawal or expression of concern in the record
  sets ``Document.retracted`` to the notice (kind, date, link), so the citation is
  badged ``retracted`` whatever the landing page shows, even when no copy reads.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from urllib.parse import urljoin

from citemark.errors import LookupUnavailable, SourceError
from citemark.identifiers import arxiv_id_in_url, arxiv_of_doi, arxiv_url, doi_in_url
from citemark.scholarly.records import Work
from citemark.scholarly.services import Services
from citemark.types import Document

__all__ = ["ScholarlySources"]

log = logging.getLogger(__name__)

LoadURL = Callable[[str], Awaitable[Document]]


class ScholarlySources:
    """The loader's hook for papers: ``handles(url)`` and ``load(url, load_url)``."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def handles(self, url: str) -> bool:
        return doi_in_url(url) is not None or arxiv_id_in_url(url) is not None

    async def load(self, url: str, load_url: LoadURL) -> Document:
        doi = doi_in_url(url)
        if doi:
            arxiv_doi = arxiv_of_doi(doi)
            if arxiv_doi:
                return await self._arxiv(url, arxiv_doi, load_url)
            return await self._doi(url, doi, load_url)
        return await self._arxiv(url, arxiv_id_in_url(url) or "", load_url)

    async def _doi(self, url: str, doi: str, load_url: LoadURL) -> Document:
        record = await self._quietly(self.services.crossref.work(doi))
        notice = record.retraction_notice() if record else None
        landing_url = record.url if record and record.url and not doi_in_url(record.url) else url
        landing: Document | None = None
        failure: SourceError | None = None
        try:
            landing = await load_url(landing_url)
        except SourceError as error:
            failure = error
        readable = landing is not None and not landing.paywalled and len(landing.text) >= 200
        copies: list[str] = []
        if landing is not None and landing.pdf_link:
            copies.append(urljoin(landing.final_url or landing.url or landing_url, landing.pdf_link))
        if record:
            copies += record.pdf_urls
        document = await self._first_readable(copies, load_url) if copies else None
        if document is None and not readable:
            document = await self._open_copy(doi, record, load_url)
        if document is None:
            document = landing if landing is not None else None
        if document is None:
            if notice:
                return Document(url=url, text="", title=record.title if record else None, kind="text", retracted=notice)
            assert failure is not None
            raise failure
        if landing is not None and document is not landing:
            log.info("%s: read the open copy %s", url, document.final_url or document.url)
        title = (record.title if record else None) or document.title
        return replace(document, url=url, final_url=document.final_url or document.url, title=title,
                       retracted=notice or document.retracted)

    async def _open_copy(self, doi: str, record: Work | None, load_url: LoadURL) -> Document | None:
        """An open copy elsewhere: OpenAlex's open-access PDFs, then an arXiv preprint."""
        found = await self._quietly(self.services.openalex.work(doi))
        copies = list(found.pdf_urls) if found else []
        document = await self._first_readable(copies, load_url)
        if document is not None:
            return document
        preprints = [found for d in (record.preprint_dois if record else ()) if (found := arxiv_of_doi(d))]
        if found and found.arxiv_id:
            preprints.append(found.arxiv_id)
        for arxiv_id in dict.fromkeys(preprints):
            try:
                return await self._arxiv_pdf(arxiv_id, load_url)
            except SourceError as error:
                log.info("arXiv preprint %s unreadable: %s", arxiv_id, error)
        return None

    async def _arxiv(self, url: str, arxiv_id: str, load_url: LoadURL) -> Document:
        paper = await self._quietly(self.services.arxiv.paper(arxiv_id))
        notice = paper.retraction_notice() if paper else None
        try:
            document = await self._arxiv_pdf(arxiv_id, load_url, paper)
        except SourceError:
            if notice:
                return Document(url=url, text="", title=paper.title if paper else None, kind="text", retracted=notice)
            document = await load_url(paper.url if paper and paper.url else url)
        return replace(document, url=url, final_url=document.final_url or document.url,
                       title=(paper.title if paper else None) or document.title, retracted=notice or document.retracted)

    async def _arxiv_pdf(self, arxiv_id: str, load_url: LoadURL, paper: Work | None = None) -> Document:
        if paper is None:
            paper = await self._quietly(self.services.arxiv.paper(arxiv_id))
        pdf = paper.pdf_urls[0] if paper and paper.pdf_urls else arxiv_url(arxiv_id)
        return await load_url(pdf)

    async def _first_readable(self, urls: list[str], load_url: LoadURL) -> Document | None:
        for candidate in dict.fromkeys(urls):
            try:
                document = await load_url(candidate)
            except (SourceError, ValueError) as error:
                log.info("open copy %s unreadable: %s", candidate, error)
                continue
            if len(document.text) >= 200 and not document.paywalled:
                return document
        return None

    @staticmethod
    async def _quietly(lookup: Awaitable[Work | None]) -> Work | None:
        """A lookup that may fail: the source is still read, only its record is missing."""
        try:
            return await lookup
        except LookupUnavailable as error:
            log.warning("scholarly lookup failed: %s", error.message)
            return None
