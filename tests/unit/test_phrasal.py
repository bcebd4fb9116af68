"""Phrasal verbs: a verb with its particle is matched by the one verb it says, either way round, and
never by an opposite."""

from __future__ import annotations

import pytest

from citemark.scoring import parse
from citemark.scoring.align import align
from tests.support.needs import need


@pytest.fixture(autouse=True)
def _parser() -> None:
    need(parse.available(), "the dependency parser is not installed (./scripts/setup)")


@pytest.mark.parametrize(("claim", "page"), [
    ("Eleven publishers turned down the novel.", "The novel was rejected by eleven publishers."),
    ("Kessel set up the charity in 1998.", "Kessel founded the charity in 1998."),
    ("Kessel founded the charity in 1998.", "Kessel set up the charity in 1998."),
    ("The mayor stepped down in May.", "The mayor resigned in May."),
])
def test_a_phrasal_verb_is_matched_by_the_verb_it_says(claim, page):
    assert align(claim, page, subject_context=page).complete


@pytest.mark.parametrize(("claim", "page", "named"), [
    ("Kessel accepted the offer.", "Kessel turned down the offer.", "accepted"),
    ("The board turned down the bid.", "The board accepted the bid.", "turned; down"),
    # the roles of the matched verb are read as for any match
    ("The novel turned down eleven publishers.", "The novel was rejected by eleven publishers.", ""),
])
def test_an_opposite_or_another_role_is_not_matched(claim, page, named):
    alignment = align(claim, page, subject_context=page)
    assert not alignment.complete
    assert named in alignment.explanation()

