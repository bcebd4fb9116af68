"""arXiv API client: a paper by id, or a title search, read from the Atom feed.

``GET {arxiv_api}?id_list=2101.00001`` (or ``search_query=ti:"…" AND au:…``)
answers an Atom feed: ``opensearch:totalResults`` and one ``entry`` per paper with
``id`` (``http://arxiv.org/abs/ID vN``), ``published``, ``updated``, ``title``,
``author/name``, ``arxiv:doi``, ``arxiv:journal_ref``, ``arxiv:comment`` and a
``link title="pdf"`` to the full text. A malformed id comes back as HTTP 200 with one
entry titled ``Error`` whose id is under ``/api/errors``: that is "no such paper",
not a hit. A paper withdrawn by its authors says so in its comment.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from citemark import identifiers
from citemark.errors import LookupUnavailable
from citemark.scholarly.records import Update, Work
from citemark.scholarly.service import ScholarlyHTTP

__all__ = ["ARXIV_ID", "ArxivClient", "parse_feed"]

NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom",
      "opensearch": "http://a9.com/-/spec/opensearch/1.1/"}
#: New-style (2101.00001v2) and old-style (hep-th/9901001) identifiers.
ARXIV_ID = re.compile(f"({identifiers.ARXIV_ID})", re.IGNORECASE)
_WITHDRAWN = re.compile(r"\b(?:has been |was )?withdrawn\b", re.IGNORECASE)


class ArxivClient:
    service = "arxiv"

    def __init__(self, http: ScholarlyHTTP) -> None:
        self.http = http

    async def paper(self, arxiv_id: str) -> Work | None:
        works = await self.http.get(self.service, self.http.settings.arxiv_api, "",
                                    {"id_list": arxiv_id, "max_results": "1"}, parse_feed, accept="application/atom+xml")
        wanted = strip_version(arxiv_id)
        return next((w for w in works or () if w.arxiv_id and strip_version(w.arxiv_id) == wanted), None)

    async def search(self, title: str, author: str | None = None, rows: int = 5) -> list[Work]:
        words = " ".join(re.findall(r"[^\W_]+", title))
        query = f'ti:"{words}"' + (f" AND au:{author}" if author else "")
        return await self.http.get(self.service, self.http.settings.arxiv_api, "",
                                   {"search_query": query, "max_results": str(rows)}, parse_feed,
                                   accept="application/atom+xml") or []


def strip_version(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id.strip().lower())


def parse_feed(body: bytes) -> list[Work]:
    """The papers of an arXiv Atom feed; LookupUnavailable when it is not one (e.g. "Rate exceeded.")."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        raise LookupUnavailable("arxiv: the answer is not an Atom feed") from None
    if root.tag != f"{{{NS['atom']}}}feed":
        raise LookupUnavailable("arxiv: the answer is not an Atom feed")
    works = []
    for entry in root.findall("atom:entry", NS):
        entry_id = _text(entry, "atom:id")
        if "/api/errors" in entry_id:
            continue  # arXiv's way of saying the id is malformed
        match = ARXIV_ID.search(entry_id.split("/abs/", 1)[-1])
        title = " ".join(_text(entry, "atom:title").split())
        if not match or not title:
            continue
        authors = tuple(_family(_text(a, "atom:name")) for a in entry.findall("atom:author", NS) if _text(a, "atom:name"))
        years = tuple(dict.fromkeys(int(d[:4]) for d in (_text(entry, "atom:published"), _text(entry, "atom:updated"))
                                    if re.match(r"\d{4}", d)))
        pdfs = tuple(link.get("href", "") for link in entry.findall("atom:link", NS)
                     if link.get("title") == "pdf" or link.get("type") == "application/pdf")
        landing = next((link.get("href") for link in entry.findall("atom:link", NS) if link.get("rel") == "alternate"),
                       entry_id)
        comment = _text(entry, "arxiv:comment")
        updates = (Update(kind="withdrawal", date=_text(entry, "atom:updated")[:10] or None, source="arxiv",
                          label=f"Withdrawn on arXiv ({' '.join(comment.split())[:120]})"),) \
            if _WITHDRAWN.search(comment) else ()
        works.append(Work(
            service="arxiv", title=title, authors=authors, year=years[0] if years else None, years=years,
            doi=(_text(entry, "arxiv:doi") or None), arxiv_id=match.group(1), venue=_text(entry, "arxiv:journal_ref") or None,
            url=landing, pdf_urls=tuple(p for p in pdfs if p), updates=updates,
        ))
    return works


def _text(node: ET.Element, path: str) -> str:
    found = node.find(path, NS)
    return (found.text or "").strip() if found is not None else ""


def _family(name: str) -> str:
    """arXiv gives "Given Family"; the family name is the last word (particles stay with matching's folding)."""
    words = name.replace(",", " ").split()
    return words[-1] if words else name
