"""Figures read out of the source's tables: a claim's figure that the table gives another column's
subject ("the KD18 Pro has 70 Nm" where the torque row reads 65 Nm | 42 Nm | 70 Nm under
KD18 Pro | KD18 Compact | GH20), or another row's ("16.0 % in 2026" where 2026's column has 15.2 %).

Extraction writes a table as Markdown rows (``| Maximum torque | 65 Nm | 42 Nm | 70 Nm |``), one
line each, so the words and figures of a row stand far from the header that says whose they are,
and every check that reads sentences sees three subjects' figures in one clause. This reads the
table whole. It speaks only when the claim names exactly one column (or one row) and the table
gives that column, in the row that holds the claim's figure, a different figure of the same kind;
anything else is left to the other checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citemark.scoring.binding import tokenize
from citemark.scoring.comparisons import by_time, superlative
from citemark.scoring.lexical import terms
from citemark.scoring.quantities import Quantity, comparable, parse_quantities, same_quantity

__all__ = ["misplaced", "misranked"]

_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_SEPARATOR = re.compile(r"^\s*:?-{2,}:?\s*$")
#: Tables larger than this are left alone: the reading stays cheap on hostile pages.
MAX_CELLS = 400


@dataclass(frozen=True, slots=True)
class _Table:
    header: list[str]  # the column headings, the first (the row labels' column) included
    rows: list[list[str]]  # each row's cells, its label first


def misplaced(claim: str, document: str) -> tuple[str, ...]:
    """The claim's figures that the document's tables give to another column or row than the one
    the claim names, each as a readable phrase."""
    if "|" not in document:
        return ()
    claimed = [q for q in parse_quantities(claim) if not q.is_year]
    if not claimed:
        return ()
    claim_words = set(terms(claim))
    found: list[str] = []
    for table in _tables(document):
        for quantity in claimed:
            found += _in_columns(quantity, claim_words, table) + _in_columns(quantity, claim_words, _transposed(table))
    return tuple(dict.fromkeys(found))


def misranked(claim: str, document: str) -> tuple[str, ...]:
    """The claim's superlatives about one column that the table's row of that kind turns down:
    "the GH20 is the lightest" where the weight row reads 1.6 kg | 1.2 kg | 1.8 kg."""
    if "|" not in document:
        return ()
    words = terms(claim)
    ranks = [(word, rank) for word in words if (rank := superlative(word))]
    if not ranks:
        return ()
    claim_words = set(words)
    claim_stems = {token.stem for token in tokenize(" ".join(words))}
    found: list[str] = []
    for table in _tables(document):
        for reading in (table, _transposed(table)):
            named = _named(reading.header[1:], claim_words)
            if named is None:
                continue
            for word, (sign, kinds) in ranks:
                found += _outranked(reading, named + 1, word, sign, kinds, claim_stems)
    return tuple(dict.fromkeys(found))


def _outranked(table: _Table, column: int, word: str, sign: int, kinds: frozenset[str] | None,
               claim_stems: set[str]) -> list[str]:
    """The superlative ``word`` said of ``column``, against the one row it ranks: the row of its kind
    of figure (or, for "biggest" and the like, the row the claim names), every cell one figure."""
    rows = []
    for row in table.rows:
        cells = [_figure(cell) for cell in row[1:]]
        if len(cells) < 2 or any(cell is None for cell in cells) or len({cell.kind for cell in cells}) != 1:
            continue
        kind = cells[0].kind
        labelled = bool({t.stem for t in tokenize(row[0]) if t.lower not in _FUNCTION_WORDS} & claim_stems)
        if kinds is not None and kind not in kinds or kinds is None and not labelled:
            continue
        rows.append((row, cells, labelled))
    if len(rows) > 1:
        rows = [entry for entry in rows if entry[2]]  # several rows of the kind: the one the claim names
    if len(rows) != 1 or column - 1 >= len(rows[0][1]):
        return []
    _, cells, _ = rows[0]
    sizes = [cell.base if cell.base is not None else cell.value for cell in cells]
    if by_time(word) and cells[0].kind == "time":
        sign = -sign  # the fastest takes the least time
    best = max(sizes) if sign > 0 else min(sizes)
    ours = cells[column - 1]
    if sizes[column - 1] == best or sizes.count(best) != 1:
        return []
    leader = sizes.index(best)
    return [f"{word} (the source's table gives {table.header[leader + 1]} {cells[leader].text}, "
            f"and {table.header[column]} {ours.text})"]


def _in_columns(quantity: Quantity, claim_words: set[str], table: _Table) -> list[str]:
    """The claim's figure found only in other columns than the one the claim names, while the named
    column gives that row another figure of the same kind."""
    named = _named(table.header[1:], claim_words)
    if named is None:
        return []
    column = named + 1
    claim_stems = {token.stem for token in tokenize(" ".join(claim_words))}
    found = []
    held_by_named = False
    figures = [[_figure(cell) for cell in row] for row in table.rows]
    kinds = [{q.kind for q in cells[1:] if q is not None} for cells in figures]
    for row, cells, row_kinds in zip(table.rows, figures, kinds):
        if column >= len(cells):
            continue
        # The row must be the claim's: its label shares a word with the claim, or it is the table's
        # one row of figures of this kind ("Weight with battery" for "weighs 1.6 kg").
        alone = sum(bool(row_kinds & other) for other in kinds) == 1
        if not {t.stem for t in tokenize(row[0]) if t.lower not in _FUNCTION_WORDS} & claim_stems and not alone:
            continue
        ours = cells[column]
        if ours is not None and same_quantity(quantity, ours):
            held_by_named = True
        for k, theirs in enumerate(cells[1:], start=1):
            if k == column or theirs is None or not same_quantity(quantity, theirs) or not _alike(quantity, theirs):
                continue
            if ours is not None and _alike(quantity, ours) and not same_quantity(quantity, ours):
                found.append(f"{quantity.text} (the source's table gives it for {table.header[k]}, "
                             f"and {ours.text} for {table.header[column]})")
    return [] if held_by_named else found


_FUNCTION_WORDS = frozenset(["the", "a", "an", "of", "in", "on", "at", "to", "for", "with", "by", "and", "or", "per"])


def _named(headings: list[str], claim_words: set[str]) -> int | None:
    """The one heading the claim names more fully than any other ("Kordell KD18 Pro" beside "Kordell
    KD18 Compact" for "the KD18 Pro"; "On time, 2027" beside "On time, 2026" for "on time in 2027"),
    or None when two tie or none is named."""
    words = [set(terms(heading)) - _FUNCTION_WORDS for heading in headings]
    if len(words) < 2 or not all(words):
        return None
    shares = [len(own & claim_words) for own in words]
    best = max(shares)
    if best == 0 or shares.count(best) > 1:
        return None
    return shares.index(best)


def _alike(claimed: Quantity, cell: Quantity) -> bool:
    """Whether a cell's figure is of the claim's kind: counts of the same thing, or of nothing named
    ("212" for "212 screws"; "twice as many" is no count of amp-hours)."""
    if not comparable(claimed, cell):
        return False
    counts = claimed.kind.startswith("count:") and cell.kind.startswith("count:")
    return not counts or cell.noun in ("", claimed.noun)


def _figure(cell: str) -> Quantity | None:
    """The one figure a cell holds, or None."""
    quantities = parse_quantities(cell)
    return quantities[0] if len(quantities) == 1 else None


def _transposed(table: _Table) -> _Table:
    """The table read the other way: its row labels as headings, its headings as row labels."""
    width = len(table.header)
    columns = [[table.header[k]] + [row[k] if k < len(row) else "" for row in table.rows] for k in range(1, width)]
    return _Table(header=[table.header[0]] + [row[0] for row in table.rows], rows=columns)


def _tables(document: str) -> list[_Table]:
    """Every Markdown table in the text: a heading row (the first with two or more headings after its
    first cell) and the labelled rows under it; title rows and separators are skipped."""
    tables: list[_Table] = []
    block: list[list[str]] = []
    for line in document.splitlines() + [""]:
        match = _ROW.match(line)
        if match:
            cells = [cell.strip() for cell in match.group(1).split("|")]
            if not all(not cell or _SEPARATOR.match(cell) for cell in cells):  # a separator holds nothing
                block.append(cells)
            continue
        if block:
            table = _table(block)
            if table is not None:
                tables.append(table)
        block = []
    return tables


def _table(rows: list[list[str]]) -> _Table | None:
    if sum(len(row) for row in rows) > MAX_CELLS:
        return None
    start = next((i for i, row in enumerate(rows) if sum(bool(cell) for cell in row[1:]) >= 2), None)
    if start is None:
        return None
    header = rows[start]
    body = [row for row in rows[start + 1 :] if row and row[0] and len(row) == len(header)]
    return _Table(header=header, rows=body) if body else None
