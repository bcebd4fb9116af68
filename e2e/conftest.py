"""The e2e suite in real Chromium and real Firefox, with the real extension and the real ``citemark host``.

Every test runs once per browser (``--e2e-browser chromium`` or ``firefox`` picks
one). The browsers and the host are real; the chat sites are fixture pages
(``fixtures/``, each listed in ``fixtures/README.md`` with the public source it
mirrors) and the cited sources are served on 127.0.0.1 by ``sources``.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from e2e.harness import CHROMIUM, Browser, Chromium, Firefox, firefox_available
from tests.conftest import LoopbackServer, Reply

ARTIFACTS = Path(__file__).with_name("artifacts")
BROWSERS = ("chromium", "firefox")

DANUBE = Reply(
    "<!doctype html><html><head><title>The Danube – Rivers of Europe</title></head><body><article>"
    "<h1>The Danube</h1>"
    "<p>The Danube is the second-longest river in Europe and the longest river in the European Union.</p>"
    "<p>It flows for 2,850 kilometres through ten countries.</p>"
    "<p>The river rises in the Black Forest in Germany and empties into the Black Sea.</p>"
    "<p>Its delta is the best preserved river delta in Europe.</p>"
    "</article></body></html>"
)
RHINE = Reply(
    "<!doctype html><html><head><title>The Rhine – Rivers of Europe</title></head><body><article>"
    "<h1>The Rhine</h1>"
    "<p>The Rhine rises in the Swiss Alps.</p>"
    "<p>The Rhine flows for 1,230 kilometres to the North Sea.</p>"
    "<p>It passes through Switzerland, Austria, Germany, France and the Netherlands.</p>"
    "</article></body></html>"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--e2e-browser", action="append", choices=BROWSERS, help="run the e2e suite in this browser only (repeatable)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "browser_name" in metafunc.fixturenames:
        names = metafunc.config.getoption("e2e_browser") or list(BROWSERS)
        metafunc.parametrize("browser_name", names, scope="module")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not Path(CHROMIUM).exists():
        raise pytest.UsageError(f"e2e tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    wanted = config.getoption("e2e_browser") or []
    reason = firefox_available()
    if reason and ("firefox" in wanted or os.environ.get("CI")):
        raise pytest.UsageError(f"the Firefox e2e suite cannot run: {reason}")


@pytest.fixture(scope="session")
def sources() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        server.routes["/danube"] = DANUBE
        server.routes["/rhine"] = RHINE
        server.routes["/removed"] = Reply("gone", status=410, headers={"Content-Type": "text/plain"})
        for path in ("/slow/danube", "/slow/gone"):
            server.routes[path] = Reply(DANUBE.body, delay=8.0)
        yield server


def launch(name: str, profile: Path, sources: LoopbackServer, playwright_instance: object, *, with_host: bool = True,
           allowed: list[str] | None = None) -> Browser:
    root = sources.url("").rstrip("/")
    if name == "firefox":
        reason = firefox_available()
        if reason:
            if os.environ.get("CI"):
                pytest.fail(f"Firefox suite cannot run in CI: {reason}")
            pytest.skip(f"Firefox suite not run: {reason}")
        return Firefox(profile, root, with_host=with_host, allowed=allowed)
    return Chromium(playwright_instance, profile, root, with_host=with_host, allowed=allowed)


@pytest.fixture(scope="module")
def playwright_instance() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(browser_name: str, playwright_instance: object, sources: LoopbackServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    running = launch(browser_name, tmp_path_factory.mktemp(f"profile-{browser_name}"), sources, playwright_instance)
    yield running
    running.close()


@pytest.fixture
def hostless(browser_name: str, playwright_instance: object, sources: LoopbackServer, tmp_path: Path) -> Iterator[Browser]:
    running = launch(browser_name, tmp_path / "profile", sources, playwright_instance, with_host=False)
    yield running
    running.close()


@pytest.fixture
def wrong_id(browser_name: str, playwright_instance: object, sources: LoopbackServer, tmp_path: Path) -> Iterator[Browser]:
    """The host registered for another extension (someone else's build, or a stale manifest)."""
    other = ["someone@else.example"] if browser_name == "firefox" else ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]
    running = launch(browser_name, tmp_path / "profile", sources, playwright_instance, allowed=other)
    yield running
    running.close()


#: A stand-in host of another release: answers every message with a hello naming version 0.0.1.
OLD_HOST = """import json, struct, sys
while True:
    header = sys.stdin.buffer.read(4)
    if len(header) < 4:
        break
    message = json.loads(sys.stdin.buffer.read(struct.unpack("=I", header)[0]))
    reply = json.dumps({"v": 1, "id": message.get("id"), "type": "hello", "name": "org.citemark.host",
                        "version": "0.0.1", "model": None}).encode()
    sys.stdout.buffer.write(struct.pack("=I", len(reply)) + reply)
    sys.stdout.buffer.flush()
"""


@pytest.fixture
def other_version(browser_name: str, playwright_instance: object, sources: LoopbackServer, tmp_path: Path) -> Iterator[Browser]:
    """The host registered as usual, but the executable it names is another release of citemark."""
    running = launch(browser_name, tmp_path / "profile", sources, playwright_instance)
    launcher = running.installer.executable
    assert launcher is not None
    launcher.write_text(f"#!{sys.executable}\n{OLD_HOST}")  # the browser starts the host on first use, so after launch
    yield running
    running.close()


@pytest.fixture(scope="session", autouse=True)
def artifacts() -> Path:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS
