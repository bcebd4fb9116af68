"""Paraphrase matches with the shipped model's own token states and the real parser: a claim that
says the page's words in other words is supported; the same claim with a closed-class word, an
opposite or a participant changed is not. The page is written for this test."""

from __future__ import annotations

import pytest

from citemark.engine import Engine
from citemark.models.registry import resolve
from citemark.models.runtime import PackScorer
from citemark.scoring.align import align
from citemark.types import Label

BRIDGE = """Orland Bridge repairs

The Orland Bridge carries the coast road over the Tamm estuary. It was built in 1931 and widened in 1978.

Repairs

The county began repairs to the bridge deck in March 2026. Its chief engineer, Mara Quist, said no lanes would \
close during the work. The repairs are funded by a national grant of 4 million euros, and the contractor, Velde \
Civil, expects to finish in October.

Tolls on the bridge fell by a fifth in 2025, the first cut since 1990.
"""


async def verdict(settings, claim: str):  # noqa: ANN001, ANN201
    async with Engine(settings.with_(model=None)) as engine:
        return await engine.verify_claim(claim, BRIDGE)


async def test_a_claim_that_says_the_page_s_words_in_other_words_is_supported(settings):
    found = await verdict(settings, "Mara Quist said none of the lanes would shut during the work.")
    assert (found.label, found.reason) == (Label.SUPPORTED, "aligned"), found.explanation


@pytest.mark.parametrize("claim", [
    "Mara Quist said all of the lanes would close during the work.",  # a quantifier, matched only by identity
    "Tolls on the bridge rose by a fifth in 2025.",  # an opposite
    "Velde Civil funds the repairs.",  # the funder is the grant; the parser misreads "Civil" as a modifier
])
async def test_the_same_page_does_not_support_a_changed_claim(settings, claim):
    found = await verdict(settings, claim)
    assert found.label is not Label.SUPPORTED, (claim, found.reason)


def test_the_shipped_pack_gives_token_states_that_match_a_paraphrase_and_not_an_opposite(settings):
    pack = resolve(settings.with_(model=None))
    assert pack is not None
    scorer = PackScorer(pack, threads=1)
    claim, passage = "Mara Quist said no lanes would shut.", "Mara Quist said no lanes would close."
    found = align(claim, passage, paraphraser=scorer.token_states)
    assert [(c.text, p.text) for c, p in found.paraphrased] == [("shut", "close")]
    states = scorer.token_states("Tolls rose by a fifth.", "Tolls fell by a fifth.")
    assert states is not None and states.similarity((6, 10), (6, 10)) < 0.66
