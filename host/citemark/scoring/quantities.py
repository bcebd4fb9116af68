"""Quantities: the figures a text states, with their units, and when two of them say the same.

"8,849 m" and "29,032 feet", "$2.1 billion" and "2,100 million dollars", "about
3,500 km" and "3,512 km", "21 %" and "21.4 %", "100 °C" and "212 °F" are the
same figure; "2019" and "2016" never are. Every figure keeps where it stands in
its text, so the binding checks can ask what it is attached to.

Run ``python -m citemark.scoring.quantities`` for a small demonstration.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citemark.scoring import numerals
from citemark.scoring.lexical import terms

__all__ = ["Quantity", "bound_kept", "comparable", "parse_quantities", "restate", "same_quantity", "stated_in",
           "worded_as_difference", "worked_out"]

_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "k": 1e3, "bn": 1e9, "mn": 1e6}
_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "dozen": 12, "twice": 2, "thrice": 3,
}
#: Number words that give a place in an order, not a count: "finished ninth".
_ORDINALS = frozenset(["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"])
#: The words after a figure in words, which may be its unit ("ten years", "five-year", "one million US gallons").
_WORD_UNIT = re.compile(r"(?:\s+|-)(U\.?S\.?\s+gallons?|nautical\s+miles?|(?:miles|kilomet(?:re|er)s)\s+(?:per|an)\s+hour|"
                        r"[^\W\d_]+)\b",
                        re.IGNORECASE)
_SMALL_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
#: A scale spelled out: "two million", "two and a half million", "a quarter of a million", "half a billion".
_SPELLED_SCALE = re.compile(
    rf"\b(?:(?P<whole>a|an|{_SMALL_WORDS})\s+and\s+a\s+(?P<plus>half|quarter)"
    r"|(?P<part>half|a\s+quarter|three[\s-]quarters|a\s+third|two[\s-]thirds)(?:\s+of)?\s+an?"
    rf"|(?P<single>a|{_SMALL_WORDS}))\s+(?P<scale>thousand|million|billion|trillion)\b",
    re.IGNORECASE,
)
_PARTS = {"half": 0.5, "quarter": 0.25, "a quarter": 0.25, "three quarters": 0.75, "three-quarters": 0.75,
          "a third": 1 / 3, "two thirds": 2 / 3, "two-thirds": 2 / 3}
#: A unit with a half or a part spelled out: "an hour and a half", "two and a half hours", "half an hour",
#: "a quarter of an hour", "1.5 hours" being the digits' own.
_UNIT_NAMES = r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|centuries|century|miles?|" \
    r"kilomet(?:re|er)s?|metres?|meters?|litres?|liters?|kilograms?|kilos?|pounds?|tonnes?)"
_SPELLED_UNIT = re.compile(
    rf"\b(?:(?P<whole>a|an|{_SMALL_WORDS}|\d+)\s+and\s+a\s+(?P<plus>half|quarter)\s+(?P<unit>{_UNIT_NAMES})"
    rf"|(?P<one>a|an|one)\s+(?P<unit2>{_UNIT_NAMES})\s+and\s+a\s+(?P<plus2>half|quarter)"
    rf"|(?P<part>half|a\s+quarter|three[\s-]quarters)\s+(?:of\s+)?an?\s+(?P<unit3>{_UNIT_NAMES}))\b",
    re.IGNORECASE,
)
#: A share said as a ratio: "seven in ten", "97 in every 100", "one out of four".
_RATIO = re.compile(
    rf"\b(?P<n>\d+|{_SMALL_WORDS})\s+(?:in|out\s+of)\s+(?:every\s+)?(?P<m>\d+|{_SMALL_WORDS}|a\s+hundred|hundred)\b"
    r"(?![\s-]*(?:%|[a-z]*(?:second|minute|hour|day|week|month|year)s?\b))",
    re.IGNORECASE,
)
#: What joins two figures of one duration ("2 hours 15 minutes", "six years and three months") or
#: a range whose unit is written once ("35 and 42 kg", "12–14°C", "54 to 57°F").
_DURATION_JOIN = re.compile(r"\s*(?:,|and)?\s*")
_RANGE_JOIN = re.compile(r"\s*(?:–|—|-|to|and)\s*")
#: Words that name a figure in passing ("one of", "the first", "a second") and are no claim of a figure.
_INCIDENTAL = frozenset(["one", "first", "second"])
#: Shares in words: what a source may say for a claim's percentage ("half" for "50 %").
_FRACTIONS = {"half": 0.5, **{
    f"{'an' if top == 'a' and bottom[0] == 'e' else top}{join}{bottom}{'s' if n > 1 else ''}": n / d
    for n, tops in ((1, ("a", "one")), (2, ("two",)), (3, ("three",)), (4, ("four",)), (5, ("five",)), (6, ("six",)),
                    (7, ("seven",)), (8, ("eight",)), (9, ("nine",)))
    for top in tops for join in (" ", "-")
    for d, bottom in ((3, "third"), (4, "quarter"), (5, "fifth"), (6, "sixth"), (8, "eighth"), (10, "tenth"))
    if n < d and not (top == "a" and join == "-")}}
_AS_SHARE = re.compile(r"\b(?:by|about|nearly|almost|roughly|over|than|just|around|some)\s+$", re.IGNORECASE)
_FRACTION = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _FRACTIONS), key=len, reverse=True)) + r")\b",
                       re.IGNORECASE)

#: unit → (dimension, factor to the dimension's base unit). Temperatures are handled apart (not a factor).
_UNITS: dict[str, tuple[str, float]] = {}
for _names, _dimension, _factor in (
    ("m metre metres meter meters", "length", 1.0), ("km kilometre kilometres kilometer kilometers", "length", 1e3),
    ("cm centimetre centimetres centimeter centimeters", "length", 0.01),
    ("mm millimetre millimetres millimeter millimeters", "length", 0.001),
    ("mi mile miles", "length", 1609.344), ("nmi nautical-mile nautical-miles", "length", 1852.0), ("ft foot feet", "length", 0.3048), ("inch inches", "length", 0.0254),
    ("yd yard yards", "length", 0.9144),
    ("kg kilogram kilograms kilo kilos", "mass", 1.0), ("g gram grams", "mass", 1e-3),
    ("mg milligram milligrams", "mass", 1e-6), ("t tonne tonnes", "mass", 1e3),
    ("lb lbs pound pounds", "mass", 0.45359237), ("oz ounce ounces", "mass", 0.028349523),
    ("l litre litres liter liters", "volume", 1.0), ("ml millilitre millilitres milliliter milliliters", "volume", 1e-3),
    ("gallon gallons", "volume", 3.785411784),
    ("km/h kph", "speed", 1 / 3.6), ("mph", "speed", 0.44704), ("m/s", "speed", 1.0),
    ("km² km2 sq-km", "area", 1e6), ("mi² sq-mi", "area", 2.589988e6), ("ha hectare hectares", "area", 1e4),
    ("acre acres", "area", 4046.8564),
    ("second seconds sec secs s", "time", 1.0), ("minute minutes min mins", "time", 60.0),
    ("hour hours hr hrs h", "time", 3600.0), ("day days", "time", 86400.0), ("week weeks", "time", 604800.0),
    ("month months", "time", 2629800.0), ("year years yr yrs", "time", 31557600.0),
    ("decade decades", "time", 315576000.0), ("century centuries", "time", 3155760000.0),
    ("%", "share", 0.01), ("percent per-cent", "share", 0.01),
):
    for _name in _names.split():
        _UNITS[_name] = (_dimension, _factor)
#: Units written in several words, as the one key of ``_UNITS``.
_UNIT_PHRASES = {"nautical miles": "nautical-miles", "nautical mile": "nautical-mile",
                 "miles per hour": "mph", "miles an hour": "mph", "kilometres per hour": "km/h",
                 "kilometers per hour": "km/h", "kilometres an hour": "km/h", "kilometers an hour": "km/h",
                 "us gallons": "gallons", "us gallon": "gallons"}
_TEMPERATURE = {"°c": "c", "c": "c", "celsius": "c", "degrees celsius": "c", "°f": "f", "f": "f",
                "fahrenheit": "f", "degrees fahrenheit": "f"}

_NUMBER = re.compile(
    # Not inside a word ("A380"), but right after CJK text, which has no spaces ("高さは333メートル").
    r"(?P<currency>[$£€¥]\s?)?(?<![.])(?<!(?![\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])\w)(?P<raw>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:st|nd|rd|th)?"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion|bn|mn|k)\b|(?P<money_m>m)\b(?<=[\d\s]m))?"
    r"(?P<unit>(?:\s*|-)(?:%|percent\b|per cent\b|°\s?[CF]\b|degrees\s+(?:celsius|fahrenheit)\b|"
    r"square\s+(?:kilomet(?:re|er)s|miles)\b|sq\.?\s*(?:km|mi)\b|km/h|m/s|"
    r"(?:miles|kilomet(?:re|er)s)\s+(?:per|an)\s+hour\b|U\.?S\.?\s+gallons?\b|nautical\s+miles?\b|"
    r"[A-Za-z²]+\b(?:/h)?))?",
    re.IGNORECASE,
)
#: "about 3,500", "nearly 9,000", "more than 20": the figure is rounded, or a bound.
_HEDGE = re.compile(r"(?<![\w.])(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|circa|c\.|~|close to|"
                    r"more than|over|at least|above|upwards of|less than|under|below|fewer than|up to|"
                    r"just over|just under|an estimated|estimated)\s*[$£€¥]?\s*$", re.IGNORECASE)
_AT_LEAST = re.compile(r"(?:more than|over|at least|above|upwards of|just over)\s*[$£€¥]?\s*$", re.IGNORECASE)
_AT_MOST = re.compile(r"(?:less than|under|below|fewer than|up to)\s*[$£€¥]?\s*$", re.IGNORECASE)
_NEARLY = re.compile(r"(?:just under|nearly|almost)\s*[$£€¥]?\s*$", re.IGNORECASE)
_ABOUT = re.compile(r"(?:about|around|roughly|approximately|approx\.?|some|circa|c\.|~|close to)\s*[$£€¥]?\s*$",
                    re.IGNORECASE)
#: A capitalised word joined by a hyphen just before a number: the number is part of a name.
_NAMED_NUMBER = re.compile(r"\b([A-Z][A-Za-z]*)-$")
#: Citation markers ("[3]", "[^2]", "[1, 4]") are no figures.
_MARKER = re.compile(r"\[\^?(\d{1,3})(?:\s*[,–-]\s*\d{1,3})*\]")
#: "2018–19", "1990-95": a year range whose end keeps only its last two digits.
_SHORT_YEAR_RANGE = re.compile(r"\b((?:1[5-9]|20)\d\d)\s*[–—-]\s*(\d\d)\b(?![–—-]?\d)")


@dataclass(frozen=True, slots=True)
class Quantity:
    value: float  # as written, scale words applied ("3.5 million" → 3.5e6)
    text: str
    is_year: bool
    start: int = 0  # offset in its text
    dimension: str | None = None  # "length", "mass", "share", "temperature", …
    base: float | None = None  # the value in the dimension's base unit (metres, kg, a share of 1, kelvin, …)
    hedge: str = ""  # "about", "more than", … as written before it
    decimals: int = 0
    end: int = 0  # offset just after it (its unit included)
    noun: str = ""  # what it counts, for a figure without a unit: "$" for money, else the word after it
    unit: str = ""  # the unit as one key ("%" for "percent", "m" for "metres"), "" without one

    @property
    def size(self) -> float:
        """The value in its dimension's base unit where it has one, so that "1.6 kg" and "3.5 lb" compare."""
        return self.base if self.base is not None else self.value

    @property
    def kind(self) -> str:
        """Figures of one kind can stand for each other: "length", "share", "$", "count:route"."""
        return self.dimension or ("year" if self.is_year else "$" if self.noun == "$" else f"count:{self.noun}")


