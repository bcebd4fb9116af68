"""The alignment: every content unit of a claim accounted for in the passage, or named as missing.

The fresh cases of issue 29 are here with their page text: each false one leaves something
unaccounted for, named with what the passage says in its place."""

from __future__ import annotations

import pytest

from citemark.scoring import parse
from citemark.scoring.align import align
from citemark.scoring.language import readable

RUST = ("Rust is a general-purpose programming language. Graydon Hoare began Rust as a personal project in 2006 "
        "while working at Mozilla. The compiler was originally written in OCaml. Rust became self-hosting in 2011, "
        "when the compiler written in Rust compiled itself. Rust checks references at compile time, not at run time. "
        "In 2022 the Linux kernel accepted Rust as its second language after C.")
DANUBE = "The Danube is Europe's second-longest river, after the Volga. It flows through ten countries."
COFFEE = "Decaffeinated coffee is not entirely caffeine-free: a cup still holds a few milligrams."
APOLLO = ("Apollo 11 carried Neil Armstrong, Buzz Aldrin and Michael Collins. Armstrong and Aldrin walked on the Moon "
          "while Collins stayed in orbit aboard Columbia.")
LINES = ("Line 7 is run commercially, without a subsidy. Line 7B is run under contract to Harwick District Council, "
         "which cut its grant this year.")
BANK = ("Provisions for loan losses increased to €410 million, from €290 million, mainly because of higher defaults "
        "among small firms. In July, Halden Bank completed its acquisition of Ridgeway Savings, a regional savings bank "
        "with around 600,000 customers, for €310 million.")
POOLS = ("The council runs two pools: the Ashcombe pool, 25 metres long with 6 lanes, and the Brindle Road pool, "
         "50 metres long with 8 lanes.")
SCHOOLS = "Brackenford is the bigger of the two schools, with about 3,100 pupils to Dunmere's 2,300, but Dunmere is older."
MATCH = "Millbrook Athletic came from two goals down to beat Harbourside City 3-2 on Saturday."

needs_parser = pytest.mark.skipif(not parse.available(), reason="the dependency parser is not installed (./scripts/setup)")


def explained(claim: str, page: str) -> str:
    alignment = align(claim, page, subject_context=page)
    assert not alignment.complete, claim
    return alignment.explanation()


@pytest.mark.parametrize(
    ("claim", "page", "named"),
    [
        ("The Rust compiler was first written in C++.", RUST, "C++ (it says: OCaml)"),
        ("Rust checks references at run time.", RUST, "run (it says: not … run)"),
        ("The Linux kernel accepted Rust as its first language in 2022.", RUST, "first (it says: second)"),
        ("The Danube is the longest river in Europe.", DANUBE, "longest (it says: second longest)"),
        ("Decaffeinated coffee contains no caffeine at all.", COFFEE, "contains"),
    ],
)
def test_a_false_claim_leaves_its_changed_word_unaccounted_for(claim, page, named):
    assert named in explained(claim, page)


@needs_parser
@pytest.mark.parametrize(
    ("claim", "page", "named"),
    [
        ("Michael Collins also walked on the Moon.", APOLLO, "Collins (it says: Armstrong)"),
        ("Harbourside City came from two goals down to beat Millbrook Athletic 3-2.", MATCH, "City (it says: Millbrook)"),
    ],
)
def test_the_same_words_in_other_roles_are_not_the_claim(claim, page, named):
    assert named in explained(claim, page)


@pytest.mark.parametrize(
    "claim",
    ["Rust became self-hosting in 2011.", "The Danube is the second-longest river in Europe.",
     "Millbrook Athletic beat Harbourside City 3-2.", "The compiler was originally written in OCaml."],
)
def test_a_claim_the_passage_states_is_accounted_for(claim):
    page = RUST + " " + DANUBE + " " + MATCH
    assert align(claim, page, subject_context=page).complete


def test_each_unit_leans_on_its_own_passage_word():
    """One to one: "no cars and no shops" needs two negations, not one read twice."""
    assert not align("The island has no cars and no shops.", "The island has no cars or shops.").complete
    assert align("The island has no cars and no shops.", "The island has no cars and no shops.").complete


@needs_parser
def test_a_name_and_another_form_of_it_each_match_their_own_word():
    """"Walkers … the Low Walker route": read crosswise, the two names look reversed around the verb."""
    sentence = "Walkers who dislike steep paths may prefer the Low Walker route, which climbs only 120 metres."
    assert align(sentence, sentence, subject_context=sentence).complete


@pytest.mark.parametrize(("claim", "page", "named"), [
    ("The tower is the tallest building in Europe.", "The tower is one of the tallest buildings in Europe.", "one"),
    ("Half of the staff work from home.", "Nearly half of the staff work from home.", "Half"),
    ("More than 100 copies of the book survive.", "Fewer than 100 copies of the book survive.", "100"),
    ("100 copies of the book survive.", "More than 100 copies of the book survive.", "100"),
    ("12 trains ran on time.", "Only 3 of the 12 trains ran on time.", "3"),
    ("Prices rose in every region.", "Prices rose in every region except Wales.", "except"),
    ("The bridge will reopen this year.", "It is unlikely that the bridge will reopen this year.", "unlikely"),
    ("He was born in 1810.", "He is thought to have been born in 1810.", "thought"),
    ("The price fell to £10.", "The price fell from £10 to £8.", "10"),
    ("The price rose by 3%.", "The price rose to 3%.", "3"),
])
def test_a_bound_or_a_part_of_the_passage_is_kept(claim, page, named):
    """"One of the tallest" is not "the tallest"; "nearly half", "more than 100" bound their figures; "3 of
    the 12", "except Wales", "unlikely that" and "thought to" qualify what follows or precedes them; "from
    £10" is the other end of the change from "to £10"."""
    assert named in explained(claim, page)


