"""Source reuse: how many claims cite each source, and how much of an answer rests on its most-cited one.

Ten citations of one page are one witness, not ten: an answer whose citations
mostly point at a single source is only as good as that source, however many
badges it shows. The report carries these numbers (``source_reuse``) beside the
verdicts; they count every citation of the answer, whatever its verdict.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from citemark.sources.resolve import resolve_reference
from citemark.types import Citation, Verdict

__all__ = ["source_reuse"]


def source_reuse(verdicts: Iterable[Verdict]) -> dict[str, Any]:
    """``{sources, citations, by_source: [{source, claims, citations}], most_cited, most_cited_share}``,
    most-cited first; a source cited twice by one claim counts one claim."""
    claims: dict[str, set[int]] = {}
    citations: dict[str, int] = {}
    for verdict in verdicts:
        name = source_name(verdict.citation)
        claims.setdefault(name, set()).add(verdict.claim_index)
        citations[name] = citations.get(name, 0) + 1
    rows = sorted(({"source": name, "claims": len(claims[name]), "citations": count}
                   for name, count in citations.items()), key=lambda row: (-row["citations"], -row["claims"],
                                                                           row["source"]))
    total = sum(citations.values())
    return {"sources": len(rows), "citations": total, "by_source": rows,
            "most_cited": rows[0]["source"] if rows else None,
            "most_cited_share": round(rows[0]["citations"] / total, 4) if total else None}


def source_name(citation: Citation) -> str:
    """One name per source however it was cited: the canonical URL (tracking parameters dropped, a DOI as its
    doi.org link), the path, or the start of inline source text."""
    if citation.url:
        try:
            return resolve_reference(citation.url)
        except ValueError:
            return citation.url
    if citation.path:
        return citation.path
    text = " ".join((citation.text or "").split())
    return f"(inline text) “{text[:60]}{'…' if len(text) > 60 else ''}”"