def parse_quantities(text: str, *, incidental: bool = False) -> list[Quantity]:
    """The figures ``text`` states ("three" and "half" included; "one", "first" and "second" only
    when ``incidental``, since "one of the" claims no figure)."""
    return list(_parsed(text, incidental))


# The guards, the binding checks and the alignment each read the same claim and passages: parse each once.
@functools.lru_cache(maxsize=1024)
def _parsed(text: str, incidental: bool) -> tuple[Quantity, ...]:
    found: list[Quantity] = []
    short_ends = set()
    for match in _SHORT_YEAR_RANGE.finditer(text):
        start, end = match.group(1), match.group(2)
        if int(end) > int(start[2:]):  # "2018–19" is 2018 to 2019; "2018-07" is no range
            found.append(Quantity(float(start[:2] + end), match.group(2), True, match.start(2), end=match.end(2)))
            short_ends.add(match.start(2))
    markers = [m.span() for m in _MARKER.finditer(text)]
    spelled = _spelled(text)
    found += spelled
    taken = [(q.start, q.end) for q in spelled]
    for match in _NUMBER.finditer(text):
        at = match.start("raw")
        if at in short_ends or any(first <= at < last for first, last in markers + taken):
            continue
        if re.match(r"[A-Z]", text[match.end("raw") : match.end("raw") + 1]):
            continue  # "5G", "4K", "3D": part of a name
        named = _NAMED_NUMBER.search(text[max(0, at - 24) : at])
        if named and named.group(1).lower() not in ("mid", "pre", "post", "late", "early"):
            continue  # "Kessler-42", "GR-2", "COVID-19": part of a name
        found.append(_quantity(match, text))
    found += [_kanji_quantity(figure, text) for figure in numerals.figures(text)]
    fractions = [m.span() for m in _FRACTION.finditer(text)]
    for match in re.finditer(r"[^\W\d_]+", text):
        token = terms(match.group())[0] if terms(match.group()) else ""
        if any(first <= match.start() < last for first, last in fractions + taken):
            continue  # the "three" of "three-quarters" is the fraction's, not a figure of its own
        if token in _WORDS and (incidental or token not in _INCIDENTAL):
            found.append(_word_quantity(token, match, text))
    for match in _FRACTION.finditer(text):
        if any(first <= match.start() < last for first, last in taken):
            continue
        if not _AS_SHARE.search(text[max(0, match.start() - 12) : match.start()]) and not re.match(
                r"\s+of\b", text[match.end() :]):
            continue  # "half an hour" is no share; "half of the patients", "by more than half" are
        share = _FRACTIONS[match.group(1).lower()]
        found.append(Quantity(share, match.group(1), False, match.start(), "share", share,
                              _hedge_before(text, match.start()), end=match.end(), unit="fraction"))
    return tuple(_joined(sorted(found, key=lambda q: q.start), text))


