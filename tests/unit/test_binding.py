"""The binding checks: each kind of false claim is caught, and the true claim beside it is left alone."""

import pytest

from citemark.scoring.binding import check, describe
from citemark.scoring.quantities import parse_quantities, restate, same_quantity


def findings(claim: str, evidence: str) -> list[str]:
    return [line.split(":")[0] for line in describe(check(claim, evidence))]


@pytest.mark.parametrize(
    ("claim", "evidence", "kind"),
    [
        # polarity, in several surface forms; the claim asserts what the passage negates
        ("The kettle switches off automatically.", "The kettle does not switch off automatically.", "negated"),
        ("The bridge carries rail traffic.", "The bridge no longer carries rail traffic after the 1998 closure.",
         "negated"),
        ("The sauce is thickened with flour.", "The sauce is thickened with cornstarch rather than flour.", "negated"),
        ("The bill passed with support from the opposition.",
         "The bill passed without support from the opposition.", "negated"),
        ("The vaccine prevents infection entirely.", "The vaccine never prevents infection entirely, it softens it.",
         "negated"),
        ("The library supports asynchronous requests.", "The library fails to support asynchronous requests.",
         "negated"),
        ("The kit does not include a charging cable.",  # the claim denies what the source states
         "The kit ships without a case and includes a charging cable.", "negated"),
        ("The Larks will not play in the Harbour Cup next year.",  # a cue after the stated words denies nothing
         "The Larks will play in the Harbour Cup next year, a competition they have never entered.", "negated"),
        ("Divers recovered a bronze anchor from the wreck.",  # only the negated clause has what sets it apart
         "Two cannons recovered from the Maren wreck. Divers brought up a bell and the cannons in 2019. "
         "No bronze anchor was recovered, although one is shown on the ship's plans.", "negated"),
        # opposites, aligned on the same words
        ("The membrane absorbs ultraviolet light.", "The membrane reflects ultraviolet light.", "opposite"),
        ("Exports rose sharply in the third quarter.", "Exports fell sharply in the third quarter.", "opposite"),
        ("The jury acquitted the driver.", "The jury convicted the driver of reckless driving.", "opposite"),
        ("Titanium is heavier than steel.", "Titanium is lighter than steel.", "opposite"),
        ("Ada Voss was the eldest of three children.", "Voss was born in 1950, the youngest of three children.",
         "opposite"),
        ("The pigment absorbs red light.", "The pigment absorbs blue light and reflects red light.", "opposite"),
        # a figure the passage gives for a neighbour
        ("Lake Orvan is 312 m deep.", "Lake Orvan reaches 188 m; Lake Tessel, its neighbour, is 312 m deep.", "figure"),
        ("Operating profit fell to $3.6bn.", "Revenue rose to $3.6bn in 2023, while operating profit fell to $0.9bn.",
         "figure"),
        ("Sales were $5.2 million in 2021.", "Sales were $4.8 million in 2021 and $5.2 million in 2022.", "figure"),
        ("Harlan Rovers finished fourth in the table.",  # a rank in words is a figure
         "Ashby Town finished fourth in the table, while Harlan Rovers finished seventh.", "figure"),
        ("The pump's motor is covered for five years.",  # a duration in words too
         "The casing is covered for five years; the motor is covered for two years.", "figure"),
        ("The KV-2 battery lasts about 40 minutes.",  # "KV-2" is one name; "and lasts" keeps the KV-2's subject
         "The KV-1 battery lasts about 40 minutes; the KV-2 is heavier, at 2.1 kg, and lasts 65 minutes.", "figure"),
        ("Tarvos-9 c is about 3.4 times as massive as Earth.",  # a small decimal is a measurement, "c" part of the name
         "Tarvos-9 b is about 3.4 times as massive as Earth; Tarvos-9 c is about 7.2 times as massive as Earth.",
         "figure"),
        ("Rates in the Upper Ward average about 6% a year.",  # each figure beside its own subject, in one clause
         "Rates average about 6% a year in the Lower Ward and 9% in the Upper Ward.", "figure"),
        ("The £200 million tranche pays a coupon of 4.25%.",  # the claim's other figure names its subject
         "A £300 million tranche maturing in 2031 pays a coupon of 4.25%, while a £200 million tranche "
         "maturing in 2040 pays 4.75%.", "figure"),
        ("The Harbour Inn in Kell has 19 rooms.",  # a small count of the same thing competes
         "The Mariner, on the quay, has 19 rooms and a bar. The Harbour Inn in Kell is smaller, with seven rooms.",
         "figure"),
        ("Dorby had 12,400 residents in 2020.",  # a sentence opener no text writes in lower case is a name
         "Ferrow had 12,400 residents in 2020. Dorby, further east, had 8,900 residents.", "figure"),
        # a name the passage puts in another role
        ("The bridge was designed by Ines Kovac.",
         "The bridge was designed by Marta Salo, with advice from Ines Kovac and others.", "role"),
        ("Tomas Berg founded the company.",
         "Lena Ortiz founded the company in 2004, and Tomas Berg joined as its second engineer.", "role"),
        ("The winner was Rosa Elm.", "The winner, Dana Voss, edged out Rosa Elm by two points.", "role"),
        # the name's own role in the source is another one, while the source states the claim's relation
        ("Pia Lund wrote the novel Glass Tides.",
         "Tor Ekberg wrote Glass Tides in 1988; it was translated into English by Pia Lund.", "role"),
        ("The Arlo kettle was designed by Fenmark.",
         "The Arlo kettle was designed in-house, with the heating element supplied by Fenmark.", "role"),
        # an officer title of more than one word, read whole ("chief executive" is no "chief financial officer")
        ("Harlow's chief executive, Mina Ostrova, ruled out a rights issue.",
         "Chief financial officer Mina Ostrova ruled out a rights issue.", "role"),
        ("Mina Ostrova, Harlow's CEO, spoke first.",
         "Chief executive Tomas Quill spoke first; chief financial officer Mina Ostrova followed.", "role"),
        # the two parties swapped
        ("The borrower must pay the lender a fee.", "The lender must pay the borrower a fee if the loan is cancelled.",
         "reversed"),
        ("Valtra acquired Norrbotten Steel.", "Norrbotten Steel acquired Valtra in 2019.", "reversed"),
        # one party is enough where it stands on the wrong side of a verb and nothing says it the claim's way
        ("The Drovers lost to the Pikes in the final.", "The Pikes reached the final but lost to the Drovers.",
         "reversed"),
        ("Anna Lind held off Mia Sorel to win the sprint.",
         "Mia Sorel won the sprint in 11.2 seconds, holding off Anna Lind by a metre.", "reversed"),
        # roles read with the voice and the preposition
        ("Orrin United were beaten 2–0 by Pelk Town at Harl Park.",
         "Orrin United beat Pelk Town 2–0 at Harl Park on Saturday.", "reversed"),
        ("Vantor has owned the holding group Quell since 2019.", "Vantor itself has been owned by the holding group "
         "Quell since 2019.", "reversed"),
        ("Marl Shipping bought the ferry Petrel from Osk Lines in 2020.",
         "Osk Lines' only ferry, the Petrel, was bought from Marl Shipping in 2020.", "reversed"),
        ("Alan Wray was succeeded as head keeper by Dena Frost.",
         "Dena Frost became head keeper in 1901. She was succeeded in 1920 by her deputy, Alan Wray.", "reversed"),
        ("Kell Shipping sued Marra Foods over the contract.",
         "Kell Shipping cancelled the contract with Marra Foods in 2020. Marra sued for damages.", "reversed"),
        # a relation the passage states as a noun or a converse verb, its parties swapped
        ("The Corvid 8 is the successor to the Corvid 9.", "The Corvid 9 replaces the older Corvid 8, which is no "
         "longer sold.", "reversed"),
        ("Pellow Mining lent £40 million to Harth Bank.", "Last year Pellow Mining took out a £40 million loan from "
         "Harth Bank.", "reversed"),
        ("Orsk Energy lent £15 million to Tavel Holdings in 2021.", "Orsk repaid a £15 million loan that Tavel "
         "Holdings had made to it in 2021.", "reversed"),
        ("Brand & Lowe bought Kesson Tools.", "The acquisition of Brand & Lowe by Kesson Tools closed in 2011.",
         "reversed"),
        ("The Harriers beat the Ospreys in the final.", "The Harriers lost to the Ospreys in the final.", "reversed"),
        ("Pellow United beat Harlow in the cup final.", "Harlow's 3–1 win over Pellow United in the cup final "
         "sealed the double.", "reversed"),
        ("Vantor has owned Quell Group since 2019.", "Vantor has been a wholly owned subsidiary of Quell Group since "
         "2019.", "reversed"),
        ("The Orrin Trust gave a £5 million grant to Kell University.", "Half the cost came as a grant from Kell "
         "University to the Orrin Trust.", "reversed"),
        ("Brightwell Games bought Kestrel Arc in 2025.", "It is published by Kestrel Arc, whose acquisition of "
         "Brightwell in 2025 ended its independence.", "reversed"),
        ("Halden Pensions has sold a 30% stake in the Skerry wind farm to Norvik Energy.", "Norvik Energy agrees sale "
         "of 30% stake in the Skerry wind farm to Halden Pensions.", "reversed"),
        ("Pell Direct is a trading name of Sovra Bank.", "Sovra Bank is a trading name of Pell Direct.", "reversed"),
        # a name in apposition after "by" fills the relation ("taught by our partner, N")
        ("Arlen University teaches the foundation year.", "The foundation year is taught by our partner, Dunmere "
         "College, on its Westgate campus.", "role"),
        ("The town of Kell besieged the army of the Duchy of Marn in 1412.", "It was a siege of the town of Kell "
         "by the army of the Duchy of Marn in 1412.", "reversed"),
        # a word on both sides of a comparison ("Storm … than Storm …") does not make it turned round
        ("Storm Ilse was stronger than Storm Oda.", "Ilse was weaker than Storm Oda, which hit the coast in 2025.",
         "opposite"),
        # the opposite's clause holds the claim's words, far from the claim's own word
        ("The levels of lead found at the Harnley treatment works were high.", "Routine tests at the Harnley "
         "treatment works found lead on 7 June. The levels found were low, and the risk is small.", "opposite"),
        ("The ferry struck the bow of the trawler.", "The ferry struck the stern of the trawler.", "opposite"),
        # "N chairs the panel" is the relation "chair", not the role noun
        ("Dr Mara Vane chairs the panel that assesses applications.", "Applications are assessed by a panel chaired "
         "by Professor Idris Hart, dean of engineering.", "role"),
        # the claim's word is the source's for someone else, its opposite the claim subject's
        ("Tarn lies at the eastern end of the valley.", "At its eastern end is Pellow, a market town. At the western "
         "end, above the river, is the village of Tarn.", "opposite"),
        # a figure the passage gives a variant of the claim's subject: a longer name, another model number
        ("The Tarvo 5 Max weighs 3.1 kg.", "The Tarvo 5 weighs 3.1 kg; the Tarvo 5 Max weighs 3.6 kg.", "figure"),
        ("The Tarvo 5 weighs 3.6 kg.", "The Tarvo 5 weighs 3.1 kg; the Tarvo 5 Max weighs 3.6 kg.", "figure"),
        ("Each Solvin 50 pack holds 90 tablets.", "Each Solvin 25 pack holds 90 tablets. Each Solvin 50 pack holds "
         "60 tablets.", "figure"),
        # a small count the source gives to something else, while the claim's clause counts otherwise
        ("The ferry was carrying 8 cars when it ran aground.", "The ferry was carrying 41 cars when it ran aground. "
         "Eight needed repairs.", "figure"),
        # the main clause goes on after a relative clause naming someone else
        ("Lake Orvan is 312 m deep.", "Lake Orvan, which was mapped by the Kell Institute, reaches 188 m, while "
         "Lake Tessel is 312 m deep.", "figure"),
        # a year the clause with the claim's event verb gives otherwise, the verb words away or in the future
        ("Mira Olsen took over as the firm's chief executive in May 2021.",
         "Sales rose, said Mira Olsen, who took over in May 2022 from the founder.", "date"),
        ("The ferry will enter regular service in March 2026.",
         "The ferry will enter service in March 2027, a year later than planned.", "date"),
        # a stronger quantifier or modality than the passage's
        ("All participants improved.", "Most participants improved after six weeks.", "overstated"),
        ("The trial proves the drug works.", "The trial suggests the drug works in adults.", "overstated"),
        ("The new line will open in 2029.", "The operator expects to open the new line in 2029.", "overstated"),
        ("Buses run six times a day in summer.", "Buses run up to six times a day in summer.", "overstated"),
        ("The side effect affects one in every ten patients.", "It may affect up to 1 in 10 patients.", "overstated"),
        # the hedge stands in the clause of the verb, after the clause with the names
        ("The Grid Regulator will rule on the merger by June.", "The merger needs the approval of the Grid Regulator, "
         "which is expected to rule on it by June.", "overstated"),
    ],
)
def test_a_false_claim_is_found_out(claim, evidence, kind):
    assert kind in findings(claim, evidence)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The kettle switches off automatically.", "The kettle switches off automatically when the water boils."),
        ("The kettle does not switch off automatically.", "The kettle does not switch off automatically."),
        ("The sauce is thickened with cornstarch.", "The sauce is thickened with cornstarch rather than flour."),
        ("The drug is taken twice daily.", "The drug is taken twice daily, not with food."),
        ("Steel is heavier than titanium.", "Titanium is lighter than steel."),  # a comparison turned round
        ("The pigment reflects red light.", "The pigment absorbs blue light and reflects red light."),
        ("Sales increased in 2022.", "Sales decreased in 2021 and increased in 2022."),
        ("Lake Tessel is 312 m deep.", "Lake Orvan reaches 188 m; Lake Tessel, its neighbour, is 312 m deep."),
        ("Sales were $5.2 million in 2022.", "Sales were $4.8 million in 2021 and $5.2 million in 2022."),
        ("The bridge was designed by Marta Salo.", "Marta Salo designed the bridge, with advice from Ines Kovac."),
        ("Marta Salo designed the bridge.", "The bridge was designed by Marta Salo in 1987."),
        ("The lender must pay the borrower a fee.", "The borrower must be paid a fee by the lender."),
        ("Norrbotten Steel was acquired by Valtra.", "Valtra acquired Norrbotten Steel in 2019."),
        ("Most participants improved.", "Most participants improved after six weeks."),
        ("Buses run up to six times a day in summer.", "Buses run up to six times a day in summer."),
        ("The timer can delay the start by as much as 24 hours.", "The timer delays the start by up to 24 hours."),
        ("The volume was anticipated rather than guaranteed.", "The contract said the volume was expected, "
         "not guaranteed."),
        ("Some participants improved.", "All participants improved after six weeks."),
        ("They are right on the river, aren't they?", "They are right on the river, aren't they."),
        ("Ashby Town finished fourth in the table.",
         "Ashby Town finished fourth in the table, while Harlan Rovers finished seventh."),
        ("The kit includes a charging cable.", "The kit ships without a case and includes a charging cable."),
        # the claim negates what the source negates, in other words
        ("Orla Holdings, the owner, does not guarantee the notes.",
         "The notes are not guaranteed by the owner, Orla Holdings, and holders have no claim on its assets."),
        ("Neither Skerry Light nor Tarn Light has had a keeper living there since 1990.",
         "Skerry Light was automated in 1984 and Tarn Light in 1990. Neither lighthouse has had a resident "
         "keeper since then."),
        ("The Kell trout is absent from the lake's west arm.",
         "The lake is home to the Kell trout. It lives only in the east arm and is not found in the west arm."),
        ("A ferry rather than a bridge links the north and south banks.",
         "No bridge crosses the river; a ferry links the north and south banks."),
        ("Rates in the Lower Ward average about 6% a year.",
         "Rates average about 6% a year in the Lower Ward and 9% in the Upper Ward."),
        ("The £300 million tranche pays a coupon of 4.25%.",
         "A £300 million tranche maturing in 2031 pays a coupon of 4.25%, while a £200 million tranche "
         "maturing in 2040 pays 4.75%."),
        ("The Mariner in Kell has 19 rooms.",
         "The Mariner, on the quay, has 19 rooms and a bar. The Harbour Inn in Kell is smaller, with seven rooms."),
        ("The KV-1 battery lasts about 40 minutes.",
         "The KV-1 battery lasts about 40 minutes; the KV-2 is heavier, at 2.1 kg, and lasts 65 minutes."),
        ("Pelk Town were beaten 2–0 by Orrin United at Harl Park.",
         "Orrin United beat Pelk Town 2–0 at Harl Park on Saturday."),
        ("Osk Lines bought the ferry Petrel from Marl Shipping in 2020.",
         "Osk Lines' only ferry, the Petrel, was bought from Marl Shipping in 2020."),
        ("The diary of Edwin Marl was published in 1840 by his nephew.",  # a shared surname is another party
         "It was published in 1840 by his nephew, Henry Marl, who added notes of his own."),
        ("About 400 volunteers took part in the trial.", "The trial enrolled 412 volunteers, who took part by post."),
        ("Pia Lund translated the novel Glass Tides.",
         "Tor Ekberg wrote Glass Tides in 1988; it was translated into English by Pia Lund."),
        ("Kell Freight moved its depot and paid Marra for the loads.",  # one party, several verbs
         "In 2021 Kell Freight moved its depot to Orrin and paid Marra for only some of the loads."),
        ("Mira Olsen took over as the firm's chief executive in May 2022.",
         "Sales rose, said Mira Olsen, who took over in May 2022 from the founder."),
        ("Divers recovered a bell from the wreck.",
         "Two cannons recovered from the Maren wreck. Divers brought up a bell and the cannons in 2019. "
         "No bronze anchor was recovered, although one is shown on the ship's plans."),
        ("The pump's casing is covered for five years.",
         "The casing is covered for five years; the motor is covered for two years."),
        ("Ferrow had 12,400 residents in 2020.", "Ferrow had 12,400 residents in 2020. Dorby, further east, had 8,900 residents."),
        ("Marra sued Kell Shipping.", "Kell Shipping cancelled the contract with Marra Foods in 2020. Marra sued for damages."),
        ("Both probes were launched by the Vessa rocket.",  # "probes" is no verb with a party after it
         "The first probe, Arden 1, weighs 300 kg. Both were launched by the Vessa rocket."),
        ("The ferry from Orla to Penn takes 95 minutes.",  # a passage naming no one, against one naming others
         "A ferry runs from Orla to Penn twice a day. The crossing takes 1 hour 35 minutes. "
         "Boats from Penn to Skye take 40 minutes."),
        ("The Corvid 9 is the successor to the Corvid 8.", "The Corvid 9 replaces the older Corvid 8, which is no "
         "longer sold."),
        ("Harth Bank lent £40 million to Pellow Mining.", "Last year Pellow Mining took out a £40 million loan from "
         "Harth Bank."),
        ("Tavel Holdings lent £15 million to Orsk Energy in 2021.", "Orsk repaid a £15 million loan that Tavel "
         "Holdings had made to it in 2021."),
        ("Kesson Tools bought Brand & Lowe.", "The acquisition of Brand & Lowe by Kesson Tools closed in 2011."),
        ("The Ospreys beat the Harriers in the final.", "The Harriers lost to the Ospreys in the final."),
        ("Harlow beat Pellow United in the cup final.", "Harlow's 3–1 win over Pellow United in the cup final "
         "sealed the double."),
        ("Quell Group has owned Vantor since 2019.", "Vantor has been a wholly owned subsidiary of Quell Group since "
         "2019."),
        ("Kell University gave a £5 million grant to the Orrin Trust.", "Half the cost came as a grant from Kell "
         "University to the Orrin Trust."),
        ("Kestrel Arc bought Brightwell in 2025.", "It is published by Kestrel Arc, whose acquisition of "
         "Brightwell in 2025 ended its independence."),
        ("Norvik Energy has sold a 30% stake in the Skerry wind farm to Halden Pensions.", "Norvik Energy agrees sale "
         "of 30% stake in the Skerry wind farm to Halden Pensions."),
        ("Sovra Bank is a trading name of Pell Direct.", "Sovra Bank is a trading name of Pell Direct."),
        ("Dunmere College teaches the foundation year.", "The foundation year is taught by our partner, Dunmere "
         "College, on its Westgate campus."),
        ("The Tarvo 5 weighs 3.1 kg.", "The Tarvo 5 weighs 3.1 kg; the Tarvo 5 Max weighs 3.6 kg."),
        ("The Tarvo 5 Max weighs 3.6 kg.", "The Tarvo 5 weighs 3.1 kg; the Tarvo 5 Max weighs 3.6 kg."),
        ("Each Solvin 50 pack holds 60 tablets.", "Each Solvin 25 pack holds 90 tablets. Each Solvin 50 pack holds "
         "60 tablets."),
        ("Eight cars needed repairs after the ferry ran aground.", "The ferry was carrying 41 cars when it ran "
         "aground. Eight needed repairs."),
        ("Two judges dissented.", "Two of the five judges dissented."),
        ("Storm Oda was stronger than Storm Ilse.", "Ilse was weaker than Storm Oda, which hit the coast in 2025."),
        ("The levels of lead found at the Harnley treatment works were low.", "Routine tests at the Harnley "
         "treatment works found lead on 7 June. The levels found were low, and the risk is small."),
        ("Professor Idris Hart chairs the panel that assesses applications.", "Applications are assessed by a panel "
         "chaired by Professor Idris Hart, dean of engineering."),
        # true claims the review of these checks found flagged, and which must not be
        ("Corran beat Elmstead in the 2021 final.", "Corran lost to Elmstead in 2019 but beat them in the 2021 final."),
        ("Kell Bank is a sister company of Sovra Direct.", "Sovra Direct is a sister company of Kell Bank."),
        ("The chief executive, Mara Lind, said sales rose.", "Mara Lind, formerly chief financial officer, became "
         "chief executive in 2021. She said sales rose."),
        ("The appeals court upheld the conviction.", "The appeals court rejected his appeal against the conviction."),
        ("The front of the ship was damaged.", "The ship's bow was damaged; the rear was intact."),
        ("Pellow lies at the eastern end of the valley.", "At its eastern end is Pellow, a market town. At the "
         "western end, above the river, is the village of Tarn."),
        ("The bottler Sarno agreed to buy the oil.",  # a converse verb moves its subject: no finding
         "Bulk oil is sold to the bottler Sarno. Sarno agreed to buy the oil."),
        ("Harlow's chief financial officer, Mina Ostrova, ruled out a rights issue.",
         "Chief financial officer Mina Ostrova ruled out a rights issue."),
        ("Harlow's chief executive, Ann Lee, said sales rose.", "Ann Lee, chair and chief executive of Harlow, said "
         "sales rose."),
        ("Lake Orvan is 188 m deep.", "Lake Orvan, which was mapped by the Kell Institute, reaches 188 m, while "
         "Lake Tessel is 312 m deep."),
        ("The army of the Duchy of Marn besieged the town of Kell in 1412.", "It was a siege of the town of Kell "
         "by the army of the Duchy of Marn in 1412."),
        ("Mount Kessa is 4,210 m high.",  # a longer name at the front is the same subject, not a variant
         "Kessa rises 4,210 m above the plain. Mount Kessa's lower hut stands at 2,950 m."),
        ("The Grid Regulator is expected to rule on the merger by June.", "The merger needs the approval of the Grid "
         "Regulator, which is expected to rule on it by June."),
        ("About 400 volunteers took part in the survey.",  # the negated clause is about someone else
         "The council, which ran the survey, did not take part in the analysis. The survey enrolled 412 volunteers, "
         "who took part by post."),
        ("Savers who don't want to move their money again may prefer the Easy Saver.",  # a typographic apostrophe
         "Savers who don’t want to move their money again may prefer the Easy Saver, which pays 4.20%."),
        ("Dogs are banned from the beach in summer.",  # an opposite under a negation says the claim's word
         "From May to September dogs are not allowed on the beach."),
    ],
)
def test_a_true_claim_is_left_alone(claim, evidence):
    assert findings(claim, evidence) == []


