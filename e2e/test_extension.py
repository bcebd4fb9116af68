"""The extension with the real host, in Chromium and Firefox: badges, card, summary, streaming, context menu, popup, host loss."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest

from citemark import __version__
from citemark.install import EXTENSION_ID
from e2e.conftest import ARTIFACTS
from e2e.harness import BADGES, Browser, verdicts

CLASSIC = '[data-message-id="a1"]'


def test_chatgpt_answer_gets_a_badge_on_every_citation(browser: Browser):
    page = browser.page("https://chatgpt.com/c/danube")
    # two citations on the first sentence, then a contradicted figure, then a dead link
    assert verdicts(page, CLASSIC, count=4) == ["supported", "supported", "contradicted", "unreachable"]
    assert page.attribute(f"{CLASSIC} {BADGES}", "data-label") == "✔ supported"
    assert page.count(f"{CLASSIC} pre .citemark-badge") == 0
    chip = page.wait_for("(s) => document.querySelector(s)?.getAttribute('data-label')", f"{CLASSIC} [data-citemark-summary]")
    assert chip == "citemark: 2 of 4 citations supported, 1 contradicted, 1 unreachable"
    page.screenshot(ARTIFACTS / f"chatgpt-verified-{browser.name}.png", full_page=True)
    page.close()


def test_a_finished_answer_is_badged_while_another_keeps_streaming(browser: Browser):
    page = browser.page("https://chatgpt.com/c/streaming")
    page.evaluate("() => window.fixture.stream()")
    # the page never stops changing, yet the finished answer is badged (debounce with a maximum wait)
    assert verdicts(page, CLASSIC, count=4, timeout=30)[0] == "supported"
    assert page.count('[data-message-id="a2"] .citemark-badge') == 0
    page.evaluate("() => window.fixture.finish()")
    assert verdicts(page, '[data-message-id="a2"]') == ["supported"]
    page.close()


def test_hover_and_keyboard_open_the_evidence_card(browser: Browser):
    page = browser.page("https://chatgpt.com/c/card")
    verdicts(page, CLASSIC, count=4)
    badge = f"{CLASSIC} {BADGES}"
    page.hover(badge)
    page.wait_for_selector(".citemark-card")
    assert "2,850 kilometres" in page.text(".citemark-card .citemark-card-quote")
    assert page.count(".citemark-card .citemark-card-quote mark") >= 2
    card = page.text(".citemark-card")
    # the source's title and the site the chat page names, never the address twice
    assert "Rivers of Europe" in card and "rivers.example" in card
    assert "127.0.0.1 · 127.0.0.1" not in card
    assert re.search(r"#:~:text=", page.attribute(".citemark-card .citemark-card-link", "href"))
    page.screenshot(ARTIFACTS / f"chatgpt-card-{browser.name}.png")
    page.mouse_move(0, 0)
    page.wait_gone(".citemark-card")
    page.focus(badge)
    page.wait_for_selector(".citemark-card")
    page.press("Escape")
    page.wait_gone(".citemark-card")
    page.close()


def test_a_contradicted_card_marks_no_word_the_claim_and_source_share(browser: Browser):
    """The real host's contradicted verdict: the card never marks the words claim and passage agree on, and shows the
    whole passage (no inner scroll area). A host without ``differences`` marks nothing; one with it marks the figures."""
    page = browser.page("https://chatgpt.com/c/contradicted")
    verdicts(page, CLASSIC, count=4)
    page.hover(f"{CLASSIC} p[data-start='93'] {BADGES}")
    page.wait_for_selector(".citemark-card[data-citemark-card-verdict='contradicted']")
    card = page.evaluate("""() => {
        const card = document.querySelector('.citemark-card');
        const quote = card.querySelector('.citemark-card-quote');
        return {claim: card.querySelector('.citemark-card-claim').textContent, quote: quote.textContent,
                marks: [...card.querySelectorAll('mark')].map((m) => m.textContent),
                clipped: quote.scrollHeight > quote.clientHeight + 1 || getComputedStyle(quote).overflowY !== 'visible'};
    }""")
    words = lambda text: set(re.findall(r"[\w,]+", text.lower()))  # noqa: E731
    shared = words(card["claim"]) & words(card["quote"])
    assert shared  # the passage and the claim do share words: none is marked but as part of a difference
    assert card["marks"] == ["3,400 kilometres", "2,850 kilometres"], card  # the figures, each with its unit
    assert all(words(mark) - shared for mark in card["marks"]), card
    assert not card["clipped"]
    page.close()


DIFFERENCES = {
    "verdict": "contradicted", "reason": "figure_mismatch", "explanation": "The source gives 1953, not 1963.",
    "claim": "Edmund Hillary and Tenzing Norgay reached the summit of Everest on 29 May 1963.",
    "citation": {"url": "https://everest.example/1953", "ref": "x"}, "source_title": "Everest – the first ascent",
    "evidence": {"quote": "Edmund Hillary and Tenzing Norgay reached the summit on 29 May 1953. " + "The expedition, led by John Hunt, "
                 "had set up nine camps on the mountain, the last of them at 8,500 metres, and a support team of "
                 "Sherpas carried the oxygen and tents up the Lhotse face over the weeks before. " * 3,
                 "link": "https://everest.example/1953#:~:text=1953"},
    "differences": [{"claim_text": "1963", "claim_start": 75, "claim_end": 79, "passage_text": "1953", "passage_start": 63,
                     "passage_end": 67}],
}


def test_partial_and_contradicted_cards_mark_the_verdicts_differences(browser: Browser):
    """The card renderer fed the host's ``differences`` (the host side lands separately): the claim's differing figure and
    the passage's are marked, never the shared names and date; without the field nothing is marked; the long passage is whole."""
    page = browser.extension_page("popup.html")
    page.evaluate("""() => new Promise((done) => {
        const css = Object.assign(document.createElement('link'), {rel: 'stylesheet', href: 'content/badges.css'});
        const script = Object.assign(document.createElement('script'), {src: 'content/badges.js', onload: done});
        document.head.append(css, script);
    })""")
    card = """([verdict]) => {
        document.querySelector('.citemark-card')?.remove();
        const p = document.createElement('p');
        p.textContent = verdict.claim;
        document.body.append(p);
        const badge = citemarkBadges.pendingBadge('x');
        p.append(badge);
        citemarkBadges.render(badge, {sources: [{url: verdict.citation.url, state: 'done', verdict}], deferred: 0});
        badge.focus();
        const card = document.querySelector('.citemark-card');
        const quote = card.querySelector('.citemark-card-quote');
        const marks = (node) => [...node.querySelectorAll('mark')].map((m) => m.textContent);
        return {claim: marks(card.querySelector('.citemark-card-claim')), quote: marks(quote),
                clipped: quote.scrollHeight > quote.clientHeight + 1};
    }"""
    for verdict in ("contradicted", "partial"):
        shown = page.evaluate(card, [{**DIFFERENCES, "verdict": verdict}])
        assert shown == {"claim": ["1963"], "quote": ["1953"], "clipped": False}, verdict
    older_host = {key: value for key, value in DIFFERENCES.items() if key != "differences"}
    assert page.evaluate(card, [older_host]) == {"claim": [], "quote": [], "clipped": False}
    page.close()


