"""One test API over two real browsers: Chromium through Playwright, firefox-esr through puppeteer-core over WebDriver BiDi.

Recipe: ../shared/design/BROWSER.md. Each browser gets its own profile and home,
the real extension, and the real ``citemark host`` registered where that browser
looks for native hosts (Chromium: the profile's NativeMessagingHosts folder, as
``citemark install --user-data-dir`` writes it; Firefox: ``$HOME/.mozilla/native-messaging-hosts``). Chat-site URLs are answered
with the fixture pages of ``fixtures/`` (``FIXTURE_PAGES``) and every other
request is aborted, so nothing but the host reaches the network, and the host
only reaches the source server on 127.0.0.1.

Tests see ``Browser`` and ``Page``: JavaScript is passed as function source
(``"(arg) => ..."``; for ``Browser.background`` ``"(bg, arg) => ..."`` where ``bg``
is the extension's background global).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from citemark.install import EXTENSION_ID, GECKO_ID, Installer

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "extension"
FIXTURES = Path(__file__).with_name("fixtures")
BRIDGE = Path(__file__).with_name("firefox_bridge.mjs")
CHROMIUM = os.environ.get("CITEMARK_CHROMIUM", "/usr/bin/chromium")
FIREFOX = os.environ.get("CITEMARK_FIREFOX", "/usr/bin/firefox-esr")
FIREFOX_UUID = "c17e0a4b-3f1d-4c2e-9a57-0e2d5c1b7a90"  # moz-extension://<this>/, fixed through a profile pref

# (URL prefix, fixture file, source path prefix): the first prefix that matches answers the request.
FIXTURE_PAGES: list[tuple[str, str, str]] = [
    ("https://chatgpt.com/slow/", "chatgpt.html", "/slow"),
    ("https://chatgpt.com/c/thread", "chatgpt-thread.html", ""),
    ("https://chatgpt.com/c/light", "chatgpt-lightweight.html", ""),
    ("https://chatgpt.com/c/grouped", "chatgpt-grouped.html", ""),
    ("https://chatgpt.com/c/drifted", "chatgpt-drifted.html", ""),
    ("https://chatgpt.com/", "chatgpt.html", ""),
    ("https://claude.ai/chat/", "claude.html", ""),
    ("https://claude.ai/notes/", "article.html", ""),
    ("https://www.perplexity.ai/search/drifted", "perplexity-drifted.html", ""),
    ("https://www.perplexity.ai/search/", "perplexity.html", ""),
    ("https://copilot.microsoft.com/chats/drifted", "copilot-drifted.html", ""),
    ("https://copilot.microsoft.com/", "copilot.html", ""),
    ("https://www.google.com/search?udm=50", "google-ai-mode.html", ""),
    ("https://www.google.com/search?q=drifted", "google-drifted.html", ""),
    ("https://www.google.com/search", "google-overview.html", ""),
    ("https://gemini.google.com/app/research", "gemini-research.html", ""),
    ("https://gemini.google.com/app/", "gemini.html", ""),
]


def firefox_available() -> str | None:
    """Why the Firefox suite cannot run here, or None when it can."""
    if not Path(FIREFOX).exists():
        return f"firefox-esr not found at {FIREFOX} (apt-get install firefox-esr)"
    if not (BRIDGE.parent / "node_modules" / "puppeteer-core").exists():
        return "puppeteer-core not installed (npm ci --prefix e2e)"
    if not shutil.which("node"):
        return "node not found"
    return None


def fixture_pages(source_root: str) -> list[tuple[str, str]]:
    """Each URL prefix with the fixture HTML it serves, citations pointing at ``source_root``."""
    return [(prefix, (FIXTURES / name).read_text().replace("{{SOURCE}}", source_root + sub)) for prefix, name, sub in FIXTURE_PAGES]


def host_launcher(profile: Path) -> Path:
    """This checkout's citemark as the native host, recording its pid (a test may stop the host it started)."""
    script = Path(sys.executable).parent / "citemark"
    command = f'"{script}"' if script.exists() else f'"{sys.executable}" -m citemark.cli'
    launcher = profile / "citemark-host"
    launcher.write_text(f'#!/bin/sh\necho $$ >> "{profile / "host.pids"}"\nexec {command} "$@"\n')
    launcher.chmod(0o755)
    return launcher


