"""The shipped pack with its guards, judged on a table of clear cases: one or more of every kind of
the contrast suite (bench/contrast), written from other texts. False kinds must never be badged
supported, under either policy. True kinds: badged supported under ``balanced``; under ``strict``
(the default) supported when every word is accounted for, else partial naming what is not, never
contradicted or unsupported."""

from __future__ import annotations

import pytest

from citemark.engine import Engine
from citemark.types import Label

FERRY = ("The Halden ferry crosses the fjord in 25 minutes and carries up to 40 cars. "
         "It runs every hour from 6 am, but it does not run on public holidays. "
         "The older Brevik ferry, retired in 2019, carried 28 cars and took 35 minutes.")
TRIAL = ("In the Norvale trial, 1,200 adults took either corvastin or a placebo for two years. "
         "Corvastin lowered LDL cholesterol by 31 percent, while the placebo group saw no change. "
         "Most participants reported no side effects, and the researchers say the results suggest the drug "
         "is safe for long-term use.")
BRIDGE = ("The Salt Creek bridge was designed by Marta Salo, with structural advice from Ines Kovac. "
          "It opened in 1987 and is 410 m long. "
          "The bridge carries road traffic only; it has never carried trains.")
CASE = ("In Harlow v. Denning, the tenant sued the landlord over an unreturned deposit. "
        "The county court found for the tenant and ordered the landlord to repay the deposit of £1,800. "
        "The landlord's appeal was dismissed in 2021.")
MATCH = ("Riverton beat Oakfield 3-1 in the regional final on Saturday. "
         "Lena Ortiz scored twice for Riverton; Oakfield's only goal came from Dana Voss. "
         "Riverton have now won the title four times.")


@pytest.mark.parametrize(
    ("source", "claim", "kind"),
    [
        (FERRY, "The Halden ferry crosses the fjord in 25 minutes.", "verbatim"),
        (FERRY, "Up to forty vehicles can travel on the Halden ferry, which makes the crossing in under half an hour.",
         "paraphrase"),
        (TRIAL, "Corvastin reduced LDL cholesterol by about 30 percent.", "numeric_equivalent"),
        (BRIDGE, "The Salt Creek bridge is about 1,345 feet long.", "numeric_equivalent"),
        (BRIDGE, "The Salt Creek bridge, which opened in 1987, is 410 m long.", "multi_sentence"),
        (MATCH, "Lena Ortiz scored two goals for Riverton in the regional final.", "paraphrase"),
        (CASE, "The court ordered the landlord to repay the £1,800 deposit.", "verbatim"),
    ],
)
async def test_a_true_claim_is_badged_supported(settings, source, claim, kind):
    async with Engine(settings.with_(model=None, policy="balanced")) as engine:
        verdict = await engine.verify_claim(claim, source)
    assert verdict.label is Label.SUPPORTED, (kind, verdict.reason, verdict.explanation)
    async with Engine(settings.with_(model=None, policy="strict")) as engine:
        verdict = await engine.verify_claim(claim, source)
    wanted = {Label.SUPPORTED} if kind in ("verbatim", "multi_sentence") else {Label.SUPPORTED, Label.PARTIAL}
    assert verdict.label in wanted, (kind, verdict.reason, verdict.explanation)


@pytest.mark.parametrize(
    ("source", "claim", "kind"),
    [
        (FERRY, "The Halden ferry runs on public holidays.", "polarity"),
        (BRIDGE, "The Salt Creek bridge carries trains.", "polarity"),
        (TRIAL, "Corvastin raised LDL cholesterol by 31 percent.", "antonym"),
        (FERRY, "The Halden ferry carries up to 28 cars.", "neighbour_figure"),
        (BRIDGE, "The Salt Creek bridge was designed by Ines Kovac.", "other_role"),
        (MATCH, "Oakfield beat Riverton 3-1 in the regional final.", "role_reversal"),
        (CASE, "The landlord sued the tenant over an unreturned deposit.", "role_reversal"),
        (TRIAL, "All participants reported no side effects.", "quantifier"),
        (TRIAL, "The results prove the drug is safe for long-term use.", "quantifier"),
        (BRIDGE, "The Salt Creek bridge opened in 1978.", "date_shift"),
        (CASE, "The landlord's appeal was dismissed in 2021 by a panel of three judges.", "added_detail"),
        (MATCH, "Riverton's coach was appointed in 2020.", "unaddressed"),
    ],
)
@pytest.mark.parametrize("policy", ["strict", "balanced"])
async def test_a_false_claim_is_not_badged_supported(settings, source, claim, kind, policy):
    async with Engine(settings.with_(model=None, policy=policy)) as engine:
        verdict = await engine.verify_claim(claim, source)
    assert verdict.label is not Label.SUPPORTED, (kind, verdict.reason, verdict.explanation)