def test_badges_stay_out_of_copied_text(browser: Browser):
    page = browser.page("https://chatgpt.com/c/copy")
    verdicts(page, CLASSIC, count=4)
    copied = page.evaluate("""() => {
        const answer = document.querySelector('[data-message-id="a1"] .markdown');
        const range = document.createRange();
        range.selectNodeContents(answer);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        return selection.toString();
    }""")
    assert "2,850 kilometres" in copied
    assert not re.search(r"supported|contradicted|unreachable|checking|citemark", copied)
    page.close()


def test_claude_answer_gets_badges_with_footnotes_resolved(browser: Browser):
    page = browser.page("https://claude.ai/chat/danube")
    first = '[data-test-render-count="1"] [data-is-streaming]'
    found = verdicts(page, first, count=4)
    assert found[0] == "supported"  # inline link with meaningful text
    assert found[1] == "supported"  # footnote 1 -> Black Sea
    assert found[2] not in ("supported", None)  # footnote 2 -> the Baltic claim
    assert found[-1] == "unreachable"  # HTTP 410
    page.hover(".chip .citemark-badge")  # the domain chip: the card names it as the page does
    page.wait_for_selector(".citemark-card")
    assert "unesco.example" in page.text(".citemark-card .citemark-card-source")
    page.mouse_move(0, 0)
    page.screenshot(ARTIFACTS / f"claude-verified-{browser.name}.png", full_page=True)
    page.close()