def browser_env(profile: Path, home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(profile / "xdg-config"),
        "XDG_CACHE_HOME": str(profile / "xdg-cache"),
        "XDG_DATA_HOME": str(profile / "xdg-data"),
        "XDG_STATE_HOME": str(profile / "xdg-state"),
        "CITEMARK_ALLOW_PRIVATE_NETWORK": "1",  # test-only: sources are served on 127.0.0.1
        "CITEMARK_RETRIES": "0",
    }


class Page:
    """One tab."""

    def evaluate(self, js: str, arg: Any = None) -> Any:
        raise NotImplementedError

    def wait_for(self, js: str, arg: Any = None, timeout: float = 60) -> Any:
        """Poll ``js`` until it returns something truthy; return that."""
        raise NotImplementedError

    def goto(self, url: str) -> None: ...
    def hover(self, selector: str) -> None: ...
    def click(self, selector: str) -> None: ...
    def focus(self, selector: str) -> None: ...
    def press(self, key: str) -> None: ...
    def mouse_move(self, x: float, y: float) -> None: ...
    def screenshot(self, path: Path, full_page: bool = False) -> None: ...
    def close(self) -> None: ...

    def count(self, selector: str) -> int:
        return self.evaluate("(s) => document.querySelectorAll(s).length", selector)

    def text(self, selector: str) -> str:
        return self.evaluate("(s) => document.querySelector(s)?.innerText ?? null", selector)

    def attribute(self, selector: str, name: str) -> str | None:
        return self.evaluate("([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null", [selector, name])

    def wait_for_selector(self, selector: str, timeout: float = 60) -> None:
        self.wait_for("(s) => document.querySelector(s) !== null", selector, timeout)

    def wait_gone(self, selector: str, timeout: float = 10) -> None:
        self.wait_for("(s) => document.querySelector(s) === null", selector, timeout)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class Browser:
    """One profile with the extension loaded (and the host registered unless ``with_host=False``)."""

    name = ""
    extension_origin = ""

    def __init__(self, profile: Path, sources_root: str, *, with_host: bool = True, allowed: list[str] | None = None) -> None:
        self.profile = profile
        self.home = profile / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.pages = fixture_pages(sources_root)
        self.installer = Installer(platform="linux", home=self.home, executable=host_launcher(profile), env={},
                                   record_dir=profile / "record")
        self.with_host = with_host
        self.allowed = allowed

    def register_host(self, browser: str, user_data_dir: Path | None = None) -> None:
        """``citemark install`` for this browser's profile; ``allowed`` replaces the extension ids the manifest allows."""
        if not self.with_host:
            return
        place = self.installer.targets([browser], user_data_dir)[0]
        self.installer.install([place])
        if self.allowed is not None:
            manifest = json.loads(place.manifest.read_text())
            manifest["allowed_extensions" if browser == "firefox" else "allowed_origins"] = self.allowed
            place.manifest.write_text(json.dumps(manifest))

    def page(self, url: str) -> Page:
        raise NotImplementedError

    def extension_page(self, path: str) -> Page:
        return self.page(f"{self.extension_origin}{path}")

    def background(self, js: str, arg: Any = None) -> Any:
        raise NotImplementedError

    def tab_id(self, url_prefix: str) -> int:
        return self.background("(bg, prefix) => bg.chrome.tabs.query({}).then((tabs) => tabs.find((t) => (t.url || '').startsWith(prefix)).id)",
                               url_prefix)

    def status(self) -> dict[str, Any]:
        return self.background("(bg) => JSON.parse(JSON.stringify(bg.citemark.status()))")

    def host_pids(self) -> list[int]:
        path = self.profile / "host.pids"
        return [int(line) for line in path.read_text().split()] if path.exists() else []

    def close(self) -> None: ...


# ---------------------------------------------------------------------- Chromium (Playwright)


