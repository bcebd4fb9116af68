from citemark.scoring.segment import sentences, windows


def texts(text: str) -> list[str]:
    return [text[s.start : s.end] for s in sentences(text)]


def test_splits_on_terminal_punctuation_and_keeps_offsets():
    text = "The tower opened in 1889. It is 330 m tall! Is it iron? Yes."
    assert texts(text) == ["The tower opened in 1889.", "It is 330 m tall!", "Is it iron?", "Yes."]
    for span in sentences(text):
        assert text[span.start : span.end].strip() == text[span.start : span.end]


def test_abbreviations_initials_and_decimals_do_not_split():
    text = "Dr. J. R. Smith of the U.S. Navy measured 3.5 km, e.g. near Mt. Fuji. Then he left."
    assert texts(text) == ["Dr. J. R. Smith of the U.S. Navy measured 3.5 km, e.g. near Mt. Fuji.", "Then he left."]


def test_line_breaks_always_end_a_sentence():
    assert texts("# Heading\nFirst line without stop\n\n- item two") == ["# Heading", "First line without stop", "- item two"]


def test_quotes_and_brackets_after_the_stop_stay_with_the_sentence():
    assert texts('He said "it works." Then (he left.) Next one.') == ['He said "it works."', "Then (he left.)", "Next one."]


def test_lowercase_continuation_is_not_a_new_sentence():
    assert texts("Values rose approx. ten percent in 2020. Good.") == ["Values rose approx. ten percent in 2020.", "Good."]


def test_overlong_runs_are_cut_at_spaces():
    text = " ".join(["word"] * 400)
    spans = sentences(text)
    assert len(spans) > 1
    assert all(s.end - s.start <= 600 for s in spans)
    assert "".join(text[s.start : s.end] for s in spans).replace(" ", "") == text.replace(" ", "")


def test_empty_and_punctuation_only_text_gives_no_sentences():
    assert sentences("") == []
    assert sentences(" \n -- \n ... ") == []


def test_windows_cover_one_to_three_consecutive_sentences():
    spans = sentences("A one. B two. C three. D four.")
    found = {(w.first, w.last) for w in windows(spans)}
    assert found == {(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3)}


def test_windows_respect_the_character_budget():
    text = "Short one. " + "x" * 500 + ". " + "y" * 500 + "."
    spans = sentences(text)
    assert (0, 2) not in {(w.first, w.last) for w in windows(spans, max_chars=900)}
