"""Extraction of real bytes: HTML pages, PDFs (with a decompression bomb), paywalls, retractions."""

from __future__ import annotations

import zlib

import pytest

from citemark.errors import ExtractionError
from citemark.sources.extract import extract, retraction_notice, sniff_kind
from tests.support.pdf import make_pdf

ARTICLE = """<!doctype html><html><head><title>Bees – Science Daily</title>
<meta property="og:title" content="Bees can count to four"></head><body>
<nav><a href="/">Home</a><a href="/news">News</a><a href="/about">About</a></nav>
<article><h1>Bees can count to four</h1>
<p>Researchers at the University of Example found that honey bees can count up to four landmarks.</p>
<p>The study, published in 2024, tested 120 bees in a tunnel with yellow markers.</p>
<p>Bees that learned the task found food more often than those that did not.</p></article>
<footer>Copyright 2024 Science Daily. All rights reserved. Cookie settings.</footer></body></html>"""


@pytest.mark.parametrize("extractor", ["auto", "trafilatura", "selectolax"])
def test_html_main_text_without_boilerplate(extractor):
    document = extract(ARTICLE.encode(), url="https://s.example/bees", content_type="text/html", extractor=extractor)
    assert "120 bees" in document.text
    assert "Cookie settings" not in document.text
    assert document.title == "Bees can count to four"
    assert not document.paywalled and document.retracted is None


def test_paywalled_teaser_is_detected():
    html = """<html><head><script type="application/ld+json">{"@type": "NewsArticle", "isAccessibleForFree": false}</script>
    </head><body><article><h1>Markets fall</h1><p>Stocks fell sharply on Monday as investors worried about rates.</p>
    <div class="paywall">Subscribe to continue reading. Already a subscriber? Log in.</div></article></body></html>"""
    document = extract(html.encode(), url="https://n.example/a", content_type="text/html")
    assert document.paywalled


def test_a_long_free_article_with_a_subscribe_banner_is_not_paywalled():
    body = "".join(f"<p>Paragraph {i} of a long free article about rivers and lakes in Europe.</p>" for i in range(60))
    html = f"<html><body><article>{body}<aside>Subscribe to continue reading our newsletter</aside></article></body></html>"
    assert not extract(html.encode(), url="https://n.example/b", content_type="text/html").paywalled


def test_retraction_notices_are_found_in_title_or_opening_text():
    assert retraction_notice("RETRACTED: Vaccines and autism", "") == "RETRACTED: Vaccines and autism"
    assert retraction_notice("A study", "Notice\nThis article has been retracted at the request of the editors.\nAbstract")
    assert retraction_notice("A study of retraction rates", "We count retractions per year.") is None


def test_pdf_text_keeps_page_starts():
    pdf = make_pdf(["First page says alpha.", "Second page says beta."], title="Greek letters")
    document = extract(pdf, url="https://p.example/x.pdf", content_type="application/pdf")
    assert document.kind == "pdf" and document.title == "Greek letters"
    beta = document.text.index("beta")
    assert document.page_of(beta) == 2 and document.page_of(0) == 1


def test_pdf_is_recognised_by_its_magic_bytes_whatever_the_content_type():
    pdf = make_pdf(["Magic bytes decide."])
    assert extract(pdf, url="https://p.example/x", content_type="application/octet-stream").kind == "pdf"


def test_a_pdf_decompression_bomb_is_refused_or_emptied_without_blowing_up():
    bomb_stream = zlib.compress(b"BT (A) Tj ET\n" + b" " * 200_000_000, 9)
    pdf = make_pdf(["placeholder"], compress=False).replace(
        b"<< /Length 58 >>", b"<< /Length %d /Filter /FlateDecode >>" % len(bomb_stream), 1
    )
    start = pdf.index(b"stream\n") + len(b"stream\n")
    end = pdf.index(b"\nendstream")
    pdf = pdf[:start] + bomb_stream + pdf[end:]
    try:
        document = extract(pdf, url="https://p.example/bomb.pdf", content_type="application/pdf")
    except ExtractionError:
        return
    assert len(document.text) < 1_000_000


def test_garbage_pdf_is_an_extraction_error():
    with pytest.raises(ExtractionError):
        extract(b"%PDF-1.4 this is not really a pdf", url="https://p.example/bad.pdf", content_type="application/pdf")


def test_unsupported_types_are_extraction_errors():
    with pytest.raises(ExtractionError, match="image/png"):
        sniff_kind("image/png", b"\x89PNG\r\n")


def test_invalid_utf8_is_replaced_not_fatal():
    document = extract(b"<html><body><p>Caf\xe9 \xff\xfe ok text here for the claim.</p></body></html>",
                       url="https://x.example", content_type="text/html; charset=utf-8")
    assert "ok text here" in document.text


def test_javascript_only_pages_have_no_text():
    html = b"<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id=root></div></body></html>"
    document = extract(html, url="https://spa.example", content_type="text/html")
    assert document.text == ""