@pytest.mark.parametrize(
    ("claimed", "stated", "same"),
    [
        ("about 29,032 feet", "8,849 m", True),  # a unit conversion
        ("5.5 miles", "8.85 km", True),
        ("212 °F", "100 °C", True),
        ("2,100 million dollars", "$2.1 billion", True),
        ("about 3,500 km", "3,512 km", True),  # a hedged rounding
        ("more than 3,000 km", "3,512 km", True),
        ("nearly 4,000 km", "3,512 km", False),
        ("21%", "21.4%", True),
        ("80.3%", "79.1%", False),  # a plain decimal is precise, not rounded
        ("15.2 kg", "15.17 kg", True),
        ("3.5 million", "3,512,000", True),
        ("50%", "half of them", True),
        ("8,611 m", "8,849 m", False),
        ("2016", "2019", False),
        ("30 kg", "30 lb", False),
        ("two years", "24 months", True),  # durations in words are durations
        ("a five-year warranty", "5 years", True),
        ("ten weeks", "ten years", False),
        ("finished ninth", "finished 9th", True),  # ranks
        ("finished ninth", "finished third", False),
        ("two million residents", "2,000,000 residents", True),  # scales spelled out
        ("close to two and a half million", "2.45 million", True),
        ("over a quarter of a million copies", "more than 250,000 copies", True),
        ("two million residents", "2 residents", False),
        ("seven in ten", "70%", True),  # ratios are shares
        ("roughly four in five", "81%", True),
        ("one in four", "40%", False),
        ("about 2.5 US gallons", "9.5 litres", True),  # units in several words
        ("about 15.5 miles per hour", "25 km/h", True),
        ("roughly 200 years", "about two centuries", True),
        ("135 minutes", "2 hours 15 minutes", True),  # a duration in two units is their sum
        ("75 months", "six years and three months", True),
        ("90 minutes", "an hour and a half", True),  # halves and quarters of a unit in words
        ("30 minutes", "half an hour", True),
        ("150 minutes", "two and a half hours", True),
        ("150 minutes", "three and a half hours", False),
        ("75 months", "six years and nine months", False),
    ],
)
def test_equivalent_figures(claimed, stated, same):
    assert same_quantity(parse_quantities(claimed)[0], parse_quantities(stated, incidental=True)[0]) is same


