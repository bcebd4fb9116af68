import pytest

from citemark.answer import parse_answer
from citemark.errors import AnswerFormatError


def test_list_of_claims_with_urls_text_and_paths():
    parsed = parse_answer(
        '[{"claim": "A.", "url": "https://a.example"}, {"claim": "B.", "source_text": "B is true."},'
        ' {"claim": "C.", "source": "plain text source"}, {"claim": "D.", "source": "doi:10.1000/xyz"},'
        ' {"claim": "E.", "path": "notes.txt"}]',
        "json",
    )
    citations = [c.citations[0] for c in parsed.claims]
    assert citations[0].url == "https://a.example"
    assert citations[1].text == "B is true."
    assert citations[2].text == "plain text source"
    assert citations[3].url == "https://doi.org/10.1000/xyz"  # sources.classify reads every source string
    assert citations[4].path == "notes.txt"


def test_wrapped_and_single_objects():
    assert len(parse_answer('{"claims": [{"claim": "A.", "url": "https://a.example"}]}', "json").claims) == 1
    assert len(parse_answer('{"claim": "A.", "source_text": "A."}', "json").claims) == 1


@pytest.mark.parametrize(
    "content",
    ['{"claim": ""}', '[{"url": "https://a.example"}]', '[{"claim": "A."}]', "[1, 2]", "not json", '{"claim": "A.", "url": 5}'],
)
def test_malformed_items_are_clear_errors(content):
    with pytest.raises(AnswerFormatError):
        parse_answer(content, "json")
