"""DOIs and arXiv ids are read in one place and each has one URL, whichever module meets them."""

from __future__ import annotations

import pytest

from citemark import identifiers
from citemark.sources.classify import citation_for
from citemark.sources.resolve import resolve_reference


@pytest.mark.parametrize(("cited", "doi", "arxiv"), [
    ("10.1000/xyz", "10.1000/xyz", None),
    ("doi:10.1000/xyz.", "10.1000/xyz", None),
    ("https://dx.doi.org/10.1000/XYZ", "10.1000/XYZ", None),
    ("arXiv:1706.03762v2", None, "1706.03762v2"),
    ("arxiv: hep-th/9901001", None, "hep-th/9901001"),
    ("1706.03762", None, "1706.03762"),
    ("https://arxiv.org/abs/1706.03762", None, "1706.03762"),
    ("https://arxiv.org/pdf/1706.03762.pdf", None, "1706.03762"),
    ("2024.12345", None, None),  # a number: 24 is not a month
    ("https://example.org/10.1000/xyz", None, None),
])
def test_a_cited_identifier_is_read_the_same_everywhere(cited, doi, arxiv):
    assert (identifiers.doi(cited), identifiers.arxiv_id(cited)) == (doi, arxiv)


def test_classify_and_resolve_give_an_identifier_the_same_url():
    assert citation_for("arXiv:1706.03762").url == resolve_reference("arXiv:1706.03762") == \
        "https://arxiv.org/pdf/1706.03762"
    assert citation_for("doi:10.1000/xyz").url == resolve_reference("doi:10.1000/xyz") == "https://doi.org/10.1000/xyz"
    assert resolve_reference("https://arxiv.org/abs/1706.03762") == "https://arxiv.org/abs/1706.03762"  # a link stays


def test_urls_and_arxivs_own_dois_name_their_paper():
    assert identifiers.doi_in_url("https://doi.org/10.1000/XYZ") == "10.1000/xyz"
    assert identifiers.doi_in_url("https://example.org/10.1000/xyz") is None
    assert identifiers.arxiv_id_in_url("https://export.arxiv.org/abs/1706.03762") == "1706.03762"
    assert identifiers.arxiv_of_doi("10.48550/arXiv.2101.00001") == "2101.00001"
    assert identifiers.arxiv_of_doi("10.1000/xyz") is None
