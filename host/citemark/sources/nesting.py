"""Bounding how deeply hostile HTML nests before an HTML parser sees it.

HTML parsers slow down sharply with nesting depth: lexbor takes 26 s on 100,000
nested ``<div>`` s (1 MB), so an 11 MB page of them would hold a worker for
minutes. Real pages nest a few dozen levels. ``bounded`` measures the depth
with one linear scan of the tags and, past ``MAX_DEPTH``, removes the structure
that carries no text — container tags — keeping the text, the block breaks and
the elements whose content must stay dropped (scripts, styles).

Run ``python -m citemark.sources.nesting`` for a demonstration.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DEPTH", "bounded", "depth"]

MAX_DEPTH = 256

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)\b[^>]*?(/?)>")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                   "source", "track", "wbr"})
#: Kept when flattening: their content is dropped or read specially by the extractors.
_KEPT = frozenset({"html", "head", "body", "title", "meta", "script", "style", "noscript", "template", "svg",
                   "a", "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "code"})
#: Kept in the last resort: their content must stay out of the text.
_DROPPED = frozenset({"html", "head", "body", "title", "meta", "script", "style", "noscript", "template", "svg"})
_BLOCK = frozenset({"div", "section", "article", "main", "aside", "header", "footer", "nav", "ul", "ol",
                    "table", "tr", "td", "th", "blockquote", "dd", "dt", "dl", "figure", "figcaption"})


def depth(html: str) -> int:
    """The deepest open-tag nesting (void and self-closed tags do not nest)."""
    current = deepest = 0
    for match in _TAG.finditer(html):
        closing, name, self_closed = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            current = max(0, current - 1)
        elif not self_closed and name not in _VOID:
            current += 1
            deepest = max(deepest, current)
    return deepest


def bounded(html: str) -> str:
    """``html`` itself when it nests at most ``MAX_DEPTH`` levels, else its text without container tags.

    Flattened, a page loses containers only: text, paragraphs, headings, list
    items, links and the dropped elements stay, so the extractors still find
    the text (and the paywall and retraction markers) they would have found.
    """
    if depth(html) <= MAX_DEPTH:
        return html
    flat = _without_tags(html, _KEPT)
    if depth(flat) <= MAX_DEPTH:
        return flat
    return _without_tags(flat, _DROPPED)  # nested links or list items: the text alone


def _without_tags(html: str, kept: frozenset[str]) -> str:
    def keep_or_break(match: re.Match[str]) -> str:
        name = match.group(2).lower()
        if name in kept:
            return match.group(0)
        return "\n" if name in _BLOCK or name in _KEPT else " "

    return _TAG.sub(keep_or_break, html)


if __name__ == "__main__":
    page = "<div>" * 1000 + "<p>The river is 120 km long.</p>" + "</div>" * 1000
    print(f"depth {depth(page)} → {depth(bounded(page))}: {bounded(page).strip()[:60]!r}")