def _spelled(text: str) -> list[Quantity]:
    """Figures spelled out over several words: scales ("two and a half million US gallons") and
    ratios ("seven in ten"), each one figure, not the small numbers inside it."""
    found = []
    for match in _SPELLED_SCALE.finditer(text):
        scale = _SCALE[match.group("scale").lower()]
        if match.group("part"):
            value = _PARTS[re.sub(r"\s+", " ", match.group("part").lower())] * scale
        else:
            whole = (match.group("whole") or match.group("single")).lower()
            value = (1.0 if whole in ("a", "an") else float(_WORDS[whole])) + (
                _PARTS[match.group("plus").lower()] if match.group("plus") else 0.0)
            value *= scale
        end, dimension, base, unit = match.end(), None, None, ""
        if (following := _unit_word(text, end)) is not None:
            unit, end = following
            dimension, factor = _UNITS[unit]
            base = value * factor
        found.append(Quantity(value, text[match.start() : end], False, match.start(), dimension, base,
                              _hedge_before(text, match.start()), end=end, unit=unit))
    for match in _SPELLED_UNIT.finditer(text):
        if any(q.start <= match.start() < q.end for q in found):
            continue
        unit = (match.group("unit") or match.group("unit2") or match.group("unit3")).lower()
        unit = unit if unit in _UNITS else unit + "s" if unit + "s" in _UNITS else unit
        if unit not in _UNITS:
            continue
        if match.group("part"):
            value = _PARTS[re.sub(r"\s+", " ", match.group("part").lower())]
        else:
            whole = (match.group("whole") or match.group("one")).lower()
            value = _number_word(whole) if whole not in ("a", "an") else 1.0
            value += _PARTS[(match.group("plus") or match.group("plus2")).lower()]
        dimension, factor = _UNITS[unit]
        found.append(Quantity(value, match.group(0), False, match.start(), dimension, value * factor,
                              _hedge_before(text, match.start()), end=match.end(), unit=unit))
    for match in _RATIO.finditer(text):
        n, m = (_number_word(match.group(g)) for g in ("n", "m"))
        if not 0 < n < m <= 1000 or any(q.start <= match.start() < q.end for q in found):
            continue
        found.append(Quantity(n / m, match.group(0), False, match.start(), "share", n / m,
                              _hedge_before(text, match.start()), end=match.end(), unit="ratio"))
    return found