@pytest.mark.parametrize(
    ("claimed", "stated"),
    [
        ("between about 77 and 93 pounds", "between 35 and 42 kg"),  # a range's unit is written once
        ("from 54 to 57°F", "at 12–14°C"),
    ],
)
def test_a_range_takes_its_unit_for_both_ends(claimed, stated):
    claim, source = parse_quantities(claimed), parse_quantities(stated)
    assert len(claim) == len(source) == 2
    assert all(same_quantity(c, s) for c, s in zip(claim, source))
    assert parse_quantities("aged 45 to 80")[0].dimension is None  # no unit, nothing to take



def test_the_number_word_of_a_fraction_is_no_figure_of_its_own():
    assert [q.text for q in parse_quantities("at least three-quarters of the members")] == ["three-quarters"]


def test_a_figure_the_page_states_elsewhere_is_weighed_against_the_clause_with_the_claims_words():
    page = ("The Kell Flex Saver pays 4.2% for a year, then 3.75%. The Orrin account allows three withdrawals a "
            "year; a fourth cuts the rate to 1.5% for the rest of the year.")
    evidence = "The Orrin account allows three withdrawals a year; a fourth cuts the rate to 1.5% for the rest of the year."
    figures = parse_quantities(page)
    false = "A fourth withdrawal from the Orrin account cuts its rate to 3.75% for the rest of the year."
    assert "figure" in [line.split(":")[0] for line in describe(check(false, evidence, document_figures=figures))]
    true = "A fourth withdrawal from the Orrin account cuts its rate to 1.5% for the rest of the year."
    assert not check(true, evidence, document_figures=figures).unbound_figures
    # a figure the page never states is the presence guards' to report, not this check's
    assert not check(false, evidence, document_figures=parse_quantities(evidence)).unbound_figures


