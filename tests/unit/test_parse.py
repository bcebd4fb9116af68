"""The parse the relation checks read: spaCy's, made in the parser's process, rebuilt here as plain values.

Every attribute the checks read (``syntax.py``) must equal what spaCy itself gives in this process for
the same text: the parser process changes where spaCy runs, never what it says.
"""

from __future__ import annotations

import pytest

from citemark.scoring import parse
from citemark.scoring.align import align
from citemark.scoring.syntax import Doc
from tests.support.needs import need

SENTENCES = [
    "Armstrong and Aldrin walked on the Moon while Collins stayed in orbit aboard Columbia.",
    "It was completed in 1889 by Gustave Eiffel's company, which also built the Garabit viaduct.",
    "Who makes it\nThe mower is built for Clovermow by Hexwood, and the app comes from Trellis Labs.",
    "The Danube is Europe's second-longest river. It flows through ten countries!  Really?",
    "Pennock lent Halbrook £85 million in 2019; the loan wasn't repaid — “ever”, they said.",
]


@pytest.fixture(scope="module")
def nlp():
    need(parse.installed(), f"needs spaCy and {parse.PIPELINE} (./scripts/setup installs them)")
    from citemark.scoring.parser_process import load

    return load()


def described(doc) -> list[tuple]:  # noqa: ANN001 - a spaCy Doc or a syntax.Doc
    return [(t.i, t.text, t.idx, t.lower_, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i,
             [c.i for c in t.children], [s.i for s in t.subtree], t.left_edge.i,
             t.sent.start if hasattr(t, "sent") else t.sentence_start) for t in doc]


@pytest.mark.parametrize("text", SENTENCES)
def test_a_parse_from_the_process_equals_spacys_own(nlp, text):
    doc = parse.parse(text)
    assert doc is not None and doc.text == text and len(doc) == len(nlp(text))
    assert described(doc) == described(nlp(text))
    assert [t.text for t in doc] == [doc[i].text for i in range(len(doc))]


def test_the_same_text_gives_the_same_doc_while_it_is_cached(nlp):
    first = parse.parse(SENTENCES[0])
    assert parse.parse(SENTENCES[0]) is first
    assert first[3].head is first[3] and first[0].head is first[3]  # one object per token


def test_a_subtree_comes_in_spacys_order_across_a_crossing_arc(nlp):
    from spacy.tokens import Doc as SpacyDoc

    words, heads = ["a", "b", "c", "d"], [1, 1, 0, 1]  # "c" hangs from "a", across "b"
    deps = ["nsubj", "ROOT", "dep", "dobj"]
    theirs = SpacyDoc(nlp.vocab, words=words, heads=heads, deps=deps)
    ours = Doc("a b c d", words=words, idx=[0, 2, 4, 6], pos=[""] * 4, tag=[""] * 4, dep=deps, head=heads,
               lemma=words, sents=[0])
    assert [t.i for t in ours[1].subtree] == [t.i for t in theirs[1].subtree] == [0, 2, 1, 3]
    assert [[c.i for c in t.children] for t in ours] == [[c.i for c in t.children] for t in theirs]


def test_lone_surrogates_are_parsed_one_for_one(nlp):
    text = "Collins\ud800 stayed in orbit \udfff aboard Columbia."
    doc = parse.parse(text)
    assert doc is not None and len(doc.text) == len(text) and "\ud800" not in doc.text
    aboard = next(t for t in doc if t.text == "aboard")
    assert text[aboard.idx : aboard.idx + len("aboard")] == "aboard"


def test_without_the_parser_a_parse_is_none_and_nothing_is_said(monkeypatch, caplog):
    monkeypatch.setattr(parse, "installed", lambda: False)
    parser = parse.ParserProcess()
    parser.start()
    assert parser.pid is None and parser.parse("Collins stayed in orbit.") is None and not parser.available()
    assert "not installed" in (parser.failure or "") and not caplog.records


def test_a_parser_that_fails_on_the_way_leaves_relations_unchecked(monkeypatch):
    monkeypatch.setattr(parse, "available", lambda: True)
    monkeypatch.setattr(parse, "parse", lambda text: None)
    alignment = align("Millbrook Athletic beat Harbourside City 3-2.",
                      "Millbrook Athletic came from two goals down to beat Harbourside City 3-2 on Saturday.")
    assert alignment.complete and not alignment.relations_checked
