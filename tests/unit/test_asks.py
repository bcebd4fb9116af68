"""What a verify request may ask beyond its answer: validated once (E100), and held to by ``verdict.answer_asks``."""

from __future__ import annotations

import itertools
import math

import pytest

from citemark.asks import MAX_TOP_K, Asks
from citemark.doors import cache_dir
from citemark.errors import InputError
from citemark.report import to_markdown, to_terminal
from citemark.reuse import source_reuse
from citemark.scoring.verdict import answer_asks
from citemark.types import Citation, Evidence, Label, Report, Scores, Verdict

HASH = "ab" * 32


def verdict(label: Label, support: float | None = 0.7, sha: str | None = HASH, url: str = "https://a.example/x",
            index: int = 0) -> Verdict:
    return Verdict(claim=f"claim {index}", citation=Citation(marker="1", url=url), label=label, reason="r",
                   explanation="e", scores=Scores(support=support) if support is not None else None,
                   evidence=Evidence("q", 0, 1), source_sha256=sha, claim_index=index)


@pytest.mark.parametrize("asks", [
    {"top_k": 0}, {"top_k": MAX_TOP_K + 1}, {"top_k": True}, {"top_k": "3"}, {"top_k": 2.5},
    {"expect_sha256": "xyz"}, {"expect_sha256": "a" * 63}, {"expect_sha256": "g" * 64}, {"expect_sha256": ""},
    {"support_threshold": -0.01}, {"support_threshold": 1.5}, {"support_threshold": math.nan},
    {"support_threshold": True}, {"support_threshold": "0.5"},
])
def test_bad_asks_are_input_errors(asks):
    with pytest.raises(InputError) as caught:
        Asks(**asks)
    assert caught.value.code == "E100" and next(iter(asks)) in caught.value.message


def test_good_asks_are_kept_and_a_hash_is_read_in_either_case():
    asks = Asks(top_k=MAX_TOP_K, expect_sha256=" " + HASH.upper() + " ", support_threshold=1, valid_only=True)
    assert asks.expect_sha256 == HASH and asks.top_k == MAX_TOP_K and asks.support_threshold == 1
    assert Asks() == Asks(top_k=1, expect_sha256=None, support_threshold=None, valid_only=False)


@pytest.mark.parametrize(("label", "support", "threshold"),
                         list(itertools.product(Label, [None, 0.0, 0.3, 0.54, 0.99, 1.0], [0.0, 0.5, 0.9, 1.0])))
def test_a_support_threshold_never_makes_anything_supported(label, support, threshold):
    before = verdict(label, support)
    after = answer_asks(before, Asks(support_threshold=threshold))
    if label is not Label.SUPPORTED:
        assert after == before  # it never moves a verdict that is not supported, least of all up
    elif (support or 0.0) >= threshold:  # no score counts as none: only a zero bar lets it through
        assert after == before
    else:
        assert after.label is Label.PARTIAL and after.reason == "below_support_threshold"
        assert f"{threshold:.2f}" in after.explanation


def test_no_asks_change_nothing():
    for label in Label:
        assert answer_asks(verdict(label), Asks()) == verdict(label)


def test_a_changed_source_text_is_unverifiable_with_a_stable_reason():
    other = "cd" * 32
    changed = answer_asks(verdict(Label.SUPPORTED), Asks(expect_sha256=other))
    assert changed.label is Label.UNVERIFIABLE and changed.reason == "source_changed"
    assert HASH[:12] in changed.explanation and other[:12] in changed.explanation and "supported" in changed.explanation
    contradicted = answer_asks(verdict(Label.CONTRADICTED), Asks(expect_sha256=other))
    assert contradicted.label is Label.UNVERIFIABLE and "contradicted" in contradicted.explanation
    assert answer_asks(verdict(Label.SUPPORTED), Asks(expect_sha256=HASH)) == verdict(Label.SUPPORTED)
    assert answer_asks(verdict(Label.RETRACTED), Asks(expect_sha256=other)).label is Label.RETRACTED
    unread = verdict(Label.UNREACHABLE, support=None, sha=None)
    assert answer_asks(unread, Asks(expect_sha256=other)) == unread
    both = answer_asks(verdict(Label.SUPPORTED, 0.2), Asks(expect_sha256=other, support_threshold=0.5))
    assert both.label is Label.UNVERIFIABLE and "partial (below_support_threshold)" in both.explanation


def test_valid_only_lists_the_passing_citations_and_counts_the_rest():
    report = Report(verdicts=[verdict(Label.SUPPORTED, index=0), verdict(Label.CONTRADICTED, index=1),
                              verdict(Label.UNREACHABLE, index=2)], valid_only=True)
    data = report.to_dict()
    assert [v["verdict"] for v in data["verdicts"]] == ["supported"] and data["dropped"] == 2
    assert data["summary"]["total"] == 3 and data["summary"]["counts"]["contradicted"] == 1  # the answer's truth
    assert "2 citations that did not pass left out" in to_terminal(report)
    assert "CONTRADICTED" not in to_terminal(report) and "| ✘ contradicted |" not in to_markdown(report)
    assert "dropped" not in Report(verdicts=report.verdicts).to_dict()


def test_source_reuse_counts_claims_per_source_and_the_share_of_the_most_cited():
    verdicts = [verdict(Label.SUPPORTED, url="https://a.example/x?utm_source=feed", index=0),
                verdict(Label.PARTIAL, url="https://a.example/x", index=1),
                verdict(Label.UNREACHABLE, url="https://a.example/x", index=1),
                verdict(Label.SUPPORTED, url="https://b.example/y", index=2)]
    reuse = source_reuse(verdicts)
    assert reuse["sources"] == 2 and reuse["citations"] == 4
    assert reuse["by_source"][0] == {"source": "https://a.example/x", "claims": 2, "citations": 3}
    assert reuse["most_cited"] == "https://a.example/x" and reuse["most_cited_share"] == 0.75
    report = Report(verdicts=verdicts, source_reuse=reuse)
    assert report.to_dict()["source_reuse"] == reuse and "source_reuse" not in Report(verdicts=verdicts).to_dict()
    assert "the most-cited source carries 3 of 4 citations (75%)" in to_terminal(report)
    assert "| https://a.example/x | 2 | 3 |" in to_markdown(report)
    assert source_reuse([]) == {"sources": 0, "citations": 0, "by_source": [], "most_cited": None,
                                "most_cited_share": None}


def test_a_cache_dir_that_is_a_file_is_an_input_error(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="is a file"):
        cache_dir(tmp_path / "file")
    with pytest.raises(InputError, match="contradict"):
        cache_dir(tmp_path / "new", no_cache=True)
    assert cache_dir(tmp_path / "new") == tmp_path / "new" and cache_dir(None) is None
