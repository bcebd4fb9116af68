"""Answer shapes seen in the wild: Perplexity-style markers, ChatGPT and Claude copy-as-Markdown, hand-written."""

from citemark.answer import detect_format, parse_answer


def pairs(markdown: str) -> list[tuple[str, list[str | None]]]:
    parsed = parse_answer(markdown, "markdown")
    return [(claim.text, [c.url for c in claim.citations]) for claim in parsed.claims]


def test_numeric_markers_resolve_through_a_numbered_sources_list():
    answer = """Coffee may lower the risk of type 2 diabetes [1]. Moderate intake is safe for most adults [2, 3].

Sources:
1. Harvard study – https://example.org/coffee-diabetes
2. [FDA guidance](https://example.gov/caffeine)
3. https://example.com/review
"""
    assert pairs(answer) == [
        ("Coffee may lower the risk of type 2 diabetes.", ["https://example.org/coffee-diabetes"]),
        ("Moderate intake is safe for most adults.", ["https://example.gov/caffeine", "https://example.com/review"]),
    ]


def test_adjacent_markers_ranges_and_markers_after_the_full_stop():
    answer = """First claim here.[1][3] Second claim spans sources [1-3]. Third claim. [2]

## References
[1]: https://a.example/one "One"
[2]: https://b.example/two
[3]: <https://c.example/three>
"""
    assert pairs(answer) == [
        ("First claim here.", ["https://a.example/one", "https://c.example/three"]),
        ("Second claim spans sources.", ["https://a.example/one", "https://b.example/two", "https://c.example/three"]),
        ("Third claim.", ["https://b.example/two"]),
    ]


def test_reference_style_definition_titles_are_kept():
    parsed = parse_answer('Water boils at 100 °C at sea level [1].\n\n[1]: https://w.example/boil "Boiling point"')
    assert parsed.claims[0].citations[0].title == "Boiling point"
    assert parsed.claims[0].citations[0].marker == "1"


def test_a_marker_with_no_source_is_reported_not_dropped():
    parsed = parse_answer("Known claim [1]. Orphan claim [7].\n\nSources\n1. https://a.example/x\n")
    assert [c.text for c in parsed.claims] == ["Known claim."]
    assert [(u.marker, u.claim) for u in parsed.unresolved] == [("7", "Orphan claim.")]


def test_chatgpt_copy_with_source_pills_in_parentheses():
    answer = (
        "The James Webb Space Telescope launched on 25 December 2021. "
        "([NASA](https://www.nasa.gov/webb/?utm_source=chatgpt.com))\n\n"
        "- It orbits the Sun near the L2 point, about 1.5 million km from Earth. "
        "([Wikipedia](https://en.wikipedia.org/wiki/James_Webb_Space_Telescope?utm_source=chatgpt.com), "
        "[ESA](https://www.esa.int/Webb?utm_source=chatgpt.com))\n"
    )
    assert pairs(answer) == [
        ("The James Webb Space Telescope launched on 25 December 2021.", ["https://www.nasa.gov/webb/?utm_source=chatgpt.com"]),
        ("It orbits the Sun near the L2 point, about 1.5 million km from Earth.", [
            "https://en.wikipedia.org/wiki/James_Webb_Space_Telescope?utm_source=chatgpt.com",
            "https://www.esa.int/Webb?utm_source=chatgpt.com",
        ]),
    ]


def test_claude_copy_with_inline_links_and_footnotes():
    answer = """**Rust** guarantees memory safety without a garbage collector, as the [official book](https://doc.rust-lang.org/book/) explains.

The borrow checker enforces these rules at compile time.[^1]

[^1]: See https://doc.rust-lang.org/nomicon/ for details.
"""
    assert pairs(answer) == [
        ("Rust guarantees memory safety without a garbage collector, as the official book explains.", ["https://doc.rust-lang.org/book/"]),
        ("The borrow checker enforces these rules at compile time.", ["https://doc.rust-lang.org/nomicon/"]),
    ]


def test_domain_labels_are_pills_and_leave_the_claim():
    assert pairs("Paris is the capital of France [example.com](https://example.com/paris).") == [
        ("Paris is the capital of France.", ["https://example.com/paris"]),
    ]


def test_bare_urls_and_angle_urls_are_citations_and_leave_the_claim():
    assert pairs("The report is online at https://r.example/report.pdf. Also <https://s.example/a>.") == [
        ("The report is online at.", ["https://r.example/report.pdf"]),
        ("Also.", ["https://s.example/a"]),
    ]


def test_code_blocks_tables_and_lists_are_handled():
    answer = """Python lists are dynamic arrays [1].

```python
items = [1]  # [2] here is code, not a citation
```

| Language | Typing |
|---|---|
| Python | dynamic [1] |

1. Tuples are immutable [2].
2. Sets are unordered [2].

Sources
[1] https://docs.python.example/lists
[2] https://docs.python.example/tuples
"""
    parsed = parse_answer(answer)
    texts = [c.text for c in parsed.claims]
    assert texts == ["Python lists are dynamic arrays.", "Python; dynamic", "Tuples are immutable.", "Sets are unordered."]
    assert not parsed.unresolved


def test_one_source_cited_twice_in_a_sentence_counts_once():
    assert pairs("Claim with repeats [1][1].\n\nSources\n1. https://a.example/x") == [
        ("Claim with repeats.", ["https://a.example/x"]),
    ]


def test_old_chatgpt_markers():
    assert pairs("Tea contains caffeine【1†source】.\n\nSources\n1. https://tea.example/") == [
        ("Tea contains caffeine.", ["https://tea.example/"]),
    ]


def test_sentences_without_citations_are_not_claims():
    assert pairs("Intro without sources. Cited claim [1].\n\nReferences\n1. https://a.example/") == [
        ("Cited claim.", ["https://a.example/"]),
    ]


def test_format_detection():
    assert detect_format('[{"claim": "x", "url": "https://a.example"}]') == "json"
    assert detect_format("<div><p>Hello <a href='https://a.example'>x</a></p></div>") == "html"
    assert detect_format("[1] is a marker, not JSON") == "markdown"
    assert detect_format("# Title\n\ntext") == "markdown"
