"""Kanji numerals read as the figures they are, and only where a number stands."""

from __future__ import annotations

import pytest

from citemark.scoring.numerals import arabic, figures
from citemark.scoring.quantities import parse_quantities, same_quantity


@pytest.mark.parametrize(("text", "expected"), [
    ("第三十六条", "第36条"), ("二〇二四年", "2024年"), ("一万五千人", "15000人"), ("百二十円", "120円"),
    ("十八歳", "18歳"), ("三億人", "300000000人"), ("第一条", "第1条"), ("３６条", "36条"),
])
def test_kanji_numerals_are_written_as_digits(text, expected):
    assert arabic(text) == expected


@pytest.mark.parametrize("text", ["世界一高い塔", "その一部", "万一の場合", "十分な時間", "千代田区"])
def test_kanji_that_are_words_are_no_figures(text):
    assert figures(text) == [] and arabic(text) == text


def test_a_kanji_figure_and_its_digits_are_the_same_quantity_and_keep_their_offsets():
    (kanji,) = parse_quantities("刑法第三十六条")
    (digits,) = parse_quantities("刑法第36条")
    assert same_quantity(digits, kanji) and "刑法第三十六条"[kanji.start : kanji.end] == "三十六"
    (year,) = parse_quantities("二〇二四年に")
    assert year.is_year and year.value == 2024