@pytest.mark.parametrize(("claim", "page"), [
    ("Almost half of the staff work from home.", "Nearly half of the staff work from home."),
    ("Over 90 copies of the book survive.", "More than 100 copies of the book survive."),
    ("The tower is about 300 metres tall.", "The tower is 300 metres tall."),
    ("The price fell to £8.", "The price fell from £10 to £8."),
    ("The price fell from £10 to £8.", "The price fell from £10 to £8."),
])
def test_a_claim_within_the_passage_s_bound_is_stated(claim, page):
    assert align(claim, page, subject_context=page).complete


def test_all_but_a_few_is_not_all():
    page = "All but two of the 30 members voted for the plan."
    assert "but" in explained("All 30 members voted for the plan.", page)
    assert align("Most of the members voted for the plan.", "Most of the members voted for the plan.").complete


def test_names_and_figures_match_only_by_identity_or_value():
    assert align("The bridge is about 1,345 feet long.", "The bridge is 410 m long.").complete
    assert not align("The bridge is 500 m long.", "The bridge is 410 m long.").complete
    assert not align("Aldrin flew the mission.", "Collins flew the mission.").complete


def test_differences_give_offsets_on_both_sides():
    claim, page = "The tower is 500 metres tall.", "The tower is 330 metres tall."
    difference = align(claim, page).differences[0]
    assert claim[difference.claim.start : difference.claim.end] == "500 metres"
    assert page[difference.passage.start : difference.passage.end] == "330 metres"


def test_without_the_parser_relations_are_not_checked(monkeypatch):
    monkeypatch.setattr(parse, "available", lambda: False)
    alignment = align("Millbrook Athletic beat Harbourside City 3-2.", MATCH)
    assert alignment.complete and not alignment.relations_checked and alignment.participants >= 2


def test_a_claim_in_another_language_is_not_read():
    assert not readable("Die Donau ist der zweitlängste Fluss Europas und fließt durch zehn Länder.")
    assert not readable("東京タワーは1958年に完成した。")
    assert readable("The Danube flows through ten countries.")


def test_a_compound_claim_names_the_clause_the_passage_states_in_full():
    page = "The museum opened in 1902 and holds 260,000 volumes. Admission is free on Sundays."
    half = align("The museum holds 260,000 volumes, and its café serves breakfast every day.", page)
    assert not half.complete and half.stated_clauses == ("The museum holds 260,000 volumes",)
    assert align("The museum opened in 1902 and has a planetarium on its roof.", page).stated_clauses == ()
    assert align("The museum holds 260,000 volumes, and admission is free on Sundays.", page).stated_clauses == ()


@pytest.mark.skipif(not parse.installed(), reason="needs the spaCy pipeline (./scripts/setup installs it)")
def test_the_doer_and_the_object_must_hold_their_roles_in_one_occurrence_of_the_verb():
    page = "Arsenal beat Spurs on Sunday. Liverpool beat Chelsea on Monday."
    assert align("Arsenal beat Spurs.", page).complete
    assert not align("Arsenal beat Chelsea.", page).complete


@pytest.mark.skipif(not parse.installed(), reason="needs the spaCy pipeline (./scripts/setup installs it)")
def test_a_pronoun_stands_for_the_last_subject_named_before_it_and_a_question_for_nobody():
    enzymes = ("The new enzyme, SLW-7, was engineered at Tovey. Over 36 hours it broke down 90% of the film. "
               "KR-2, the best known enzyme, broke down 62% of the film.")
    assert align("SLW-7 broke down 90% of the film.", enzymes).complete
    assert not align("KR-2 broke down 90% of the film.", enzymes).complete
    assert align("Marie Curie won the Nobel Prize in 1911.",
                 "Marie Curie moved to Paris in 1891. She won the Nobel Prize in 1911.").complete
    heading = "Who makes it\nThe mower is built for Clovermow by Hexwood, and the app comes from Trellis Labs."
    assert not align("Trellis Labs makes the mower.", heading).complete


@needs_parser
@pytest.mark.parametrize(("claim", "page", "named"), [
    ("The depot runs 9 buses on Route A.", "The depot runs 24 buses on Route A and 9 on Route B.", "9 (it says: 24)"),
    ("Lena Brandt was named Cup MVP.", "Lena Brandt was named league MVP in May. In the Cup her team lost early.",
     "Cup (it says: league)"),
    ("A full test run took 40 minutes with Quarry 3.", "Quarry 3, released in 2020, added caching. A full test run "
     "took 40 minutes with 2.x and 12 minutes with 3.", "Quarry (it says: 2)"),
])
def test_a_name_or_figure_must_qualify_the_same_word_in_the_passage(claim, page, named):
    assert explained(claim, page) == named


@needs_parser
def test_a_figure_whose_noun_the_passage_elides_after_an_earlier_sentence_still_qualifies_it():
    page = "The largest depot holds about 900 trucks. The second largest, at Kelby, holds about 300."
    assert align("The second-largest depot, at Kelby, holds about 300 trucks.", page, subject_context=page).complete


@pytest.mark.parametrize(("claim", "page"), [
    ("The canal is about 60 miles long.", "The canal has a length of 97 km."),
    ("The drill weighs 1.6 kg.", "The drill has a weight of 1.6 kg."),
    ("The wreck lies 24 miles off the Scottish coast.", "The wreck lies 24 miles off the coast of Scotland."),
])
def test_a_word_in_another_part_of_speech_and_an_irregular_demonym_are_the_same_word(claim, page):
    assert align(claim, page, subject_context=page).complete


def test_a_derivation_is_not_another_measure():
    assert not align("The canal is about 60 miles long.", "The canal is 97 km wide.").complete


