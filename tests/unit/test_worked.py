"""Comparisons worked out from two of the passage's figures: accounted for only when each side has
one figure, the comparison runs the claim's way and the amount or ratio is the figures' own."""

from __future__ import annotations

import pytest

from citemark.scoring.worked import worked_comparisons

KILNS = ("The older Brackley kiln fires 300 pots a week. The new Halsey kiln, installed last spring, fires "
         "750 pots a week.")
RIDES = "The Coppergate ride took 48 minutes before the timetable change and takes 36 minutes now."
VANS = "The Merrow van weighs 2,300 kg and the Astley van weighs 1,900 kg."
FARES = "A day pass costs £12 in Tollbury, compared with £8 in Fenmouth."
PEAKS = ("The highest peak is Orvandel, at 4,812 m; the second-highest is Tessen, at 4,736 m, and the third-highest "
         "is Sarkhan, at 4,690 m.")


@pytest.mark.parametrize(("claim", "page", "ours", "theirs"), [
    ("The Halsey kiln fires two and a half times as many pots a week as the Brackley kiln.", KILNS, "750", "300"),
    ("The Brackley kiln fires 450 fewer pots a week than the Halsey kiln.", KILNS, "300", "750"),
    ("The Halsey kiln fires 150% more pots a week than the Brackley kiln.", KILNS, "750", "300"),
    ("The Merrow van is 400 kg heavier than the Astley van.", VANS, "2,300 kg", "1,900 kg"),
    ("A day pass costs half as much again in Tollbury as in Fenmouth.", FARES, None, None),
    ("A day pass in Fenmouth is a third cheaper than in Tollbury.", FARES, "£8", "£12"),
    ("A day pass in Tollbury costs £4 more than in Fenmouth.", FARES, "£12", "£8"),
    # the amount's noun in the plural ("54 points"); bare counts apart from another noun's ("58 moves")
    ("Ketterley's rating is 54 points higher than Dransfield's.", "The final went to 58 moves. Ketterley, rated "
     "2641, was the higher-rated finalist; Dransfield is rated 2587.", "2641", "2587"),
    # a clause that names its own subject ("Sarkhan") does not take the clause before it's
    ("Orvandel is 76 m higher than Tessen.", PEAKS, "4,812 m", "4,736 m"),
])
def test_a_comparison_the_figures_give_is_worked_out(claim, page, ours, theirs):
    found = worked_comparisons(claim, page)
    if ours is None:  # "half as much again" is one and a half, which is not read
        assert found == ()
        return
    assert [(w.ours.text, w.theirs.text) for w in found] == [(ours, theirs)]
    # the comparison's words are what it accounts for; the sides' names are left to the alignment
    covered = [claim[s:e] for w in found for s, e in w.spans]
    assert not any("kiln" in part.lower() or "van" in part.lower().split() for part in covered)


@pytest.mark.parametrize(("claim", "page"), [
    # the wrong ratio, the wrong amount, the other way round, the sides swapped
    ("The Halsey kiln fires three times as many pots a week as the Brackley kiln.", KILNS),
    ("The Brackley kiln fires 350 fewer pots a week than the Halsey kiln.", KILNS),
    ("The Brackley kiln fires 450 more pots a week than the Halsey kiln.", KILNS),
    ("The Brackley kiln fires two and a half times as many pots a week as the Halsey kiln.", KILNS),
    ("The Astley van is 400 kg heavier than the Merrow van.", VANS),
    # a bound states no ratio; "times less" is read either way by writers
    ("The Halsey kiln fires more than twice as many pots a week as the Brackley kiln.", KILNS),
    ("The Brackley kiln fires two and a half times fewer pots a week than the Halsey kiln.", KILNS),
])
def test_a_comparison_the_figures_do_not_give_is_not(claim, page):
    assert worked_comparisons(claim, page) == ()


def test_faster_is_fewer_minutes():
    assert worked_comparisons("The Coppergate ride is 12 minutes faster now than before the timetable change.",
                              RIDES) == ()  # "now" and "before" are no names: the sides cannot be told apart
    page = "The Coppergate line takes 36 minutes and the Marlow line takes 48 minutes."
    found = worked_comparisons("The Coppergate line is 12 minutes faster than the Marlow line.", page)
    assert [(w.ours.text, w.theirs.text) for w in found] == [("36 minutes", "48 minutes")]
    assert worked_comparisons("The Marlow line is 12 minutes faster than the Coppergate line.", page) == ()


def test_a_side_with_two_figures_says_nothing():
    page = "The Merrow van weighs 2,300 kg empty and 3,100 kg loaded; the Astley van weighs 1,900 kg."
    assert worked_comparisons("The Merrow van is 400 kg heavier than the Astley van.", page) == ()


def test_a_percentage_of_two_shares_is_not_read():
    page = "Turnout in Harwick was 66%. In Lowden it was 60%."
    # 10 % more turnout, or 10 points more? Writers mean both; neither is worked out
    assert worked_comparisons("Turnout in Harwick was 10% higher than in Lowden.", page) == ()


def test_a_difference_of_decimals_is_read_past_float_noise():
    page = "The Tarn 3 tent weighs 1.4 kg. The larger Tarn 5 weighs 2.1 kg."
    assert worked_comparisons("The Tarn 5 is 0.7 kg heavier than the Tarn 3.", page) != ()
    assert worked_comparisons("The Tarn 5 is 0.6 kg heavier than the Tarn 3.", page) == ()


def test_a_sentence_naming_each_side_beside_its_figure_gives_them():
    page = ("Ashby Town have won 51 races this year and Pelham only 33, yet Pelham have lost fewer boats than any "
            "other club. Ashby have 12 crews and 40 rowers.")
    found = worked_comparisons("Pelham have won 18 fewer races than Ashby Town this year.", page)
    assert [(w.ours.text, w.theirs.text) for w in found] == [("33", "51")]
    assert worked_comparisons("Ashby Town have won 18 fewer races than Pelham this year.", page) == ()
    assert worked_comparisons("Pelham have won 28 fewer races than Ashby Town this year.", page) == ()


def test_a_comparison_the_page_states_in_words_compares_what_the_page_compares():
    from citemark.scoring.align import align

    page = ("The Orla kettle boils a litre in 3 minutes, twice as fast as the model it replaces. The Orla Max "
            "boils a litre in 2 minutes but costs more.")
    stated = align("The Orla kettle boils a litre twice as fast as the model it replaces.", page, subject_context=page)
    assert stated.complete, stated.explanation()
    # every word is on the page, but the page's "twice as fast as" compares the Orla with its predecessor
    other = align("The Orla Max boils a litre twice as fast as the Orla kettle.", page, subject_context=page)
    assert not other.complete
