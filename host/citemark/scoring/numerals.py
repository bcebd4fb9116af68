"""Kanji numerals: 三十六 is 36, 二〇二四 is 2024, 一万五千 is 15,000, and ３６ is 36.

Japanese and Chinese sources write figures in kanji where a claim (or the
model's English reading) has digits: 刑法 第三十六条 is "Article 36". Without
this, an exact quote cited as 第36条 has two different figures, and the model
reads the pair as a contradiction. ``figures(text)`` finds the kanji numerals
with their offsets and values, for the figure checks; ``arabic(text)`` writes
them (and full-width digits) as ASCII digits, for the model.

A lone kanji digit is a figure only where a number stands: after 第 ("the
… th") or before a counter (人, 年, 条, …). 世界一 ("the world's best"),
一部 ("a part") and 万一 ("in case") are words, not figures.

Run ``python -m citemark.scoring.numerals`` to see a statute's article numbers read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["KanjiFigure", "arabic", "figures"]

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "両": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9}
#: Multipliers within a group of four places …
_SMALL = {"十": 10, "百": 100, "千": 1000}
#: … and the groups themselves: 一万五千 is 1·10⁴ + 5·10³.
_LARGE = {"万": 10**4, "萬": 10**4, "億": 10**8, "兆": 10**12}
_RUN = re.compile("[" + "".join([*_DIGITS, *_SMALL, *_LARGE]) + "]+")
#: What follows a number and counts it: a run of kanji before one of these is a figure even when it is
#: one character long. Not 分 (十分 is "enough") nor 部 or 番 alone (一部 is "a part", 一番 "most").
_COUNTER = re.compile(r"[条項号章節編巻年月日時人名件回個歳階位倍割本冊台枚頭匹羽隻社校国度円週つ]|"
                      r"世紀|か[月国所]|ヶ[月国所]|カ[月国所]|箇[月国所]|番目|パーセント|メートル|キロ|トン")
_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")


@dataclass(frozen=True, slots=True)
class KanjiFigure:
    """A numeral written in kanji: ``text[start:end]`` reads ``value``."""

    value: int
    start: int
    end: int


def figures(text: str) -> list[KanjiFigure]:
    """The kanji numerals of ``text`` that stand for a number, in order."""
    found = []
    for match in _RUN.finditer(text):
        run = match.group()
        value = _value(run)
        if value is None:
            continue
        standalone = len(run) > 1 and any(c in _SMALL or c in _LARGE for c in run) or len(run) > 2
        ordinal = text[match.start() - 1 : match.start()] == "第"
        if standalone or ordinal or _COUNTER.match(text, match.end()):
            found.append(KanjiFigure(value, match.start(), match.end()))
    return found


def arabic(text: str) -> str:
    """``text`` with its kanji numerals and full-width digits written as ASCII digits (第三十六条 → 第36条)."""
    parts, at = [], 0
    for figure in figures(text):
        parts += [text[at : figure.start], str(figure.value)]
        at = figure.end
    return ("".join(parts) + text[at:]).translate(_FULL_WIDTH)


def _value(run: str) -> int | None:
    """三十六 → 36, 二〇二四 → 2024 (digit by digit), 一万五千 → 15000; None for a run that is no
    well-formed number (万一, 一二十)."""
    if not any(c in _SMALL or c in _LARGE for c in run):
        return int("".join(str(_DIGITS[c]) for c in run))
    total = group = 0
    digit: int | None = None
    for c in run:
        if c in _DIGITS:
            if digit is not None:
                return None
            digit = _DIGITS[c]
        elif c in _SMALL:
            group += (1 if digit is None else digit) * _SMALL[c]
            digit = None
        else:
            group += digit or 0
            if group == 0:
                return None
            total, group, digit = total + group * _LARGE[c], 0, None
    return total + group + (digit or 0)


if __name__ == "__main__":
    for sample in ("刑法第三十六条（正当防衛）", "二〇二四年に一万五千人が参加した。", "世界一高い塔の一部", "３６条"):
        print(sample, "→", arabic(sample), [(f.value, sample[f.start : f.end]) for f in figures(sample)])
