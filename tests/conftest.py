"""Shared fixtures: a real HTTP server on 127.0.0.1, settings in a temporary home, model packs."""

from __future__ import annotations

import http.server
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from citemark.settings import Settings
from tests.support.keyring import memory_keyring  # noqa: F401 - a fixture for every test

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@dataclass
class Reply:
    """What the test server sends for one path."""

    body: bytes | str = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})
    delay: float = 0.0  # seconds before the headers
    stream_forever: bool = False  # keep sending bytes (a huge body)


Route = Reply | Callable[[http.server.BaseHTTPRequestHandler], Reply]


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1 whose routes a test sets: ``server.routes["/a"] = Reply(...)``."""

    def __init__(self, tls: tuple[Path, Path] | None = None) -> None:
        self.routes: dict[str, Route] = {}
        self.scheme = "https" if tls else "http"
        self.requests: list[tuple[str, dict[str, str]]] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                server.requests.append((self.path, dict(self.headers)))
                route = server.routes.get(self.path.split("?")[0]) or server.routes.get(self.path)
                if route is None:
                    route = Reply(b"not found", 404, {"Content-Type": "text/plain"})
                reply = route(self) if callable(route) else route
                if reply.delay:
                    time.sleep(reply.delay)
                body = reply.body.encode() if isinstance(reply.body, str) else reply.body
                try:
                    self.send_response(reply.status)
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    if reply.stream_forever:
                        self.send_header("Transfer-Encoding", "chunked")
                        self.end_headers()
                        chunk = b"x" * 65536
                        while True:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    if "Content-Length" not in reply.headers:
                        self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_HEAD = do_GET  # noqa: N815 - routes see request.command and answer HEAD without a body

            def log_message(self, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as running:
        yield running


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary HOME with citemark's dirs and config inside it; no ambient CITEMARK_* variables."""
    for key in list(__import__("os").environ):
        if key.startswith("CITEMARK_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


@pytest.fixture
def settings(home: Path) -> Settings:
    """Fast limits, a private cache, no robots delay; loopback sources allowed (test-only)."""
    return Settings(
        cache_dir=home / "cache" / "citemark",
        state_dir=home / "state" / "citemark",
        data_dir=home / "data" / "citemark",
        connect_timeout=2.0,
        read_timeout=2.0,
        source_deadline=6.0,
        request_deadline=30.0,
        retries=1,
        backoff=0.05,
        allow_private_network=True,
        model="none",
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def host_env(home: Path) -> dict[str, str]:
    from tests.support.host import host_environment

    return host_environment(home)


@pytest.fixture
def host(host_env: dict[str, str]):  # noqa: ANN201 - a tests.support.host.HostProcess
    """``citemark host`` as the browser runs it, in a temporary home; closed after the test, no stray stdout."""
    from tests.support.host import HostProcess

    process = HostProcess(host_env)
    yield process
    process.close()
    assert not process.raw_errors, process.raw_errors