def _number_word(word: str) -> float:
    word = re.sub(r"^a\s+", "", word.lower())
    return float(word) if word[0].isdigit() else float(_WORDS[word])


def _noun_after(following: re.Match[str] | None) -> str:
    """What a figure counts: the word after it, singular; none where that word joins it to something else
    ("17,900 *for* Fellcross": a count whose noun is left out); of a part, the noun of its whole ("three of
    the loans"). "240 *more*" (a difference) keeps its word: it is no plain count of a noun."""
    word = following.group(1).lower() if following else ""
    if word == "of" and following is not None and (whole := _PARTITIVE.match(following.string, following.end())):
        return whole.group(1).lower().removesuffix("s")
    return "" if word in _JOINING else word.removesuffix("s")


#: The noun of a part's whole, right after its "of" and an article: "three of *the loans*".
_PARTITIVE = re.compile(r"\s+(?:the|its|their|these|those)\s+([^\W\d_]+)\b(?!\s*['’])", re.IGNORECASE)


#: Words after a figure that join it to what follows, not what it counts.
_JOINING = frozenset(["for", "to", "in", "on", "at", "by", "from", "with", "and", "or", "but", "against", "between",
                      "into", "than", "as", "after", "before", "during", "under", "over", "since", "until", "while"])


def _unit_word(text: str, end: int) -> tuple[str, int] | None:
    """The unit written right after ``end`` ("… years", "-year", "… US gallons") as a key of ``_UNITS``."""
    following = _WORD_UNIT.match(text, end)
    if following is None:
        return None
    word = following.group(1).lower()
    word = _UNIT_PHRASES.get(re.sub(r"^u\.?s\.?\s+", "us ", word), word)
    if len(word) > 2 and word in _UNITS:  # "ten m" or "two s" is too unlikely to read as a unit
        return word, following.end()
    return None


