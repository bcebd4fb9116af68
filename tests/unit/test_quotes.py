"""snap_quote: the verbatim passage an anchor means, cut from the source; quoted words in a claim; a quote that reverses its source."""

from __future__ import annotations

import time

import pytest

from citemark.scoring.quotes import quoted_spans, reversal, snap_quote

SOURCE = "Article 7.  The taxpayer shall file the return\nwithin two months after the end of the “tax year”."


def test_an_anchor_verbatim_up_to_spacing_case_and_curly_quotes_is_exact():
    snapped = snap_quote('the taxpayer shall file the return within two months after the end of the "tax year"', SOURCE)
    assert snapped.exact and snapped.found and snapped.similarity == 1.0
    assert SOURCE[snapped.start:snapped.end] == snapped.quote
    assert snapped.quote.startswith("The taxpayer") and snapped.quote.endswith("year”")


def test_a_retyped_anchor_snaps_to_the_nearest_passage_in_the_sources_own_words():
    snapped = snap_quote("taxpayers shall file their return within two months", SOURCE)
    assert snapped.found and not snapped.exact and 0.6 <= snapped.similarity < 1
    assert SOURCE[snapped.start:snapped.end] == snapped.quote
    assert "within two months" in snapped.quote and "Article" not in snapped.quote


def test_an_anchor_the_source_does_not_contain_is_not_found():
    snapped = snap_quote("the moon is made of green cheese", SOURCE)
    assert not snapped.found and snapped.quote is None


def test_quoted_spans_are_quotations_not_scare_quotes():
    claim = 'The report says "the results are robust", calls it "novel", and 「東京タワーは高い」.'
    assert quoted_spans(claim) == ["the results are robust", "東京タワーは高い"]


def test_snapping_in_a_megabyte_source_stays_under_a_second():
    source = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20000 + "The results are robust."
    start = time.perf_counter()
    assert snap_quote("the results are robust", source).exact
    assert not snap_quote("completely different words here", source).exact
    assert time.perf_counter() - start < 3.0


def test_an_omission_mark_splits_a_quotation_into_parts_each_checked_on_its_own():
    claim = 'The critic called it "mature, tasteful, and [...] sexy" and "a record that grows on you … with every play".'
    assert quoted_spans(claim) == ["mature, tasteful, and", "a record that grows on you", "with every play"]


@pytest.mark.parametrize(("quoted", "passage", "said", "source"), [
    ("やむを得ずにした行為は、必ず罰する", "やむを得ずにした行為は、罰しない", "必ず罰する", "罰しない"),
    ("the taxpayer shall file the return", "the taxpayer shall not file the return", "file", "not file"),
    ("the merger was legal under state law", "the merger was illegal under state law", "legal", "illegal"),
    ("prices rose sharply in spring", "prices fell sharply in spring", "rose", "fell"),
    ("we don't care", "we do care", "don't", "do"),
])
def test_a_quote_that_reverses_its_source_names_the_changed_words(quoted, passage, said, source):
    turned = reversal(quoted, passage)
    assert turned is not None and (turned.quoted, turned.passage) == (said, source)
    assert quoted[turned.start : turned.end] == said and passage[turned.passage_start : turned.passage_end] == source


@pytest.mark.parametrize(("quoted", "passage"), [
    ("the best in the whole region", "the finest in the region"),
    ("we do not negotiate with anyone", "we never negotiate with anyone"),
    ("罰しなかった", "罰しない"),
    ("taxpayers must file returns within 2 months", "the taxpayer shall file the return within two months"),
])
def test_a_retyped_or_reworded_quote_is_no_reversal(quoted, passage):
    assert reversal(quoted, passage) is None
