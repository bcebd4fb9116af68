import pytest

from citemark.scoring.guards import check, entities
from citemark.scoring.quantities import parse_quantities as numbers

SOURCE = "Revenue grew 21% in 2019 to $3,512,000. The company, founded by Ada Lovelace, is based in Oxford. It has three offices."


@pytest.mark.parametrize(
    ("claim", "missing"),
    [
        ("Revenue grew 21 percent in 2019.", ()),
        ("Revenue reached about 3.5 million dollars.", ()),  # rounded figure with a scale word
        ("The company has 3 offices.", ()),  # digits match words
        ("Revenue grew 12% in 2019.", ("12%",)),
        ("Revenue grew 21% in 2016.", ("2016",)),  # years must match exactly
        ("Revenue grew to $3,500,000.", ("$3,500,000",)),  # an exact figure is not rounded
    ],
)
def test_every_figure_of_the_claim_must_be_in_the_source(claim, missing):
    assert check(claim, SOURCE, SOURCE).missing_numbers == missing


@pytest.mark.parametrize("claim", ["4. Turn the diffuser on.", "(2) Turn the diffuser on.",
                                   "To turn the diffuser on, do the following: 1."])
def test_list_markers_are_not_figures(claim):
    source = "Turn the diffuser on and enjoy it."
    assert check(claim, source, source).missing_numbers == ()
    assert check("Turn the diffuser on 4. times.", source, source).missing_numbers == ("4",)


def test_a_short_year_range_means_both_years():
    source = "Full implementation will take place over the 2018-2019 academic year."
    assert check("It takes place during the 2018–19 academic year.", source, source).missing_numbers == ()
    assert check("It takes place during the 2018–20 academic year.", source, source).missing_numbers == ("20",)
    assert [q.value for q in numbers("from 2018-07 on")] == [2018.0, 7.0]  # a month, not a range


def test_a_missing_figure_conflicts_when_the_evidence_gives_another_of_its_kind():
    result = check("Revenue grew 12% in 2019.", "Revenue grew 21% in 2019.", SOURCE)
    assert result.conflicting_numbers == ("12%",)
    assert check("Revenue grew in 2016.", "The firm is based in Oxford.", SOURCE).conflicting_numbers == ()


def test_names_must_appear_in_the_source():
    assert check("The company is based in Cambridge.", SOURCE, SOURCE).missing_names == ("Cambridge",)
    assert check("Ada Lovelace founded the company in Oxford.", SOURCE, SOURCE).missing_names == ()


@pytest.mark.parametrize(
    ("claim", "evidence", "found"),
    [
        ("It is the smallest collection in the world.", "It is the largest collection in the world.", ("smallest ≠ largest",)),
        ("Sales decreased in 2019.", "Sales increased sharply in 2019.", ("decreased ≠ increased",)),
        ("It is the largest collection in the world.", "It is the largest collection in the world.", ()),
        # both words in the evidence: it compares, it does not contradict
        ("Sales decreased in 2019.", "Sales increased in 2018 and decreased in 2019.", ()),
        # both words in the claim: nothing was swapped
        ("The best and worst years were 2019 and 2020.", "Its best year was 2019.", ()),
    ],
)
def test_a_claim_word_the_evidence_states_the_opposite_of_is_found(claim, evidence, found):
    assert check(claim, evidence, evidence).binding.opposites == found


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Ensure she rests. Choose a quiet room.", []),  # instructions open sentences
        ("Cycling is clean. Professional athletes train. Studies agree.", []),  # common-word endings
        ("Follow Web Content Accessibility Guidelines here.", ["Web Content Accessibility Guidelines"]),
        ("Omega is the first letter.", ["Omega"]),  # a lone sentence-opening word is still a name…
        ("Simulation: Run the tests.", []),  # … after a colon too, unless it is an instruction
    ],
)
def test_sentence_openers_that_read_as_common_words_are_not_names(text, names):
    assert entities(text) == names


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("It won the Presidents' Trophy.", "It won the President's Trophy."),
        ("He led the team at the Olympics.", "He led the team at the Olympic Games."),
        ("It is popular in the US.", "It is popular in the U.S. and Canada."),
        ("It opened in November 2019.", "It opened on Nov. 3, 2019."),
        ("It opened on Nov. 3, 2019.", "It opened in November 2019."),
        ("He was named captain for IPL 2018.", "He was named captain for the 2018 Indian Premier League."),
        ("The SEC sued the firm.", "The Securities and Exchange Commission sued the firm."),
        ("The South African law passed in 1953.", "The law was passed in South Africa in 1953."),
    ],
)
def test_names_match_the_way_sources_spell_them(claim, source):
    result = check(claim, source, source, around=source)
    assert result.missing_names == () and result.unstated_names == ()


@pytest.mark.parametrize(
    ("claim", "mismatch"),
    [
        ("The tower was not finished in 1889.", True),
        ("The tower wasn't finished in 1889.", True),
        ("The tower was not only finished in 1889 but also painted.", False),
        ("The tower doesn't just attract tourists.", False),
        ("The paint can peel if not renewed.", False),
    ],
)
def test_a_negation_the_evidence_lacks_is_a_mismatch_unless_it_denies_nothing(claim, mismatch):
    evidence = "The tower was finished in 1889 and painted; it attracts tourists; its paint peels unless renewed."
    assert check(claim, evidence, evidence).negation_mismatch is mismatch


def test_a_privative_in_the_evidence_states_the_claims_negation():
    evidence = "She used a 20 cm telescope in her back garden rather than a professional instrument."
    assert not check("She used a telescope in her garden, not a professional instrument.", evidence,
                     evidence).negation_mismatch
    assert check("She did not use a telescope.", "She used a telescope.", "She used a telescope.").negation_mismatch