def hedge_start(text: str, start: int) -> int:
    """Where the hedge written before the figure at ``start`` begins ("about", "more than"), or ``start``."""
    hedge = _HEDGE.search(text[max(0, start - 24) : start])
    return max(0, start - 24) + hedge.start() if hedge else start


def _hedge_before(text: str, start: int) -> str:
    hedge = _HEDGE.search(text[max(0, start - 24) : start])
    return hedge.group(0).strip().lower() if hedge else ""


def _joined(found: list[Quantity], text: str) -> list[Quantity]:
    """Figures that are parts of one: a duration in two units ("2 hours 15 minutes") is their sum,
    and the first figure of a range takes the unit written after the second ("35 and 42 kg")."""
    joined: list[Quantity] = []
    for quantity in found:
        last = joined[-1] if joined else None
        gap = text[last.end : quantity.start] if last is not None and last.end <= quantity.start else None
        if last is None or gap is None:
            joined.append(quantity)
            continue
        if (last.dimension == quantity.dimension == "time" and last.base and quantity.base
                and last.base > quantity.base and _DURATION_JOIN.fullmatch(gap)):
            total = last.base + quantity.base
            joined[-1] = Quantity(total, text[last.start : quantity.end], False, last.start, "time", total, last.hedge,
                                  end=quantity.end, unit="duration")
            continue
        if (last.dimension is None and not last.is_year and last.noun != "$" and quantity.dimension
                and quantity.base is not None and _RANGE_JOIN.fullmatch(gap)
                and (gap.strip() != "and" or re.search(r"\bbetween\s+(?:about\s+)?$", text[max(0, last.start - 16) : last.start]))):
            dimension, base = _in_unit(last.value, quantity.unit)
            if dimension is not None:
                joined[-1] = Quantity(last.value, last.text, False, last.start, dimension, base, last.hedge,
                                      last.decimals, last.end, unit=quantity.unit)
        joined.append(quantity)
    return joined


def _in_unit(value: float, unit: str) -> tuple[str | None, float | None]:
    """(dimension, base value) of ``value`` written in ``unit`` (a key of a parsed figure)."""
    if unit in _TEMPERATURE:
        return "temperature", value + 273.15 if _TEMPERATURE[unit] == "c" else (value - 32) * 5 / 9 + 273.15
    if unit == "%":
        return "share", value * 0.01
    if unit in _UNITS:
        dimension, factor = _UNITS[unit]
        return dimension, value * factor
    return None, None


# Every claim citing a source is compared with its figures: read them once per source, not once per claim
# (a batch returns to hundreds of sources).
@functools.lru_cache(maxsize=512)
def stated_in(source: str) -> tuple[Quantity, ...]:
    """Every figure a source text states, incidental number words included."""
    return tuple(parse_quantities(source, incidental=True))