@needs_parser
@pytest.mark.parametrize(("claim", "page", "named"), [
    ("The Harrow Line runs from Marston to Kelby.", "The Harrow Line runs from Kelby to Marston. It opened in 1884.",
     "Marston (it says: Kelby)"),
    ("In 2019 the Dunmore family moved from Presham to Calder.",
     "In 2019 the Dunmore family moved from Calder to Presham, where they opened a bakery.", "Presham (it says: Calder)"),
    ("Tansey is older than Brackwell.", "Brackwell is older than Tansey: it received its charter in 1205.",
     "Brackwell (it says: Tansey)"),
])
def test_a_preposition_keeps_its_own_object(claim, page, named):
    assert named in explained(claim, page)


@needs_parser
def test_the_opposite_preposition_is_the_other_end_of_the_verb():
    page = "The Corvell yard will lease two river barges from Halden for the summer. Both are diesel boats."
    assert explained("Corvell will lease two barges to Halden.", page) == "Halden"
    # where the preposition hangs (on "lease" or on "barges") is the parser's guess, and says the same
    assert align("Corvell will lease two barges from Halden.", page, subject_context=page).complete


@needs_parser
def test_the_same_preposition_twice_in_the_claim_is_no_reversal():
    page = "The Harrow Line runs from Kelby to Marston. The museum opened in 1902 in the old town hall."
    assert align("The Harrow Line runs from Kelby to Marston.", page).complete
    assert align("The museum opened in 1902 in the old town hall.", page).complete


BAND = ("The Amberlights are a folk-rock band from the port city of Carrowmore. Most Amberlights songs are based on "
        "traditional tunes, but Niamh Roarty writes new lyrics. The band rarely uses keyboards.")


@needs_parser
def test_a_description_the_page_ties_to_one_name_stands_for_it():
    claim = "The Amberlights rarely use keyboards."
    assert align(claim, BAND, subject_context=BAND).complete
    # a page that calls two names "a band" does not say which one "the band" is
    two = BAND.replace("Most Amberlights", "The Tidewrights are a folk band too. Most Amberlights")
    assert not align(claim, two, subject_context=two).complete


@needs_parser
def test_a_pronoun_stands_for_the_claims_noun_when_it_is_the_last_subject_and_no_other_name_intrudes():
    crossing = "The crossing will carry four traffic lanes. It will not carry a railway."
    assert align("The crossing will not carry a railway.", crossing).complete
    enzymes = ("The enzyme, called SLW-7, comes from a bacterium. In tests it broke down 90% of the film. "
               "KR-2, the best known enzyme, broke down 62% of the film.")
    assert not align("The KR-2 enzyme broke down 90% of the film.", enzymes).complete


def test_a_claim_without_function_words_but_with_a_possessive_is_english():
    assert readable("Dr Vos supervised Dr Amara Lind's doctoral thesis.")


def test_a_comparison_keeps_each_side_of_than_even_where_the_parser_misreads_it():
    page = "Kessler-42 b orbits closer to its star than Kessler-42 c does, taking only 3.1 days to go around it."
    assert align("Kessler-42 c orbits closer to its star than Kessler-42 b.", page).explanation() == (
        "c (it says: b); b (it says: c)")
    assert align("Kessler-42 b orbits closer to its star than Kessler-42 c.", page).complete


@needs_parser
@pytest.mark.parametrize(("claim", "page", "named"), [
    # a figure with its measure keeps its preposition: "in 96 seconds" is not "against 96 seconds"
    ("Version 3 uploaded the folder in 96 seconds.",
     "Version 3 uploaded the folder in 41 seconds, against 96 seconds for version 2.9.", "96 seconds (it says: 41 seconds)"),
    # the names of a preposition's phrase: "from Bray" is not "from the Wexford plant to the new factory in Bray"
    ("Production moved from Bray to Wexford in 2018.",
     "Production moved from the Wexford plant to the new factory in Bray in 2018.", "Bray (it says: Wexford)"),
    # "have" binds its doer to what it has, though the alignment skips the word
    ("Saint-Aubrac has 24 hotels.", "Lisseval has 24 hotels and Saint-Aubrac has 9.", "hotels"),
    # a measure the verb takes, and the figures of the doer's phrase
    ("The Arc 7 lasted 36 hours.", "In our test the Arc 5 lasted 36 hours and the Arc 7 lasted 28.", "7 (it says: 5)"),
    ("Patients on the lower, 150 mg dose saw their LDL fall by 52%.", "Patients who received the higher dose, 300 mg, "
     "saw their LDL fall by 52%; those on the lower dose, 150 mg, saw a fall of 41%.", "150 mg (it says: 300 mg)"),
    # the verb read where the passage gives what the claim hangs on it ("under contract to …"), and "7B" the other
    # of "7"
    ("Line 7 is run under contract to Harwick District Council, and line 7B is run commercially.", LINES,
     "7 (it says: 7B)"),
    ("Line 7 is run under contract to Harwick District Council.", LINES, "7 (it says: 7B)"),
])
def test_each_figure_and_name_keeps_its_place_in_the_relation(claim, page, named):
    assert named in explained(claim, page)


@needs_parser
@pytest.mark.parametrize("claim", ["Line 7B is run under contract to Harwick District Council.", "Line 7 is run commercially."])
def test_a_verb_read_where_the_passage_gives_what_the_claim_hangs_on_it_states_the_claim(claim):
    assert align(claim, LINES, subject_context=LINES).complete


@needs_parser
@pytest.mark.parametrize(("claim", "page"), [
    ("The eco programme heats the water to 113°F.", "The eco programme uses less electricity because the water is "
     "heated to a lower temperature: 45°C instead of 60°C."),
    ("Production moved from Wexford to Bray in 2018.", "Production moved from the Wexford plant to the new factory "
     "in Bray in 2018."),
    ("Maren Tolliver's French translator, Claude Ferrand, has translated all nine of her novels.",
     "Maren Tolliver writes in English. Her French translator, Claude Ferrand, has translated all nine of her novels."),
    ("Lisseval has 24 hotels.", "Lisseval has 24 hotels and Saint-Aubrac has 9."),
    ("The Arc 5 lasted 36 hours.", "In our test the Arc 5 lasted 36 hours and the Arc 7 lasted 28."),
])
def test_a_claim_that_keeps_every_place_is_complete(claim, page):
    assert align(claim, page, subject_context=page).complete, align(claim, page, subject_context=page).explanation()