def test_claude_streaming_ends_with_a_class_swap(browser: Browser):
    page = browser.page("https://claude.ai/chat/streaming")
    verdicts(page, '[data-test-render-count="1"] [data-is-streaming]', count=4)
    assert page.count("#streaming-turn .citemark-badge") == 0
    page.evaluate("() => window.fixture.finish()")  # progressive-markdown -> standard-markdown, data-is-streaming=false
    assert verdicts(page, "#streaming-turn") == ["supported"]
    page.close()


def test_context_menu_verifies_a_selected_sentence(browser: Browser):
    """Context menus are browser UI: the item's existence is checked, then its click handler runs.

    On a site outside the content-script matches the real click grants activeTab and the
    handler injects the script; a test cannot make that gesture, so the page is one where
    the script is already present (a plain article, no chat answer on it)."""
    assert browser.background("(bg) => Promise.resolve(bg.chrome.contextMenus.update('citemark-verify', {})).then(() => true)")
    page = browser.page("https://claude.ai/notes/rivers")
    page.evaluate("""() => {
        const paragraph = document.getElementById('claim');
        const range = document.createRange();
        range.setStart(paragraph.firstChild, 0);
        range.setEnd(paragraph.firstChild, 'The Danube empties into the Black Sea'.length);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
    }""")
    browser.background("""async (bg) => {
        const [tab] = await bg.chrome.tabs.query({url: 'https://claude.ai/notes/*'});
        await bg.citemark.verifySelection({menuItemId: 'citemark-verify', selectionText: 'The Danube empties into the Black Sea'}, tab);
    }""")
    selection = ".citemark-badge[data-citemark-selection][data-citemark-verdict]"
    page.wait_for_selector(selection)
    assert page.attribute(selection, "data-citemark-verdict") == "supported"
    page.close()


def test_popup_shows_the_host_and_model_and_one_option_per_row(browser: Browser):
    chat = browser.page("https://chatgpt.com/c/popup")
    page = browser.extension_page(f"popup.html?tab={browser.tab_id('https://chatgpt.com/c/popup')}")
    page.wait_for_selector("#host-state[data-state='ok']", timeout=30)
    assert "Local helper" in page.text("#host-state")
    assert page.text("#host-model").startswith("Model:")
    page.wait_for("() => document.getElementById('site-name').textContent === 'chatgpt.com'")
    rows = page.evaluate("""() => [...document.querySelectorAll('.options label')].map((label) => {
        const box = label.getBoundingClientRect();
        return {text: label.innerText.trim(), top: box.top, bottom: box.bottom, height: box.height,
                line: parseFloat(getComputedStyle(label).lineHeight) || 20};
    })""")
    assert [row["text"].split("\n")[0] for row in rows][:2] == ["Check citations on chatgpt.com", "List sentences without a citation"]
    for above, below in zip(rows, rows[1:], strict=False):
        assert below["top"] >= above["bottom"] - 0.5, rows  # a row of its own
    assert all(row["height"] < 1.9 * row["line"] for row in rows), rows  # never wrapped mid-label
    page.close()
    chat.close()


