"""Turn an answer (Markdown, HTML or structured JSON) into claims with their citations."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from citemark.answer.html import parse_html
from citemark.answer.markdown import parse_markdown
from citemark.answer.structured import parse_structured
from citemark.errors import AnswerFormatError
from citemark.sources.classify import citation_for, rebase
from citemark.types import Citation, ParsedAnswer

__all__ = ["FORMATS", "detect_format", "parse_answer", "rebased", "source_citations"]

FORMATS = ("markdown", "html", "json")


def detect_format(content: str) -> str:
    stripped = content.lstrip()
    if stripped[:1] in "[{":
        try:
            json.loads(stripped)
            return "json"
        except RecursionError:
            return "json"  # JSON, nested too deeply: parse_structured says so
        except ValueError:
            pass
    head = stripped[:2000].lower()
    if stripped.startswith("<") and any(t in head for t in ("<p", "<div", "<a ", "<html", "<span", "<li", "<ol", "<ul", "<body")):
        return "html"
    return "markdown"


def parse_answer(
    content: str,
    fmt: str | None = None,
    *,
    page_url: str | None = None,
    sources: Mapping[str, str] | None = None,
    base: Path | None = None,
) -> ParsedAnswer:
    """Claims and citations of ``content``; ``fmt`` None means detect it.

    ``sources`` (a ``url_map``: marker such as ``1`` or ``id:x`` → URL, DOI,
    arXiv id, path or the source text) resolves markers the answer does not
    define itself. ``base`` is the folder relative paths are read from (the
    answer file's folder, in the CLI); without it they stay relative.
    """
    if not isinstance(content, str):
        raise AnswerFormatError("answer content must be a string")
    source_map = source_citations(sources)
    fmt = fmt or detect_format(content)
    if fmt == "markdown":
        parsed = parse_markdown(content, source_map)
    elif fmt == "html":
        parsed = parse_html(content, page_url, source_map)
    elif fmt == "json":
        parsed = parse_structured(content, source_map)
    else:
        raise AnswerFormatError(f"unknown answer format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return parsed if base is None else rebased(parsed, base)


def source_citations(sources: Mapping[str, str] | None) -> dict[str, Citation]:
    """A ``url_map`` as marker → Citation, each value read by ``sources.classify``."""
    if sources is None:
        return {}
    if not isinstance(sources, Mapping):
        raise AnswerFormatError("sources must map markers to URLs, paths or source text")
    result: dict[str, Citation] = {}
    for key, value in sources.items():
        if not isinstance(key, str) or not isinstance(value, str) or not value.strip():
            raise AnswerFormatError(f"source {key!r}: needs a non-empty string")
        marker = key.strip().strip("[]").lower()
        result[marker] = citation_for(value, marker=marker)
    return result


def rebased(parsed: ParsedAnswer, base: Path) -> ParsedAnswer:
    """``parsed`` with its relative paths read from ``base`` (the folder of the answer that cites them)."""
    claims = tuple(replace(claim, citations=tuple(rebase(c, base) for c in claim.citations)) for claim in parsed.claims)
    return replace(parsed, claims=claims)
