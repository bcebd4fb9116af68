"""Fake Crossref, arXiv and OpenAlex on one 127.0.0.1 server, answering in the services' real shapes.

The shapes follow the public documentation: Crossref REST ``/works/{doi}`` (a
``work`` message) and ``/works?query.bibliographic=`` (a ``work-list``), with
``updated-by`` entries as Crossref serves publisher and Retraction Watch notices;
the arXiv API's Atom feed (``opensearch:totalResults``, ``entry`` with ``id``,
``published``, ``updated``, ``title``, ``author/name``, ``arxiv:doi``, the pdf
``link``), including its HTTP-200 ``Error`` entry for a malformed id; OpenAlex
``/works/doi:…`` and ``/works?search=`` (``meta`` + ``results``). A test can queue
replies per service (a 429 with Retry-After, a 503, malformed JSON) before the
normal answers, and serve landing pages and PDFs for full-text tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, quote, urlsplit
from xml.sax.saxutils import escape

from tests.conftest import LoopbackServer, Reply
from tests.support.pdf import make_pdf

JSON = {"Content-Type": "application/json; charset=utf-8"}
ATOM = {"Content-Type": "application/atom+xml; charset=utf-8"}


@dataclass
class Paper:
    title: str
    authors: list[tuple[str, str]]  # (given, family)
    year: int
    doi: str | None = None
    arxiv_id: str | None = None
    venue: str | None = None
    updates: list[dict] = field(default_factory=list)  # Crossref updated-by entries
    pdf_pages: list[str] | None = None  # served at /pdf/<slug> when set
    landing: str | None = None  # "open", "paywalled", "gone" (its URL answers 404) or None (no landing page)
    pdf_meta: bool = True  # the landing page names the PDF in citation_pdf_url
    oa_pdf: bool = False  # OpenAlex lists the PDF as an open-access location
    malformed: bool = False  # Crossref answers a record without title
    references: list[dict] | None = None  # Crossref ``reference`` items: the paper's own deposited bibliography

    @property
    def slug(self) -> str:
        return quote((self.doi or self.arxiv_id or self.title).replace("/", "_"), safe="")


def retraction(date: tuple[int, int, int], notice_doi: str, source: str = "publisher", kind: str = "retraction",
               label: str = "Retraction") -> dict:
    """One ``updated-by`` entry as Crossref serves it."""
    y, m, d = date
    entry = {"updated": {"date-parts": [[y, m, d]], "date-time": f"{y:04d}-{m:02d}-{d:02d}T00:00:00Z",
                         "timestamp": 0}, "DOI": notice_doi, "type": kind, "source": source, "label": label}
    if source == "retraction-watch":
        entry["record-id"] = "24000"
    return entry


class FakeScholarly:
    """Install on a LoopbackServer; ``settings_for()`` gives the API bases to point citemark at."""

    def __init__(self, server: LoopbackServer, papers: list[Paper]) -> None:
        self.server = server
        self.papers = papers
        self.queued: dict[str, list[Reply]] = {"crossref": [], "arxiv": [], "openalex": []}
        self.calls: dict[str, list[str]] = {"crossref": [], "arxiv": [], "openalex": []}
        server.routes["/crossref/works"] = self._route("crossref", self._crossref_search)
        server.routes["/arxiv/api/query"] = self._route("arxiv", self._arxiv_query)
        server.routes["/openalex/works"] = self._route("openalex", self._openalex_search)
        for paper in papers:
            self.add(paper)

    def add(self, paper: Paper) -> None:
        if paper not in self.papers:
            self.papers.append(paper)
        if paper.doi:
            path = "/crossref/works/" + quote(paper.doi.lower(), safe="/().;:-_")
            self.server.routes[path] = self._route("crossref", lambda _q, p=paper: self._crossref_work(p))
            if not paper.malformed:  # OpenAlex does not know the broken record
                self.server.routes["/openalex/works/doi:" + paper.doi.lower()] = self._route(
                    "openalex", lambda _q, p=paper: Reply(json.dumps(self.openalex_work(p)), headers=JSON))
        if paper.pdf_pages:
            self.server.routes[f"/pdf/{paper.slug}"] = Reply(make_pdf(paper.pdf_pages, title=paper.title),
                                                            headers={"Content-Type": "application/pdf"})
        if paper.landing in ("open", "paywalled"):
            self.server.routes[f"/landing/{paper.slug}"] = Reply(self.landing_html(paper))

    def settings_for(self) -> dict[str, object]:
        return {"crossref_api": self.server.url("/crossref"), "arxiv_api": self.server.url("/arxiv/api/query"),
                "openalex_api": self.server.url("/openalex"), "crossref_interval": 0.0, "arxiv_interval": 0.0,
                "openalex_interval": 0.0}

    def environment(self) -> dict[str, str]:
        return {f"CITEMARK_{k.upper()}": str(v) for k, v in self.settings_for().items()}

    # ------------------------------------------------------------ routing

    def _route(self, service: str, answer):  # noqa: ANN001, ANN202
        def route(handler) -> Reply:  # noqa: ANN001
            self.calls[service].append(handler.path)
            if self.queued[service]:
                return self.queued[service].pop(0)
            return answer(parse_qs(urlsplit(handler.path).query))
        return route

    # ------------------------------------------------------------ Crossref

    def crossref_work(self, paper: Paper) -> dict:
        item: dict = {
            "indexed": {"date-parts": [[2026, 11, 1]], "date-time": "2026-11-01T00:00:00Z", "timestamp": 0},
            "publisher": "Example Publisher", "DOI": paper.doi, "type": "journal-article",
            "created": {"date-parts": [[paper.year, 1, 1]]}, "source": "Crossref", "prefix": paper.doi.split("/")[0],
            "member": "78", "title": [] if paper.malformed else [paper.title],
            "author": [{"given": g, "family": f, "sequence": "first" if i == 0 else "additional", "affiliation": []}
                       for i, (g, f) in enumerate(paper.authors)],
            "container-title": [paper.venue] if paper.venue else [],
            "issued": {"date-parts": [[paper.year]]}, "published-print": {"date-parts": [[paper.year]]},
            "URL": f"https://doi.org/{paper.doi}", "relation": {},
            "resource": {"primary": {"URL": self.server.url(f"/landing/{paper.slug}")}} if paper.landing else {},
        }
        if paper.arxiv_id:
            item["relation"] = {"has-preprint": [{"id-type": "doi", "id": f"10.48550/arxiv.{paper.arxiv_id}",
                                                  "asserted-by": "subject"}]}
        if paper.updates:
            item["updated-by"] = paper.updates
        if paper.references is not None:
            item["reference"], item["reference-count"] = paper.references, len(paper.references)
        if paper.malformed:
            del item["title"]
        return item

    def _crossref_work(self, paper: Paper) -> Reply:
        return Reply(json.dumps({"status": "ok", "message-type": "work", "message-version": "1.0.0",
                                 "message": self.crossref_work(paper)}), headers=JSON)

    def _crossref_search(self, query: dict) -> Reply:
        terms = (query.get("query.bibliographic") or [""])[0]
        found = [p for p in self._ranked(terms) if p.doi and not p.malformed]
        items = [{**self.crossref_work(p), "score": 10.0 - i} for i, p in enumerate(found[:5])]
        return Reply(json.dumps({"status": "ok", "message-type": "work-list", "message-version": "1.0.0", "message": {
            "facets": {}, "total-results": len(found), "items": items, "items-per-page": 5,
            "query": {"start-index": 0, "search-terms": terms}}}), headers=JSON)

    # ------------------------------------------------------------ arXiv

    def _arxiv_query(self, query: dict) -> Reply:
        if "id_list" in query:
            wanted = query["id_list"][0]
            if not _well_formed_arxiv(wanted):
                return Reply(_feed([_error_entry(wanted)]), headers=ATOM)
            papers = [p for p in self.papers if p.arxiv_id and p.arxiv_id.split("v")[0] == wanted.split("v")[0]]
        else:
            terms = (query.get("search_query") or [""])[0].split(" AND au:")[0].removeprefix("ti:").strip('"')
            papers = [p for p in self._ranked(terms) if p.arxiv_id][:5]
        return Reply(_feed([self.arxiv_entry(p) for p in papers]), headers=ATOM)

    def arxiv_entry(self, paper: Paper) -> str:
        authors = "".join(f"<author><name>{escape(g)} {escape(f)}</name></author>" for g, f in paper.authors)
        doi = f"<arxiv:doi>{escape(paper.doi)}</arxiv:doi>" if paper.doi else ""
        pdf = self.server.url(f"/pdf/{paper.slug}")
        return (
            f"<entry><id>http://arxiv.org/abs/{paper.arxiv_id}v2</id>"
            f"<updated>{paper.year}-06-20T10:00:00Z</updated><published>{paper.year}-06-12T17:57:34Z</published>"
            f"<title>{escape(paper.title)}</title><summary>An abstract.</summary>{authors}{doi}"
            f'<link href="http://arxiv.org/abs/{paper.arxiv_id}v2" rel="alternate" type="text/html"/>'
            f'<link title="pdf" href="{pdf}" rel="related" type="application/pdf"/>'
            '<arxiv:primary_category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>'
            '<category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/></entry>'
        )

    # ------------------------------------------------------------ OpenAlex

    def openalex_work(self, paper: Paper) -> dict:
        pdf = self.server.url(f"/pdf/{paper.slug}") if paper.oa_pdf else None
        locations = [{"is_oa": bool(pdf), "landing_page_url": f"https://doi.org/{paper.doi}" if paper.doi else None,
                      "pdf_url": pdf, "source": {"display_name": paper.venue} if paper.venue else None}]
        if paper.arxiv_id:
            locations.append({"is_oa": True, "landing_page_url": f"https://arxiv.org/abs/{paper.arxiv_id}",
                              "pdf_url": f"https://arxiv.org/pdf/{paper.arxiv_id}", "source": {"display_name": "arXiv"}})
        return {
            "id": "https://openalex.org/W" + str(abs(hash(paper.title)) % 10**10),
            "doi": f"https://doi.org/{paper.doi}" if paper.doi else None,
            "title": paper.title, "display_name": paper.title, "publication_year": paper.year,
            "publication_date": f"{paper.year}-01-01", "type": "article",
            "ids": {"openalex": "https://openalex.org/W1", **({"doi": f"https://doi.org/{paper.doi}"} if paper.doi else {})},
            "primary_location": locations[0], "locations": locations,
            "best_oa_location": next((loc for loc in locations if loc["is_oa"] and loc["pdf_url"] == pdf), None) if pdf else None,
            "open_access": {"is_oa": bool(pdf), "oa_status": "green" if pdf else "closed", "oa_url": pdf},
            "authorships": [{"author_position": "first" if i == 0 else "middle",
                             "author": {"id": f"https://openalex.org/A{i}", "display_name": f"{g} {f}", "orcid": None}}
                            for i, (g, f) in enumerate(paper.authors)],
            "is_retracted": any(u["type"] == "retraction" for u in paper.updates), "is_paratext": False,
        }

    def _openalex_search(self, query: dict) -> Reply:
        terms = (query.get("search") or [""])[0]
        found = [p for p in self._ranked(terms) if not p.malformed]
        return Reply(json.dumps({"meta": {"count": len(found), "db_response_time_ms": 12, "page": 1, "per_page": 5},
                                 "results": [self.openalex_work(p) for p in found[:5]], "group_by": []}), headers=JSON)

    # ------------------------------------------------------------ landing pages

    def landing_html(self, paper: Paper) -> str:
        meta = f'<meta name="citation_title" content="{escape(paper.title)}">'
        if paper.pdf_pages and paper.pdf_meta:
            meta += f'<meta name="citation_pdf_url" content="/pdf/{paper.slug}">'
        if paper.landing == "paywalled":
            body = ("<p>Abstract only.</p><p>Access through your institution to read the full article.</p>"
                    "<p>Purchase this article.</p>")
        else:
            body = "".join(f"<p>{escape(page)}</p>" for page in paper.pdf_pages or [paper.title])
        return f"<html><head><title>{escape(paper.title)}</title>{meta}</head><body><article>{body}</article></body></html>"

    def _ranked(self, terms: str) -> list[Paper]:
        """Papers sharing words with the query, most shared first (a crude relevance, as a search gives)."""
        words = set(terms.lower().split())
        scored = [(len(words & set(p.title.lower().replace(":", " ").split())), p) for p in self.papers]
        return [p for score, p in sorted(scored, key=lambda x: -x[0]) if score >= 2]


def _feed(entries: list[str]) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">'
        '<link href="http://arxiv.org/api/query?id_list=&amp;start=0&amp;max_results=10" rel="self" type="application/atom+xml"/>'
        "<title type=\"html\">ArXiv Query</title><id>http://arxiv.org/api/abc</id><updated>2026-11-30T00:00:00-05:00</updated>"
        f"<opensearch:totalResults>{len(entries)}</opensearch:totalResults>"
        "<opensearch:startIndex>0</opensearch:startIndex><opensearch:itemsPerPage>10</opensearch:itemsPerPage>"
        + "".join(entries) + "</feed>"
    )


def _error_entry(wanted: str) -> str:
    return (f"<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_{escape(wanted)}</id><title>Error</title>"
            f"<summary>incorrect id format for {escape(wanted)}</summary><updated>2026-11-30T00:00:00-05:00</updated>"
            "<link href=\"http://arxiv.org/api/errors#incorrect_id_format\" rel=\"alternate\" type=\"text/html\"/>"
            "<author><name>arXiv api core</name></author></entry>")


def _well_formed_arxiv(arxiv_id: str) -> bool:
    import re

    return bool(re.fullmatch(r"\d{4}\.\d{4,5}(v\d+)?|[a-z-]+(\.[A-Z]{2})?/\d{7}(v\d+)?", arxiv_id))


# ---------------------------------------------------------------- the example bibliography's papers

WAKEFIELD = Paper(
    "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children",
    [("A.J.", "Wakefield"), ("S.H.", "Murch"), ("A.", "Anthony")], 1998, doi="10.1016/s0140-6736(97)11096-0",
    venue="The Lancet",
    updates=[retraction((2010, 2, 6), "10.1016/s0140-6736(10)60175-4"),
             retraction((2010, 2, 6), "10.1016/s0140-6736(10)60175-4", source="retraction-watch")],
    landing="open", pdf_pages=["Twelve children with a history of normal development were investigated."],
)
MEHRA = Paper(
    "Hydroxychloroquine or chloroquine with or without a macrolide for treatment of COVID-19: a multinational registry analysis",
    [("Mandeep R", "Mehra"), ("Sapan S", "Desai"), ("Frank", "Ruschitzka")], 2020, doi="10.1016/s0140-6736(20)31180-6",
    venue="The Lancet", updates=[retraction((2020, 6, 5), "10.1016/s0140-6736(20)31324-6", source="retraction-watch")],
    landing="gone",
)
EXAMPLE_PAPERS = [
    Paper("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer"), ("Niki", "Parmar")], 2017,
          arxiv_id="1706.03762"),
    Paper("Deep Residual Learning for Image Recognition", [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"),
          ("Jian", "Sun")], 2016, doi="10.1109/cvpr.2016.90", venue="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"),
    Paper("Deep learning", [("Yann", "LeCun"), ("Yoshua", "Bengio"), ("Geoffrey", "Hinton")], 2015,
          doi="10.1038/nature14539", venue="Nature"),
    Paper("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
          [("Jacob", "Devlin"), ("Ming-Wei", "Chang"), ("Kenton", "Lee"), ("Kristina", "Toutanova")], 2019,
          doi="10.18653/v1/n19-1423", venue="Proceedings of NAACL-HLT 2019"),
    Paper("Long Short-Term Memory", [("Sepp", "Hochreiter"), ("Jürgen", "Schmidhuber")], 1997,
          doi="10.1162/neco.1997.9.8.1735", venue="Neural Computation"),
    Paper("Deep learning in neural networks: An overview", [("Jürgen", "Schmidhuber")], 2015,
          doi="10.1016/j.neunet.2014.09.003", venue="Neural Networks"),
    Paper("Attention is not all you need: pure attention loses rank doubly exponentially with depth",
          [("Yihe", "Dong"), ("Jean-Baptiste", "Cordonnier"), ("Andreas", "Loukas")], 2021, arxiv_id="2103.03404"),
    WAKEFIELD,
    MEHRA,
    Paper("Adam: A Method for Stochastic Optimization", [("Diederik P.", "Kingma"), ("Jimmy", "Ba")], 2014,
          arxiv_id="1412.6980"),
    Paper("Mastering the game of Go with deep neural networks and tree search",
          [("David", "Silver"), ("Aja", "Huang"), ("Chris J.", "Maddison")], 2016, doi="10.1038/nature16961", venue="Nature"),
    Paper("Placeholder", [("J.", "Doe")], 2018, doi="10.5555/malformed.2018", malformed=True),
]