def test_the_judging_policy_is_chosen_in_the_popup_and_sent_with_each_request(browser: Browser):
    popup = browser.extension_page("popup.html")
    popup.wait_for("() => document.getElementById('policy').value === 'strict'")
    popup.evaluate("() => { const s = document.getElementById('policy'); s.value = 'balanced'; s.dispatchEvent(new Event('change')); }")
    popup.wait_for("() => new Promise((done) => (globalThis.browser ?? chrome).storage.sync.get({ policy: 'strict' },"
                   " (got) => done(got.policy === 'balanced')))")
    try:
        page = browser.page("https://chatgpt.com/c/policy")
        verdicts(page, CLASSIC, count=4)
        assert browser.status()["lastPolicy"] == "balanced"
        # an open page follows the popup: "strict" again, and the re-verified page asks with it
        popup.evaluate("() => { const s = document.getElementById('policy'); s.value = 'strict'; s.dispatchEvent(new Event('change')); }")
        popup.wait_for("() => new Promise((done) => (globalThis.browser ?? chrome).storage.sync.get({ policy: 'balanced' },"
                       " (got) => done(got.policy === 'strict')))")
        browser.background("""async (bg) => {
            const [tab] = await bg.chrome.tabs.query({url: 'https://chatgpt.com/c/policy'});
            await bg.chrome.tabs.sendMessage(tab.id, {type: 'reverify'});
        }""")  # the popup's "Re-verify this page" (the popup here is a tab of its own)
        browser.background("""(bg) => new Promise((resolve, reject) => {
            const started = Date.now();
            const check = () => bg.citemark.status().lastPolicy === 'strict' ? resolve(true)
                : Date.now() - started > 10000 ? reject(new Error('no strict request')) : setTimeout(check, 100);
            check();
        })""")
        page.close()
    finally:
        popup.evaluate("() => { const s = document.getElementById('policy'); s.value = 'strict'; s.dispatchEvent(new Event('change')); }")
        popup.wait_for("() => new Promise((done) => (globalThis.browser ?? chrome).storage.sync.get({ policy: 'balanced' },"
                       " (got) => done(got.policy === 'strict')))")
        popup.close()


def test_missing_host_says_so_once_with_the_install_command(hostless: Browser):
    page = hostless.page("https://chatgpt.com/c/nohost")
    notice = "[data-citemark-notice='host-missing']"
    page.wait_for_selector(notice, timeout=30)
    text = page.text(notice)
    assert "not installed for this browser" in text
    assert "Fix: ./installer/install.sh, then citemark doctor" in text and "README → Install" in text
    assert "pip install" not in text  # citemark is not on the package index
    page.sleep(1.5)
    assert page.count("[data-citemark-notice]") == 1
    assert page.count(".citemark-badge[data-citemark-pending]") == 0
    # the first-run notice stays clear of the site's composer
    overlap = page.evaluate("""([notice]) => {
        const a = document.querySelector(notice).getBoundingClientRect();
        const b = document.getElementById('prompt-textarea').getBoundingClientRect();
        return !(a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left);
    }""", [notice])
    assert not overlap
    page.screenshot(ARTIFACTS / f"host-missing-{hostless.name}.png")
    popup = hostless.extension_page("popup.html")
    popup.wait_for_selector("#host-state[data-state='missing']", timeout=30)
    assert popup.text("#host-state") == "The local helper is not installed for this browser."
    assert popup.text("#host-command").split("\n") == ["./installer/install.sh", "citemark doctor"]
    assert "--user-data-dir DIR" in popup.text("#host-detail") and "README → Install" in popup.text("#host-detail")
    assert popup.text("#host-reason").startswith("The browser said: ")
    popup.close()
    # the page's counts under "not installed" are no green light: nothing on it was checked
    popup = hostless.extension_page(f"popup.html?tab={hostless.tab_id('https://chatgpt.com/c/nohost')}")
    popup.wait_for("() => !['checking', undefined].includes(document.getElementById('page-state').dataset.state)", timeout=30)
    assert popup.attribute("#page-state", "data-state") == "unchecked"
    assert re.fullmatch(r"On this page: 2 answers, 5 citations — not checked: the local helper is not running\.", popup.text("#page-state"))


def test_a_host_registered_for_another_extension_id_says_how_to_allow_this_one(wrong_id: Browser):
    popup = wrong_id.extension_page("popup.html")
    popup.wait_for("() => !['checking', undefined].includes(document.getElementById('host-state').dataset.state)", timeout=30)
    state, title, commands = popup.attribute("#host-state", "data-state"), popup.text("#host-state"), popup.text("#host-command")
    popup.close()
    page = wrong_id.page("https://chatgpt.com/c/wrongid")
    notice = "[data-citemark-notice='host-missing']"
    page.wait_for_selector(notice, timeout=30)
    text = page.text(notice)
    if wrong_id.name == "chromium":  # "Access to the specified native messaging host is forbidden."
        assert state == "forbidden"
        assert title == f"The local helper is installed, but it does not allow this extension (id {EXTENSION_ID})."
        assert commands.split("\n") == [f"citemark install --extension-id {EXTENSION_ID}", "citemark doctor"]
        assert page.attribute(notice, "data-citemark-host-state") == "forbidden"
        assert "does not allow this extension" in text and f"citemark install --extension-id {EXTENSION_ID}" in text
    else:  # Firefox reports an add-on id the manifest does not allow as "No such native application"
        assert state == "missing" and commands.split("\n") == ["./installer/install.sh", "citemark doctor"]
        assert "citemark doctor" in text
    assert page.count(".citemark-badge[data-citemark-pending]") == 0
    page.close()


