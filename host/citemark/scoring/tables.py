"""Figures read out of the source's tables: a claim's figure that the table gives another column's
subject ("the KD18 Pro has 70 Nm" where the torque row reads 65 Nm | 42 Nm | 70 Nm under
KD18 Pro | KD18 Compact | GH20), or another row's ("16.0 % in 2026" where 2026's column has 15.2 %),
and a superlative the table's row turns down ("the GH20 is the lightest" at 1.8 kg against 1.2 kg).

Extraction writes a table as Markdown rows (``| Maximum torque | 65 Nm | 42 Nm | 70 Nm |``), one
line each, so the words and figures of a row stand far from the header that says whose they are,
and every check that reads sentences sees three subjects' figures in one clause. This reads the
table whole. It speaks only when the claim names exactly one column (or one row), and no other,
and the table gives that column, in the row that holds the claim's figure, a different figure of
the same kind; anything else is left to the other checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from citemark.scoring.binding import tokenize
from citemark.scoring.comparisons import by_time, superlative
from citemark.scoring.lexical import terms
from citemark.scoring.quantities import Quantity, comparable, parse_quantities, same_quantity

__all__ = ["misplaced", "misranked"]

_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_SEPARATOR = re.compile(r"^\s*:?-{2,}:?\s*$")
#: Tables larger than this, or pages with more cells than MAX_PAGE_CELLS, are left alone: the
#: reading stays cheap on hostile pages.
MAX_CELLS = 400
MAX_PAGE_CELLS = 2000
#: Words a heading and a claim may differ by and still name one column or row; a short list of its own
#: because a table's headings are terse, and "first", "most" or "total" there are what the heading says.
_FUNCTION_WORDS = frozenset(["the", "a", "an", "of", "in", "on", "at", "to", "for", "with", "by", "and", "or", "per"])
#: Words before a superlative that make it claim no first place: "not the lightest", "the second
#: lightest", "one of the lightest".
_NOT_FIRST = frozenset(["not", "no", "never", "second", "third", "fourth", "fifth", "one", "among", "nor"])
#: The field a superlative ranks, when the claim narrows it: "the lightest of the two", "in its class".
_FIELD = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:of|among)\s+(?:the\s+)?(?P<size>two|both|three|four|five|six)\b"
                    r"|^\s*(?:\w+\s+){0,2}?(?P<class>in\s+(?:its|their)\s+class|among)\b", re.IGNORECASE)
_SIZES = {"two": 2, "both": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True, slots=True)
class _Table:
    header: tuple[str, ...]  # the column headings, the first (the row labels' column) included
    rows: tuple[tuple[str, ...], ...]  # each row's cells, its label first


@dataclass(frozen=True, slots=True)
class _Claim:
    """The claim's words, read once for every table."""

    words: frozenset[str]
    stems: frozenset[str]

    @classmethod
    def read(cls, claim: str) -> _Claim:
        words = frozenset(terms(claim))
        return cls(words, frozenset(token.stem for token in tokenize(" ".join(sorted(words)))))


def misplaced(claim: str, document: str) -> tuple[str, ...]:
    """The claim's figures that the document's tables give to another column or row than the one
    the claim names, each as a readable phrase."""
    tables = _tables(document)
    claimed = [q for q in parse_quantities(claim) if not q.is_year] if tables else []
    if not claimed:
        return ()
    read = _Claim.read(claim)
    found = [phrase for reading in _readings(tables) for quantity in claimed
             for phrase in _in_columns(quantity, read, reading)]
    return tuple(dict.fromkeys(found))