def _word_quantity(token: str, match: re.Match[str], text: str) -> Quantity:
    """A figure in words, with its unit as the digits have theirs: "ten years" is a duration,
    "ninth" a rank, "eight weeks" is not "ten weeks"."""
    value, start = float(_WORDS[token]), match.start()
    if token in _ORDINALS:
        return Quantity(value, token, False, start, "rank", value, end=match.end(), unit="rank")
    if (unit := _unit_word(text, match.end())) is not None:
        word, end = unit
        dimension, factor = _UNITS[word]
        return Quantity(value, text[start:end], False, start, dimension, value * factor,
                        _hedge_before(text, start), end=end, unit=word)
    noun = _noun_after(_WORD_UNIT.match(text, match.end()))
    return Quantity(value, token, False, start, hedge=_hedge_before(text, start), end=match.end(), noun=noun)


def _kanji_quantity(figure: numerals.KanjiFigure, text: str) -> Quantity:
    """A figure in kanji (第三十六条, 二〇二四年), read as its digits would be: 第36条, 2024年."""
    value, end = float(figure.value), figure.end
    is_year = 1000 <= value <= 2100 and text[end : end + 1] == "年"
    noun = _noun_after(re.match(r"[\s-]*([^\W\d_]+)", text[end:]))
    return Quantity(value, text[figure.start : end], is_year, figure.start, end=end, noun=noun)


def _quantity(match: re.Match[str], text: str) -> Quantity:
    raw, scale = match.group("raw"), match.group("scale")
    value = float(raw.replace(",", ""))
    if scale:
        value *= _SCALE[scale.lower()]
    if match.group("money_m") and match.group("currency"):
        value *= 1e6  # "$3m"; a bare "8,849 m" is metres
    written = (match.group("unit") or "").strip().lstrip("-")  # "10-year"
    if len(written) == 1 and written.isupper() and written not in "CF" or written[:1].isupper() and len(written) > 1 \
            and not written.startswith(("°", "K")) and written.lower() not in _UNITS \
            and not written.upper().startswith(("US ", "U.S.")):
        written = ""  # "5G", "4K", "3D": a name, not a unit
    unit = written.lower()
    unit = re.sub(r"\s+", " ", unit).replace("° ", "°")
    if match.group("money_m") and not match.group("currency"):
        unit = "m"
    if match.group("money_m"):
        unit = "m"  # "8,611m": what follows is the sentence, not a unit ("8,611m tall")
    dimension, base = None, None
    key = unit.replace("square kilometres", "km²").replace("square kilometers", "km²").replace("square miles", "mi²")
    key = re.sub(r"^sq\.?\s*(km|mi)$", r"sq-\1", key).replace("per cent", "per-cent")
    key = _UNIT_PHRASES.get(re.sub(r"^u\.?s\.? ", "us ", key), key)
    if key in _TEMPERATURE and (key.startswith(("°", "deg")) or key in ("celsius", "fahrenheit")):
        dimension = "temperature"
        base = value + 273.15 if _TEMPERATURE[key] == "c" else (value - 32) * 5 / 9 + 273.15
    elif key in _UNITS:
        dimension, factor = _UNITS[key]
        base = value * factor
    if dimension is None and not scale and re.match(r"(?:st|nd|rd|th)\b", text[match.end("raw"):], re.IGNORECASE):
        dimension, base, key = "rank", value, "rank"  # "9th": a place in an order
    hedge_match = _HEDGE.search(text[max(0, match.start() - 24) : match.start()])
    is_year = (not scale and not dimension and "," not in raw and "." not in raw and 1000 <= value <= 2100
               and len(raw) == 4 and not match.group("currency"))
    decimals = len(raw.split(".")[1]) if "." in raw else 0
    sign = text[match.start("raw") - 1 : match.start("raw")] if match.start("raw") else ""
    if sign in ("-", "−") and not text[max(0, match.start("raw") - 2) : match.start("raw") - 1].strip("( ").isalnum():
        value = -value  # "−5 °C"
        if base is not None and dimension == "temperature":
            base = value + 273.15 if _TEMPERATURE[key] == "c" else (value - 32) * 5 / 9 + 273.15
        elif base is not None:
            base = -base
    shown = match.group(0).strip() if dimension else match.group(0)[: match.end("raw") - match.start()].strip()
    if scale:
        shown = text[match.start() : match.end("scale")].strip()
    if dimension == "time" and key == "s" and re.fullmatch(r"\d{3}0", raw):
        dimension, base, is_year = None, None, True  # "the 1980s": a decade, not 1,980 seconds
    end = (match.end("money_m") if match.group("money_m") else match.end() if dimension
           else match.end("scale") if scale else match.end("raw"))
    following = re.match(r"[\s-]*([^\W\d_]+)", text[end:])
    noun = "$" if match.group("currency") or re.match(r"\s*(?:dollars|euros|pounds sterling|usd|eur|gbp)\b",
                                                       text[end:], re.IGNORECASE) else _noun_after(following)
    if dimension == "rank":
        end = match.end("raw") + 2
        shown = text[match.start("raw") : end]
    unit_key = "%" if key in ("%", "percent", "per-cent") else key if dimension else ""
    if match.group("money_m"):
        shown = text[match.start() : match.end("money_m")].strip()
    return Quantity(value, shown, is_year, match.start("raw"), dimension, base,
                    hedge_match.group(0).strip().lower() if hedge_match else "", decimals, end, noun, unit_key)


