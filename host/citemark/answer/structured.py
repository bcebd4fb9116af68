"""Structured answers: ``[{"claim": ..., "url": ...}]`` and ``{"claim", "source_text"}`` JSON.

Accepted shapes: a list of items, ``{"claims": [...]}``, or one item. An item has
``claim`` and one of ``url`` / ``urls`` / ``source`` (a URL, else inline text) /
``source_text`` / ``path`` (a local file; only where local files are allowed).
"""

from __future__ import annotations

import json
import re
from typing import Any

from citemark.errors import AnswerFormatError
from citemark.types import Citation, Claim, ParsedAnswer

__all__ = ["parse_structured"]


def parse_structured(content: str | list | dict) -> ParsedAnswer:
    data: Any = content
    if isinstance(content, str):
        try:
            data = json.loads(content)
        except ValueError as error:
            raise AnswerFormatError(f"not valid JSON: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("claims"), list):
        data = data["claims"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise AnswerFormatError("expected a list of {claim, url} objects")
    claims = []
    for index, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("claim"), str) or not item["claim"].strip():
            raise AnswerFormatError(f"item {index}: needs a non-empty string 'claim'")
        claims.append(Claim(text=item["claim"].strip(), citations=_citations(item, index), index=index))
    return ParsedAnswer(claims=tuple(claims), format="json")


def _citations(item: dict, index: int) -> tuple[Citation, ...]:
    marker = str(item.get("marker") or index + 1)
    title = item.get("title") if isinstance(item.get("title"), str) else None
    found: list[Citation] = []
    urls = item.get("urls") if isinstance(item.get("urls"), list) else [item.get("url")] if item.get("url") else []
    for url in urls:
        if not isinstance(url, str):
            raise AnswerFormatError(f"item {index}: url must be a string")
        found.append(Citation(marker=marker, url=url.strip(), title=title))
    source = item.get("source")
    if isinstance(source, str) and source.strip():
        if re.match(r"(?i)^\s*(?:https?://|doi:|10\.\d{4,9}/|arxiv:)", source):
            found.append(Citation(marker=marker, url=source.strip(), title=title))
        else:
            found.append(Citation(marker=marker, text=source, title=title))
    if isinstance(item.get("source_text"), str):
        found.append(Citation(marker=marker, text=item["source_text"], title=title))
    if isinstance(item.get("path"), str):
        found.append(Citation(marker=marker, path=item["path"], title=title))
    if not found:
        raise AnswerFormatError(f"item {index}: needs 'url', 'source', 'source_text' or 'path'")
    return tuple(found)