def test_sentence_initial_common_words_are_not_names():
    assert entities("However, the firm grew. In 2019 it moved.") == []
    assert entities("Juliet says the line 'What's in a name?' It's famous.") == ["Juliet"]
    assert entities("The Guardian reported it.") == ["Guardian"]


def test_numbers_normalise_spellings():
    values = {q.value for q in numbers("1,200 people, 3.5 million users, 15%, the 21st time, twelve cats")}
    assert {1200.0, 3_500_000.0, 15.0, 21.0, 12.0} <= values


def test_a_sentence_opening_name_the_source_lacks_is_still_missing():
    source = "Alpha is the first letter of the Greek alphabet."
    assert check("Omega is the first letter of the Greek alphabet.", source, source).missing_names == ("Omega",)


def test_a_figure_elsewhere_on_the_page_is_stated_but_a_name_must_be_near_the_passage():
    document = "The firm was founded in Leeds. It sold 400 units in its first year. Sales doubled."
    figure = check("Sales doubled to 400 units.", "Sales doubled.", document, nearby="Sales doubled.")
    assert figure.missing_numbers == () and figure.unstated_names == ()
    name = check("Leeds sales doubled.", "Sales doubled.", document, nearby="Sales doubled.")
    assert name.missing_names == () and name.unstated_names == ("Leeds",)


def test_a_subject_may_be_named_further_up_but_other_names_must_be_around_the_passage():
    nearby = "Jane Smith is a chemist. She grew up in Leeds. She moved to Oxford in 1990. She studied chemistry there."
    around = "She moved to Oxford in 1990. She studied chemistry there."
    evidence = "She studied chemistry there."

    def unstated(claim):
        return check(claim, evidence, nearby, nearby=nearby, around=around).unstated_names

    assert unstated("Smith studied chemistry in Oxford.") == ()  # the subject, named in the opening
    assert unstated("In 1990, Smith studied chemistry in Oxford.") == ()
    assert unstated("Smith studied chemistry in Leeds.") == ("Leeds",)  # on the page, but not where she studied


def test_a_name_other_than_the_subject_must_be_stated_in_full_around_the_passage():
    page = "Lady Amelia is a model. Her cousin Marina lives abroad. She is a cousin of Prince Harry, Duke of Sussex."
    around = "She is a cousin of Prince Harry, Duke of Sussex."

    def unstated(claim):
        return check(claim, around, page, nearby=page, around=around).unstated_names

    assert unstated("She is a cousin of Prince Harry, Duke of Sussex.") == ()
    assert unstated("She is a cousin of Prince Harry, Marina of Sussex.") == ("Marina of Sussex",)
    # two names joined by "and" are two names; a demonym states its country
    assert unstated("Her cousins include Prince Harry and Marina.") == ("Marina",)
    south = "The 1953 law was passed by the South African government."
    assert check("The law was passed in South Africa in 1953.", south, south, around=south).unstated_names == ()
    china = "Tea drinking spread from China to Japan."
    assert check("Tea drinking spread to the Japanese from the Chinese.", china, china, around=china).unstated_names == ()


def test_discourse_words_opening_a_sentence_are_not_names():
    assert entities("Specifically, the firm grew. Nevertheless it moved. Such growth is rare.") == []


def test_an_alias_the_claim_defines_in_parentheses_need_not_be_in_the_source():
    source = "Heart size is measured by the cardiothoracic ratio on a chest X-ray."
    result = check("Heart size is measured by the cardiothoracic ratio (CTR) on a chest X-ray.", source, source)
    assert result.missing_names == ()
    assert check("Heart size is measured by the Boston ratio on a chest X-ray.", source, source).missing_names == ("Boston",)


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        ("The audience grew by about 45,000.", "The audience grew from about 140,000 a year to about 185,000.",
         ("45,000 (from 140,000 and 185,000)",)),
        ("A full build took 73 seconds less.", "A full build took 94 seconds with 1.x and 21 seconds with 2.0.",
         ("73 seconds (from 94 seconds and 21 seconds)",)),
        ("The prize was founded 39 years before she won it.", "The prize was founded in 1988. She won it in 2027.",
         ("39 years (from 1988 and 2027)",)),
        # no pair gives it; and figures of two dimensions, or years for a count, are never subtracted
        ("The audience grew by about 60,000.", "The audience grew from about 140,000 a year to about 185,000.", ()),
        ("The lake is 39 metres deeper.", "The dam was built in 1988 and raised in 2027.", ()),
        ("The tower is 11 metres taller.", "The tower is 42 metres tall and weighs 31 tonnes.", ()),
        # a figure the claim does not word as a difference is a plain figure, and a wrong one
        ("The town's population was 45,000 in 2020.", "It grew from 140,000 in 2000 to 185,000 in 2020.", ()),
        ("The river is 20 km long.", "The river is 50 km long; its tributary is 30 km long.", ()),
        ("She was 39 years old when she won.", "The prize was founded in 1988. She won it in 2027.", ()),
        ("The new bridge is 3 times longer than the old one.", "The new bridge is 5 km long, the old one 2 km.", ()),
        # counts of two things are not subtracted, and a negated claim is left to the other checks
        ("The company has 30 more people than offices.", "It employs 50 people in 20 offices.", ()),
        ("The audience did not grow by 45,000.", "The audience grew from about 140,000 a year to about 185,000.", ()),
    ],
)
def test_a_claim_figure_is_named_worked_out_when_two_figures_of_the_passage_give_it(claim, passage, found):
    assert check(claim, passage, passage).worked_out == found
