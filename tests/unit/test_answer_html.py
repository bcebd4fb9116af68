"""HTML answers as the extension sends them, modelled on ChatGPT and Claude markup."""

from citemark.answer import parse_answer


def pairs(html: str, page_url: str | None = None) -> list[tuple[str, list[str | None]]]:
    parsed = parse_answer(html, "html", page_url=page_url)
    return [(claim.text, [c.url for c in claim.citations]) for claim in parsed.claims]


def test_chatgpt_pills_leave_the_claim_and_keep_their_reference():
    html = """<div class="markdown prose"><p>Honey never spoils when sealed.
    <span class="citation-pill" data-testid="webpage-citation-pill"><a href="https://food.example/honey?utm_source=chatgpt.com" data-citemark-ref="c1">food.example</a></span>
    It contains hydrogen peroxide. <a href="https://chem.example/h2o2" data-citemark-pill data-citemark-ref="c2">+1</a></p></div>"""
    parsed = parse_answer(html, "html")
    assert [(c.text, [x.ref for x in c.citations]) for c in parsed.claims] == [
        ("Honey never spoils when sealed.", ["c1"]),
        ("It contains hydrogen peroxide.", ["c2"]),
    ]


def test_link_text_that_says_something_stays_in_the_claim():
    assert pairs('<p>The <a href="https://who.example/report">WHO report</a> counts 5 cases.</p>') == [
        ("The WHO report counts 5 cases.", ["https://who.example/report"]),
    ]


def test_superscript_footnotes_resolve_to_the_source_list():
    html = """<p>Mars has two moons<sup><a href="#fn1">1</a></sup>. Its day lasts 24.6 hours<sup><a href="#fn2">2</a></sup>.</p>
    <ol class="footnotes"><li id="fn1"><a href="https://nasa.example/mars-moons">NASA</a></li>
    <li id="fn2"><a href="https://esa.example/mars-day">ESA</a></li></ol>"""
    claims = pairs(html)
    assert claims[:2] == [
        ("Mars has two moons.", ["https://nasa.example/mars-moons"]),
        ("Its day lasts 24.6 hours.", ["https://esa.example/mars-day"]),
    ]


def test_text_markers_resolve_through_a_sources_heading():
    html = """<p>Alpha is first [1]. Beta is second [2].</p><h3>Sources</h3>
    <ol><li><a href="https://a.example/1">A</a></li><li><a href="https://b.example/2">B</a></li></ol>"""
    assert pairs(html) == [("Alpha is first.", ["https://a.example/1"]), ("Beta is second.", ["https://b.example/2"])]


def test_code_scripts_and_our_own_badges_are_ignored():
    html = """<p>Use <code>list.sort()</code> to sort in place <a href="https://docs.example/sort" class="source">docs</a>.
    <span data-citemark-ui>✔ supported</span></p><pre><a href="https://evil.example/">[1]</a> code</pre>
    <script>var a = "<a href='https://x.example'>x</a>";</script>"""
    assert pairs(html) == [("Use list.sort() to sort in place.", ["https://docs.example/sort"])]


def test_relative_links_resolve_against_the_page_and_scripts_are_not_citations():
    html = '<p>See the guide <a href="/guide" class="citation">1</a>. Bad <a href="javascript:alert(1)">x</a>.</p>'
    assert pairs(html, page_url="https://site.example/chat/1") == [("See the guide.", ["https://site.example/guide"])]


def test_list_items_and_tables_are_separate_claims():
    html = """<ul><li>Cats sleep 15 hours <a class="citation" href="https://c.example/">c</a></li>
    <li>Dogs sleep 12 hours <a class="citation" href="https://d.example/">d</a></li></ul>"""
    assert pairs(html) == [("Cats sleep 15 hours", ["https://c.example/"]), ("Dogs sleep 12 hours", ["https://d.example/"])]


def test_hostile_nesting_depth_does_not_crash():
    html = "<div>" * 20000 + 'Deep claim <a class="citation" href="https://deep.example/">d</a>.' + "</div>" * 20000
    assert pairs(html) == [("Deep claim.", ["https://deep.example/"])]
