"""Crossref REST API client: a DOI's record, a bibliographic search, and the record's updates.

``GET {crossref_api}/works/{doi}`` answers ``{"status": "ok", "message-type": "work",
"message": {...}}`` or 404 for an unregistered DOI; ``GET /works?query.bibliographic=…
&query.author=…&rows=5`` answers a ``work-list`` whose ``message.items`` are works.
Retractions are read from ``updated-by`` (the notices that update this work, from
the publisher and, since 2025, from Retraction Watch with ``source:
"retraction-watch"``). A notice's own record carries ``update-to`` instead: citing
the notice is not citing a retracted work, so that field is not read as one.
``relation.has-preprint`` names an open preprint copy. ``reference`` is the paper's own
bibliography as its publisher deposited it (``key``, ``DOI``, ``article-title``, ``author``,
``year``, ``unstructured``); a record without it has no open reference list.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from citemark.errors import LookupUnavailable
from citemark.scholarly.records import Update, Work, plain_title
from citemark.scholarly.service import ScholarlyHTTP

__all__ = ["CrossrefClient", "parse_work"]


class CrossrefClient:
    service = "crossref"

    def __init__(self, http: ScholarlyHTTP) -> None:
        self.http = http

    async def work(self, doi: str) -> Work | None:
        """The record of ``doi``; None when Crossref does not know it."""
        return await self.http.get(self.service, self.http.settings.crossref_api,
                                   "/works/" + quote(doi, safe="/().;:-_"), None,
                                   lambda body: parse_work(_message(body, "work")))

    async def deposited_references(self, doi: str) -> list[dict[str, Any]] | None:
        """The ``reference`` items of ``doi``'s record ([] when none were deposited); None when Crossref does not
        know the DOI. The same request as ``work``, so a cached record answers both."""
        return await self.http.get(self.service, self.http.settings.crossref_api,
                                   "/works/" + quote(doi, safe="/().;:-_"), None, _reference_items)

    async def search(self, title: str, author: str | None = None, rows: int = 5) -> list[Work]:
        params = {"query.bibliographic": title, "rows": str(rows)}
        if author:
            params["query.author"] = author
        return await self.http.get(self.service, self.http.settings.crossref_api, "/works", params, _work_list) or []


def _work_list(body: bytes) -> list[Work]:
    items = _message(body, "work-list").get("items")
    if not isinstance(items, list):
        raise LookupUnavailable("crossref: malformed search answer (no items)")
    works = []
    for item in items:
        try:
            works.append(parse_work(item))
        except LookupUnavailable:
            continue  # one broken item does not spoil the others
    return works


def _reference_items(body: bytes) -> list[dict[str, Any]]:
    items = _message(body, "work").get("reference", [])
    if not isinstance(items, list):
        raise LookupUnavailable("crossref: malformed reference list")
    return [item for item in items if isinstance(item, dict)]


def _message(body: bytes, kind: str) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise LookupUnavailable("crossref: the answer is not JSON") from None
    if not isinstance(data, dict) or data.get("status") != "ok" or not isinstance(data.get("message"), dict):
        raise LookupUnavailable("crossref: malformed answer (no message)")
    if data.get("message-type") not in (kind, None):
        raise LookupUnavailable(f"crossref: expected a {kind}, got {data.get('message-type')}")
    return data["message"]


def parse_work(item: dict[str, Any]) -> Work:
    """A Crossref ``work`` object → ``Work``; LookupUnavailable when it lacks a DOI or a title."""
    if not isinstance(item, dict):
        raise LookupUnavailable("crossref: malformed work")
    doi, title = item.get("DOI"), _first(item.get("title"))
    if not isinstance(doi, str) or not doi or not title:
        raise LookupUnavailable("crossref: malformed work (no DOI or title)")
    subtitle = _first(item.get("subtitle"))
    if subtitle and subtitle.lower() not in title.lower():
        title = f"{title}: {subtitle}"
    authors = tuple(
        str(a.get("family") or a.get("name") or "").strip()
        for a in item.get("author") or () if isinstance(a, dict) and (a.get("family") or a.get("name"))
    )
    years = tuple(dict.fromkeys(
        y for key in ("issued", "published-print", "published-online", "published")
        if (y := _year(item.get(key))) is not None
    ))
    resource = item.get("resource") if isinstance(item.get("resource"), dict) else {}
    primary = resource.get("primary") if isinstance(resource.get("primary"), dict) else {}
    landing = primary.get("URL") if isinstance(primary.get("URL"), str) else None
    pdfs = tuple(
        link["URL"] for link in item.get("link") or ()
        if isinstance(link, dict) and isinstance(link.get("URL"), str)
        and str(link.get("content-type", "")).lower() == "application/pdf"
    )
    relation = item.get("relation") if isinstance(item.get("relation"), dict) else {}
    preprints = tuple(
        str(r["id"]) for r in relation.get("has-preprint") or ()
        if isinstance(r, dict) and r.get("id-type") == "doi" and r.get("id")
    )
    updates = tuple(update for raw in item.get("updated-by") or () if (update := _update(raw)))
    return Work(
        service="crossref", title=title, authors=authors, year=years[0] if years else None, years=years,
        doi=doi.lower(), venue=_first(item.get("container-title")), url=landing or item.get("URL"),
        pdf_urls=pdfs, preprint_dois=preprints, updates=updates,
    )


def _update(raw: Any) -> Update | None:
    """One ``updated-by`` entry: the notice's type, date and DOI."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return None
    date = None
    parts = (raw.get("updated") or {}).get("date-parts") if isinstance(raw.get("updated"), dict) else None
    if isinstance(parts, list) and parts and isinstance(parts[0], list):
        numbers = [p for p in parts[0] if isinstance(p, int)]
        date = "-".join(f"{n:02d}" if i else str(n) for i, n in enumerate(numbers)) or None
    doi = raw.get("DOI")
    return Update(kind=raw["type"].lower().replace("-", "_"), date=date, doi=str(doi).lower() if doi else None,
                  source=raw.get("source"), label=raw.get("label"))


def _first(value: Any) -> str | None:
    """The first non-empty string; markup Crossref titles carry (``<i>``, ``<scp>``, MathML) is taken out."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    if not isinstance(value, str):
        return None
    return plain_title(value) or None


def _year(value: Any) -> int | None:
    if not isinstance(value, dict):
        return None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0] and isinstance(parts[0][0], int):
        return parts[0][0]
    return None