def misranked(claim: str, document: str) -> tuple[str, ...]:
    """The claim's superlatives about one column that the table's row of that kind turns down:
    "the GH20 is the lightest" where the weight row reads 1.6 kg | 1.2 kg | 1.8 kg."""
    tables = _tables(document)
    ranks = []
    for match in re.finditer(r"\b(\w+est)\b(.{0,40})", claim) if tables else ():
        rank = superlative(match.group(1).lower())
        if rank is None or {w.lower() for w in re.findall(r"\w+", claim[: match.start()])[-3:]} & _NOT_FIRST:
            continue
        field = _FIELD.match(match.group(2))
        if field and field["class"]:
            continue  # "the lightest in its class" ranks a field the table may not hold
        ranks.append((match.group(1).lower(), rank, _SIZES[field["size"].lower()] if field else None))
    if not ranks:
        return ()
    read = _Claim.read(claim)
    found: list[str] = []
    for reading in _readings(tables):
        named = _named(reading.header[1:], read.words)
        if named is None:
            continue
        for word, (sign, kinds), size in ranks:
            if size is None or size == len(reading.header) - 1:  # "of the two" in a table of three: silent
                found += _outranked(reading, named + 1, word, sign, kinds, read)
    return tuple(dict.fromkeys(found))


def _readings(tables: tuple[_Table, ...]) -> list[_Table]:
    """Each table as written and turned round: subjects may head the columns or the rows."""
    return [reading for table in tables for reading in (table, _transposed(table))]


def _in_columns(quantity: Quantity, claim: _Claim, table: _Table) -> list[str]:
    """The claim's figure found only in other columns than the one the claim names, while the named
    column gives that row another figure of the same kind."""
    named = _named(table.header[1:], claim.words)
    if named is None:
        return []
    column = named + 1
    found = []
    figures = [[_figure(cell) for cell in row] for row in table.rows]
    kinds = [{q.kind for q in cells[1:] if q is not None} for cells in figures]
    for row, cells, row_kinds in zip(table.rows, figures, kinds):
        if column >= len(cells):
            continue
        # The row must be the claim's: its label shares a word with the claim, or it is the table's
        # one row of figures of this kind ("Weight with battery" for "weighs 1.6 kg").
        alone = sum(bool(row_kinds & other) for other in kinds) == 1
        if not _labelled(row[0], claim) and not alone:
            continue
        ours = cells[column]
        if ours is not None and same_quantity(quantity, ours):
            return []  # the named column holds the figure: whatever else the table says, it is stated
        for k, theirs in enumerate(cells[1:], start=1):
            if k == column or theirs is None or not same_quantity(quantity, theirs) or not _alike(quantity, theirs):
                continue
            if ours is not None and _alike(quantity, ours) and not same_quantity(quantity, ours):
                found.append(f"{theirs.text} (the source's table gives it for {table.header[k]}, "
                             f"and {ours.text} for {table.header[column]})")
    return found


def _outranked(table: _Table, column: int, word: str, sign: int, kinds: frozenset[str] | None,
               claim: _Claim) -> list[str]:
    """The superlative ``word`` said of ``column``, against the one row it ranks: the row of its kind
    of figure (or, for "biggest" and the like, the row the claim names), every cell one figure."""
    rows = []
    for row in table.rows:
        cells = [_figure(cell) for cell in row[1:]]
        if len(cells) < 2 or any(cell is None for cell in cells) or len({cell.kind for cell in cells}) != 1:
            continue
        kind = cells[0].kind
        labelled = _labelled(row[0], claim)
        if kinds is not None and kind not in kinds or kinds is None and not labelled:
            continue
        rows.append((cells, labelled))
    if len(rows) > 1:
        rows = [entry for entry in rows if entry[1]]  # several rows of the kind: the one the claim names
    if len(rows) != 1 or column - 1 >= len(rows[0][0]):
        return []
    cells = rows[0][0]
    sizes = [cell.size for cell in cells]
    if by_time(word) and cells[0].kind == "time":
        sign = -sign  # the fastest takes the least time
    best = max(sizes) if sign > 0 else min(sizes)
    if sizes[column - 1] == best or sizes.count(best) != 1:
        return []
    leader = sizes.index(best)
    return [f"{word} (the source's table gives {table.header[leader + 1]} {cells[leader].text}, "
            f"and {table.header[column]} {cells[column - 1].text})"]