def comparable(claimed: Quantity, stated: Quantity) -> bool:
    """Whether two figures can stand for the same thing: the same dimension ("up to 28 cars" is no
    time, "25 minutes" is), and money only for money."""
    if claimed.dimension or stated.dimension:
        return claimed.dimension == stated.dimension
    return (claimed.noun == "$") == (stated.noun == "$")


def restate(claim: str, stated: list[Quantity]) -> str:
    """The claim with each figure that the source states in another spelling ("29,032 feet" for
    "8,849 m", "half" for "50 %") written as the source writes it, so that word overlap, retrieval
    and the model compare like with like."""
    pieces, last = [], 0
    for quantity in parse_quantities(claim):
        if quantity.start < last or quantity.is_year:
            continue
        if any(other.text == quantity.text for other in stated):
            continue
        twins = [other for other in stated if same_quantity(quantity, other) and comparable(quantity, other)]
        twin = min(twins, key=lambda other: abs(other.size - quantity.size), default=None)
        if twin is None:
            continue
        start = quantity.start
        while start > 0 and claim[start - 1] in "$£€¥":
            start -= 1
        pieces += [claim[last:start], _as_noun(twin)]
        last = quantity.end
    return "".join(pieces) + claim[last:] if pieces else claim


#: A figure written as an adjective, its unit joined by a hyphen: "a 96-kilometre waterway".
_ADJECTIVAL = re.compile(r"^([\d.,]+)-([a-z]+)$", re.IGNORECASE)
_PLURALS = {"foot": "feet", "inch": "inches"}


def _as_noun(quantity: Quantity) -> str:
    """A figure as a claim would say it: "96 kilometres" for the "96-kilometre" of "a 96-kilometre
    waterway" (the claim "is about 96-kilometre long" reads as no sentence)."""
    match = _ADJECTIVAL.match(quantity.text)
    if match is None:
        return quantity.text
    number, unit = match.groups()
    if quantity.value != 1:
        unit = _PLURALS.get(unit.lower(), unit if unit.endswith("s") else unit + "s")
    return f"{number} {unit}"


def same_quantity(claimed: Quantity, stated: Quantity) -> bool:
    """Whether the source's ``stated`` figure says the claim's ``claimed`` one."""
    if claimed.is_year or stated.is_year:
        return claimed.is_year == stated.is_year and claimed.value == stated.value
    if claimed.dimension and stated.dimension and claimed.dimension != stated.dimension:
        return False
    converted = bool(claimed.dimension and stated.dimension and claimed.base is not None and stated.base is not None
                     and claimed.unit != stated.unit)
    if converted:
        want, have = claimed.base, stated.base  # "29,032 feet" against "8,849 m", "50 %" against "half"
    else:
        want, have = claimed.value, stated.value
    assert want is not None and have is not None
    if want == have:
        return True
    if claimed.hedge:
        if _AT_LEAST.search(claimed.hedge + " "):
            return want <= have <= want * 1.25
        if _NEARLY.search(claimed.hedge + " "):
            return want * 0.9 <= have <= want * 1.001
        if _AT_MOST.search(claimed.hedge + " "):
            return want * 0.8 <= have <= want * 1.001
        return abs(want - have) <= 0.05 * max(abs(want), abs(have))
    if claimed.dimension == "temperature" and converted:
        return abs(want - have) <= 0.6
    if converted or _looks_rounded(claimed.text):
        return abs(want - have) <= 0.02 * max(abs(want), abs(have))  # "3.5 million" vs 3,512,000
    if stated.decimals > claimed.decimals:
        return round(have, claimed.decimals) == want  # "21 %" for "21.4 %"
    return False