@needs_parser
@pytest.mark.parametrize(("claim", "page", "named"), [
    # two participants the other way round around a word they share
    ("Dransfield, not Bhalla, had been the favourite.", "Ketterley knocked out the top seed, Arun Bhalla. Bhalla, "
     "not Dransfield, had been the favourite, and Dransfield was the oldest player.", "Dransfield (it says: Bhalla)"),
    ("Antihistamine tablets are more effective than a steroid nasal spray for a blocked nose.",
     "A steroid nasal spray is more effective than antihistamine tablets for a blocked nose.", "tablets"),
    ("The common cuckoo is a frequent host of the sable-masked shrike.",
     "The sable-masked shrike is a frequent host of the common cuckoo, which lays its eggs in shrike nests.", "cuckoo"),
    # the same preposition between two participants the other way round, however the parser reads it
    ("The tarn config convert command converts TOML to YAML.",
     "Run tarn config convert once: the command converts YAML to TOML and leaves the original file.", "TOML"),
    # a claim that compares nothing, taking its parts from both sides of a comparison the passage makes
    ("Cetrafen causes drowsiness in about 1 in 30 people who take it.", "Cetrafen causes drowsiness in about 1 in "
     "10 people who take it, against about 1 in 30 for Loratel.", "1 in 30"),
    ("The rocks that yielded Caelodraco are about 108 million years old.", "The rocks that yielded Caelodraco are "
     "about 112 million years old, older than the beds that produced Ornithala, which are about 108 million years "
     "old.", "108 million years"),
])
def test_participants_keep_their_sides(claim, page, named):
    assert named in explained(claim, page)


@needs_parser
@pytest.mark.parametrize(("claim", "page"), [
    ("Pellbrook was bought in 2025 by Harlan Tech, the parent company of Voltcairn.",
     "Harlan Tech, Voltcairn's parent company, bought Pellbrook in 2025."),
    ("The Court of Appeal has overturned a High Court ruling.", "The Court of Appeal has overturned a High Court ruling."),
    ("The Calder Street flats housed 1,100 people in four low blocks instead of a single tower.",
     "The Calder Street flats housed 1,100 people in four low blocks rather than a single tower."),
    ("Lantern Hours sold more than 250,000 copies.", "Lantern Hours reached number two and sold more than 250,000 "
     "copies."),
    ("Acme was bought by Holt in 2020.", "Holt bought Acme in 2020."),
])
def test_a_reordering_that_keeps_who_is_who_is_complete(claim, page):
    alignment = align(claim, page, subject_context=page)
    assert alignment.complete, alignment.explanation()


@pytest.mark.parametrize(("claim", "page", "complete"), [
    ("The Benn is 312 km long.", "The Arlo is 312 km long, the Benn 188 km and the Corra 97 km.", False),
    ("Carn Dubh is 1,204 m high.", "Peak heights: Ben Arran 1,204 m, Carn Dubh 1,116 m, Sgurr Mor 1,098 m.", False),
    ("The Arlo is 312 km long.", "The Arlo is 312 km long, the Benn 188 km and the Corra 97 km.", True),
    ("A wheel of Valdrenne weighs between about 77 and 93 pounds.",
     "A single wheel of Valdrenne weighs between 35 and 42 kg.", True),
    # a name's clause reaches over the clauses after it that name no one ("…, 25 metres long with 6 lanes")
    ("The Ashcombe pool has 8 lanes.", POOLS, False),
    ("The Ashcombe pool has 6 lanes.", POOLS, True),
    ("The Brindle Road pool has 8 lanes.", POOLS, True),
    # … but only for the last name of its clause ("… of Ridgeway Savings, a regional savings bank …, for €310 million")
    ("Halden's provisions for loan losses increased to €410 million, from €290 million.", BANK, True),
    ("Bexmoor has 18,000 residents.", "With 18,000 residents, Ardley is three times the size of Bexmoor, home to 6,500.",
     False),
    ("Ardley has 18,000 residents.", "With 18,000 residents, Ardley is three times the size of Bexmoor, home to 6,500.",
     True),
    # a bare count whose sentence counts the claim's noun has that noun elided
    ("Bexmoor has 18,000 residents.", "Ardley grew to 18,000 residents by 2020; Bexmoor shrank to 6,500.", False),
    ("Ardley has 18,000 residents.", "Ardley grew to 18,000 residents by 2020; Bexmoor shrank to 6,500.", True),
    # a figure another name owns ("Dunmere's 2,300") is not the claim's
    ("Brackenford has about 2,300 pupils.", SCHOOLS, False),
    ("Dunmere has about 2,300 pupils.", SCHOOLS, True),
    ("Brackenford has about 3,100 pupils.", SCHOOLS, True),
])
def test_a_figure_goes_with_the_name_whose_clause_gives_it(claim, page, complete):
    assert align(claim, page, subject_context=page).complete is complete


@needs_parser
def test_a_name_equated_with_a_role_must_stand_in_that_roles_clause():
    page = ("The committee was chaired by Professor Miriam Selkirk; its paediatric lead was Dr Callum Fraine, and its "
            "lay member was Janet Wyburn.")
    assert "Wyburn (it says: Fraine)" in explained("The committee's paediatric lead was Janet Wyburn.", page)
    assert align("The committee's paediatric lead was Dr Callum Fraine.", page, subject_context=page).complete


def test_the_claim_is_read_where_the_passage_states_it_most_fully():
    """Not in the line before, which shares one of its names under a negation."""
    page = ("- Expresses will no longer stop at Orla or Kemble Halt.\n"
            "- Orla will keep an hourly stopping service.\n- Sunday trains will start later.")
    assert align("Orla will keep an hourly stopping service.", page).complete
    beach = ("Brell Sands is the longest beach on the coast at 7 kilometres. The second-longest, at Marn, is half "
             "that length.")
    assert align("Brell Sands is about 4.3 miles long.", beach, subject_context=beach).complete