class ChromiumPage(Page):
    def __init__(self, page: Any) -> None:
        self.raw = page

    def evaluate(self, js: str, arg: Any = None) -> Any:
        return self.raw.evaluate(js, arg)

    def wait_for(self, js: str, arg: Any = None, timeout: float = 60) -> Any:
        return self.raw.wait_for_function(js, arg=arg, timeout=timeout * 1000, polling=100).json_value()

    def goto(self, url: str) -> None:
        self.raw.goto(url)

    def hover(self, selector: str) -> None:
        self.raw.hover(selector)

    def click(self, selector: str) -> None:
        self.raw.click(selector)

    def focus(self, selector: str) -> None:
        self.raw.focus(selector)

    def press(self, key: str) -> None:
        self.raw.keyboard.press(key)

    def mouse_move(self, x: float, y: float) -> None:
        self.raw.mouse.move(x, y)

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        self.raw.screenshot(path=str(path), full_page=full_page)

    def close(self) -> None:
        self.raw.close()


class Chromium(Browser):
    name = "chromium"
    extension_origin = f"chrome-extension://{EXTENSION_ID}/"

    def __init__(self, playwright: Any, profile: Path, sources_root: str, *, with_host: bool = True,
                 allowed: list[str] | None = None) -> None:
        super().__init__(profile, sources_root, with_host=with_host, allowed=allowed)
        self.register_host("chromium", profile / "user-data")  # as `citemark install --user-data-dir` does
        self.context = playwright.chromium.launch_persistent_context(
            str(profile / "user-data"),
            executable_path=CHROMIUM,
            headless=True,
            ignore_default_args=["--disable-extensions"],
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}",
            ],
            env=browser_env(profile, self.home),
            viewport={"width": 1100, "height": 900},
        )
        self.context.route("**/*", self._route)
        self.worker = self.context.service_workers[0] if self.context.service_workers else \
            self.context.wait_for_event("serviceworker", timeout=15000)
        assert self.worker.url.split("/")[2] == EXTENSION_ID

    def _route(self, route: Any, request: Any) -> None:
        url = request.url
        if url.startswith("chrome-extension://"):
            route.continue_()
            return
        body = next((html for prefix, html in self.pages if url.startswith(prefix)), None)
        if body is None:
            route.abort()
        else:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)

    def page(self, url: str) -> Page:
        page = self.context.new_page()
        page.goto(url)
        return ChromiumPage(page)

    def background(self, js: str, arg: Any = None) -> Any:
        worker = self.context.service_workers[0] if self.context.service_workers else self.worker
        return worker.evaluate(f"(arg) => ({js})(globalThis, arg)", arg)

    def close(self) -> None:
        self.context.close()


# ---------------------------------------------------------------------- Firefox (puppeteer-core over WebDriver BiDi)


class BridgeError(RuntimeError):
    pass


