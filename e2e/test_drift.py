"""Layout drift is visible, never silent: the self-check, the popup's page line, the toolbar badge, the fallback."""

from __future__ import annotations

from e2e.harness import BADGES, Browser, self_check, verdicts


def toolbar(browser: Browser, url_prefix: str) -> tuple[str, str]:
    """The toolbar badge text and title of the tab at ``url_prefix``."""
    tab = browser.tab_id(url_prefix)
    return tuple(browser.background(
        "(bg, tab) => Promise.all([bg.chrome.action.getBadgeText({tabId: tab}), bg.chrome.action.getTitle({tabId: tab})])", tab))


def test_the_popup_counts_what_it_reads_and_names_the_layout(browser: Browser):
    page = browser.page("https://chatgpt.com/c/thread-counted")
    verdicts(page, '[data-turn-key="t2"]')
    check = self_check(browser, "https://chatgpt.com/c/thread-counted")
    assert check["state"] == "ok"
    assert check["text"] == "On this page: 3 answers, 3 citations"
    assert "ChatGPT (thread layout)" in check["detail"]
    assert toolbar(browser, "https://chatgpt.com/c/thread-counted")[0] == ""
    page.close()


def test_diagnostics_name_the_selectors_tried_and_copy_no_page_text(browser: Browser):
    page = browser.page("https://chatgpt.com/c/light-diagnostics")
    verdicts(page, "#msg-a1", count=3)
    check = self_check(browser, "https://chatgpt.com/c/light-diagnostics")
    report = check["diagnostics"]
    assert report["site"] == "chatgpt" and report["layout"] == "lightweight"
    tried = {entry["layout"]: entry for entry in report["layoutsTried"]}
    assert tried["classic"]["answers"] == 0 and tried["thread"]["answers"] == 0 and tried["lightweight"]["answers"] == 2
    assert tried["lightweight"]["selectors"]["answer"] == 'li[data-message-role="assistant"]'
    assert report["answers"] == 2 and report["citations"] == 4 and report["streaming"] == 1
    assert report["deferred"] == 2  # the trigger whose sources appear only when clicked
    for text in ("Danube", "kilometres", "How long", "127.0.0.1", "/c/light"):
        assert text not in check["raw"]
    assert check["copied"] == "Copied — it holds no page text."  # navigator.clipboard.writeText resolved
    page.close()


def test_a_known_site_in_an_unknown_layout_falls_back_to_its_links(browser: Browser):
    page = browser.page("https://chatgpt.com/c/drifted")
    assert verdicts(page, "[data-uid='b1']", count=2) == ["supported", "contradicted"]
    check = self_check(browser, "https://chatgpt.com/c/drifted")
    assert check["state"] == "fallback"
    assert check["text"].startswith("On this page: 1 answer, 2 citations")
    assert "layout may have changed" in check["text"]
    assert check["diagnostics"]["fallback"] is True
    text, title = toolbar(browser, "https://chatgpt.com/c/drifted")
    assert text == "!" and "layout may have changed" in title
    page.close()


def test_citations_it_cannot_read_say_so(browser: Browser):
    page = browser.page("https://www.perplexity.ai/search/drifted")
    page.sleep(2.5)  # a debounce and more: nothing is going to be badged
    assert page.count(BADGES) == 0
    check = self_check(browser, "https://www.perplexity.ai/search/drifted")
    assert check["state"] == "blind"
    assert check["text"] == "citemark cannot read this page's citations — the site's layout may have changed."
    assert check["diagnostics"]["unreadable"] == 2
    text, title = toolbar(browser, "https://www.perplexity.ai/search/drifted")
    assert text == "!" and "cannot read" in title
    page.close()


def test_copilot_in_an_unknown_layout_falls_back_to_its_chips(browser: Browser):
    """The Copilot adapter and its fixture share their evidence; a wrong guess shows up as this drift, and it is read."""
    page = browser.page("https://copilot.microsoft.com/chats/drifted")
    assert verdicts(page, "[data-turn='bot']", count=1) == ["supported"]
    check = self_check(browser, "https://copilot.microsoft.com/chats/drifted")
    assert check["state"] == "fallback" and "Copilot's layout may have changed" in check["text"]
    assert toolbar(browser, "https://copilot.microsoft.com/chats/drifted")[0] == "!"
    page.close()


def test_google_ai_overview_in_an_unknown_layout_says_so_and_badges_no_result(browser: Browser):
    """Google pages are mostly results, so no structural fallback there: a drifted overview is reported, never guessed at."""
    page = browser.page("https://www.google.com/search?q=drifted+danube")
    page.sleep(2.5)
    assert page.count(BADGES) == 0
    check = self_check(browser, "https://www.google.com/search?q=drifted")
    assert check["state"] == "blind"
    assert toolbar(browser, "https://www.google.com/search?q=drifted")[0] == "!"
    page.close()