def test_names_joined_by_a_dash_are_one_name():
    page = "Comet Halden–Ruiz was found in March. Comets are unpredictable, and it could end up a magnitude fainter."
    assert align("Comets are unpredictable, and Comet Halden–Ruiz could end up a magnitude fainter.",
                 page.split(". ")[1], subject_context=page).complete


@pytest.mark.parametrize(
    ("claim", "passage", "complete"),
    [
        ("The Brell Canal is about 31 miles long.", "The Brell Canal is a 50-kilometre waterway.", True),
        ("The Tarn viaduct weighs about 2,200 lb.", "| Tarn viaduct | 1,000 kg |", True),
        ("The overture lasts 12 minutes.", "The overture is a 12-minute piece.", True),
        # the unit says a length, not which one
        ("The Brell Canal is about 31 miles wide.", "The Brell Canal is a 50-kilometre waterway.", False),
        ("The Brell Canal is about 31 miles long.", "The Brell Canal is a 50-kilometre waterway, 30 m wide.", False),
        ("The overture lasts 12 minutes.", "The overture began 12 minutes late.", False),
    ],
)
def test_a_figure_s_unit_says_what_it_measures(claim, passage, complete):
    assert align(claim, passage).complete is complete


@needs_parser
def test_a_description_may_be_a_name_s_own_last_word():
    page = ("Marrick Building Society, a lender based in Tolby, has agreed to merge. Marrick's chief executive, Ann "
            "Vey, said the society could not afford the spending needed to compete alone.")
    claim = "Ann Vey said Marrick could not afford the spending needed to compete alone."
    assert align(claim, page.split(". ")[1], subject_context=page).complete
    two = page.replace("has agreed to merge", "has agreed to merge with Holt Building Society")
    assert not align(claim, two.split(". ")[1], subject_context=two).complete


@needs_parser
def test_a_passive_verb_shares_the_subject_of_the_verb_it_joins():
    page = "That novel, The Copper Field, came out in 1990. It sold slowly at first but was adapted for radio in 1995."
    assert align("The Copper Field was adapted for radio in 1995.", page, subject_context=page).complete


@needs_parser
def test_the_owner_of_a_shared_noun_is_a_role():
    page = "That deal, Ostrom's €2 billion takeover of the brewer Tavely, was completed in May."
    assert align("Ostrom's €2 billion takeover of Tavely was completed in May.", page).complete
    assert "Tavely (it says: Ostrom)" in explained("Tavely's €2 billion takeover of Ostrom was completed in May.", page)


@needs_parser
@pytest.mark.parametrize(
    ("claim", "complete"),
    [
        ("Pennock Homes has borrowed £85 million from Halbrook.", True),
        ("Halbrook has borrowed £85 million from Pennock Homes.", False),
        ("Marian Ostley was defeated by Dev Kaplan.", True),
        ("Dev Kaplan defeated Marian Ostley.", True),
        ("Marian Ostley defeated Dev Kaplan.", False),
        ("In 1596 the Dunmarr family bought the island from the MacOdrums.", True),
        ("In 1596 the MacOdrums bought the island from the Dunmarr family.", False),
    ],
)
def test_a_converse_verb_states_the_event_from_the_other_side(claim, complete):
    page = ("Halbrook has lent £85 million to the housing developer Pennock Homes. Marian Ostley lost her seat to "
            "Dev Kaplan. In 1596 the MacOdrums sold the island to the Dunmarr family.")
    assert align(claim, page, subject_context=page).complete is complete


@needs_parser
@pytest.mark.parametrize(
    ("page", "complete"),
    [
        ("Her last film was Harbour Lights, in 2011. The drama earned $40 million worldwide.", True),
        ("Her last film was Harbour Lights, with Tom Reyes, in 2011. The drama earned $40 million worldwide.", False),
        ("Her last film was Harbour Lights. Her next, Low Tide, came out in 2012. The drama earned $40 million "
         "worldwide.", False),
    ],
)
def test_a_description_opening_its_sentence_stands_for_the_only_name_just_before(page, complete):
    claim = "Harbour Lights earned $40 million worldwide."
    assert align(claim, page, subject_context=page).complete is complete


@pytest.mark.parametrize(
    ("claim", "complete"),
    [
        ("The kiln burns wood rather than coal.", True),
        ("The kiln burns wood instead of coal.", True),
        ("The kiln burns coal rather than wood.", False),  # the privative covers the other word
        ("The kiln burns coal.", False),
        ("The kiln burns wood.", True),
        ("The kiln does not burn coal at night.", False),  # "at night" is not in the passage
    ],
)
def test_rather_than_and_instead_of_cover_the_same_words_on_both_sides(claim, complete):
    page = "The kiln burns wood instead of coal, which keeps its glaze soft."
    assert align(claim, page, subject_context=page).complete is complete


def test_a_negation_covers_the_rest_of_the_claim_s_clause():
    page = "The scanner reads the tags at the gate, not at the desk."
    assert align("The scanner does not read the tags at the desk.", page, subject_context=page).complete
    assert not align("The scanner reads the tags at the desk.", page, subject_context=page).complete


@needs_parser
@pytest.mark.parametrize(
    ("extra", "claim", "complete"),
    [
        ("", "Brandt Glassworks was fined £40,000 by the regulator.", True),
        ("", "Brandt Optics was fined £40,000 by the regulator.", False),  # the page never names it
        (" Brandt Optics, a sister firm, was not fined.", "Brandt Glassworks was fined £40,000 by the regulator.",
         False),  # "Brandt" may be either
    ],
)
def test_a_short_form_stands_for_the_page_s_only_name_that_holds_it(extra, claim, complete):
    page = ("Brandt Glassworks Ltd has lost its appeal. Brandt was fined £40,000 by the regulator. Brandt Glassworks's "
            "director said the firm would pay." + extra)
    passage = "Brandt was fined £40,000 by the regulator. Brandt Glassworks's director said the firm would pay."
    assert align(claim, passage, subject_context=page).complete is complete


