"""Verdict checks after judging: altered quotes, the answer's excerpt, the source hash, conflicting passages.

The engine runs for real on inline-text sources (no network). The conflicting
test uses a small fake scorer: it entails a pair when the evidence says
"opened in 1902" and contradicts it when the evidence says "did not open" —
a fixed rule standing in for a model, to test the rule that reads both.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from citemark.engine import Engine
from citemark.scoring.nli import NLIScores
from citemark.types import Label

SOURCE = ("The museum opened in 1902 and holds 260,000 volumes. Its director said the collection is "
          "\u201cthe finest in the region\u201d. Admission is free on Sundays.")


async def verdicts(settings, items, scorer=None):  # noqa: ANN001, ANN201
    async with Engine(settings, scorer=scorer, cache=None) as engine:
        report = await engine.report(json.dumps(items), fmt="json")
    return sorted(report.verdicts, key=lambda v: v.claim_index)


async def test_quoted_words_not_verbatim_in_the_source_are_an_altered_quote(settings):
    exact, altered = await verdicts(settings, [
        {"claim": "The director called the collection \u201cthe finest in the region\u201d.", "source_text": SOURCE},
        {"claim": "The director called the collection \"the best in the whole region\".", "source_text": SOURCE},
    ])
    assert exact.reason != "altered_quote"
    assert altered.reason == "altered_quote" and altered.label is not Label.SUPPORTED
    assert "the best in the whole region" in altered.explanation
    assert altered.evidence is not None and SOURCE[altered.evidence.start:altered.evidence.end] == altered.evidence.quote
    assert "finest in the region" in altered.evidence.quote


async def test_an_excerpt_the_source_does_not_contain_is_an_altered_quote(settings):
    kept, changed = await verdicts(settings, [
        {"claim": "The museum holds 260,000 volumes.", "source": SOURCE, "excerpt": "holds 260,000  volumes"},
        {"claim": "The museum holds 260,000 volumes.", "source": SOURCE, "excerpt": "holds 300,000 rare volumes"},
    ])
    assert kept.label is Label.SUPPORTED and kept.reason != "altered_quote"
    assert (changed.label, changed.reason) == (Label.PARTIAL, "altered_quote")


async def test_every_verdict_carries_the_sha256_of_the_text_it_judged(settings):
    (verdict,) = await verdicts(settings, [{"claim": "Admission is free on Sundays.", "source_text": SOURCE}])
    assert verdict.source_sha256 == hashlib.sha256(SOURCE.encode()).hexdigest()
    assert verdict.to_dict()["source_sha256"] == verdict.source_sha256


class RuleScorer:
    """Fake scorer: "opened in 1902" entails, "did not open" contradicts, anything else is neutral."""

    name = "rule-scorer"

    def score(self, pairs):  # noqa: ANN001, ANN201
        out = []
        for evidence, _claim in pairs:
            if "did not open" in evidence:
                out.append(NLIScores(0.02, 0.03, 0.95))
            elif "opened in 1902" in evidence:
                out.append(NLIScores(0.97, 0.02, 0.01))
            else:
                out.append(NLIScores(0.05, 0.9, 0.05))
        return out


async def test_a_source_that_supports_and_contradicts_in_different_passages_is_conflicting(settings):
    filler = " ".join(f"Room {i} shows paintings of the coast." for i in range(12))
    source = (f"The museum opened in 1902 in the old town hall. {filler} "
              "A later survey claims the museum did not open in 1902 in the old town hall.")
    settings = replace(settings, evidence_windows=max(settings.evidence_windows, 8))
    (verdict,) = await verdicts(settings, [{"claim": "The museum opened in 1902 in the old town hall.",
                                            "source_text": source}], scorer=RuleScorer())
    assert (verdict.label, verdict.reason) == (Label.PARTIAL, "conflicting")
    assert "opened in 1902" in verdict.evidence.quote and "did not open" not in verdict.evidence.quote
    assert [q.quote for q in verdict.quotes] and "did not open" in verdict.quotes[0].quote
    (plain,) = await verdicts(settings, [{"claim": "The museum opened in 1902 in the old town hall.",
                                          "source_text": f"The museum opened in 1902 in the old town hall. {filler}"}],
                              scorer=RuleScorer())
    assert plain.label is Label.SUPPORTED and not plain.quotes


JA_SOURCE = "東京タワーは東京都港区にある電波塔である。1958年に完成した。高さは333メートルで、当時は世界一高い自立式鉄塔だった。"


async def test_japanese_claims_are_found_and_their_figures_checked(settings):
    """Under balanced, Japanese claims are judged by their words and figures. Under strict, which
    cannot align them, a true one is partial ("alignment unavailable"), never silently balanced's
    supported; a wrong figure is contradicted under both."""
    found, height, wrong = await verdicts(settings.with_(policy="balanced"), [
        {"claim": "東京タワーは1958年に完成した。", "source_text": JA_SOURCE},
        {"claim": "東京タワーの高さは333メートルだ。", "source_text": JA_SOURCE},  # a paraphrase, not the source's words
        {"claim": "東京タワーの高さは400メートルだ。", "source_text": JA_SOURCE},
    ])
    assert (found.label, height.label) == (Label.SUPPORTED, Label.SUPPORTED)
    assert wrong.label is Label.CONTRADICTED and wrong.reason == "number_conflict"
    found, height, wrong = await verdicts(settings, [
        {"claim": "東京タワーは1958年に完成した。", "source_text": JA_SOURCE},
        {"claim": "東京タワーの高さは333メートルだ。", "source_text": JA_SOURCE},
        {"claim": "東京タワーの高さは400メートルだ。", "source_text": JA_SOURCE},
    ])
    assert {(v.label, v.reason) for v in (found, height)} == {(Label.PARTIAL, "alignment_unavailable")}
    assert wrong.label is Label.CONTRADICTED
