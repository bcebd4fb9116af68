"""Structured answers: JSON claims with their sources, in citemark's and the seed verifiers' shapes.

Accepted shapes:

- a list of items, ``{"claims": [...]}``, or one item. An item has ``claim``
  and one of ``url`` / ``urls`` / ``source`` / ``source_text`` / ``path``;
- citesure's ``{"citations": [{"claim", "citation", "excerpt"}], "sources": {id: url}}``
  (``url_map`` is a synonym of ``sources``): ``citation`` is a source or an
  id in ``sources``; ``excerpt`` is the passage the answer says it took from
  the source, checked verbatim against it;
- citation-integrity-check's ``{"answer": "... [id:x] ... [1]", "sources": [{"id", "text" | "url"}]}``:
  the answer is Markdown, ``[id:x]`` names a source by id and ``[N]`` the N-th.

Every source string is read by ``sources.classify`` (URL, DOI, arXiv id, path,
``file:`` URL, or the source text itself). A ``path`` is read only where the
door's local-file policy allows.
"""

from __future__ import annotations

import json
from typing import Any

from citemark.errors import AnswerFormatError
from citemark.sources.classify import SourceKind, citation_for, classify
from citemark.types import Citation, Claim, ParsedAnswer

__all__ = ["parse_structured"]


def parse_structured(content: str | list | dict, sources: dict[str, Citation] | None = None) -> ParsedAnswer:
    data: Any = content
    if isinstance(content, str):
        try:
            data = json.loads(content)
        except ValueError as error:
            raise AnswerFormatError(f"not valid JSON: {error}") from None
        except RecursionError:
            raise AnswerFormatError("the JSON is nested too deeply") from None
    source_map = dict(sources or {})
    if isinstance(data, dict) and isinstance(data.get("answer"), str):
        return _answer_with_sources(data["answer"], data.get("sources"), source_map)
    if isinstance(data, dict):
        source_map.update(_source_map(data.get("sources") or data.get("url_map")))
    if isinstance(data, dict) and isinstance(data.get("citations"), list):
        data = data["citations"]
    elif isinstance(data, dict) and isinstance(data.get("claims"), list):
        data = data["claims"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise AnswerFormatError("expected a list of {claim, url} objects")
    claims = []
    for index, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("claim"), str) or not item["claim"].strip():
            raise AnswerFormatError(f"item {index}: needs a non-empty string 'claim'")
        claims.append(Claim(text=item["claim"].strip(), citations=_citations(item, index, source_map), index=index))
    return ParsedAnswer(claims=tuple(claims), format="json", factual_sentences=len(claims))


def _answer_with_sources(answer: str, sources: Any, extra: dict[str, Citation]) -> ParsedAnswer:
    from citemark.answer.markdown import parse_markdown

    definitions = _source_map(sources)
    definitions.update({k: v for k, v in extra.items() if k not in definitions})
    parsed = parse_markdown(answer, definitions)
    return ParsedAnswer(claims=parsed.claims, unresolved=parsed.unresolved, format="json", uncited=parsed.uncited,
                        factual_sentences=parsed.factual_sentences)


def _source_map(sources: Any) -> dict[str, Citation]:
    """``{id: source}`` or ``[{"id", "text" | "url"}, ...]`` as marker → Citation (a list is also numbered 1…N)."""
    if sources is None:
        return {}
    result: dict[str, Citation] = {}
    if isinstance(sources, dict):
        entries = [(str(key), value) for key, value in sources.items()]
    elif isinstance(sources, list):
        entries = []
        for position, value in enumerate(sources, 1):
            identifier = value.get("id") if isinstance(value, dict) else None
            entries.append((str(position), value))
            if identifier is not None:
                entries.append((str(identifier), value))
    else:
        raise AnswerFormatError("'sources' must map ids to sources, or list {id, text|url} objects")
    for key, value in entries:
        marker = key.strip().lower().removeprefix("id:")
        title = value.get("title") if isinstance(value, dict) and isinstance(value.get("title"), str) else None
        if isinstance(value, dict) and isinstance(value.get("text"), str) and value["text"].strip():
            citation = Citation(marker=key, text=value["text"], title=title)
        elif isinstance(value, dict) and isinstance(value.get("url"), str) and value["url"].strip():
            citation = citation_for(value["url"], marker=key, title=title, inline_text=False)
        elif isinstance(value, str) and value.strip():
            citation = citation_for(value, marker=key)
        else:
            raise AnswerFormatError(f"source {key!r}: needs a URL, a path or its text")
        result.setdefault(marker, citation)
    return result


def _citations(item: dict, index: int, sources: dict[str, Citation]) -> tuple[Citation, ...]:
    marker = str(item.get("marker") or item.get("id") or index + 1)
    title = item.get("title") if isinstance(item.get("title"), str) else None
    excerpt = item.get("excerpt").strip() if isinstance(item.get("excerpt"), str) and item["excerpt"].strip() else None
    found: list[Citation] = []
    urls = item.get("urls") if isinstance(item.get("urls"), list) else [item.get("url")] if item.get("url") else []
    for url in urls:
        if not isinstance(url, str) or not url.strip():
            raise AnswerFormatError(f"item {index}: url must be a non-empty string")
        found.append(citation_for(url, marker=marker, title=title, inline_text=False))
    reference = item.get("citation")
    if reference is not None:
        if not isinstance(reference, str) or not reference.strip():
            raise AnswerFormatError(f"item {index}: citation must be a non-empty string")
        key = reference.strip().lower().removeprefix("id:")
        if key in sources:
            found.append(sources[key])
        elif classify(reference, inline_text=False) is SourceKind.PATH and "/" not in reference and "." not in reference:
            raise AnswerFormatError(f"item {index}: citation {reference!r} is not a source and not an id in 'sources'")
        else:
            found.append(citation_for(reference, marker=marker, title=title, inline_text=False))
    source = item.get("source")
    if isinstance(source, str) and source.strip():
        found.append(citation_for(source, marker=marker, title=title))
    if isinstance(item.get("source_text"), str):
        found.append(Citation(marker=marker, text=item["source_text"], title=title))
    if isinstance(item.get("path"), str):
        found.append(Citation(marker=marker, path=item["path"], title=title))
    if not found:
        raise AnswerFormatError(f"item {index}: needs 'url', 'citation', 'source', 'source_text' or 'path'")
    if excerpt is not None:
        from dataclasses import replace

        found = [replace(citation, excerpt=excerpt) for citation in found]
    return tuple(found)
