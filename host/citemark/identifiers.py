"""DOIs and arXiv ids: how each is written, how it is read back, and the one URL citemark fetches it at.

Every module that meets a paper identifier asks here: ``sources.classify`` (what a
cited string is), ``sources.resolve`` (the URL to fetch and cache), the scholarly
clients (arXiv's feed, OpenAlex's locations, bibliographies) and
``scholarly.fulltext`` (which paper a fetched URL names).

- A DOI is ``10.<4–9 digits>/<suffix>``, cited bare, as ``doi:…`` or as a
  ``doi.org`` link; its URL is ``https://doi.org/<doi>``.
- An arXiv id is new-style ``YYMM.NNNNN`` with a real month (so ``2024.12345``, a
  number, is not one) or old-style ``archive(.XX)/NNNNNNN``, either with an optional
  ``vN``; cited as ``arXiv:…``, bare (new-style only) or as an arxiv.org/abs or /pdf
  link. Its URL is the PDF, ``https://arxiv.org/pdf/<id>``: the claim is judged
  against the full text, with page numbers, not the abstract.
- arXiv's own DOIs (``10.48550/arXiv.<id>``) are arXiv ids: Crossref does not hold them.

    python -m citemark.identifiers doi:10.1000/xyz arXiv:1706.03762 https://arxiv.org/abs/1706.03762
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

__all__ = ["ARXIV_ID", "DOI", "arxiv_id", "arxiv_id_in_url", "arxiv_of_doi", "arxiv_url", "doi", "doi_in_url", "doi_url"]

#: An arXiv id, new-style (a real month) or old-style, as a regular-expression fragment without groups.
ARXIV_ID = r"(?:\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_ARXIV_NEW = r"\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?"
#: The start of every DOI, as a regular-expression fragment: the directory ``10.`` and the registrant.
DOI = r"10\.\d{4,9}/"

_DOI_CITED = re.compile(rf"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?({DOI}\S+)$", re.IGNORECASE)
_ARXIV_CITED = re.compile(rf"^(?:arxiv:\s*({ARXIV_ID})|({_ARXIV_NEW})"
                          rf"|https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/({ARXIV_ID})(?:\.pdf)?/?)$", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org"})
_ARXIV_HOSTS = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})


def doi(cited: str) -> str | None:
    """The DOI a cited string spells (``10.x/y``, ``doi:10.x/y``, ``https://doi.org/10.x/y``), or None."""
    match = _DOI_CITED.match(cited.strip())
    return match.group(1).rstrip(".,;") if match else None


def arxiv_id(cited: str) -> str | None:
    """The arXiv id a cited string spells (``arXiv:ID``, a bare new-style id, an arxiv.org/abs or /pdf link), or None."""
    match = _ARXIV_CITED.match(cited.strip())
    return next(group for group in match.groups() if group) if match else None


def doi_url(value: str) -> str:
    """Where a DOI is fetched: its doi.org link."""
    return "https://doi.org/" + value


def arxiv_url(identifier: str) -> str:
    """Where an arXiv id is fetched: its PDF, the full text with page numbers."""
    return "https://arxiv.org/pdf/" + identifier


def doi_in_url(url: str) -> str | None:
    """The DOI a doi.org link names (lower case: DOIs are case-insensitive), or None for any other URL."""
    parts = urlsplit(url)
    if (parts.hostname or "").lower() not in _DOI_HOSTS:
        return None
    value = unquote(parts.path.lstrip("/"))
    return value.lower() if re.match(rf"{DOI}\S+$", value) else None


def arxiv_id_in_url(url: str) -> str | None:
    """The arXiv id an arxiv.org/abs or /pdf link names, or None for any other URL."""
    parts = urlsplit(url)
    if (parts.hostname or "").lower() not in _ARXIV_HOSTS:
        return None
    match = re.match(r"^/(?:abs|pdf)/(.+?)(?:\.pdf)?$", parts.path)
    return match.group(1) if match else None


def arxiv_of_doi(value: str) -> str | None:
    """The arXiv id behind one of arXiv's own DOIs (``10.48550/arXiv.ID``), or None."""
    match = _ARXIV_DOI.match(value)
    return match.group(1) if match else None


if __name__ == "__main__":
    import sys

    for argument in sys.argv[1:] or ["doi:10.1000/xyz", "arXiv:1706.03762", "https://arxiv.org/abs/1706.03762",
                                     "2024.12345", "10.48550/arXiv.2101.00001"]:
        found_doi, found_arxiv = doi(argument), arxiv_id(argument)
        url = doi_url(found_doi) if found_doi else arxiv_url(found_arxiv) if found_arxiv else None
        print(f"{argument:40} doi={found_doi} arxiv={found_arxiv} → {url}")