def test_a_host_of_another_release_is_named_with_both_versions(other_version: Browser):
    popup = other_version.extension_page("popup.html")
    popup.wait_for_selector("#host-state[data-state='version']", timeout=30)
    assert popup.text("#host-state") == f"The local helper is citemark 0.0.1, this extension is {__version__}."
    assert popup.text("#host-command").split("\n") == ["./installer/install.sh", "citemark doctor"]
    assert "same release" in popup.text("#host-detail")
    popup.close()


def test_navigating_away_cancels_the_tab_requests(browser: Browser):
    page = browser.page("https://chatgpt.com/slow/c/1")
    page.wait_for_selector(".citemark-badge[data-citemark-pending]", timeout=30)
    assert browser.status()["inFlight"] >= 1
    page.goto("https://chatgpt.com/c/elsewhere")
    browser.background("""(bg) => new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => bg.citemark.status().inFlight === 0 ? resolve(true)
            : Date.now() - started > 5000 ? reject(new Error('requests still in flight')) : setTimeout(check, 100);
        check();
    })""")
    page.close()


def test_a_restarted_host_serves_the_next_request(browser: Browser):
    page = browser.page("https://chatgpt.com/c/restart")
    verdicts(page, CLASSIC, count=4)
    pids = browser.host_pids()
    assert pids, "the native host should have been started through this profile's launcher"
    try:
        os.kill(pids[-1], signal.SIGTERM)
    except ProcessLookupError:
        pytest.fail("the native host this browser started is not running")
    # The extension notices: it records the host's exit (or, in Firefox, where the helper page that runs
    # these checks asks the host for its version, it has already started the next one).
    deadline = time.monotonic() + 20
    while not (browser.status()["hostError"] or len(browser.host_pids()) > len(pids)):
        assert time.monotonic() < deadline, "the extension did not notice that the host exited"
        time.sleep(0.2)
    page.evaluate("() => document.querySelectorAll('.citemark-badge').forEach((b) => b.setAttribute('data-test-old', ''))")
    browser.background("""async (bg) => {
        const [tab] = await bg.chrome.tabs.query({url: 'https://chatgpt.com/c/restart'});
        await bg.chrome.tabs.sendMessage(tab.id, {type: 'reverify'});
    }""")
    page.wait_gone(".citemark-badge[data-test-old]")
    assert verdicts(page, CLASSIC, count=4) == ["supported", "supported", "contradicted", "unreachable"]
    assert len(browser.host_pids()) > len(pids), "a new host process served the request"
    page.close()


def test_listing_uncited_sentences_is_opt_in_from_the_popup(browser: Browser):
    popup = browser.extension_page("popup.html")
    popup.wait_for_selector("#list-uncited")
    assert popup.evaluate("() => document.getElementById('list-uncited').checked") is False
    popup.click("#list-uncited")
    popup.wait_for("() => new Promise((done) => (globalThis.browser ?? chrome).storage.sync.get({ listUncited: false },"
                   " (got) => done(got.listUncited === true)))")
    try:
        page = browser.page("https://chatgpt.com/c/danube")
        chip = page.wait_for("(s) => { const label = document.querySelector(s)?.getAttribute('data-label');"
                             " return label && label.includes(';') ? label : null; }", f"{CLASSIC} [data-citemark-summary]")
        assert chip.startswith("citemark: 2 of 4 citations supported, 1 contradicted, 1 unreachable; ")
        assert re.search(r"; (?:\d+ factual sentences? without a citation|every factual sentence cites a source)$", chip)
        page.close()
    finally:
        popup.click("#list-uncited")
        popup.wait_for("() => new Promise((done) => (globalThis.browser ?? chrome).storage.sync.get({ listUncited: true },"
                       " (got) => done(got.listUncited === false)))")
        popup.close()
