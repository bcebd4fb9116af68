"""A paper named by its DOI or arXiv id → its own reference list, for ``citemark refs 10.x/y`` and ``refs 2607.22693``.

- **DOI.** Crossref's record of the paper (``/works/{doi}``, the DOI only) carries the
  references its publisher deposited (``reference``); each item's own fields (DOI,
  title, first author, year, or its unstructured text) become one entry. A record
  without them is an input error: there is no open list to check.
- **arXiv id.** The arXiv API (``id_list=``, the id only) gives the paper's PDF link;
  the PDF is fetched like any source (public addresses only, robots.txt, size
  limits), and only the list under its last References heading is read, as
  ``refs paper.pdf`` reads a local PDF (``bibfile``).

Then every entry is checked exactly as a bibliography file's are: each sends only
its own fields.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from citemark.errors import InputError, SourceUnreachable
from citemark.identifiers import arxiv_id_in_url, doi_in_url
from citemark.scholarly.bibfile import bibliography_text, is_pdf
from citemark.scholarly.checker import ListReport, check_references
from citemark.scholarly.references import MAX_REFERENCES, Reference, parse_references, reference_from_text
from citemark.scholarly.services import Services
from citemark.settings import Settings
from citemark.sources.classify import SourceKind, citation_for, classify
from citemark.sources.fetch import Fetcher

__all__ = ["PaperId", "check_paper", "paper_id"]

PaperId = tuple[str, str]  # ("doi" | "arxiv", the identifier)


def paper_id(value: str) -> PaperId | None:
    """``("doi", "10.x/y")`` or ``("arxiv", "2607.22693")`` when ``value`` names a paper, else None."""
    if not value.strip() or classify(value, inline_text=False) not in (SourceKind.DOI, SourceKind.ARXIV):
        return None
    url = citation_for(value, inline_text=False).url or ""
    doi, arxiv = doi_in_url(url), arxiv_id_in_url(url)
    return ("doi", doi) if doi else ("arxiv", arxiv) if arxiv else None


async def check_paper(paper: PaperId, settings: Settings, *, cache: bool = True,
                      transport: httpx.AsyncBaseTransport | None = None) -> ListReport:
    """Check every reference of the paper's own bibliography."""
    if not settings.scholarly_lookups:
        raise InputError("scholarly lookups are turned off (scholarly_lookups = false): nothing to check against")
    kind, identifier = paper
    async with Services(settings, transport=transport, cache=cache) as services:
        if kind == "doi":
            references = await _deposited(identifier, services)
        else:
            references = parse_references(await _arxiv_reference_list(identifier, services, settings, transport))
        return await check_references(references, services)


async def _deposited(doi: str, services: Services) -> list[Reference]:
    items = await services.crossref.deposited_references(doi)
    if items is None:
        raise InputError(f"Crossref does not know the DOI {doi}")
    if not items:
        raise InputError(f"Crossref's record of {doi} lists no references (its publisher deposited none openly)")
    if len(items) > MAX_REFERENCES:
        raise InputError(f"{len(items)} references is over the limit of {MAX_REFERENCES}")
    return [_reference(index, item) for index, item in enumerate(items, 1)]


def _reference(index: int, item: dict[str, Any]) -> Reference:
    """One deposited reference from its own fields; one deposited only as text is read as a list entry."""
    key = _text(item.get("key"))
    doi = _text(item.get("DOI"))
    title = _text(item.get("article-title")) or _text(item.get("volume-title"))
    unstructured = _text(item.get("unstructured"))
    if not doi and not title and unstructured:
        return reference_from_text(index, unstructured, key)
    author = _text(item.get("author"))
    family = author.split(",")[0].split()[-1] if author and author.split(",")[0].split() else None
    year = re.match(r"\d{4}", _text(item.get("year")) or "")
    raw = unstructured or ". ".join(part for part in (author, f"({year.group()})" if year else None, title,
                                                      f"doi:{doi}" if doi else None) if part)
    return Reference(index=index, raw=raw or f"reference {index}", key=key, title=title,
                     authors=(family,) if family else (), year=int(year.group()) if year else None,
                     doi=doi.lower() if doi else None)


def _text(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


async def _arxiv_reference_list(arxiv_id: str, services: Services, settings: Settings,
                                transport: httpx.AsyncBaseTransport | None) -> str:
    paper = await services.arxiv.paper(arxiv_id)
    if paper is None:
        raise InputError(f"arXiv has no paper {arxiv_id}")
    pdf = paper.pdf_urls[0] if paper.pdf_urls else f"https://arxiv.org/pdf/{arxiv_id}"
    fetcher = Fetcher(settings, transport=transport)
    try:
        fetched = await fetcher.fetch(pdf)
    finally:
        await fetcher.aclose()
    if not is_pdf(fetched.body):
        raise SourceUnreachable(f"arXiv's link for {arxiv_id} did not give a PDF ({fetched.final_url})")
    return bibliography_text(fetched.body, f"arXiv:{arxiv_id}", max_pages=settings.max_pdf_pages)
