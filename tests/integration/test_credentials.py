"""Source credentials in a real (in-memory) keyring backend, sent over real TLS on loopback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from citemark import credentials
from citemark.sources.fetch import Fetcher
from tests.conftest import LoopbackServer, Reply
from tests.support.tls import self_signed

SECRET = "Bearer s3cr3t-t0ken"


@pytest.fixture
def tls(tmp_path):
    return self_signed(tmp_path)


def test_remember_list_forget(memory_keyring):
    credentials.remember("Wiki.Example.org", "Authorization", SECRET)
    credentials.remember("news.example.com", "Cookie", "session=abc")
    assert credentials.hosts() == ["news.example.com", "wiki.example.org"]
    assert credentials.lookup("wiki.example.org") == {"Authorization": SECRET}
    assert credentials.header_name("news.example.com") == "Cookie"
    assert credentials.forget("news.example.com") and not credentials.forget("news.example.com")
    assert credentials.hosts() == ["wiki.example.org"]
    assert credentials.lookup("news.example.com") is None


@pytest.mark.parametrize("host", ["https://wiki.example.org", "wiki.example.org/path", "wiki.example.org:443", "", "a b"])
def test_only_plain_host_names_are_accepted(memory_keyring, host):
    with pytest.raises(ValueError):
        credentials.remember(host, "Authorization", SECRET)


async def test_sent_over_https_to_that_host_only_never_on_redirect_or_plain_http(memory_keyring, tls, settings):
    credentials.remember("localhost", "Authorization", SECRET)
    with LoopbackServer(tls=tls) as secure, LoopbackServer() as plain:
        secure.routes["/page"] = Reply("<p>members only page text</p>")
        secure.routes["/jump"] = Reply(status=302, headers={"Location": secure.url("/landing", host="127.0.0.1")})
        secure.routes["/landing"] = Reply("<p>landing</p>")
        plain.routes["/page"] = Reply("<p>plain</p>")
        fetcher = Fetcher(settings.with_(ca_bundle=tls[0]), credentials=credentials.lookup)
        try:
            await fetcher.fetch(secure.url("/page", host="localhost"))
            await fetcher.fetch(secure.url("/jump", host="localhost"))
            await fetcher.fetch(plain.url("/page", host="localhost"))
        finally:
            await fetcher.aclose()
        sent = {path: headers.get("Authorization") for path, headers in secure.requests}
        assert sent["/page"] == SECRET and sent["/jump"] == SECRET
        assert sent["/landing"] is None  # redirected to another host: nothing sent
        assert all(headers.get("Authorization") is None for _, headers in plain.requests)


def test_auth_cli_never_prints_the_value(home, tmp_path):
    # the CLI process uses keyring's file-free "null" configuration through a tiny backend module
    backend = tmp_path / "memkeyring.py"
    backend.write_text(
        "import json, os\nfrom keyring.backend import KeyringBackend\n"
        "P = os.environ['MEMKEYRING']\n"
        "class Store(KeyringBackend):\n    priority = 1\n"
        "    def _d(self):\n        return json.load(open(P)) if os.path.exists(P) else {}\n"
        "    def get_password(self, s, u):\n        return self._d().get(s + '/' + u)\n"
        "    def set_password(self, s, u, p):\n        d = self._d(); d[s + '/' + u] = p; json.dump(d, open(P, 'w'))\n"
        "    def delete_password(self, s, u):\n        d = self._d(); d.pop(s + '/' + u, None); json.dump(d, open(P, 'w'))\n"
    )
    env = {"PYTHONPATH": f"{tmp_path}:{__import__('os').environ.get('PYTHONPATH', '')}", "PYTHON_KEYRING_BACKEND": "memkeyring.Store",
           "MEMKEYRING": str(tmp_path / "store.json"), "HOME": str(home)}

    def cli(*args, stdin=None):
        return subprocess.run([sys.executable, "-m", "citemark.cli", "auth", *args], input=stdin, capture_output=True,
                              text=True, env={**__import__("os").environ, **env}, timeout=60)

    assert cli("set", "wiki.example.org", "--value-from-stdin", stdin=SECRET + "\n").returncode == 0
    listing = cli("list")
    assert "wiki.example.org\tAuthorization" in listing.stdout and SECRET not in listing.stdout + listing.stderr
    assert cli("remove", "wiki.example.org").returncode == 0
    assert "no credentials stored" in cli("list").stdout
