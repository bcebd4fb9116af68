"""Real Chromium (Debian's) with the real extension and the real ``citemark host``, driven by Playwright.

Recipe: ../shared/design/BROWSER.md. The native host manifest goes into the
profile's NativeMessagingHosts folder; variables in the launch ``env`` reach the
host process, which is how the host is put in test mode (loopback sources
allowed). chatgpt.com and claude.ai are fixture pages served by routes; their
citations point at a source server on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from citemark.install import EXTENSION_ID, Installer
from tests.conftest import LoopbackServer, Reply

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "extension"
FIXTURES = Path(__file__).with_name("fixtures")
ARTIFACTS = Path(__file__).with_name("artifacts")
CHROMIUM = os.environ.get("CITEMARK_CHROMIUM", "/usr/bin/chromium")

DANUBE = Reply(
    "<!doctype html><html><head><title>The Danube – Rivers of Europe</title></head><body><article>"
    "<h1>The Danube</h1>"
    "<p>The Danube is the second-longest river in Europe and the longest river in the European Union.</p>"
    "<p>It flows for 2,850 kilometres through ten countries.</p>"
    "<p>The river rises in the Black Forest in Germany and empties into the Black Sea.</p>"
    "<p>Its delta is the best preserved river delta in Europe.</p>"
    "</article></body></html>"
)


def pytest_collection_modifyitems(config, items):
    if not Path(CHROMIUM).exists():
        raise pytest.UsageError(f"e2e tests need Chromium at {CHROMIUM} (apt-get install chromium)")


@pytest.fixture(scope="session")
def sources() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        server.routes["/danube"] = DANUBE
        server.routes["/removed"] = Reply("gone", status=410, headers={"Content-Type": "text/plain"})
        for path in ("/slow/danube", "/slow/gone"):
            server.routes[path] = Reply(DANUBE.body, delay=8.0)
        yield server


def host_executable(tmp: Path) -> Path:
    """A launcher for this checkout's citemark (the venv's console script when installed)."""
    script = Path(sys.executable).parent / "citemark"
    if script.exists():
        return script
    launcher = tmp / "citemark-host"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m citemark.cli "$@"\n')
    launcher.chmod(0o755)
    return launcher


class Browser:
    """One Chromium profile with the extension loaded; ``page(site)`` opens a routed fixture."""

    def __init__(self, playwright, profile: Path, sources: LoopbackServer, *, with_host: bool = True) -> None:
        self.sources = sources
        home = profile / "home"
        home.mkdir(parents=True, exist_ok=True)
        if with_host:
            installer = Installer(platform="linux", home=home, executable=host_executable(profile),
                                  record_dir=profile / "record")
            manifest = installer.manifest("chromium", [EXTENSION_ID])
            target = profile / "user-data" / "NativeMessagingHosts" / "org.citemark.host.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(manifest))
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(profile / "xdg-config"),
            "XDG_CACHE_HOME": str(profile / "xdg-cache"),
            "XDG_DATA_HOME": str(profile / "xdg-data"),
            "XDG_STATE_HOME": str(profile / "xdg-state"),
            "CITEMARK_ALLOW_PRIVATE_NETWORK": "1",  # test-only: sources are served on 127.0.0.1
            "CITEMARK_RETRIES": "0",
        }
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
            env=env,
            viewport={"width": 1100, "height": 900},
        )
        self.context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("chrome-extension://")
                           else route.abort())
        for site, fixture in (("https://chatgpt.com/**", "chatgpt.html"), ("https://claude.ai/chat/**", "claude.html"),
                              ("https://claude.ai/notes/**", "article.html")):
            body = (FIXTURES / fixture).read_text().replace("{{SOURCE}}", sources.url("").rstrip("/"))
            self.context.route(site, lambda route, request, body=body: route.fulfill(
                status=200, content_type="text/html; charset=utf-8", body=body))
        slow = (FIXTURES / "chatgpt.html").read_text().replace("{{SOURCE}}", sources.url("/slow").rstrip("/"))
        self.context.route("https://chatgpt.com/slow/**", lambda route: route.fulfill(
            status=200, content_type="text/html; charset=utf-8", body=slow))
        self.worker = self.context.service_workers[0] if self.context.service_workers else \
            self.context.wait_for_event("serviceworker", timeout=15000)
        assert self.worker.url.split("/")[2] == EXTENSION_ID

    def page(self, url: str):
        page = self.context.new_page()
        page.goto(url)
        return page

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def playwright_instance():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(playwright_instance, sources, tmp_path_factory) -> Iterator[Browser]:
    running = Browser(playwright_instance, tmp_path_factory.mktemp("profile"), sources)
    yield running
    running.close()


@pytest.fixture(scope="session", autouse=True)
def artifacts() -> Path:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS
