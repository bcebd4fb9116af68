"""OpenAlex client: a work by DOI, or a title search; open-access PDF links and the retracted flag.

``GET {openalex_api}/works/doi:10.x/y`` answers one Work object (404 when unknown);
``GET /works?search=…&per_page=5`` answers ``{"meta": {"count": …}, "results": [...]}``.
Read: ``display_name`` (the title), ``publication_year``, ``doi`` (as a
``https://doi.org/`` URL), ``authorships[].author.display_name``, ``ids``,
``is_retracted``, ``best_oa_location.pdf_url`` / ``open_access.oa_url`` and each
``locations[].pdf_url`` (arXiv copies appear there too).
"""

from __future__ import annotations

import json
from typing import Any

from citemark.errors import LookupUnavailable
from citemark.scholarly.arxiv import ARXIV_ID
from citemark.scholarly.records import Work, plain_title
from citemark.scholarly.service import ScholarlyHTTP

__all__ = ["OpenAlexClient", "parse_work"]


class OpenAlexClient:
    service = "openalex"

    def __init__(self, http: ScholarlyHTTP) -> None:
        self.http = http

    async def work(self, doi: str) -> Work | None:
        return await self.http.get(self.service, self.http.settings.openalex_api, "/works/doi:" + doi, None,
                                   lambda body: parse_work(_json(body)))

    async def search(self, title: str, rows: int = 5) -> list[Work]:
        params = {"search": title, "per_page": str(rows)}
        return await self.http.get(self.service, self.http.settings.openalex_api, "/works", params, _results) or []


def _results(body: bytes) -> list[Work]:
    results = _json(body).get("results")
    if not isinstance(results, list):
        raise LookupUnavailable("openalex: malformed search answer (no results)")
    works = []
    for item in results:
        try:
            works.append(parse_work(item))
        except LookupUnavailable:
            continue
    return works


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise LookupUnavailable("openalex: the answer is not JSON") from None
    if not isinstance(data, dict):
        raise LookupUnavailable("openalex: malformed answer")
    return data


def parse_work(item: Any) -> Work:
    if not isinstance(item, dict):
        raise LookupUnavailable("openalex: malformed work")
    title = item.get("display_name") or item.get("title")
    if not isinstance(title, str) or not title.strip():
        raise LookupUnavailable("openalex: malformed work (no title)")
    doi = item.get("doi") if isinstance(item.get("doi"), str) else None
    if doi:
        doi = doi.lower().removeprefix("https://doi.org/")
    authors = []
    for authorship in item.get("authorships") or ():
        author = authorship.get("author") if isinstance(authorship, dict) else None
        name = author.get("display_name") if isinstance(author, dict) else None
        if isinstance(name, str) and name.split():
            authors.append(name.split()[-1])
    year = item.get("publication_year") if isinstance(item.get("publication_year"), int) else None
    pdfs: list[str] = []
    best = item.get("best_oa_location")
    if isinstance(best, dict) and isinstance(best.get("pdf_url"), str):
        pdfs.append(best["pdf_url"])
    arxiv_id = None
    for location in item.get("locations") or ():
        if not isinstance(location, dict):
            continue
        for key in ("pdf_url", "landing_page_url"):
            url = location.get(key)
            if isinstance(url, str) and "arxiv.org/" in url and arxiv_id is None:
                found = ARXIV_ID.search(url.split("arxiv.org/", 1)[1])
                arxiv_id = found.group(1) if found else None
        if isinstance(location.get("pdf_url"), str) and location.get("is_oa"):
            pdfs.append(location["pdf_url"])
    primary = item.get("primary_location") if isinstance(item.get("primary_location"), dict) else {}
    source = primary.get("source") if isinstance(primary.get("source"), dict) else {}
    return Work(
        service="openalex", title=plain_title(title), authors=tuple(authors), year=year,
        years=(year,) if year else (), doi=doi, arxiv_id=arxiv_id, venue=source.get("display_name"),
        url=primary.get("landing_page_url"), pdf_urls=tuple(dict.fromkeys(pdfs)),
        retracted_flag=item.get("is_retracted") is True,
    )
