"""Scholarly references, pure parts: parsing bibliographies, matching titles, grading, reading the services' records.

The service records are the documented shapes (Crossref ``work`` with
``updated-by``, arXiv Atom entries, OpenAlex works); the HTTP client is driven
through ``httpx.MockTransport`` for its rate-limit and politeness rules.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest

from citemark.errors import InputError, LookupUnavailable
from citemark.scholarly import arxiv, crossref, openalex
from citemark.scholarly.checker import grade
from citemark.scholarly.matching import compare, same_title
from citemark.scholarly.records import Work
from citemark.scholarly.references import Reference, detect_format, parse_references
from citemark.scholarly.service import ScholarlyHTTP, retry_after
from citemark.settings import Settings

# ---------------------------------------------------------------- parsing


@pytest.mark.parametrize("entry, title, authors, year, doi, arxiv_id", [
    ("Vaswani, A., Shazeer, N., & Parmar, N. (2017). Attention is all you need. In NeurIPS.",
     "Attention is all you need", ("Vaswani", "Shazeer", "Parmar"), 2017, None, None),
    ("K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.",
     "Deep residual learning for image recognition", ("He", "Zhang", "Ren", "Sun"), 2016, None, None),
    ('Smith J, Doe A. "A study of river deltas in flood." Nature. 2019;12:1-3. doi:10.1038/XYZ.1.',
     "A study of river deltas in flood", ("Smith", "Doe"), 2019, "10.1038/xyz.1", None),
    ("Vaswani et al. Attention is all you need. NeurIPS 2017.", "Attention is all you need", ("Vaswani",), 2017,
     None, None),
    ("Kingma, D. P., & Ba, J. (2014). Adam: A method for stochastic optimization. arXiv preprint arXiv:1412.6980.",
     "Adam: A method for stochastic optimization", ("Kingma", "Ba"), 2014, None, "1412.6980"),
    ("Lee, K. (2023). Some preprint. https://doi.org/10.48550/arXiv.2301.00001",
     "Some preprint", ("Lee",), 2023, None, "2301.00001"),
    ("Wakefield, A. J. (1998). Ileal-lymphoid-nodular hyperplasia. *The Lancet*. https://doi.org/10.1016/S0140-6736(97)11096-0",
     "Ileal-lymphoid-nodular hyperplasia", ("Wakefield",), 1998, "10.1016/s0140-6736(97)11096-0", None),
])
def test_free_text_references(entry, title, authors, year, doi, arxiv_id):
    reference = parse_references(f"References\n\n1. {entry}\n")[0]
    assert (reference.title, reference.authors, reference.year, reference.doi, reference.arxiv_id) == (
        title, authors, year, doi, arxiv_id)


def test_bibtex_entries_with_braces_quotes_and_accents():
    text = r"""
