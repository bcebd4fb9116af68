"""The extension in Chromium with the real host: badges, hover card, summary, streaming, context menu, popup."""

from __future__ import annotations

import os
import re
import signal
import subprocess

import pytest

from citemark.install import EXTENSION_ID
from e2e.conftest import ARTIFACTS, Browser

BADGES = ".citemark-badge[data-citemark-for]"


def verdicts(page, timeout: float = 60_000) -> list[str]:
    """Wait until no badge is pending, then the verdict of every badge in page order."""
    page.wait_for_selector(BADGES, timeout=timeout)
    page.wait_for_function("() => !document.querySelector('.citemark-badge[data-citemark-pending]')", timeout=timeout)
    return page.eval_on_selector_all(BADGES, "els => els.map(e => e.dataset.citemarkVerdict)")


def test_chatgpt_answer_gets_a_badge_on_every_citation(browser: Browser):
    page = browser.page("https://chatgpt.com/c/danube")
    answer = page.locator('[data-message-id="a1"]')
    answer.locator(BADGES).nth(3).wait_for(timeout=60_000)
    # two citations on the first sentence, then a contradicted figure, then a dead link
    assert verdicts(page)[:4] == ["supported", "supported", "contradicted", "unreachable"]
    badge = answer.locator(BADGES).first
    assert badge.get_attribute("data-label") == "✔ supported"
    assert answer.locator("pre .citemark-badge").count() == 0
    chip = answer.locator("[data-citemark-summary]")
    assert chip.get_attribute("data-label") == "citemark: 2 of 4 citations supported, 1 contradicted, 1 unreachable"
    page.screenshot(path=str(ARTIFACTS / "chatgpt-verified.png"), full_page=True)


def test_streaming_answers_wait_until_they_finish(browser: Browser):
    page = browser.page("https://chatgpt.com/c/streaming")
    streaming = page.locator('[data-message-id="a2"]')
    page.locator('[data-message-id="a1"] ' + BADGES).first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)
    assert streaming.locator(".citemark-badge").count() == 0
    page.evaluate("""() => {
        document.getElementById('streaming-answer').classList.remove('result-streaming');
        document.getElementById('stop').remove();
    }""")
    streaming.locator(BADGES + "[data-citemark-verdict]").first.wait_for(timeout=60_000)
    assert streaming.locator(BADGES).first.get_attribute("data-citemark-verdict") == "supported"


def test_hover_and_keyboard_open_the_evidence_card(browser: Browser):
    page = browser.page("https://chatgpt.com/c/card")
    verdicts(page)
    badge = page.locator('[data-message-id="a1"] ' + BADGES).first
    badge.hover()
    card = page.locator(".citemark-card")
    card.wait_for()
    assert "2,850 kilometres" in card.locator(".citemark-card-quote").inner_text()
    assert card.locator(".citemark-card-quote mark").count() >= 2
    assert "Rivers of Europe" in card.inner_text() and "127.0.0.1" in card.inner_text()
    link = card.locator(".citemark-card-link").get_attribute("href")
    assert re.search(r"#:~:text=", link)
    page.screenshot(path=str(ARTIFACTS / "chatgpt-card.png"))
    page.mouse.move(0, 0)
    card.wait_for(state="detached")
    badge.focus()
    card.wait_for()
    page.keyboard.press("Escape")
    card.wait_for(state="detached")


def test_badges_stay_out_of_copied_text(browser: Browser):
    page = browser.page("https://chatgpt.com/c/copy")
    verdicts(page)
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


def test_claude_answer_gets_badges_with_footnotes_resolved(browser: Browser):
    page = browser.page("https://claude.ai/chat/danube")
    found = verdicts(page)
    assert found[0] == "supported"  # inline link with meaningful text
    assert found[1] == "supported"  # footnote 1 -> Black Sea
    assert found[2] not in ("supported", None)  # footnote 2 -> the Baltic claim
    assert found[-1] == "unreachable"  # HTTP 410
    page.screenshot(path=str(ARTIFACTS / "claude-verified.png"), full_page=True)


