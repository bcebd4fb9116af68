"""A verdict's ranked evidence passages, when a request asks for more than the one that decided it (``top_k``).

The deciding passage (the verdict's ``evidence``) comes first; then the source's
next best windows for the claim among those retrieval finds (``EvidenceIndex.search``),
ranked by the share of the claim's words they hold, the shorter first at an equal
share (a reader wants the sentence, not its neighbours), each overlapping neither
the deciding passage nor one already taken. They are shown so a reader can weigh more
of the source; they are not judged, and the verdict does not change with them.
"""

from __future__ import annotations

from citemark.scoring.judge import quote
from citemark.scoring.retrieve import EvidenceIndex
from citemark.types import Document, Evidence

__all__ = ["ranked_passages"]


def ranked_passages(claim: str, document: Document, index: EvidenceIndex, deciding: Evidence,
                    k: int) -> tuple[Evidence, ...]:
    """Up to ``k`` passages, best first, the deciding one at their head; fewer when the source has no more."""
    chosen = [deciding]
    # Neighbouring windows share sentences, so ask for more than k to find k that do not overlap.
    hits = sorted(index.search(claim, k=4 * k), key=lambda hit: (
        -hit.coverage.weighted, hit.window.last - hit.window.first, -hit.bm25))
    for hit in hits:
        if len(chosen) == k:
            break
        start, end = hit.window.start, hit.window.end
        if any(start < taken.end and taken.start < end for taken in chosen):
            continue
        chosen.append(quote(hit, document))
    return tuple(chosen)
