"""HTML answers (what the browser extension sends) → claims with citations, via selectolax.

The claim is the sentence that contains the link. A link whose text only names
the source (a domain, a number, a "pill", anything inside ``<sup>`` or marked
``data-citemark-pill`` by the extension's site adapter) leaves the claim text;
other link text stays in it. In-page footnote links (``href="#fn1"``) and text
markers ``[1]`` resolve through the answer's own source list. Elements the
extension drew itself (``data-citemark-ui``), code, scripts and styles are
never read. The walk is iterative, so hostile nesting depth cannot crash it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from citemark.answer.claims import Mark, assemble
from citemark.answer.markdown import _MARKERS, _is_pill, _marker_numbers, _source_list
from citemark.sources import nesting
from citemark.sources.classify import citation_for
from citemark.types import Citation, ParsedAnswer

__all__ = ["parse_html"]

_BLOCKS = frozenset(
    ["p", "div", "section", "article", "main", "li", "ul", "ol", "dl", "dd", "dt", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "thead", "tbody", "header", "footer", "aside", "nav", "figure", "figcaption", "details", "summary", "hr", "br"]
)
_SKIP = frozenset(["script", "style", "noscript", "template", "pre", "svg", "button", "math", "textarea", "select", "head"])
_PILL_HINT = re.compile(r"citation|source|footnote|cite|reference", re.IGNORECASE)
_SOURCES_LINE = re.compile(r"^\s*(?:sources|references|citations|footnotes|notes)\s*:?\s*$", re.IGNORECASE)


def parse_html(html: str, page_url: str | None = None, sources: dict[str, Citation] | None = None) -> ParsedAnswer:
    tree = LexborHTMLParser(nesting.bounded(html))  # a hostile answer nested 27,000 levels deep parses in linear time
    root = tree.body or tree.root
    if root is None:
        return ParsedAnswer(claims=(), format="html")
    footnotes = _footnotes(tree, page_url)
    referenced = _referenced_ids(root, footnotes)
    out: list[str] = []
    marks: list[Mark] = []
    length = 0

    def emit(text: str) -> None:
        """Append text with whitespace already normalised, so mark positions are final."""
        nonlocal length
        last = out[-1][-1] if out else "\n"
        if text == "\n":
            while out and out[-1].endswith(" "):
                out[-1] = out[-1][:-1]
                length -= 1
            if last == "\n" or not out:
                return
        elif last in " \n":
            text = text.lstrip(" ")
        if text:
            out.append(text)
            length += len(text)

    stack: list[tuple[LexborNode, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        tag = node.tag or ""
        if leaving:
            if tag in _BLOCKS:
                emit("\n")
            continue
        if tag == "-text":
            emit(re.sub(r"\s+", " ", node.text_content or ""))
            continue
        if tag.startswith("-") or tag in _SKIP or _drawn_by_extension(node):
            continue
        if node.attributes.get("id") in referenced:
            continue  # a footnote's definition: its link is the citation of the text that points here
        if tag in _BLOCKS:
            emit("\n")
        if tag == "a" and node.attributes.get("href") is not None:
            citation, text, pill = _anchor(node, page_url, footnotes)
            if not pill:
                emit(text)
            if citation is not None:
                marks.append(Mark(length, citation=citation))
            elif text and _MARKERS.fullmatch(text):
                for marker in _marker_numbers(text):
                    marks.append(Mark(length, marker=marker))
            continue
        stack.append((node, True))
        children = []
        child = node.child
        while child is not None:
            children.append(child)
            child = child.next
        stack.extend((c, False) for c in reversed(children))

    text = "".join(out)
    body_end, definitions = _sources_section(text, marks)
    body_text = text[:body_end]
    body_marks = [m for m in marks if m.position <= body_end] + _text_markers(body_text)
    plain, body_marks = _remove_text_markers(body_text, body_marks)
    for key, citation in (sources or {}).items():
        definitions.setdefault(key.lower(), citation)
    return assemble(plain, body_marks, definitions, "html")


def _anchor(node: LexborNode, page_url: str | None, footnotes: dict[str, Citation]) -> tuple[Citation | None, str, bool]:
    href = (node.attributes.get("href") or "").strip()
    text = re.sub(r"\s+", " ", node.text(separator=" ") or "").strip()
    ref = node.attributes.get("data-citemark-ref")
    title = node.attributes.get("title") or node.attributes.get("aria-label") or None
    pill = _looks_like_pill(node, text, href)
    if href.startswith("#"):
        target = footnotes.get(href[1:])
        if target is None:
            return None, text, pill or bool(_MARKERS.fullmatch(text))
        return Citation(marker=text.strip("[]^") or None, url=target.url, title=target.title, ref=ref), text, True
    if not href or href.lower().startswith(("javascript:", "mailto:", "tel:", "data:")):
        return None, text, False
    title = title if title != text else None
    if href.startswith("//"):  # protocol-relative
        href = "https:" + href
    if page_url:
        href = urljoin(page_url, href)
    # The one classifier decides: an arXiv link is its PDF; a relative link with no page to resolve it
    # against is a path, which only the CLI reads.
    return replace(citation_for(href, marker=text or None, title=title, inline_text=False), ref=ref), text, pill


def _looks_like_pill(node: LexborNode, text: str, href: str) -> bool:
    if "data-citemark-pill" in node.attributes:
        return True
    if _is_pill(text, href):
        return True
    parent = node.parent
    for element in (node, parent):
        if element is None:
            continue
        if element.tag == "sup":
            return True
        hints = " ".join(str(element.attributes.get(a) or "") for a in ("class", "data-testid", "role"))
        if _PILL_HINT.search(hints):
            return True
    return False


def _referenced_ids(root: LexborNode, footnotes: dict[str, Citation]) -> set[str]:
    """Ids of footnote definitions that an in-answer link points at."""
    ids = set()
    for link in root.css('a[href^="#"]'):
        target = (link.attributes.get("href") or "")[1:]
        if target in footnotes:
            ids.add(target)
    return ids


def _drawn_by_extension(node: LexborNode) -> bool:
    return "data-citemark-ui" in node.attributes


def _footnotes(tree: LexborHTMLParser, page_url: str | None) -> dict[str, Citation]:
    """``id -> citation`` for elements with an id that hold an external link (footnote lists).

    Each element gets the first link inside it. Links are walked in document
    order up through their ancestors, stopping at an ancestor already given a
    link (its own ancestors were given one by the same earlier walk), so deep
    nesting costs one visit per element, not one search per element.
    """
    result: dict[str, Citation] = {}
    visited: set[int] = set()
    for link in tree.css('a[href^="http"]'):
        href = link.attributes.get("href") or ""
        title = re.sub(r"\s+", " ", link.text(separator=" ") or "").strip() or None
        citation = Citation(url=urljoin(page_url, href) if page_url else href, title=title)
        element: LexborNode | None = link
        while element is not None and element.mem_id not in visited:
            visited.add(element.mem_id)
            identifier = element.attributes.get("id") if element.tag and not element.tag.startswith("-") else None
            if identifier is not None:
                result.setdefault(identifier, citation)
            element = element.parent
    return result


def _sources_section(text: str, marks: list[Mark]) -> tuple[int, dict[str, Citation]]:
    """Where the answer's source list starts, and its entries as marker definitions."""
    lines = list(re.finditer(r"[^\n]*", text))
    for line in reversed(lines):
        if _SOURCES_LINE.match(line.group(0)):
            start = line.start()
            definitions: dict[str, Citation] = {}
            list_marks = [m for m in marks if m.position >= start and m.citation]
            for number, mark in enumerate(list_marks, 1):
                assert mark.citation is not None
                definitions[str(number)] = mark.citation
            section_text = text[line.end() :]
            for key, citation in _source_list(section_text).items():
                definitions.setdefault(key, citation)
            return start, definitions
    return len(text), {}


def _text_markers(text: str) -> list[Mark]:
    """``[1]`` markers written as plain text (answers that number their sources)."""
    return [
        Mark(match.start(), marker=marker)
        for match in _MARKERS.finditer(text)
        for marker in _marker_numbers(match.group(0))
    ]


def _remove_text_markers(text: str, marks: list[Mark]) -> tuple[str, list[Mark]]:
    """The text without marker text, and every mark moved to its place in that text (one sorted pass)."""
    spans = [(m.start(), m.end()) for m in _MARKERS.finditer(text)]
    moved = []
    removed, next_span = 0, 0  # characters removed by the spans wholly before the current mark
    for mark in sorted(marks, key=lambda m: m.position):
        while next_span < len(spans) and spans[next_span][1] <= mark.position:
            removed += spans[next_span][1] - spans[next_span][0]
            next_span += 1
        shift = removed
        if next_span < len(spans) and spans[next_span][0] < mark.position:
            shift += mark.position - spans[next_span][0]  # a mark inside a marker moves to its start
        moved.append(Mark(mark.position - shift, mark.citation, mark.marker))
    return _MARKERS.sub("", text), moved