def test_context_menu_verifies_a_selected_sentence(browser: Browser):
    """Context menus are browser UI: the item's existence is checked, then its click handler runs.

    On a site outside the content-script matches the real click grants activeTab and the
    handler injects the script; a test cannot make that gesture, so the page is one where
    the script is already present (a plain article, no chat answer on it)."""
    worker = browser.worker
    assert worker.evaluate("() => chrome.contextMenus.update('citemark-verify', {}).then(() => true)")
    page = browser.page("https://claude.ai/notes/rivers")
    page.evaluate("""() => {
        const paragraph = document.getElementById('claim');
        const range = document.createRange();
        range.setStart(paragraph.firstChild, 0);
        range.setEnd(paragraph.firstChild, 'The Danube empties into the Black Sea'.length);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
    }""")
    worker.evaluate("""async () => {
        const [tab] = await chrome.tabs.query({url: 'https://claude.ai/notes/*'});
        await citemark.verifySelection({menuItemId: 'citemark-verify', selectionText: 'The Danube empties into the Black Sea'}, tab);
    }""")
    badge = page.locator(".citemark-badge[data-citemark-selection][data-citemark-verdict]")
    badge.wait_for(timeout=60_000)
    assert badge.get_attribute("data-citemark-verdict") == "supported"


def test_popup_shows_the_host_and_model(browser: Browser):
    page = browser.page(f"chrome-extension://{EXTENSION_ID}/popup.html")
    state = page.locator("#host-state[data-state='ok']")
    state.wait_for(timeout=30_000)
    assert "Local helper" in state.inner_text()
    assert page.locator("#host-model").inner_text().startswith("Model:")


@pytest.fixture
def hostless(playwright_instance, sources, tmp_path):
    running = Browser(playwright_instance, tmp_path / "profile", sources, with_host=False)
    yield running
    running.close()


def test_missing_host_says_so_once_with_the_install_command(hostless: Browser):
    page = hostless.page("https://chatgpt.com/c/nohost")
    notice = page.locator("[data-citemark-notice='host-missing']")
    notice.wait_for(timeout=30_000)
    assert "pip install citemark && citemark install" in notice.inner_text()
    page.wait_for_timeout(1500)
    assert page.locator("[data-citemark-notice]").count() == 1
    assert page.locator(".citemark-badge[data-citemark-pending]").count() == 0
    popup = hostless.page(f"chrome-extension://{EXTENSION_ID}/popup.html")
    popup.locator("#host-state[data-state='missing']").wait_for(timeout=30_000)
    assert "citemark install" in popup.locator("#host-command").inner_text()


def test_navigating_away_cancels_the_tab_requests(browser: Browser):
    page = browser.page("https://chatgpt.com/slow/c/1")
    page.locator(".citemark-badge[data-citemark-pending]").first.wait_for(timeout=30_000)
    assert browser.worker.evaluate("() => citemark.status().inFlight") >= 1
    page.goto("https://chatgpt.com/c/elsewhere")
    page.wait_for_function("() => true")
    browser.worker.evaluate("""() => new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => citemark.status().inFlight === 0 ? resolve(true)
            : Date.now() - started > 5000 ? reject(new Error('requests still in flight')) : setTimeout(check, 100);
        check();
    })""")
    page.close()


def test_a_restarted_host_serves_the_next_request(browser: Browser):
    page = browser.page("https://chatgpt.com/c/restart")
    verdicts(page)
    host = subprocess.run(["pgrep", "-f", "citemark.*chrome-extension://"], capture_output=True, text=True).stdout.split()
    assert host, "the native host process should be running"
    for pid in host:
        os.kill(int(pid), signal.SIGTERM)
    browser.worker.evaluate("""() => new Promise((resolve) => {
        const check = () => citemark.status().hostError ? resolve(true) : setTimeout(check, 100);
        check();
    })""")
    browser.worker.evaluate("""async () => {
        const [tab] = await chrome.tabs.query({url: 'https://chatgpt.com/c/restart'});
        await chrome.tabs.sendMessage(tab.id, {type: 'reverify'});
    }""")
    assert verdicts(page)[:4] == ["supported", "supported", "contradicted", "unreachable"]