def _labelled(label: str, claim: _Claim) -> bool:
    """Whether a row's label shares a word with the claim ("Charge time" with "charges")."""
    return bool({t.stem for t in tokenize(label) if t.lower not in _FUNCTION_WORDS} & claim.stems)


def _named(headings: tuple[str, ...], claim_words: frozenset[str]) -> int | None:
    """The one heading the claim names more fully than any other ("Kordell KD18 Pro" beside "Kordell
    KD18 Compact" for "the KD18 Pro"; "On time, 2027" beside "On time, 2026" for "on time in 2027"),
    or None when two tie, none is named, or the claim also names another by a word only that one has
    ("the KD18 Pro … short of the GH20's 70 Nm" compares two columns)."""
    words = [set(terms(heading)) - _FUNCTION_WORDS for heading in headings]
    if len(words) < 2 or not all(words):
        return None
    shares = [len(own & claim_words) for own in words]
    best = max(shares)
    if best == 0 or shares.count(best) > 1:
        return None
    named = shares.index(best)
    for i, own in enumerate(words):
        others = set().union(*(other for k, other in enumerate(words) if k != i))
        if i != named and (own - others) & claim_words:
            return None
    return named


def _alike(claimed: Quantity, cell: Quantity) -> bool:
    """Whether a cell's figure is of the claim's kind: counts of the same thing, or of nothing named
    ("212" for "212 screws"; "twice as many" is no count of amp-hours)."""
    if not comparable(claimed, cell):
        return False
    counts = claimed.kind.startswith("count:") and cell.kind.startswith("count:")
    return not counts or cell.noun in ("", claimed.noun)


@lru_cache(maxsize=4096)
def _figure(cell: str) -> Quantity | None:
    """The one figure a cell holds, or None (cached: a page's cells are read for every claim)."""
    quantities = parse_quantities(cell)
    return quantities[0] if len(quantities) == 1 else None


def _transposed(table: _Table) -> _Table:
    """The table read the other way: its row labels as headings, its headings as row labels."""
    width = len(table.header)
    columns = tuple((table.header[k],) + tuple(row[k] for row in table.rows) for k in range(1, width))
    return _Table(header=(table.header[0],) + tuple(row[0] for row in table.rows), rows=columns)


@lru_cache(maxsize=16)
def _tables(document: str) -> tuple[_Table, ...]:
    """Every Markdown table in the text (cached: one page, many claims): a heading row (the first
    with two or more headings after its first cell) and the labelled rows under it; title rows and
    separators are skipped. A page with more than MAX_PAGE_CELLS cells has none read."""
    if "|" not in document:
        return ()
    tables: list[_Table] = []
    block: list[tuple[str, ...]] = []
    cells_seen = 0
    for line in document.splitlines() + [""]:
        match = _ROW.match(line)
        if match:
            cells = tuple(cell.strip() for cell in match.group(1).split("|"))
            cells_seen += len(cells)
            if cells_seen > MAX_PAGE_CELLS:
                return ()
            if not all(not cell or _SEPARATOR.match(cell) for cell in cells):  # a separator holds nothing
                block.append(cells)
            continue
        if block and (table := _table(block)) is not None:
            tables.append(table)
        block = []
    return tuple(tables)


def _table(rows: list[tuple[str, ...]]) -> _Table | None:
    """One block of rows as a table: its heading row, and the rows under it with a label and as many
    cells as the heading (ragged rows are left out); None for a block too big or with no heading."""
    if sum(len(row) for row in rows) > MAX_CELLS:
        return None
    start = next((i for i, row in enumerate(rows) if sum(bool(cell) for cell in row[1:]) >= 2), None)
    if start is None:
        return None
    header = rows[start]
    body = tuple(row for row in rows[start + 1 :] if row and row[0] and len(row) == len(header))
    return _Table(header=header, rows=body) if body else None
