"""Fetched bytes → the text citemark quotes from, plus what the page says about itself.

HTML goes through trafilatura (main content, boilerplate out) with a selectolax
fallback for pages trafilatura returns too little of; ``extractor="selectolax"``
uses the cheap path alone (``bench/extraction.py`` compares them). PDFs go
through pypdf (BSD) page by page, within its decompression limits, a page cap
and a time budget. The returned ``Document.text`` is the reference every
evidence offset points into.

Also detected here, from the page itself: paywalls/login walls, retraction
notices, and pages with no readable text (JS-only, scanned PDFs).
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import re
import time

from selectolax.lexbor import LexborHTMLParser as HTMLParser

from citemark.errors import ExtractionError
from citemark.sources import nesting
from citemark.types import Document

__all__ = ["citation_pdf_url", "extract", "html_to_text", "pdf_to_text", "sniff_kind"]

log = logging.getLogger(__name__)

#: Less readable text than this means the page could not be judged.
MIN_TEXT_CHARS = 40
#: trafilatura's cost grows quickly with page size; beyond this the cheap extractor reads the page.
TRAFILATURA_MAX_CHARS = 3_000_000

_BLOCK_TAGS = (
    "p", "div", "section", "article", "main", "li", "dd", "dt", "blockquote", "pre", "tr",
    "h1", "h2", "h3", "h4", "h5", "h6", "br", "td", "th", "figcaption", "caption", "table",
    "ul", "ol", "header", "footer", "aside", "nav", "hr",
)
_DROP_TAGS = ("script", "style", "noscript", "template", "svg", "iframe", "nav", "footer", "form", "button", "head")
_PAYWALL_PHRASES = re.compile(
    r"subscribe (?:now )?to (?:continue|keep) reading|subscribers only|for subscribers|"
    r"already a subscriber|log ?in to (?:continue|read)|sign in to (?:continue|read)|"
    r"create (?:a )?free account to (?:continue|read)|purchase (?:this )?(?:article|access)|"
    r"access through your institution|get full access|this content is (?:only )?available to subscribers|"
    r"to read the full (?:article|story)",
    re.IGNORECASE,
)
_RETRACTION = re.compile(
    # [ \t], not \s, at the line starts: \s would run across a page's blank lines and backtrack quadratically.
    r"^[ \t]*(?:retracted(?: article)?[ \t]*[:\-]|retraction(?: notice)?[ \t]*(?:[:\-]|to|of|for)|"
    r"notice of retraction|withdrawn[ \t]*[:\-])|"
    r"this (?:article|paper|study) has been retracted|"
    r"^[ \t]*(?:editorial )?expression of concern\b",
    re.IGNORECASE | re.MULTILINE,
)
_JS_ONLY = re.compile(r"enable javascript|requires javascript|javascript is (?:disabled|required)", re.IGNORECASE)


def sniff_kind(content_type: str, body: bytes, url: str = "") -> str:
    """``html`` | ``pdf`` | ``text``; raise ExtractionError for anything else."""
    mime = content_type.split(";", 1)[0].strip().lower()
    if body[:5] == b"%PDF-" or mime == "application/pdf":
        return "pdf"
    if mime in {"text/html", "application/xhtml+xml"} or (not mime and body.lstrip()[:1] == b"<"):
        return "html"
    if mime.startswith("text/") or mime in {"application/json", "application/xml"}:
        return "text"
    if not mime and url.lower().endswith((".txt", ".md")):
        return "text"
    raise ExtractionError(f"cannot read a source of type {mime or 'unknown'}")


def extract(
    body: bytes,
    *,
    url: str,
    content_type: str = "",
    extractor: str = "auto",
    max_chars: int = 2_000_000,
    max_pdf_pages: int = 400,
    time_budget: float = 20.0,
) -> Document:
    """Read ``body`` into a Document (raises ExtractionError when nothing is readable)."""
    kind = sniff_kind(content_type, body, url)
    if kind == "pdf":
        text, title, pages = pdf_to_text(body, max_pages=max_pdf_pages, time_budget=time_budget)
        text, pages = text[:max_chars], tuple(p for p in pages if p < max_chars)
        document = Document(url=url, text=text, title=title, kind="pdf", page_starts=pages)
    elif kind == "html":
        html = _decode(body, content_type)
        text, title, paywalled = html_to_text(html, url=url, extractor=extractor)
        document = Document(url=url, text=text[:max_chars], title=title, kind="html", paywalled=paywalled,
                            pdf_link=citation_pdf_url(html))
    else:
        text = _decode(body, content_type).replace("\r\n", "\n")
        document = Document(url=url, text=text[:max_chars], kind="text")
    notice = retraction_notice(document.title or "", document.text)
    if notice:
        document = dataclasses.replace(document, retracted=notice)
    return document


def html_to_text(html: str, *, url: str = "", extractor: str = "auto") -> tuple[str, str | None, bool]:
    """Main text, title, and whether the page is behind a paywall or login."""
    html = nesting.bounded(html)
    tree = HTMLParser(html)
    title = _title(tree)
    paywall_marked = _marked_not_free(tree)
    fallback = selectolax_text(tree)
    text = ""
    if extractor in {"auto", "trafilatura"} and len(html) <= TRAFILATURA_MAX_CHARS:
        text = _trafilatura_text(html, url)
    if extractor == "selectolax" or (extractor == "auto" and len(text) < min(200, len(fallback) // 2)):
        text = fallback
    teaser = len(text) < 1500
    paywalled = teaser and (paywall_marked or bool(_PAYWALL_PHRASES.search(fallback)))
    if len(text) < 300 and _JS_ONLY.search(text or html):
        text = ""  # only a "please enable JavaScript" shell was served
    return text, title, paywalled


def _trafilatura_text(html: str, url: str) -> str:
    import trafilatura  # imported late: it costs ~0.3 s, the host must answer hello first

    try:
        result = trafilatura.extract(
            html, url=url or None, output_format="txt", include_comments=False,
            include_tables=True, favor_recall=True, deduplicate=False,
        )
    except Exception as error:  # trafilatura raises assorted parser errors on broken HTML
        log.warning("trafilatura failed on %s: %s", url, error)
        return ""
    return result or ""


def selectolax_text(tree: HTMLParser) -> str:
    """Visible text, one block per line (the cheap extractor)."""
    root = tree.body or tree.root
    if root is None:
        return ""
    root = root.clone() if hasattr(root, "clone") else root
    for tag in _DROP_TAGS:
        for node in root.css(tag):
            node.decompose()
    for node in root.css(",".join(_BLOCK_TAGS)):
        node.insert_before("\n")
        node.insert_after("\n")
    raw = root.text(separator="", strip=False)
    lines = (re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in raw.splitlines())
    return "\n".join(line for line in lines if line)


def pdf_to_text(body: bytes, *, max_pages: int = 400, time_budget: float = 20.0,
                unwrap: bool = True) -> tuple[str, str | None, tuple[int, ...]]:
    """Text of each page joined with blank lines, the title, and each page's start offset.

    ``unwrap=False`` keeps the PDF's lines: a reference list is read line by line.
    """
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    started = time.monotonic()
    try:
        reader = PdfReader(io.BytesIO(body))
        if reader.is_encrypted:
            reader.decrypt("")
        count = len(reader.pages)
        title = (reader.metadata.title if reader.metadata else None) or None
    except (PyPdfError, ValueError, KeyError, TypeError, RecursionError, OSError) as error:
        raise ExtractionError(f"unreadable PDF: {error}") from None
    parts: list[str] = []
    starts: list[int] = []
    offset = 0
    for index in range(min(count, max_pages)):
        if time.monotonic() - started > time_budget:
            log.warning("PDF text cut after %d of %d pages (time budget)", index, count)
            break
        try:
            page_text = reader.pages[index].extract_text() or ""
        except (PyPdfError, ValueError, KeyError, TypeError, RecursionError, OSError) as error:
            log.warning("PDF page %d unreadable: %s", index + 1, error)
            page_text = ""
        page_text = _unwrap(page_text) if unwrap else page_text.strip()
        starts.append(offset)
        parts.append(page_text)
        offset += len(page_text) + 2
    return "\n\n".join(parts), (str(title).strip() or None) if title else None, tuple(starts)


def _unwrap(text: str) -> str:
    """Join hard-wrapped PDF lines into paragraphs; keep blank-line breaks."""
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)
    text = re.sub(r"[ \t]*\n(?!\s*\n)[ \t]*", " ", text)
    return re.sub(r"\n\s*\n+", "\n", text).strip()


def retraction_notice(title: str, text: str) -> str | None:
    """The retraction / expression-of-concern notice a source carries, if any."""
    for candidate in (title, text[:3000]):
        match = _RETRACTION.search(candidate or "")
        if match:
            line_start = candidate.rfind("\n", 0, match.start()) + 1
            line_end = candidate.find("\n", match.end())
            return candidate[line_start : line_end if line_end != -1 else None].strip()[:300]
    return None


def citation_pdf_url(html: str) -> str | None:
    """The ``<meta name="citation_pdf_url">`` of a scholarly landing page (Google Scholar's tag), if any."""
    if "citation_pdf_url" not in html:
        return None
    node = HTMLParser(html).css_first('meta[name="citation_pdf_url"]')
    content = (node.attributes.get("content") or "").strip() if node else ""
    return content[:2000] or None


def _title(tree: HTMLParser) -> str | None:
    for selector in ('meta[property="og:title"]', 'meta[name="citation_title"]'):
        node = tree.css_first(selector)
        if node and node.attributes.get("content"):
            return node.attributes["content"].strip()
    node = tree.css_first("title")
    return node.text(strip=True) or None if node else None


def _marked_not_free(tree: HTMLParser) -> bool:
    """schema.org ``isAccessibleForFree: false``, as news sites mark paywalled articles."""
    for node in tree.css('script[type="application/ld+json"]'):
        raw = node.text() or ""
        if "isAccessibleForFree" not in raw:
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            return bool(re.search(r'"isAccessibleForFree"\s*:\s*"?false', raw, re.IGNORECASE))
        items = data if isinstance(data, list) else [data]
        for item in items:
            if isinstance(item, dict) and str(item.get("isAccessibleForFree", "")).lower() == "false":
                return True
    return False


def _decode(body: bytes, content_type: str) -> str:
    """The body as text in its declared charset (header, then meta tag); a charset Python
    cannot decode text with (unknown, ``undefined``, ``idna``, ``base64``) is passed over."""
    head = body[:2048].decode("ascii", errors="ignore")
    for declared in (re.search(r"charset=([\w.-]+)", content_type or "", re.IGNORECASE),
                     re.search(r"""<meta[^>]+charset=["']?([\w.-]+)""", head, re.IGNORECASE)):
        if declared:
            try:
                return body.decode(declared.group(1), errors="replace")
            except (LookupError, ValueError):  # ValueError: UnicodeError of codecs without "replace"
                continue
    return body.decode("utf-8", errors="replace")