SEEDS = "Ilias Marcoux won the final on Sunday, beating the top seed, Henning Solvang."
COPYRIGHT = ("The court ruled that Kestrow Games infringed the copyright of Lumivane Studios by copying parts of "
             "Lumivane's engine.")
PLANETS = ("The inner planet, Kessler-42 b, completes an orbit every 4.1 days. The outer planet, Kessler-42 c, takes "
           "11.7 days to go around its star. Both were detected by the transit method.")
DAMAGES = "The High Court in London has ordered Ashcroft Mills to pay £850,000 in damages to Pemberly Bakeries."
RESULTS = ("Chief executive Priyanka Rowe said the quarter showed strength. Rowe took over from Clive Ashby, the son of "
           "the company's founder, in 2023. Finance director Lionel Frampton said wheat prices may have peaked.")
RIVER = ("Salmon returned to the Ambrel in 1998. The Ambrel Way, a long-distance footpath opened in 2004, follows the "
         "river for 171 kilometres.")
PRIZES = ("The men's winner receives €40,000 plus a €25,000 record bonus; the women's winner receives €40,000. Turnout "
          "at the expo was 52%.")
WRECK = "The Calder sank off Rosscarn in 1911. Of the 212 people on board, 174 were rescued and 38 died."
LICENCES = ("Historically, most, but not all, Velkor releases have been open source; the table lists them.\n"
            "| Release | Year | Open source? |\n|---|---|---|\n| 2.0 | 2001 | yes |\nAll Velkor licences allow copying.")
MUSEUM = ("The oldest object on display is the Dunmere astronomical clock, built in 1412. The largest is the Corrick "
          "tower mechanism, which weighs 3.5 tonnes.")
TRIAL = ("Side effects favoured lorvatide too. 7% of patients on pemorizine stopped treatment because of side effects, "
         "compared with 3% on lorvatide.")
VERSIONS = "Version 4.0 was released on 3 March 2024, replacing version 3.2, which had been released in 2021."
BONDS = ("The maximum bond depends on the fee. If the yearly fee is under €20,000, the bond cannot be more than four "
         "weeks' fee. If the yearly fee is €20,000 or more, the cap is seven weeks' fee.")
FARMS = ("Energy in Orlund\n| Wind farms in service | 140 (2025) |\n| Wind farms under construction | 6 (2025) |\n"
         "| Wind farms closed for good | 31 (2025) |")
FIGURES = ("| Kestle Bank: key figures |  |  |\n|---|---|---|\n|  | 2026 | 2025 |\n|---|---|---|\n"
           "| Net interest income | £1.06bn | £982m |")
LAKES = "Lake Orvell is the largest natural lake in Cardenshire; the Dunmoor reservoir holds more water."
BATTLE = "Harnish infantry played a key part in the defeat of Tolvan cavalry at Bray in 1643."
PORTS = ("Each laptop has two USB-C ports and a headphone jack. The Vanta 15 adds an HDMI port and a card reader, "
         "neither of which is available on the Vanta 13.\n| Vanta 13 and Vanta 15 at a glance |  |  |\n|---|---|---|\n"
         "|  | Vanta 13 | Vanta 15 |\n")
MILESTONES = ("- March 2031 - Corvid 2.4 adds offline sync and a new editor. Webhooks also appear for the first time.\n"
              "- May 2031 - In Corvid 2.6, the old reporting API is removed.")
MACHINES = "Casavel makes three coffee machines. The Duo and the Tre cost €599 and €829 respectively."
PUNCTUALITY = "Norlund Air was on time on 88% of Caddon flights and SkyVerra on 79%, mainly because of late aircraft."
LEVY = "The levy rate applies to the whole rent, not only the part above each threshold."
ARMS = ("Morning grogginess was reported by 14% of the 5 mg arm, 7% of the 2 mg arm and 6% of the placebo arm. "
        "Sleep onset fell by 31% in the 5 mg arm, by 18% in the 2 mg arm and by 9% in the placebo arm.")
STRIKE = ("Councillor Bea Harcourt urged both sides to return to talks, but said she agreed with Ilsley that the strike "
          "was premature. Councillor Simeon Roke disagreed with Harcourt, saying the council has left drivers with no "
          "choice.")
DIVISIONS = ("Care homes were assigned to three groups. Chest infections were recorded in 12% of residents in the "
             "twice-dosed group, 15% in the once-dosed group and 17% in the saline group. The chilled soup division "
             "contributed 61% of revenue and the sauces division 39%.")
TENTS = ("The Trek 2, Trek 3 and Trek 4 sleep two, three and four people respectively, and weigh 1.6 kg, 2.3 kg and "
         "3.1 kg respectively.")
SIGNING = "Councillor Ada Pell said the new rules were the strictest this county has ever imposed."
SIZES = "The Aster comes in three sizes. The S costs €249, the M €449 and the X €799."
PORTIONS = ("A main-course portion of the barley soup weighs about 450 g and provides 351 kcal; a starter portion "
            "weighs 300 g and provides 234 kcal.")
LOANS = "Three loans come from the Society of Northern Navigators and eight from the University of Halden."
SCORES = "Lindqvist Polytechnic posts the highest teaching score of any polytechnic in the rankings, at 88.5."
FARES = "Day tickets cost €12 at Orrin Quay or €9 at Brae Halt."
TABLE_LEAD = ("Halvorsen University tops the table for the third year, although its lead over Merrow has narrowed from "
              "4.1 points last year to 1.7 points this year.")
LAPTOPS = ("Two budget laptops, the Arlo Book 14 from Corin and the Pexa Slim 15 from Haldis, cost almost the same: €599 "
           "and €629 respectively. The Arlo won 43% of the vote.")