def bound_kept(claimed: Quantity, stated: Quantity) -> bool:
    """Whether the claim keeps the bound the source puts on a figure: "more than 100" states neither
    "100" nor "fewer than 100", and "nearly half" does not state "half". A rounding hedge of the source
    ("about 18,000") binds nothing; ``same_quantity`` compares the values."""
    for bound, kept in ((_AT_LEAST, (_AT_LEAST,)), (_AT_MOST, (_AT_MOST, _NEARLY)), (_NEARLY, (_NEARLY, _AT_MOST, _ABOUT))):
        if bound.search(stated.hedge + " "):
            return any(side.search(claimed.hedge + " ") for side in kept)
    return True


#: How many of a passage's figures are paired to look for a claim's worked-out figure (a quoted
#: passage has a handful; a hostile one is cut here, so the pairing stays small).
WORKED_OUT_FIGURES = 40
_YEARS = frozenset(["year", "years", "yr", "yrs"])


#: How a claim words a figure as a difference: "grew by 45,000", "73 seconds less", "11 metres
#: taller than", "39 years before". Only such a figure is looked for as worked out.
_TIMES = re.compile(r"^[\s-]*(?:times|fold)\b", re.IGNORECASE)
_BY_BEFORE = re.compile(r"\bby\s*$", re.IGNORECASE)
_DIFFERENCE_AFTER = re.compile(
    r"^\s*(?:[a-z]+\s+){0,2}?(?:more|less|fewer|above|below|ahead|behind|before|after|earlier|later|up|down|"
    r"[a-z]{2,}er\s+than)\b", re.IGNORECASE)


def worded_as_difference(claim: str, claimed: Quantity) -> bool:
    """Whether the claim states ``claimed`` as a difference ("by 45,000", "73 seconds less")."""
    before = claim[: claimed.start]
    if claimed.hedge and before.rstrip().lower().endswith(claimed.hedge.lower()):
        before = before.rstrip()[: -len(claimed.hedge)]
    after = claim[claimed.end :]
    if _TIMES.match(after):  # "3 times longer": a ratio, not a difference
        return False
    return bool(_BY_BEFORE.search(before.rstrip(" $£€¥")) or _DIFFERENCE_AFTER.match(after))


def worked_out(claimed: Quantity, stated: Sequence[Quantity]) -> tuple[Quantity, Quantity] | None:
    """Two figures of a passage whose difference is the claim's figure: "grew by about 45,000"
    from "from about 140,000 … to about 185,000", "39 years" between 1988 and 2027, "9 mm wider"
    from 1,459 mm and 1,450 mm. The model reads such a claim as a conflict with the passage
    (the figure is not there); it is arithmetic on what the passage states. Figures without a
    unit are subtracted only when they count the same thing (people from people, not from
    offices). None when no pair of the first WORKED_OUT_FIGURES figures gives it."""
    if claimed.is_year or claimed.value <= 0:
        return None
    figures = stated[:WORKED_OUT_FIGURES]
    for i, a in enumerate(figures):
        for b in figures[i + 1 :]:
            if a.is_year or b.is_year:
                if a.is_year and b.is_year and claimed.unit in _YEARS and abs(a.value - b.value) == claimed.value:
                    return a, b
                continue
            if a.dimension != b.dimension or not (comparable(claimed, a) and comparable(claimed, b)):
                continue
            if a.dimension and a.unit != b.unit:
                continue  # "1,459 mm" and "1,450 mm"; figures in two units are not subtracted here
            if not a.dimension and a.noun and b.noun and a.noun != b.noun:
                continue  # "50 people in 20 offices"
            difference = replace(a, value=round(abs(a.value - b.value), 9), text=f"{a.text} − {b.text}", hedge="",
                                 base=None if a.base is None or b.base is None else round(abs(a.base - b.base), 9),
                                 decimals=max(a.decimals, b.decimals))
            if difference.value > 0 and same_quantity(claimed, difference):
                return a, b
    return None


def _looks_rounded(text: str) -> bool:
    """"3.5 million", "2.1bn": a figure with a scale word is rounded. A plain decimal is not: "80.3 %"
    is not "79.1 %", though the two are within 2 % of each other."""
    return bool(re.search(r"(?:\d\s*|[a-z]\s+)(?:thousand|million|billion|trillion|bn|mn|k)\b", text, re.IGNORECASE))


if __name__ == "__main__":
    source = parse_quantities("Everest is 8,849 m high; revenue was $2.1 billion, up 21.4% on 2019.")
    for claim in ("about 29,032 feet", "2,100 million dollars", "21%", "2016", "8,611 m"):
        claimed = parse_quantities(claim)[0]
        print(claim, "->", [q.text for q in source if same_quantity(claimed, q)] or "not stated")