@string{nc = "Neural Computation"}
@article{hochreiter1997,
  author = {Hochreiter, Sepp and Schmidhuber, J{\"u}rgen},
  title = {Long {Short-Term} Memory},
  journal = nc, year = 1997, doi = {10.1162/neco.1997.9.8.1735}
}
@misc{vaswani, title = "Attention Is All You Need", author = "Ashish Vaswani and Noam Shazeer",
  year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}}
@comment{ignored}
"""
    assert detect_format(text) == "bibtex"
    first, second = parse_references(text)
    assert (first.key, first.title, first.authors, first.year, first.doi) == (
        "hochreiter1997", "Long Short-Term Memory", ("Hochreiter", "Schmidhuber"), 1997, "10.1162/neco.1997.9.8.1735")
    assert (second.key, second.authors, second.arxiv_id) == ("vaswani", ("Vaswani", "Shazeer"), "1706.03762")


def test_latex_bibitems():
    text = r"""\begin{thebibliography}{9}
\bibitem[He et~al.(2016)]{he2016} K.~He and X.~Zhang. \newblock Deep residual learning for image recognition.
\newblock In {\em CVPR}, pages 770--778, 2016.
\bibitem{g} K.~G\"{o}del. \newblock On formally undecidable propositions. \newblock 1931.
\end{thebibliography}"""
    assert detect_format(text) == "latex"
    he, goedel = parse_references(text)
    assert (he.key, he.title, he.authors, he.year) == ("he2016", "Deep residual learning for image recognition",
                                                       ("He", "Zhang"), 2016)
    assert goedel.authors == ("Gödel",) and goedel.year == 1931


def test_a_markdown_list_after_its_heading_only():
    text = ("# Essay\n\nSome prose that cites (2019) and is not a reference at all, long enough.\n\n"
            "## References\n\n- Lee, K. (2020). A first title here. Venue.\n- Kim, J. (2021). A second title "
            "here.\n  Continued venue line.\n\n## Appendix\n\n- not a reference, but a long enough line\n")
    references = parse_references(text)
    assert [r.title for r in references] == ["A first title here", "A second title here"]
    assert "Continued venue line" in references[1].raw


@pytest.mark.parametrize("text", [
    "@article{", "@article{x, title={unclosed", "\\bibitem", "\\bibitem{k}", "References\n",
    "@misc{k, title = \"q, author = {A and B}", "1. " + "a" * 200_000, "@article{k, title=x # y, year=2020}",
    "# References\n- (2019). .\n- ..........................", "1. " + '"' * 40,
])
def test_hostile_bibliographies_parse_or_fail_clearly(text):
    started = time.monotonic()
    try:
        references = parse_references(text)
    except InputError as error:
        assert error.code == "E100"
    else:
        assert all(isinstance(r, Reference) for r in references)
    assert time.monotonic() - started < 2


def test_nothing_to_check_is_a_clear_error():
    with pytest.raises(InputError, match="no references found"):
        parse_references("hi")
    with pytest.raises(InputError, match="unknown bibliography format"):
        parse_references("1. A. Author. A title. 2020.", "ris")


# ---------------------------------------------------------------- matching


@pytest.mark.parametrize("cited, record, same", [
    ("Attention is all you need", "Attention Is All You Need", True),
    ("Attention is all you need", "Attention is all you need.", True),
    ("Deep learning in neural networks", "Deep learning in neural networks: An overview", True),  # subtitle left out
    ("Modelling river deltas with graphs", "Modeling river deltas with graphs", True),  # a spelling
    ("Ileal lymphoid nodular hyperplasia", "Ileal-lymphoid-nodular hyperplasia", True),
    ("{BERT}: pre-training of deep bidirectional transformers", "BERT: Pre-training of Deep Bidirectional Transformers", True),
    ("Attention is not all you need", "Attention Is All You Need", False),  # a near miss, another paper
    ("Attention is all you need", "Attention is not all you need: pure attention loses rank", False),
    ("Deep residual learning for image recognition", "Deep residual learning for image segmentation", False),
    ("GPT-3 results on 5 benchmarks", "GPT-3 results on 6 benchmarks", False),
    ("A study of cats", "A study of bats", False),  # short words are not spellings
    ("Deep learning", "Deep learning for everyone", False),  # a word added is not a subtitle
    ("", "Anything", False),
])
def test_titles_match_precisely(cited, record, same):
    assert same_title(cited, record) is same


def test_compare_names_each_field_that_differs():
    reference = Reference(index=1, raw="", title="Long short-term memory", authors=("Hochreiter",), year=1995)
    work = Work(service="crossref", title="Long Short-Term Memory", authors=("Hochreiter", "Schmidhuber"),
                year=1997, years=(1997,))
    assert [(d.field, d.cited, d.record) for d in compare(reference, work)] == [("year", "1995", "1997")]
    other = Reference(index=1, raw="", title="Long short-term memory", authors=("Gödel",), year=1997)
    assert [d.field for d in compare(other, work)] == ["first_author"]
    assert not compare(Reference(index=1, raw="", authors=("van der HOCHREITER",)), work)


@pytest.mark.parametrize("counts, letter", [
    ({"exists": 20}, "A"),
    ({"exists": 19, "mismatch": 1}, "A"),
    ({"exists": 19, "not_found": 1}, "C"),  # one fabricated reference caps the grade
    ({"exists": 9, "mismatch": 1}, "B"),
    ({"exists": 7, "mismatch": 3}, "C"),
    ({"exists": 5, "retracted": 5}, "D"),
    ({"exists": 1, "not_found": 9}, "F"),
    ({"exists": 1, "unverifiable": 9}, "A"),  # what could not be checked is not counted
    ({"unverifiable": 3}, "?"),
])
def test_grade(counts, letter):
    assert grade(counts)[0] == letter


# ---------------------------------------------------------------- service records

CROSSREF_RETRACTED = {
    "status": "ok", "message-type": "work", "message-version": "1.0.0",
    "message": {
        "DOI": "10.1177/1758835920922055", "type": "journal-article", "title": ["A retracted study"],
        "author": [{"given": "A", "family": "Zhang", "sequence": "first", "affiliation": []}],
        "issued": {"date-parts": [[2020, 5]]}, "published-online": {"date-parts": [[2020, 4, 30]]},
        "container-title": ["Therapeutic Advances"], "URL": "https://doi.org/10.1177/1758835920922055",
        "resource": {"primary": {"URL": "https://journals.example.org/doi/10.1177/1758835920922055"}},
        "link": [{"URL": "https://journals.example.org/pdf/1758835920922055.pdf", "content-type": "application/pdf",
                  "content-version": "vor", "intended-application": "text-mining"}],
        "updated-by": [
            {"updated": {"date-parts": [[2024, 3, 1]], "date-time": "2024-03-01T00:00:00Z", "timestamp": 1709251200000},
             "DOI": "10.1177/17588359241234567", "type": "retraction", "source": "publisher", "label": "Retraction"},
            {"updated": {"date-parts": [[2024, 3, 1]], "date-time": "2024-03-01T00:00:00Z", "timestamp": 1709251200000},
             "DOI": "10.1177/17588359241234567", "type": "retraction", "source": "retraction-watch",
             "label": "Retraction", "record-id": "52999"},
            {"updated": {"date-parts": [[2021, 1, 4]]}, "DOI": "10.1177/c1", "type": "correction", "source": "publisher",
             "label": "Correction"},
        ],
    },
}


def test_crossref_record_with_updates():
    work = crossref.parse_work(CROSSREF_RETRACTED["message"])
    assert (work.title, work.authors, work.year, work.years) == ("A retracted study", ("Zhang",), 2020, (2020,))
    assert work.url == "https://journals.example.org/doi/10.1177/1758835920922055"
    assert work.pdf_urls == ("https://journals.example.org/pdf/1758835920922055.pdf",)
    assert work.retracted and len(work.retractions) == 2
    notice = work.retraction_notice()
    assert notice == "Retraction (2024-03-01, Retraction Watch): https://doi.org/10.1177/17588359241234567"


def test_a_correction_or_a_notice_record_is_no_retraction():
    message = json.loads(json.dumps(CROSSREF_RETRACTED["message"]))
    message["updated-by"] = [u for u in message["updated-by"] if u["type"] == "correction"]
    message["update-to"] = [{"DOI": "10.1177/other", "type": "retraction", "updated": {"date-parts": [[2024, 1, 1]]}}]
    assert not crossref.parse_work(message).retracted


def test_crossref_title_markup_is_text():
    work = crossref.parse_work({"DOI": "10.1/x", "title": ["Growth of <i>E. coli</i> at 37&#x2009;°C"],
                                "subtitle": ["<scp>A</scp> study"]})
    assert work.title == "Growth of E. coli at 37 °C: A study"


async def test_an_announced_rate_limit_slows_the_pacer():
    stamps: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        stamps.append(time.monotonic())
        return httpx.Response(404, headers={"X-Rate-Limit-Limit": "4", "X-Rate-Limit-Interval": "1s"})

    http = _http(handler)
    client = crossref.CrossrefClient(http)
    for doi in ("10.1/a", "10.1/b", "10.1/c"):
        await client.work(doi)
    await http.aclose()
    assert all(b - a >= 0.24 for a, b in zip(stamps, stamps[1:]))


@pytest.mark.parametrize("message", [{}, {"DOI": "10.1/x"}, {"title": ["T"]}, {"DOI": "10.1/x", "title": [None]}, []])
def test_malformed_crossref_records(message):
    with pytest.raises(LookupUnavailable):
        crossref.parse_work(message)


ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/x</id><title>arXiv Query</title><updated>2026-01-01T00:00:00Z</updated>
  <opensearch:totalResults>2</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/1706.03762v7</id><updated>2023-08-02T00:41:18Z</updated>
    <published>2017-06-12T17:57:34Z</published><title>Attention Is All
      You Need</title><summary>The dominant ...</summary>
    <author><name>Ashish Vaswani</name></author><author><name>Noam Shazeer</name></author>
    <arxiv:comment>15 pages, 5 figures</arxiv:comment>
    <link href="http://arxiv.org/abs/1706.03762v7" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/1706.03762v7" rel="related" type="application/pdf"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v2</id><updated>1999-02-01T00:00:00Z</updated>
    <published>1999-01-01T00:00:00Z</published><title>An old paper</title>
    <author><name>Jane Roe</name></author>
    <arxiv:comment>This paper has been withdrawn by the author due to an error in eq. 3</arxiv:comment>
  </entry>
</feed>"""


def test_arxiv_feed():
    attention, old = arxiv.parse_feed(ATOM.encode())
    assert (attention.title, attention.authors, attention.arxiv_id, attention.years) == (
        "Attention Is All You Need", ("Vaswani", "Shazeer"), "1706.03762v7", (2017, 2023))
    assert attention.pdf_urls == ("http://arxiv.org/pdf/1706.03762v7",) and not attention.retracted
    assert old.arxiv_id == "hep-th/9901001v2" and old.retracted and "withdrawn" in old.retraction_notice().lower()


def test_arxiv_error_entry_and_throttling():
    error = ATOM.split("<entry>")[0] + ("<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.5</id>"
                                        "<title>Error</title><summary>incorrect id format</summary></entry></feed>")
    assert arxiv.parse_feed(error.encode()) == []
    with pytest.raises(LookupUnavailable):
        arxiv.parse_feed(b"Rate exceeded.")


def test_openalex_work_with_open_access_and_arxiv_location():
    work = openalex.parse_work({
        "id": "https://openalex.org/W2194775991", "doi": "https://doi.org/10.1109/CVPR.2016.90",
        "display_name": "Deep Residual Learning for Image Recognition", "publication_year": 2016,
        "authorships": [{"author_position": "first", "author": {"display_name": "Kaiming He"}}],
        "primary_location": {"is_oa": False, "landing_page_url": "https://doi.org/10.1109/cvpr.2016.90",
                             "source": {"display_name": "CVPR"}},
        "best_oa_location": {"is_oa": True, "pdf_url": "https://arxiv.org/pdf/1512.03385"},
        "locations": [{"is_oa": True, "landing_page_url": "https://arxiv.org/abs/1512.03385",
                       "pdf_url": "https://arxiv.org/pdf/1512.03385"}],
        "is_retracted": False,
    })
    assert (work.doi, work.authors, work.year, work.venue, work.arxiv_id) == (
        "10.1109/cvpr.2016.90", ("He",), 2016, "CVPR", "1512.03385")
    assert work.pdf_urls == ("https://arxiv.org/pdf/1512.03385",) and not work.retracted
    flagged = openalex.parse_work({"display_name": "X", "is_retracted": True})
    assert flagged.retracted and flagged.retraction_notice() == "marked retracted by openalex"


# ---------------------------------------------------------------- the HTTP client


def test_retry_after_reads_seconds_and_http_dates():
    assert retry_after("7") == 7.0 and retry_after("") is None and retry_after("soon") is None
    now = 1_700_000_000.0
    assert retry_after("Tue, 14 Nov 2023 22:13:40 GMT", now=now) == pytest.approx(20.0)


def _http(handler, **changes) -> ScholarlyHTTP:
    values = {"retries": 2, "backoff": 0.01, "crossref_interval": 0.0, "arxiv_interval": 0.0, "openalex_interval": 0.0,
              "scholarly_contact": "me@example.org", **changes}
    settings = Settings(**values)
    return ScholarlyHTTP(settings, transport=httpx.MockTransport(handler))


async def test_429_then_ok_waits_for_retry_after_and_sends_a_polite_agent():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if len(seen) == 1:
            return httpx.Response(429, headers={"Retry-After": "0.3"})
        return httpx.Response(200, json=CROSSREF_RETRACTED)

    http = _http(handler)
    started = time.monotonic()
    work = await crossref.CrossrefClient(http).work("10.1177/1758835920922055")
    await http.aclose()
    assert work is not None and work.retracted
    assert time.monotonic() - started >= 0.3 and len(seen) == 2
    assert "mailto:me@example.org" in seen[0].headers["user-agent"]
    assert seen[0].url.params["mailto"] == "me@example.org"


async def test_a_long_retry_after_gives_up_at_once():
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(429, headers={"Retry-After": "600"})

    http = _http(handler)
    with pytest.raises(LookupUnavailable, match="rate-limiting"):
        await crossref.CrossrefClient(http).work("10.1/x")
    await http.aclose()
    assert len(calls) == 1


async def test_not_found_is_none_and_a_server_error_is_unavailable():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404 if "missing" in str(request.url) else 500)

    http = _http(handler)
    assert await crossref.CrossrefClient(http).work("10.1/missing") is None
    with pytest.raises(LookupUnavailable, match="HTTP 500"):
        await crossref.CrossrefClient(http).work("10.1/broken")
    await http.aclose()


async def test_requests_to_one_service_are_paced():
    stamps: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        stamps.append(time.monotonic())
        return httpx.Response(200, text=ATOM)

    http = _http(handler, arxiv_interval=0.2)
    client = arxiv.ArxivClient(http)
    await asyncio.gather(*(client.paper(f"1706.0376{i}") for i in range(3)))
    await http.aclose()
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert len(stamps) == 3 and all(gap >= 0.19 for gap in gaps)


async def test_a_public_only_client_refuses_loopback():
    settings = Settings(crossref_api="http://127.0.0.1:9/", retries=0)
    http = ScholarlyHTTP(settings)
    with pytest.raises(LookupUnavailable, match="non-public"):
        await crossref.CrossrefClient(http).work("10.1/x")
    await http.aclose()