@needs_parser
@pytest.mark.parametrize(("page", "claim", "complete"), [
    # an adjective's order turns with its verb's voice, as a noun's does
    (SEEDS, "Henning Solvang, the top seed, was beaten by Ilias Marcoux.", True),
    (SEEDS, "Ilias Marcoux, the top seed, was beaten by Henning Solvang.", False),
    # "by copying" says how, not who, and the verb after it is done by its verb's subject
    (COPYRIGHT, "Lumivane Studios' copyright was infringed by Kestrow Games, which copied parts of Lumivane's engine.",
     True),
    (COPYRIGHT, "Kestrow Games' copyright was infringed by Lumivane Studios, which copied parts of Lumivane's engine.",
     False),
    # "Both were detected": the word stands for the noun said before it
    (PLANETS, "Both Kessler-42 planets were detected by the transit method.", True),
    (PLANETS, "Both Kessler-42 moons were detected by the transit method.", False),
    # a "to" verb after an object is done by that object
    (DAMAGES, "Ashcroft Mills has been ordered by the High Court to pay Pemberly Bakeries £850,000 in damages.", True),
    (DAMAGES, "The High Court has ordered Pemberly Bakeries to pay Ashcroft Mills £850,000 in damages.", False),
    # a name the passage gives the claim's title stands for the title; another name's title does not
    (RESULTS, "Wendmore's chief executive took over from Clive Ashby in 2023.", True),
    (RESULTS, "Wendmore's finance director took over from Clive Ashby in 2023.", False),
    # two names that share a word, each with a word of its own, name two things
    (RIVER, "The Ambrel Way follows the river for 171 kilometres.", True),
    (RIVER, "The River Ambrel is 171 kilometres long.", False),
    # a semicolon parts two statements; a claim subject in all its words is read with the rest of its group
    (PRIZES, "The men's winner receives a €25,000 record bonus.", True),
    (PRIZES, "The women's winner receives €40,000 plus a €25,000 record bonus.", False),
    # a common noun opening the claim names no one for the page around to account for
    (LAPTOPS, "Turnout was 43%.", False),
    # "respectively" pairs the lists off in order; the model numbers go with their names
    (LAPTOPS, "The Pexa Slim 15 and the Arlo Book 14 cost €629 and €599 respectively.", True),
    (LAPTOPS, "The Arlo Book 14 and the Pexa Slim 15 cost €629 and €599 respectively.", False),
    # a figure the parser hangs elsewhere is still the subject of the verb it stands before
    (WRECK, "Of the 212 people on board, 174 were rescued.", True),
    (WRECK, "Of the 212 people on board the Calder, 38 were rescued.", False),
    # a quantifier is said of its noun where the passage says it, and not where a negation turns it
    (LICENCES, "Most Velkor releases have been open source.", True),
    (LICENCES, "All Velkor releases have been open source.", False),
    # a name before a noun's adjective qualifies that noun
    (MUSEUM, "The oldest object on display is the Dunmere astronomical clock, built in 1412.", True),
    (MUSEUM, "The oldest object on display is the Corrick astronomical clock, built in 1412.", False),
    # a word matched elsewhere is read on its side of the comparison the sentence makes
    (TRIAL, "7% of patients on pemorizine stopped treatment because of side effects.", True),
    (TRIAL, "7% of patients on lorvatide stopped treatment because of side effects.", False),
    # what the claim hangs on its verb by a preposition, the occurrence that holds its roles must hold
    (VERSIONS, "Version 3.2 was released in 2021.", True),
    (VERSIONS, "Version 4.0 was released in 2021.", False),
    # a passage subject stands for the claim's only in the claim subject's own words ("the yearly fee" is no "bond")
    (BONDS, "If the yearly fee is €20,000 or more, the cap is seven weeks' fee.", True),
    (BONDS, "If the yearly fee is under €20,000, the bond can be up to seven weeks' fee.", False),
    # two rows of a table are two statements (a row and its heading are one)
    (FARMS, "Orlund had 6 wind farms under construction in 2025.", True),
    (FARMS, "Orlund had 31 wind farms under construction in 2025.", False),
    (FIGURES, "Kestle Bank's net interest income for 2026 was £1,060 million.", True),
    # the claim is read in the fewest sentences that hold it, not wherever a negation is left out
    (PORTS, "The Vanta 15 has a card reader.", True),
    (PORTS, "The Vanta 13 has a card reader.", False),
    # a numbered name sets the scene where it is said last before what happens in it
    (MILESTONES, "Webhooks appeared for the first time in Corvid 2.4.", True),
    (MILESTONES, "Webhooks appeared for the first time in Corvid 2.6.", False),
    # one name and one figure taken from two lists a "respectively" pairs off are taken at the same place
    (MACHINES, "The Tre costs €829.", True),
    (MACHINES, "The Duo costs €829.", False),
    # a clause that also names someone the claim does not is theirs, where the claim's names have their own
    (PUNCTUALITY, "Norlund Air was on time on 88% of its Caddon flights.", True),
    (PUNCTUALITY, "SkyVerra was on time on 88% of its Caddon flights.", False),
    # "not only" is a degree, unless it denies the claim's own "only"
    (LEVY, "The levy rate applies to the part of the rent above each threshold.", True),
    (LEVY, "The levy rate applies only to the part of the rent above each threshold.", False),
    # a measure in the claim names its side of a list as a name does; a word matched twice is read beside its
    # neighbour on the claim's side of it ("the 2 mg arm")
    (ARMS, "Morning grogginess was reported by 7% of the 2 mg arm.", True),
    (ARMS, "Morning grogginess was reported by 6% of the 2 mg arm.", False),
    (ARMS, "Sleep onset fell by 18% in the 2 mg arm.", True),
    (ARMS, "Sleep onset fell by 18% in the 5 mg arm.", False),
    # of two "respectively" lists in a sentence, a figure is read in its own, at its name's place
    (TENTS, "The Trek 3 weighs 2.3 kg.", True),
    (TENTS, "The Trek 4 weighs 3.1 kg.", True),
    (TENTS, "The Trek 3 weighs 3.1 kg.", False),
    # a short form of the claim's subject ("a starter portion") is read with the rest of what the claim says of it
    (PORTIONS, "A starter portion of the barley soup provides 234 kcal.", True),
    (PORTIONS, "A starter portion of the barley soup provides 351 kcal.", False),
    # a part counts its whole's noun ("three of the loans")
    (LOANS, "Three of the loans come from the Society of Northern Navigators.", True),
    (LOANS, "Three of the loans come from the University of Halden.", False),
    # a phrase after a ranked noun that names its class narrows the superlative
    (SCORES, "Lindqvist Polytechnic posts the highest teaching score of any polytechnic in the rankings.", True),
    (SCORES, "Lindqvist Polytechnic posts the highest teaching score in the rankings.", False),
    # "or" parts the items of a list as "and" does
    (FARES, "Day tickets cost €12 at Orrin Quay.", True),
    (FARES, "Day tickets cost €9 at Orrin Quay.", False),
    # what the passage gives as a change's start is not how things stand now
    (TABLE_LEAD, "Halvorsen's lead over Merrow is 1.7 points this year.", True),
    (TABLE_LEAD, "Halvorsen's lead over Merrow was 4.1 points last year.", True),
    (TABLE_LEAD, "Halvorsen's lead over Merrow is 4.1 points this year.", False),
    # a capital letter that names a model is a word of its own ("the S"), not the "s" of a possessive
    (SIZES, "The Aster S costs €249.", True),
    (SIZES, "The Aster S costs €449.", False),
    # a word said only in another item of a list, which gives its own figure, is not the claim figure's; the
    # first item holds what the items share
    (DIVISIONS, "Chest infections were recorded in 15% of residents in the once-dosed group.", True),
    (DIVISIONS, "Chest infections were recorded in 15% of residents in the saline group.", False),
    (DIVISIONS, "The sauces division contributed 39% of revenue.", True),
    (DIVISIONS, "The sauces division contributed 61% of revenue.", False),
    # what is said is said by the one the claim names
    (STRIKE, "Simeon Roke said the council has left drivers with no choice.", True),
    (STRIKE, "Bea Harcourt said the council has left drivers with no choice.", False),
    # a superlative ranks in the class its noun's words set
    (LAKES, "Lake Orvell is the largest natural lake in Cardenshire.", True),
    (LAKES, "Lake Orvell is the largest lake in Cardenshire.", False),
    (SIGNING, "Councillor Ada Pell said the new rules were the strictest this county has ever imposed.", True),
    (SIGNING, "Councillor Ada Pell said the new rules were the strictest ever imposed.", False),
    # a verb said as its event noun keeps the doer before it and the object after "of"
    (BATTLE, "Harnish infantry defeated Tolvan cavalry at Bray in 1643.", True),
    (BATTLE, "Tolvan cavalry defeated Harnish infantry at Bray in 1643.", False),
])
def test_a_relation_holds_as_the_passage_states_it_and_not_otherwise(page, claim, complete):
    context = "Wendmore Foods reported its results. Orlund. Halvorsen University. " + page + " " + PRIZES
    assert align(claim, page, subject_context=context).complete is complete


