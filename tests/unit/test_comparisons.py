"""Comparisons read against the source's figures: an order the figures turn round is found,
the right order and passages the rule cannot read are left alone."""

import pytest

from citemark.scoring.comparisons import misordered

ROWERS = "The Kestrel 2 weighs 14.2 kg; the Kestrel 2 Pro weighs 12.8 kg. The standard seat is padded."
BRIDGE = "The estimated cost was £38 million, but the final cost was £52 million."
HARVEST = ("In 2024 the growers picked 8,400 tonnes of apples, well below the 9,900 tonnes picked in 2023, "
           "after a late frost.")


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The Kestrel 2 Pro is heavier than the standard Kestrel 2.", ROWERS),
        ("The bridge's final cost was lower than the estimated cost.", BRIDGE),
        ("The apple harvest rose in 2024 compared with 2023.", HARVEST),
        ("Lake Varn is deeper than Lake Oss.", "Lake Oss is 112 m deep. Lake Varn, to its south, is 64 m deep."),
        ("The Tarn 2 is louder than the Tarn 3.", "The Tarn 3 runs at 47 dB; the Tarn 2 runs at 42 dB."),
        ("The West Basin is deeper than the East Basin.",  # a clause naming neither side has the one before's
         "The East Basin is smaller, covering 12 square kilometres, but much deeper, reaching 90 metres. "
         "The West Basin covers 20 square kilometres and is no deeper than 30 metres."),
        # "more X than": the figures that count X, whatever other numbers the passage has
        ("A Velo 300 pack holds more capsules than a Velo 150 pack.",
         "Each Velo 150 pack holds 60 capsules. Each Velo 300 pack holds 30 capsules."),
        # the source states the comparison of the other side, with or without "than"
        ("The Lumen 7 is lighter than the Lumen 5.", "The Lumen 7 has better speakers. But the Lumen 5 is lighter "
         "and cheaper."),
        ("The Lumen 7 is lighter than the Lumen 5.", "The Lumen 5 is lighter than the Lumen 7."),
        # "faster" is less time
        ("The Kestrel route is faster than the Ulla route.", "The Kestrel route takes 55 minutes. The Ulla route "
         "takes 40 minutes."),
    ],
)
def test_an_order_the_figures_turn_round_is_found(claim, evidence):
    assert misordered(claim, evidence)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The Kestrel 2 Pro is lighter than the standard Kestrel 2.", ROWERS),
        ("The bridge's final cost was higher than the estimated cost.", BRIDGE),
        ("The apple harvest fell in 2024 compared with 2023.", HARVEST),
        ("Lake Oss is deeper than Lake Varn.", "Lake Oss is 112 m deep. Lake Varn, to its south, is 64 m deep."),
        # figures of another kind than the comparative compares: nothing to read
        ("The Kestrel 2 Pro is heavier than the Kestrel 2.", "The Kestrel 2 costs $900; the Kestrel 2 Pro costs $1,400."),
        # two figures on one side: the rule cannot tell which, so it says nothing
        ("Lake Varn is deeper than Lake Oss.", "Lake Varn is 64 m deep and 90 m wide; Lake Oss is 112 m deep and 30 m wide."),
        ("The harvest rose sharply.", HARVEST),  # no two years to compare
        ("The first print run sold fewer than 3,000 copies.",  # a bound, not a comparison of two subjects
         "The first print run sold 2,400 copies; the second sold 9,000 copies."),
        ("The Lumen 5 is lighter than the Lumen 7.", "The Lumen 7 has better speakers. But the Lumen 5 is lighter "
         "and cheaper."),
        ("The Lumen 7 is lighter than the Lumen 5.",  # the Lumen 5 is lighter than something else
         "The Lumen 5 is lighter than the Lumen 3, but the Lumen 7 is lighter than the Lumen 5."),
        ("The Lumen 7 is lighter than the Lumen 5.", "The Lumen 5 is not lighter than the Lumen 7."),
        ("The Lumen 5 is not lighter than the Lumen 7.", "The Lumen 7 is lighter than the Lumen 5."),
        ("The Kestrel route is faster than the Ulla route.", "The Kestrel route takes 40 minutes. The Ulla route "
         "takes 55 minutes."),
    ],
)
def test_the_right_order_and_unreadable_passages_are_left_alone(claim, evidence):
    assert misordered(claim, evidence) == ()
