"""A source that says both: one passage states the claim and another denies it (issue 32, item 15).

With the shipped model, which is seldom sure of a plain denial ("did not open in 1902": P(contradiction)
0.73, under the 0.8 it takes alone), the denial is found by the alignment: every part of the claim is
accounted for in the other passage, under a negation of its own. Real model, real parser."""

from __future__ import annotations

from citemark.engine import Engine
from citemark.types import Label

#: A museum page in the shape of an encyclopedia article, with a dating dispute far from the opening.
HARBOUR_MUSEUM = """Harbour Museum

The Harbour Museum is a maritime museum in the port town of Kelby. It opened in 1902 in the former customs house, \
and it holds some 40,000 objects, among them ship models, charts and the figurehead of the barque Ellen Rose.

History

The collection began as the private cabinet of a shipowner, Thomas Rudd, who left it to the town in 1897. The town \
council voted to buy the customs house for it in 1899, and the building was refitted over the next three years. The \
first curator, Agnes Moll, catalogued the collection and wrote its first guide.

In 1936 a new wing was added for the lifeboat Providence. The museum closed during the Second World War and \
reopened in 1946.

Dating

Not every account agrees on the opening. A 1950 guidebook states that the Harbour Museum did not open in 1902, and \
gives no other year. The council minutes record the opening ceremony in May 1902.
"""
#: A health page whose later section reports a trial that found the opposite.
COFFEE_STUDIES = """Coffee and diabetes

A 2014 meta-analysis of 28 cohort studies found that coffee consumption lowers the risk of type 2 diabetes. The \
association held for caffeinated and decaffeinated coffee alike, which points to compounds other than caffeine.

Brewing methods differ in what they extract. Filtered coffee holds less cafestol than boiled coffee, and espresso \
holds more per millilitre than drip coffee. Roasting also changes the acids in the bean.

Later trials

However, a 2019 randomised trial found that coffee consumption does not lower the risk of type 2 diabetes over \
two years of follow-up.
"""


async def verdict(settings, claim: str, page: str):  # noqa: ANN001, ANN201
    async with Engine(settings.with_(model=None)) as engine:
        return await engine.verify_claim(claim, page)


async def test_a_page_that_states_a_claim_and_elsewhere_denies_it_is_conflicting_with_both_quotes(settings):
    for claim, page, denial in [("The Harbour Museum opened in 1902.", HARBOUR_MUSEUM, "did not open in 1902"),
                                ("Coffee consumption lowers the risk of type 2 diabetes.", COFFEE_STUDIES,
                                 "does not lower")]:
        found = await verdict(settings, claim, page)
        assert (found.label, found.reason) == (Label.PARTIAL, "conflicting"), (claim, found.explanation)
        assert denial not in found.evidence.quote
        assert [q.quote for q in found.quotes] and denial in found.quotes[0].quote


async def test_a_page_that_only_states_the_claim_is_not_conflicting(settings):
    for claim in ("The Harbour Museum holds some 40,000 objects.", "Thomas Rudd left his collection to the town in 1897."):
        found = await verdict(settings, claim, HARBOUR_MUSEUM)
        assert found.label is Label.SUPPORTED and not found.quotes, (claim, found.reason, found.explanation)