def test_a_figure_of_another_year_is_left_to_the_date_checks():
    page = "The museum had 900,000 visitors in 2022. In 2023 it welcomed 1.2 million visitors."
    evidence = "The museum had 900,000 visitors in 2022."
    assert not check("The museum attracted 1.2 million visitors in 2023.", evidence,
                     document_figures=parse_quantities(page)).unbound_figures


def test_a_negation_in_further_passages_adds_a_finding_but_never_removes_one():
    claim = "Ilse Marn gave evidence at the hearing."
    quoted = "The hearing at Dorr Crown Court heard from Ilse Marn's accountant and two bank officials."
    further = quoted + " Ilse Marn did not give evidence."
    assert check(claim, quoted, retrieved=quoted).negated == ()
    assert check(claim, quoted, retrieved=quoted, wider=further).negated != ()
    denied = "Ilse Marn did not give evidence at the hearing."
    assert check(claim, denied, retrieved=denied, wider=denied + " " + quoted).negated != ()


def test_markers_and_model_names_are_no_figures():
    assert parse_quantities("The drug works [3] on 5G networks [1, 2].") == []
    assert [q.text for q in parse_quantities("Kessler-42 and COVID-19 cases rose 5% in mid-2020")] == ["5%", "2020"]


def test_a_converted_figure_is_restated_in_the_source_spelling():
    stated = parse_quantities("The tower is 330 m tall and weighs 10,100 tonnes.", incidental=True)
    assert restate("The tower is about 1,083 feet tall.", stated) == "The tower is about 330 m tall."
    assert restate("The tower is 330 m tall.", stated) == "The tower is 330 m tall."
    # a figure the source writes as an adjective is restated as a noun: the claim must still read as a sentence
    stated = parse_quantities("The canal is a 96-kilometre waterway; the 42-minute work; a 6-foot wall.")
    assert restate("The canal is about 60 miles long.", stated) == "The canal is about 96 kilometres long."
    assert restate("The wall is 1.83 m tall.", stated) == "The wall is 6 feet tall."


