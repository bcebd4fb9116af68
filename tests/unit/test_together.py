"""What the claim says together, the passage must say together: a subject and what is said of it, and
a noun and its adjective or prepositional object, matched in one sentence unless the other sentence
goes on about the claim's subject."""

from __future__ import annotations

import pytest

from citemark.scoring import parse
from citemark.scoring.align import align
from tests.support.needs import need

GROUND = ("The west stand of Calloway Park is the oldest part of the ground, dating from 1904. The east stand, "
          "opened in 1998, has a roof of glass.")
CHART = "In May, Marra was the best-selling record in the folk chart. Across all genres it came ninth."


@pytest.fixture(autouse=True)
def _parser() -> None:
    need(parse.available(), "the dependency parser is not installed (./scripts/setup)")


@pytest.mark.parametrize(("claim", "page", "named"), [
    # the subject from one sentence, what is said of it from the other
    ("The east stand is the oldest part of Calloway Park.", GROUND, "east"),
    # a noun's prepositional object from another sentence
    ("Marra was the best-selling record across all genres in May.", CHART, "genres"),
    # a subject another sentence says the rest of, where that sentence has a subject of its own
    ("Parking at Hollin Bay was rated poor.",
     "Inspectors rated parking at Hollin Bay as good. Signage, at 40%, was rated poor.", "Parking"),
    # a noun's place from another sentence, where the noun's own sentence names another place
    ("The water at Gorse Point has warmed.",
     "The sea at Gorse Point was 11 degrees and still cooling. Further east at Kell Sands the water has warmed.",
     "water"),
    # the scope of a superlative from another sentence
    ("The Tolland library is the busiest in the country.",
     "The Tolland library is the busiest in the county. Only two branches in the country lend more books.", "country"),
    # a group no one sentence holds names what stands apart from most of it, not all of it
    ("Corbridge's only cup win came in 1921.",
     "Corbridge Town were founded in 1890 and moved to Ash Lane in 1921. The town's only cup win came in 1961.",
     "1921"),
    # a figure from another sentence than the word it is of
    ("The night bus leaves at 6 pm.",
     "The ticket office is open from 6 pm to midnight. The night bus leaves at 11 pm.", "6"),
    # a negation from another sentence than its verb
    ("On Sunday the ferry will not stop at Orrin.",
     "On Sunday the ferry will not stop at Skell, and walkers should take the coast path. It will still stop at "
     "Orrin and Brae.", "Orrin"),
    # the subject of a relative clause is the noun it hangs on, not the claim's subject
    ("Edith Marr founded the Tollbridge Rowing Club.",
     "Edith Marr, who has died aged 88, coached rowing for 40 years. She leaves a son, Peter, who founded the "
     "Tollbridge Rowing Club.", "Marr"),
    # a noun's "of" phrase from another sentence
    ("The panel upheld Dara Quinn's complaint of harassment against Fell Transport.",
     "The panel upheld Dara Quinn's complaint of unfair pay against Fell Transport. It awarded her £9,000. Her "
     "second complaint, of harassment, was rejected.", "harassment"),
    # a concession is a statement of its own, and a measure of time stays with what it is "after"
    ("The earliest slot is usually 12 working days after booking.", "Collections take place on Tuesdays. The "
     "earliest slot is usually 5 working days after booking, although in spring the wait can reach 12 working days.",
     "12"),
    # a subject the passage restates in full is read where it is restated, with the rest of what the claim says
    ("Version 4.0 of Tallyweave was released in 2021.", "Tallyweave is a file-sync tool. Version 4.0 of Tallyweave "
     "was released in March 2024; version 3.2 of Tallyweave had been released in 2021.", "2021"),
])
def test_words_the_passage_says_apart_are_not_accounted_for(claim, page, named):
    alignment = align(claim, page, subject_context=page)
    assert not alignment.complete
    assert named in [u.text for u in alignment.unmatched]


@pytest.mark.parametrize(("claim", "page"), [
    ("The west stand is the oldest part of Calloway Park.", GROUND),
    # the page goes on about what it named: by a pronoun, by a bare description
    ("Calloway Park hosted the 1962 cup final.", "Calloway Park opened in 1899. It hosted the 1962 cup final."),
    ("The ferry crossing from Aske to Holm takes 40 minutes.",
     "A small ferry runs from Aske to Holm twice a day. The crossing takes 40 minutes."),
    # the object by a pronoun in the verb's sentence
    ("The council repaired the old footbridge last spring.",
     "The old footbridge at Kerry Mill had been closed since 2019. The council repaired it last spring."),
    # a possessor by a description of it ("The town's" for "Corbridge's")
    ("Corbridge's only cup win came in 1961.",
     "Corbridge Town were founded in 1890 and moved to Ash Lane in 1921. The town's only cup win came in 1961."),
    # a place the page sets the scene with in a sentence of its own; a noun phrase's apposition is its aside
    ("The Lindqvist Bridge was opened in 1931 as the main crossing of the Skarp River in Aldvik.",
     "The Lindqvist Bridge is a steel arch bridge in Aldvik, Norway. It was opened in 1931 as the main crossing of "
     "the Skarp River, the widest in the county."),
    # a time stands on its own
    ("After three years of trading, the shop had doubled its sales.",
     "The shop opened in 2019 and began trading at once. After 36 months, the shop had doubled its sales."),
    # the same word in both sentences: the one that has both will do
    ("Marra was the best-selling record in the folk chart in May.", CHART),
])
def test_words_said_together_or_of_the_same_thing_are(claim, page):
    alignment = align(claim, page, subject_context=page)
    assert alignment.complete, alignment.explanation()
