"""The training-data builder's held-out split: stable, and by premise."""

from __future__ import annotations

from train.build_data import HELDOUT_SHARE, held_out


def test_every_claim_about_one_premise_falls_on_the_same_side() -> None:
    premises = [f"Source text number {i}. It says several things." for i in range(400)]
    for premise in premises:
        sides = {held_out({"premise": premise, "hypothesis": h, "label": label})
                 for h, label in (("A claim.", "entailment"), ("Another claim.", "neutral"), ("No.", "contradiction"))}
        assert len(sides) == 1


def test_about_three_percent_is_held_out_whatever_the_order() -> None:
    rows = [{"premise": f"Premise {i} about topic {i % 97}.", "hypothesis": "h", "label": "entailment"} for i in range(20000)]
    chosen = [held_out(row) for row in rows]
    assert abs(sum(chosen) / len(rows) - HELDOUT_SHARE) < 0.005
    assert [held_out(row) for row in reversed(rows)] == chosen[::-1]
