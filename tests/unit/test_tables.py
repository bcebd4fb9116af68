"""Figures read out of the source's tables: a figure the table gives another column (or row) than the
one the claim names is found; the right cell, and claims the table cannot place, are left alone."""

import pytest

from citemark.scoring.tables import misplaced, misranked

KETTLES = """Three kettles tested.
|  | Arlo K1 | Arlo K2 | Brindle Quick |
|---|---|---|---|
| Price | £39 | £55 | £48 |
| Capacity | 1.5 litres | 1.7 litres | 1.2 litres |
| Boil time (1 litre) | 190 seconds | 160 seconds | 150 seconds |
| Warranty | 2 years | 3 years | 1 year |
The K2 is the quietest."""

RESULTS = """Key figures
| Harlow Mutual: key figures |  |  |
|---|---|---|
|  | 2026 | 2025 |
|---|---|---|
| Pre-tax profit | £212m | £198m |
| Capital ratio | 14.1% | 15.0% |
"""

DRILLS = """|  | Kordell Pro | Kordell Compact | Trevane GH20 |
|---|---|---|---|
| Battery | 4.0 Ah | 2.0 Ah | 5.0 Ah |
| Screws driven per charge | 212 | 96 | 254 |
"""

PUNCTUALITY = """| Departures |  |  |  |
|---|---|---|---|
|  | Pellbridge | Hallerton International | Cresswold |
|---|---|---|---|
| On time (within 15 min), 2027 | 82.4% | 79.1% | 71.6% |
| On time (within 15 min), 2026 | 77.9% | 80.3% | 69.8% |
| Flights cancelled, 2027 | 0.9% | 1.4% | 2.7% |
"""

SIDEWAYS = """| Model | Weight | Range |
|---|---|---|
| Tarn 5 | 14.2 kg | 60 km |
| Tarn 7 | 16.8 kg | 95 km |
"""


@pytest.mark.parametrize(
    ("claim", "document"),
    [
        ("The Arlo K2 costs £39.", KETTLES),
        ("The Brindle Quick holds 1.7 litres.", KETTLES),
        ("The Arlo K1 boils a litre in 150 seconds.", KETTLES),  # the row named by its label's word
        ("The Brindle Quick comes with a three-year warranty.", KETTLES),
        ("Harlow Mutual's capital ratio at the end of 2026 was 15.0%.", RESULTS),  # a column headed by a year
        ("The Tarn 5 weighs 16.8 kg.", SIDEWAYS),  # subjects as rows
        ("The Kordell Compact drove 212 screws per charge.", DRILLS),  # a bare count in the cell counts screws
        # the row the claim names most fully ("on time … 2027"), though every label has "2027"; 80.3 % is
        # no rounding of 79.1 %
        ("Hallerton International's on-time rate in 2027 was 80.3%.", PUNCTUALITY),
    ],
)
def test_a_figure_the_table_gives_another_subject_is_found(claim, document):
    assert misplaced(claim, document)


@pytest.mark.parametrize(
    ("claim", "document"),
    [
        ("The Arlo K2 costs £55.", KETTLES),
        ("The Brindle Quick holds 1.2 litres.", KETTLES),
        ("The Arlo K2 comes with a three-year warranty.", KETTLES),
        ("Harlow Mutual's capital ratio at the end of 2026 was 14.1%.", RESULTS),
        ("The capital ratio fell from 15.0% in 2025 to 14.1% in 2026.", RESULTS),  # both columns named
        ("The Arlo kettles cost £39 or more.", KETTLES),  # no one column named
        ("The Arlo K2 has a 3-year guarantee on its element and a lid that opens in 2 seconds.", "No table here."),
        ("The Tarn 7 weighs 16.8 kg.", SIDEWAYS),
        ("The Kordell Compact drove 96 screws per charge.", DRILLS),
        ("Hallerton International's on-time rate in 2027 was 79.1%.", PUNCTUALITY),
        ("Hallerton International's on-time rate in 2026 was 80.3%.", PUNCTUALITY),
        # a claim naming two columns compares them: the table is not read for it
        ("The Kordell Pro drove 212 screws per charge, short of the Trevane GH20's 254.", DRILLS),
        # "twice as many" is no count of amp-hours
        ("The Trevane GH20 drove more than twice as many screws per charge as the Kordell Compact.", DRILLS),
    ],
)
def test_the_right_cell_and_claims_the_table_cannot_place_are_left_alone(claim, document):
    assert misplaced(claim, document) == ()


def test_a_table_past_the_cell_cap_is_not_read():
    """A hostile page's table of thousands of cells is left alone (the cap keeps reading it cheap)."""
    filler = "\n".join(f"| Part {r} | {r} g | {r + 1} g | {r + 2} g |" for r in range(200))
    assert misplaced("The Arlo K2 costs £39.", KETTLES.replace("| Warranty |", filler + "\n| Warranty |")) == ()
    assert misplaced("The Arlo K2 costs £39.", KETTLES)  # the same claim against the table within the cap


@pytest.mark.parametrize(
    ("claim", "turned_down"),
    [
        ("The Brindle Quick is the cheapest of the three kettles.", True),  # £48 against the K1's £39
        ("The Arlo K1 is the cheapest of the three kettles.", False),
        ("The Arlo K1 boils fastest.", True),  # the fastest takes the fewest seconds: the Brindle Quick's 150
        ("The Brindle Quick boils fastest.", False),
        ("The Arlo K2 has the longest warranty.", False),  # two rows of time: the one the claim names
        ("The Arlo K1 has the longest warranty.", True),
        ("The Arlo K2 is the biggest kettle here.", False),  # no row the claim names for "biggest": silent
        ("The Brindle Quick is not the cheapest of the three kettles.", False),
        ("The Brindle Quick is the second-cheapest kettle.", False),
        ("The Brindle Quick is one of the cheapest kettles.", False),
        ("The Brindle Quick is the cheapest of the two Arlo rivals.", False),  # a narrower field than the table's
        ("The Arlo K2 trails the Brindle Quick, which boils fastest.", False),  # two columns named
    ],
)
def test_a_superlative_the_tables_row_turns_down_is_found(claim, turned_down):
    assert bool(misranked(claim, KETTLES)) is turned_down
