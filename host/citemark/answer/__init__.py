"""Turn an answer (Markdown, HTML or structured JSON) into claims with their citations."""

from __future__ import annotations

import json

from citemark.answer.html import parse_html
from citemark.answer.markdown import parse_markdown
from citemark.answer.structured import parse_structured
from citemark.errors import AnswerFormatError
from citemark.types import ParsedAnswer

__all__ = ["FORMATS", "detect_format", "parse_answer"]

FORMATS = ("markdown", "html", "json")


def detect_format(content: str) -> str:
    stripped = content.lstrip()
    if stripped[:1] in "[{":
        try:
            json.loads(stripped)
            return "json"
        except ValueError:
            pass
    head = stripped[:2000].lower()
    if stripped.startswith("<") and any(t in head for t in ("<p", "<div", "<a ", "<html", "<span", "<li", "<ol", "<ul", "<body")):
        return "html"
    return "markdown"


def parse_answer(content: str, fmt: str | None = None, *, page_url: str | None = None) -> ParsedAnswer:
    """Claims and citations of ``content``; ``fmt`` None means detect it."""
    if not isinstance(content, str):
        raise AnswerFormatError("answer content must be a string")
    fmt = fmt or detect_format(content)
    if fmt == "markdown":
        return parse_markdown(content)
    if fmt == "html":
        return parse_html(content, page_url)
    if fmt == "json":
        return parse_structured(content)
    raise AnswerFormatError(f"unknown answer format {fmt!r}; expected one of {', '.join(FORMATS)}")
