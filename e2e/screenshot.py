"""Regenerate the README's screenshot: a ChatGPT conversation from the e2e fixtures, badged by the real extension and
host in Chromium, with the card of the contradicted answer open below it (over the next turn, never over its own answer).
``./scripts/screenshot [PATH]`` (default docs/screenshot-chatgpt.png).

The page, the sources and the verdicts are the e2e suite's own (fixtures/chatgpt-thread.html, the pages of conftest.py),
so the picture shows what the suite asserts, and a change to the badges or the card shows in the next run of this script.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from e2e.conftest import DANUBE, RHINE
from e2e.harness import BADGES, Chromium, verdicts
from tests.conftest import LoopbackServer

TURNS = ('[data-turn-key="t1"]', '[data-turn-key="t2"]', '[data-turn-key="t3"]')
CONTRADICTED = f"{TURNS[1]} {BADGES}"


def main(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    with LoopbackServer() as sources, sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        sources.routes["/danube"] = DANUBE
        sources.routes["/rhine"] = RHINE
        browser = Chromium(playwright, Path(profile), sources.url("").rstrip("/"))
        try:
            page = browser.page("https://chatgpt.com/c/thread-danube")
            page.evaluate("() => window.fixture.finish()")
            for turn in TURNS:
                verdicts(page, turn)
                page.wait_for("(s) => document.querySelector(s + ' [data-citemark-summary]')", turn)
            page.hover(CONTRADICTED)
            page.wait_for_selector(".citemark-card")
            clip = page.evaluate("""([first, second]) => {
                const boxes = [document.querySelector(first), document.querySelector(second),
                               document.querySelector('.citemark-card')].map((node) => node.getBoundingClientRect());
                const top = Math.min(...boxes.map((b) => b.top)) - 16, bottom = Math.max(...boxes.map((b) => b.bottom)) + 16;
                const left = Math.min(...boxes.map((b) => b.left)) - 16, right = Math.max(...boxes.map((b) => b.right)) + 16;
                return {x: Math.max(0, left), y: Math.max(0, top), width: right - Math.max(0, left), height: bottom - Math.max(0, top)};
            }""", list(TURNS[:2]))
            page.raw.screenshot(path=str(out), clip=clip)
        finally:
            browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs" / "screenshot-chatgpt.png")
