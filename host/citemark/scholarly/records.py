"""The canonical metadata of a scholarly work, as every service client reports it.

Crossref, arXiv and OpenAlex name things differently; each client reads its
response into a ``Work`` so that matching and grading read one shape. ``Update``
is one editorial notice about a work (a retraction, an expression of concern, a
correction), with its date and the link to the notice.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from citemark import identifiers

__all__ = ["RETRACTING", "Update", "Work", "plain_title"]

#: Crossref update types that take a work's support away (``expression_of_concern`` included:
#: the verdict vocabulary counts it with retractions).
RETRACTING = frozenset({"retraction", "partial_retraction", "withdrawal", "removal", "expression_of_concern"})


def plain_title(value: str) -> str:
    """A title as text: the markup services leave in (``<i>``, ``<scp>``, MathML, entities) taken out."""
    return " ".join(html.unescape(re.sub(r"<[^>]{0,200}>", "", value)).split())


@dataclass(frozen=True, slots=True)
class Update:
    """One notice about a work: ``kind`` is Crossref's update type (``retraction``, ``correction`` …)."""

    kind: str
    date: str | None = None  # ISO date of the notice
    doi: str | None = None  # the notice's own DOI
    source: str | None = None  # "publisher" or "retraction-watch"
    label: str | None = None

    @property
    def retracting(self) -> bool:
        return self.kind in RETRACTING

    @property
    def link(self) -> str | None:
        return identifiers.doi_url(self.doi) if self.doi else None

    def describe(self, *, retraction_watch: bool | None = None) -> str:
        """"Retraction (2021-03-04, Retraction Watch): https://doi.org/10.x/notice"."""
        what = self.label or self.kind.replace("_", " ").capitalize()
        listed = self.source == "retraction-watch" if retraction_watch is None else retraction_watch
        details = ", ".join(x for x in (self.date, "Retraction Watch" if listed else None) if x)
        text = f"{what} ({details})" if details else what
        return f"{text}: {self.link}" if self.link else text

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "date": self.date, "doi": self.doi, "link": self.link,
                "source": self.source, "label": self.label}


@dataclass(frozen=True, slots=True)
class Work:
    """A paper as one service knows it."""

    service: str  # crossref | arxiv | openalex
    title: str
    authors: tuple[str, ...] = ()  # family names, in order
    year: int | None = None
    years: tuple[int, ...] = ()  # every year the record dates the work (online, print, versions)
    doi: str | None = None
    arxiv_id: str | None = None
    venue: str | None = None
    url: str | None = None  # the landing page
    pdf_urls: tuple[str, ...] = ()  # open full text, best first
    preprint_dois: tuple[str, ...] = ()  # Crossref ``relation.has-preprint``
    updates: tuple[Update, ...] = field(default_factory=tuple)
    retracted_flag: bool = False  # the service says retracted without a notice (OpenAlex ``is_retracted``)

    @property
    def retractions(self) -> tuple[Update, ...]:
        return tuple(u for u in self.updates if u.retracting)

    @property
    def retracted(self) -> bool:
        return bool(self.retractions) or self.retracted_flag

    def retraction_notice(self) -> str | None:
        """The notice in words, for the ``retracted`` verdict; None when the work stands."""
        if self.retractions:
            # The publisher's notice and Retraction Watch's entry for it are one notice, said once.
            notices: dict[tuple[str, str | None], list[Update]] = {}
            for update in self.retractions:
                notices.setdefault((update.kind, update.doi or update.date), []).append(update)
            return "; ".join(
                group[0].describe(retraction_watch=any(u.source == "retraction-watch" for u in group))
                for group in notices.values()
            )
        if self.retracted_flag:
            return f"marked retracted by {self.service}"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "service": self.service, "title": self.title, "authors": list(self.authors), "year": self.year,
            "doi": self.doi, "arxiv_id": self.arxiv_id, "venue": self.venue, "url": self.url,
            "pdf_urls": list(self.pdf_urls), "updates": [u.to_dict() for u in self.updates],
        }
