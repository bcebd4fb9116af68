from citemark.scoring.lexical import content_terms, coverage, stem, terms
from citemark.scoring.retrieve import EvidenceIndex


def test_terms_fold_case_accents_and_keep_numbers_whole():
    assert terms("Café RÉSUMÉ costs 1,200.50 €") == ["cafe", "resume", "costs", "1200.50"]


def test_stemming_matches_common_inflections():
    assert stem("studies") == stem("study")
    assert stem("played") == stem("plays") == "play"
    assert stem("glass") == "glass"


def test_content_terms_drop_stop_words():
    assert content_terms("The tower is in the city of Paris") == ["tower", "city", "paris"]


def test_coverage_counts_distinct_terms_and_weights_rare_ones():
    claim = content_terms("rare zebra eats grass")
    result = coverage(claim, content_terms("the zebra eats"), idf={"zebra": 5.0, "eat": 1.0, "grass": 1.0, "rare": 1.0})
    assert result.terms == 0.5
    assert result.weighted == 6.0 / 8.0
    assert set(result.missing) == {"rare", "grass"}


def test_search_prefers_the_window_with_all_the_claim_words():
    page = "\n".join([
        "The museum opened in 1902.",
        "Its library holds 260,000 volumes.",
        "The museum shop sells books.",
        "Admission is free on Sundays.",
    ])
    hits = EvidenceIndex(page).search("The library holds 260,000 volumes.", k=2)
    assert "260,000 volumes" in hits[0].text
    assert hits[0].coverage.terms == 1.0
    # the best single sentence of a wide window is returned too, for a precise quote
    assert any(h.text == "Its library holds 260,000 volumes." for h in hits)


def test_search_finds_evidence_split_over_two_sentences():
    page = "Marie Curie was born in Warsaw.\nShe later moved to Paris.\nCats are animals."
    hits = EvidenceIndex(page).search("Marie Curie, born in Warsaw, moved to Paris.", k=1)
    assert "Warsaw" in hits[0].text and "Paris" in hits[0].text


def test_search_on_an_empty_source_or_claim_returns_nothing():
    assert EvidenceIndex("").search("anything") == []
    assert EvidenceIndex("Some text here.").search("the of and") == []


def test_offsets_point_into_the_source_text():
    page = "Alpha beta.\nGamma delta epsilon.\nZeta."
    for hit in EvidenceIndex(page).search("gamma delta", k=3):
        assert page[hit.window.start : hit.window.end] == hit.text
