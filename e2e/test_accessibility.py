"""Accessibility of what citemark draws, in Chromium and Firefox: axe-core over badges, cards, the summary and the popup
(no serious or critical violation), and the card's keyboard and screen-reader wiring."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e.harness import BADGES, Browser, Page, verdicts

AXE = Path(__file__).with_name("node_modules") / "axe-core" / "axe.min.js"
OURS = [[".citemark-badge"], [".citemark-card"], [".citemark-summary"]]


def serious_violations(page: Page, include: list[list[str]] | None = None) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations in ``include`` (selectors; the whole document when None)."""
    if not page.evaluate("() => Boolean(window.axe)"):
        # the source inside the function: the protocol evaluates it, so no page CSP (the popup's) stands in the way
        page.evaluate(f"() => {{ {AXE.read_text()}\n}}")
    found = page.evaluate("""async ([include]) => {
        const result = await axe.run(include ? {include} : document, {resultTypes: ['violations']});
        return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => [n.target.join(' '), n.failureSummary])}));
    }""", [include])
    return found


def badge_contrast(page: Page, scope: str) -> list[str]:
    """Badges whose text has less than 4.5:1 contrast (WCAG AA, normal text) with the first opaque background behind it."""
    return page.evaluate("""([scope]) => {
        const rgb = (css) => (css.match(/[\\d.]+/g) || []).map(Number);
        const luminance = ([r, g, b]) => [r, g, b].map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
            .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
        const behind = (node) => {
            for (; node; node = node.parentElement) {
                const bg = rgb(getComputedStyle(node).backgroundColor);
                if (bg.length === 3 || bg[3] === 1) return bg.slice(0, 3);
            }
            return [255, 255, 255];
        };
        return [...document.querySelectorAll(scope + ' .citemark-badge[data-citemark-for]')].flatMap((badge) => {
            const [a, b] = [luminance(rgb(getComputedStyle(badge).color)), luminance(behind(badge))];
            const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
            return ratio < 4.5 ? [`${badge.dataset.label}: ${ratio.toFixed(2)}`] : [];
        });
    }""", [scope])


def test_badges_cards_and_summary_pass_axe_on_every_site(browser: Browser):
    for url, scope, count in (
        ("https://chatgpt.com/c/axe", '[data-message-id="a1"]', 4),
        ("https://chatgpt.com/c/light-axe", "#msg-a1", 3),
        ("https://claude.ai/chat/axe", '[data-test-render-count="1"] [data-is-streaming]', 4),
        ("https://www.perplexity.ai/search/axe", "[data-workflow-final-text]:not(#second)", 3),
        ("https://gemini.google.com/app/axe", "#c1 model-response", 2),
    ):
        page = browser.page(url)
        page.wait_for("([s, n]) => document.querySelectorAll(s + ' .citemark-badge[data-citemark-for]:not([data-citemark-pending])').length >= n"
                      " && document.querySelector(s + ' [data-citemark-summary]')", [scope, count], timeout=60)
        page.evaluate("([s]) => document.querySelector(s + ' .citemark-badge[data-citemark-verdict]').focus()", [scope])
        page.wait_for_selector(".citemark-card")
        assert serious_violations(page, OURS) == [], url
        # axe cannot see a badge's words (CSS generated content): their contrast with what is behind them, measured here
        assert badge_contrast(page, scope) == [], url
        page.close()


def test_the_popup_passes_axe(browser: Browser):
    page = browser.extension_page("popup.html")
    page.wait_for_selector("#host-state[data-state='ok']", timeout=30)
    page.wait_for("() => document.getElementById('page-state').dataset.state !== 'checking'", timeout=20)
    assert serious_violations(page) == []
    page.close()


def test_the_notice_and_the_popup_without_their_helper_pass_axe(hostless: Browser):
    page = hostless.page("https://chatgpt.com/c/axe-nohost")
    page.wait_for_selector("[data-citemark-notice]", timeout=30)
    assert serious_violations(page, [["[data-citemark-notice]"]]) == []
    popup = hostless.extension_page("popup.html")
    popup.wait_for_selector("#host-state[data-state='missing']", timeout=30)
    assert serious_violations(popup) == []


def test_a_card_opens_from_the_keyboard_and_is_announced(browser: Browser):
    page = browser.page("https://chatgpt.com/c/keyboard")
    verdicts(page, '[data-message-id="a1"]', count=4)
    badge = f'[data-message-id="a1"] {BADGES}'
    # a badge is a named button in the tab order; it shows a glyph and a word (never colour alone)
    assert page.evaluate("""([s]) => { const b = document.querySelector(s);
        return [b.getAttribute('role'), b.tabIndex, b.getAttribute('aria-label').startsWith('citemark: supported.'),
                b.dataset.label === '✔ supported']; }""", [badge]) == ["button", 0, True, True]
    page.focus(badge)
    page.press("Enter")
    page.wait_for("() => document.activeElement?.closest('.citemark-card')")
    wiring = page.evaluate("""([s]) => { const b = document.querySelector(s); const card = document.querySelector('.citemark-card');
        return [card.getAttribute('role'), card.getAttribute('aria-label'), b.getAttribute('aria-expanded'),
                b.getAttribute('aria-describedby') === card.id]; }""", [badge])
    assert wiring == ["dialog", "citemark: supported", "true", True]
    page.press("Escape")
    page.wait_gone(".citemark-card")
    assert page.evaluate("([s]) => document.activeElement === document.querySelector(s)", [badge])
    page.close()