class Bridge:
    """The Node process that runs puppeteer-core (firefox_bridge.mjs): one JSON command, one JSON reply."""

    def __init__(self, log: Path) -> None:
        self.log = log.open("w")
        self.process = subprocess.Popen(["node", str(BRIDGE)], cwd=BRIDGE.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.log, text=True, bufsize=1)
        self.next_id = 0

    def __call__(self, cmd: str, **fields: Any) -> Any:
        assert self.process.stdin and self.process.stdout
        self.next_id += 1
        self.process.stdin.write(json.dumps({"id": self.next_id, "cmd": cmd, **fields}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise BridgeError(f"the Firefox bridge exited during {cmd!r}; see {self.log.name}")
        reply = json.loads(line)
        if not reply["ok"]:
            raise BridgeError(f"{cmd}: {reply['error']}")
        return reply["value"]

    def close(self) -> None:
        with contextlib.suppress(BridgeError, BrokenPipeError, OSError):
            self("close")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream:
                stream.close()
        self.log.close()


class FirefoxPage(Page):
    def __init__(self, bridge: Bridge, page: int) -> None:
        self.bridge = bridge
        self.id = page

    def evaluate(self, js: str, arg: Any = None) -> Any:
        return self.bridge("evaluate", page=self.id, js=js, arg=arg)

    def wait_for(self, js: str, arg: Any = None, timeout: float = 60) -> Any:
        return self.bridge("waitFor", page=self.id, js=js, arg=arg, timeout=timeout * 1000)

    def goto(self, url: str) -> None:
        self.bridge("goto", page=self.id, url=url)

    def hover(self, selector: str) -> None:
        self.bridge("hover", page=self.id, selector=selector)

    def click(self, selector: str) -> None:
        self.bridge("click", page=self.id, selector=selector)

    def focus(self, selector: str) -> None:
        self.bridge("focus", page=self.id, selector=selector)

    def press(self, key: str) -> None:
        self.bridge("press", page=self.id, key=key)

    def mouse_move(self, x: float, y: float) -> None:
        self.bridge("mouseMove", page=self.id, x=x, y=y)

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        self.bridge("screenshot", page=self.id, path=str(path), fullPage=full_page)

    def close(self) -> None:
        self.bridge("closePage", page=self.id)


class Firefox(Browser):
    name = "firefox"
    extension_origin = f"moz-extension://{FIREFOX_UUID}/"

    def __init__(self, profile: Path, sources_root: str, *, with_host: bool = True, allowed: list[str] | None = None) -> None:
        super().__init__(profile, sources_root, with_host=with_host, allowed=allowed)
        self.register_host("firefox")  # ~/.mozilla/native-messaging-hosts, as `citemark install --browser firefox` does
        self.bridge = Bridge(profile / "bridge.log")
        (profile / "firefox").mkdir(exist_ok=True)
        self.version = self.bridge("launch", firefox=FIREFOX, profile=str(profile / "firefox"), env=browser_env(profile, self.home),
                                   extension=str(EXTENSION), uuid=FIREFOX_UUID, geckoId=GECKO_ID, pages=self.pages)

    def page(self, url: str) -> Page:
        return FirefoxPage(self.bridge, self.bridge("newPage", url=url))

    def background(self, js: str, arg: Any = None) -> Any:
        return self.bridge("background", js=js, arg=arg)

    def close(self) -> None:
        self.bridge.close()


# ---------------------------------------------------------------------- what tests read off a page

BADGES = ".citemark-badge[data-citemark-for]"


def verdicts(page: Page, scope: str = "body", timeout: float = 60, count: int = 1) -> list[str | None]:
    """Wait until ``scope`` holds ``count`` badges and none is still checking; the verdict of each, in page order."""
    return page.wait_for(
        """([scope, badges, count]) => {
            const found = [...(document.querySelector(scope)?.querySelectorAll(badges) || [])];
            if (found.length < count || found.some((b) => b.hasAttribute('data-citemark-pending'))) return null;
            return found.map((b) => b.getAttribute('data-citemark-verdict'));
        }""", [scope, BADGES, count], timeout)


def badge_details(page: Page, scope: str = "body") -> list[dict[str, Any]]:
    """Each badge in ``scope``: verdict, label, source count, deferred count, and the citation element it follows."""
    return page.evaluate(
        """([scope, badges]) => [...document.querySelector(scope).querySelectorAll(badges)].map((b) => ({
            verdict: b.getAttribute('data-citemark-verdict'), label: b.getAttribute('data-label'),
            sources: Number(b.getAttribute('data-citemark-sources')), deferred: Number(b.getAttribute('data-citemark-deferred') || 0),
            citation: document.querySelector(`[data-citemark-ref="${b.dataset.citemarkFor}"]`)?.outerHTML.slice(0, 120) ?? null,
        }))""", [scope, BADGES])


def summary(page: Page, scope: str, wanted: str = "") -> str:
    """The summary chip's label in ``scope``, once it exists and holds ``wanted``."""
    return page.wait_for("""([scope, wanted]) => {
        const label = document.querySelector(scope + ' [data-citemark-summary]')?.getAttribute('data-label');
        return label && label.includes(wanted) ? label : null;
    }""", [scope, wanted], timeout=30)


def self_check(browser: Browser, url_prefix: str) -> dict[str, Any]:
    """The popup for the tab at ``url_prefix``: its page sentence, detail, and the diagnostics it copies."""
    tab = browser.tab_id(url_prefix)
    popup = browser.extension_page(f"popup.html?tab={tab}")
    try:
        popup.wait_for("() => document.getElementById('page-state').dataset.state !== 'checking'", timeout=20)
        popup.click("#copy-diagnostics")
        diagnostics = popup.wait_for("() => !document.getElementById('diagnostics').hidden && document.getElementById('diagnostics').textContent",
                                     timeout=20)
        return {
            "state": popup.attribute("#page-state", "data-state"),
            "text": popup.text("#page-state"),
            "detail": popup.text("#page-detail"),
            "diagnostics": json.loads(diagnostics),
            "raw": diagnostics,
            "copied": popup.text("#copy-state"),
        }
    finally:
        popup.close()
