"""A bibliography file as ``citemark refs`` reads it: text as written, or only a PDF's reference list.

A paper's PDF holds the whole paper, and the paper may be unpublished. Only
the entries under its last References heading are a bibliography, so only they
are read (through pypdf, line by line); a PDF without such a heading is an
input error, and none of its text is sent anywhere.
"""

from __future__ import annotations

from citemark.errors import InputError
from citemark.scholarly.references import reference_section

__all__ = ["bibliography_text", "is_pdf"]


def is_pdf(raw: bytes) -> bool:
    """PDF readers accept the ``%PDF-`` header anywhere in the first 1024 bytes, so citemark does too."""
    return b"%PDF-" in raw[:1024]


def bibliography_text(raw: bytes, name: str, *, max_pages: int = 400) -> str:
    """The text whose entries ``parse_references`` reads: a PDF's reference list, or the file's UTF-8 text."""
    if is_pdf(raw):
        return _pdf_references(raw, name, max_pages)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{name}: not UTF-8 text or a PDF ({error.reason} at byte {error.start})") from None


def _pdf_references(raw: bytes, name: str, max_pages: int) -> str:
    from citemark.errors import ExtractionError
    from citemark.sources.extract import pdf_to_text

    try:
        text, _, _ = pdf_to_text(raw, max_pages=max_pages, unwrap=False)
    except ExtractionError as error:
        raise InputError(f"{name}: {error.message}") from None
    section = reference_section(text)
    if section is None or not section.strip():
        raise InputError(f"{name}: no References heading in the PDF's text, so no reference list to check "
                         "(nothing was sent)")
    return section