@pytest.mark.parametrize(("claim", "complete"), [
    ("Ilse Marrow served as mayor of Kettering Vale for 19 years.", True),
    ("Ilse Marrow served as mayor of Kettering Vale for about 20 years.", True),  # a hedge admits a year
    ("Ilse Marrow served as mayor of Kettering Vale for 18 years.", False),
    ("Ilse Marrow chaired the parks committee for 19 years.", False),  # the range is the mayoralty's
])
def test_a_number_of_years_is_worked_out_from_the_range_that_follows_the_claims_words(claim, complete):
    page = ("Ilse Marrow served as mayor of Kettering Vale from 1952 to 1971 and chaired the parks committee from "
            "1947 to 1952.")
    alignment = align(claim, page, subject_context=page)
    assert alignment.complete is complete
    if complete:
        assert [(ours.text, theirs.text) for ours, theirs in alignment.converted][-1][1] == "1952 to 1971"


@needs_parser
def test_a_figure_in_another_unit_is_recorded_and_keeps_its_noun_with_the_claim():
    """"22°C" says the claim's "72°F": the words of a figure the claim's figure matches are the claim's own, so
    the noun they qualify ("an average high of 22°C") may stand for the claim's place named before."""
    page = ("The Tarrow Valley is sheltered by hills to the west. Winters are mild, with frost on fewer than 40 nights "
            "a year in Lorrance. The warmest month is July, with an average high of 22°C.")
    alignment = align("The average July high in the Tarrow Valley is about 72°F.", page, subject_context=page)
    assert alignment.complete
    assert [(ours.text, theirs.text) for ours, theirs in alignment.converted] == [("72°F", "22°C")]
    assert not align("The average July high in the Tarrow Valley is 22°C.", page, subject_context=page).converted


@needs_parser
@pytest.mark.parametrize(("claim", "complete"), [
    ("Tessel is the largest building society in Wales.", False),  # "a large" is not "the largest"
    ("Corran is the largest lender in Wales.", True),  # "the biggest": the same degree, a listed synonym
    ("Corran is a large lender in Wales.", True),  # the superlative states the plain word
    ("Kelderby had 8,614 residents at the 2021 census, compared with 7,902 in 2011.", True),
])
def test_a_word_keeps_its_degree_and_compared_with_only_sets_two_side_by_side(claim, complete):
    page = ("Tessel is a large building society in Wales. Its rival Corran is the biggest lender in Wales. At the 2021 "
            "census Kelderby had 8,614 residents, up from 7,902 in 2011.")
    assert align(claim, page, subject_context=page).complete is complete