@pytest.mark.parametrize(
    ("claimed", "stated", "same"),
    [
        ("−5 °C", "5 °C", False),  # a minus sign is kept
        ("-5 °C", "23 °F", True),
        ("21 %", "21.4 %", True),  # the same unit, rounded
        ("8,611m", "8,500 m", False),  # the same unit: no conversion tolerance
    ],
)
def test_signs_and_units_of_figures(claimed, stated, same):
    assert same_quantity(parse_quantities(claimed)[0], parse_quantities(stated)[0]) is same


def test_odd_figures_read_as_written():
    assert parse_quantities("K2 is 8,611m tall.")[0].text == "8,611m"
    assert parse_quantities("the 1980s")[0].is_year
    assert parse_quantities("Hanover 96 won.")[0].hedge == ""
    assert restate("The wall is 5 m high.", parse_quantities("It costs $5 and is 5 metres high.")) == \
        "The wall is 5 metres high."


def test_odd_text_and_tables_of_figures_are_read_quickly():
    assert check("x", "a \uff9e b") == check("x", "a b")  # a lone combining mark
    table = "Lake Orvan 188 m, Tessel 312 m, Ulla 95 m, 2019, 2018; " * 75
    assert check("Lake Orvan is 312 m deep.", table, table, table).unbound_figures == ()  # a table: not read
