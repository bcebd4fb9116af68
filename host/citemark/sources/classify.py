"""What one source string is — URL, DOI, arXiv id, local path, ``file:`` URL or the source text — and its Citation.

Every door (CLI ``--source``, a Sources list in an answer, structured JSON,
MCP ``source``, the engine's one-claim call) asks this module and nothing
else, so ``./x``, ``dir/x.pdf``, ``file:///…`` and a bare ``2607.22693`` mean
the same thing everywhere. Whether a path may then be *read* is not decided
here but by the door's ``LocalFilePolicy``.

DOIs and arXiv ids are read, and given their one URL, by ``citemark.identifiers``
(an arXiv id is cited as its PDF, so the claim is judged against the full text).

Run ``python -m citemark.sources.classify 2607.22693 ./notes.md`` to see it decide.
"""

from __future__ import annotations

import enum
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from citemark import identifiers
from citemark.errors import InputError
from citemark.types import Citation

__all__ = ["SourceKind", "citation_for", "classify", "rebase"]


class SourceKind(enum.StrEnum):
    URL = "url"
    DOI = "doi"
    ARXIV = "arxiv"
    PATH = "path"
    FILE_URL = "file_url"
    TEXT = "text"


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_DOCUMENT_SUFFIX = re.compile(r"\.(?:pdf|html?|txt|md|markdown|rst|json|xml|csv|tex|docx?|epub)$", re.IGNORECASE)
_HOST = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,24}(?::\d+)?$", re.IGNORECASE)


def classify(source: str, *, inline_text: bool = True) -> SourceKind:
    """The kind of ``source``; with ``inline_text=False`` (a link target) anything else is a path."""
    value = source.strip()
    if not value:
        raise InputError("a source must not be empty")
    if inline_text and re.search(r"\s", value):
        return SourceKind.TEXT  # a sentence or a page of text: the source itself
    if value.lower().startswith("file:"):
        return SourceKind.FILE_URL
    if identifiers.arxiv_id(value):
        return SourceKind.ARXIV
    if identifiers.doi(value):
        return SourceKind.DOI
    if _SCHEME.match(value) or value.lower().startswith(("mailto:", "javascript:", "data:")):
        return SourceKind.URL
    if value.startswith(("/", "~/", "./", "../", ".\\", "..\\")) or _WINDOWS_DRIVE.match(value):
        return SourceKind.PATH
    first = re.split(r"[/\\]", value, maxsplit=1)[0]
    if "/" not in value and _DOCUMENT_SUFFIX.search(value):
        return SourceKind.PATH  # "notes.md", "paper.pdf": a file, even where the suffix is also a TLD
    if _HOST.match(first) and not _DOCUMENT_SUFFIX.search(first):
        return SourceKind.URL  # "docs.python.org/3/", "example.com"
    if ("/" in value or "\\" in value) or _DOCUMENT_SUFFIX.search(value) or not inline_text:
        return SourceKind.PATH
    return SourceKind.TEXT


def citation_for(
    source: str,
    *,
    marker: str | None = None,
    title: str | None = None,
    base: Path | None = None,
    inline_text: bool = True,
) -> Citation:
    """The Citation for ``source``. ``base`` is the folder a relative path is relative to, when known."""
    kind = classify(source, inline_text=inline_text)
    value = source.strip()
    if kind is SourceKind.TEXT:
        return Citation(marker=marker, text=source, title=title)
    if kind is SourceKind.ARXIV:
        return Citation(marker=marker, url=identifiers.arxiv_url(identifiers.arxiv_id(value) or ""), title=title)
    if kind is SourceKind.DOI:
        return Citation(marker=marker, url=identifiers.doi_url(identifiers.doi(value) or ""), title=title)
    if kind is SourceKind.URL:
        if not _SCHEME.match(value) and not value.lower().startswith(("mailto:", "javascript:", "data:")):
            value = "https://" + value  # "docs.python.org/3/" as people type it
        return Citation(marker=marker, url=value, title=title)
    if kind is SourceKind.FILE_URL:
        value = unquote(urlsplit(value).path) if value.lower().startswith("file://") else unquote(value[5:])
    return Citation(marker=marker, path=_located(value, base), title=title)


def rebase(citation: Citation, base: Path) -> Citation:
    """A citation's relative path made relative to ``base`` (the folder of the answer that cites it)."""
    from dataclasses import replace

    if citation.path is None:
        return citation
    return replace(citation, path=_located(citation.path, base))


def _located(path: str, base: Path | None) -> str:
    expanded = Path(path).expanduser()
    if base is None or expanded.is_absolute():
        return str(expanded)
    return str(base / expanded)


if __name__ == "__main__":
    import sys

    for argument in sys.argv[1:] or ["2607.22693", "./notes.md", "dir/x.pdf", "file:///tmp/a.txt", "doi:10.1000/xyz",
                                     "https://example.org", "docs.python.org/3/", "The tower is 330 m tall."]:
        print(f"{classify(argument).value:9} {citation_for(argument)}")
