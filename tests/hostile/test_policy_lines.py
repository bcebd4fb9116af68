"""Policy lines a page or an agent must not cross: cached copies, stored credentials, IPv6 address forms."""

from __future__ import annotations

import pytest

from citemark import credentials
from citemark.engine import Engine
from citemark.errors import SourceBlocked
from citemark.sources.cache import SourceCache
from citemark.sources.netguard import GuardedBackend, is_public_address
from tests.conftest import LoopbackServer, Reply
from tests.support.tls import self_signed

MEMBERS = ("<html><head><title>Members</title></head><body><article><p>The members-only report says the merger "
           "closed on 3 March 2026 for 4.2 billion euros.</p><p>It was approved by the board.</p></article></body></html>")
CLAIM = "The merger closed on 3 March 2026 for 4.2 billion euros"


def one_claim(url: str) -> str:
    return f"{CLAIM} [1].\n\n[1]: {url}\n"


async def verdict_of(engine: Engine, url: str):
    report = await engine.report(one_claim(url), fmt="markdown")
    [verdict] = report.verdicts
    return verdict


async def test_a_page_fetched_with_private_addresses_allowed_is_not_served_to_a_request_without(server, settings):
    server.routes["/report"] = Reply(MEMBERS)
    cache_path = settings.cache_dir / "shared.sqlite3"
    async with Engine(settings, cache=SourceCache(cache_path)) as test_run:  # the loopback test switch is on
        assert (await verdict_of(test_run, server.url("/report"))).label.value == "supported"
    public_only = settings.with_(allow_private_network=False)
    async with Engine(public_only, cache=SourceCache(cache_path)) as page:
        verdict = await verdict_of(page, server.url("/report"))
    assert (verdict.label.value, verdict.reason) == ("unreachable", "blocked_by_policy")
    assert verdict.evidence is None  # the cached quote never reached the page


@pytest.fixture
def tls(tmp_path):
    return self_signed(tmp_path)


def members_only(handler) -> Reply:
    if handler.headers.get("Authorization") == "Bearer member":
        return Reply(MEMBERS)
    return Reply("login required", status=401, headers={"Content-Type": "text/plain"})


async def test_stored_credentials_are_not_sent_for_pages_or_agents_unless_shared(memory_keyring, tls, settings):
    credentials.remember("localhost", "Authorization", "Bearer member")
    secure_settings = settings.with_(ca_bundle=tls[0])
    with LoopbackServer(tls=tls) as secure:
        secure.routes["/report"] = members_only
        url = secure.url("/report", host="localhost")
        for requester in ("page", "agent"):
            async with Engine(secure_settings, cache=None, credentials=credentials.lookup_for(requester)) as engine:
                verdict = await verdict_of(engine, url)
            assert (verdict.label.value, verdict.reason) == ("paywalled", "login_required"), requester
        async with Engine(secure_settings, cache=None, credentials=credentials.lookup_for("cli")) as cli:
            assert (await verdict_of(cli, url)).label.value == "supported"
        credentials.remember("localhost", "Authorization", "Bearer member", share=("page",))
        async with Engine(secure_settings, cache=None, credentials=credentials.lookup_for("page")) as page:
            assert (await verdict_of(page, url)).label.value == "supported"
        async with Engine(secure_settings, cache=None, credentials=credentials.lookup_for("agent")) as agent:
            assert (await verdict_of(agent, url)).label.value == "paywalled"
        assert [h.get("Authorization") for _, h in secure.requests].count("Bearer member") == 2


async def test_a_credentialed_copy_is_not_served_to_a_page_that_lacks_the_credential(memory_keyring, tls, settings):
    credentials.remember("localhost", "Authorization", "Bearer member")
    secure_settings = settings.with_(ca_bundle=tls[0])
    cache_path = settings.cache_dir / "shared.sqlite3"
    with LoopbackServer(tls=tls) as secure:
        secure.routes["/report"] = members_only
        url = secure.url("/report", host="localhost")
        async with Engine(secure_settings, cache=SourceCache(cache_path), credentials=credentials.lookup_for("cli")) as cli:
            assert (await verdict_of(cli, url)).label.value == "supported"
        async with Engine(secure_settings, cache=SourceCache(cache_path), credentials=credentials.lookup_for("page")) as page:
            verdict = await verdict_of(page, url)
        assert verdict.label.value == "paywalled" and verdict.evidence is None
        assert reports(secure) == 2  # the page's request went to the server, not to the cached copy


async def test_after_auth_remove_the_cached_credentialed_copy_is_not_served(memory_keyring, tls, settings):
    credentials.remember("localhost", "Authorization", "Bearer member", share=("page",))
    secure_settings = settings.with_(ca_bundle=tls[0])
    cache_path = settings.cache_dir / "shared.sqlite3"
    with LoopbackServer(tls=tls) as secure:
        secure.routes["/report"] = members_only
        url = secure.url("/report", host="localhost")
        async with Engine(secure_settings, cache=SourceCache(cache_path), credentials=credentials.lookup_for("page")) as page:
            assert (await verdict_of(page, url)).label.value == "supported"
        async with Engine(secure_settings, cache=SourceCache(cache_path), credentials=credentials.lookup_for("page")) as page:
            assert (await verdict_of(page, url)).label.value == "supported"
        assert reports(secure) == 1  # served from the cache while the credential is the same
        credentials.forget("localhost")
        credentials._cache.clear()
        async with Engine(secure_settings, cache=SourceCache(cache_path), credentials=credentials.lookup_for("page")) as page:
            verdict = await verdict_of(page, url)
        assert verdict.label.value == "paywalled" and verdict.evidence is None


@pytest.mark.parametrize(("address", "public"), [
    ("64:ff9b::7f00:1", False),      # NAT64 of 127.0.0.1
    ("64:ff9b::a00:1", False),       # NAT64 of 10.0.0.1
    ("64:ff9b::a9fe:a9fe", False),   # NAT64 of the metadata service
    ("64:ff9b:1::a00:1", False),     # NAT64 local use
    ("::7f00:1", False),             # IPv4-compatible 127.0.0.1
    ("::ffff:0:7f00:1", False),      # SIIT 127.0.0.1
    ("::ffff:127.0.0.1", False),     # IPv4-mapped
    ("2002:7f00:1::1", False),       # 6to4 of 127.0.0.1
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),  # Teredo
    ("::", False), ("::1", False), ("fe80::1", False), ("fc00::1", False), ("fd00:ec2::254", False),
    ("2001:db8::1", False), ("3fff::1", False), ("ff02::1", False), ("100::1", False),
    ("100.64.0.1", False), ("192.0.0.8", False), ("198.18.0.1", False), ("240.0.0.1", False),
    ("255.255.255.255", False), ("0.0.0.0", False), ("169.254.169.254", False), ("192.88.99.1", False),
    ("64:ff9b::808:808", True),      # NAT64 of a public address
    ("::ffff:8.8.8.8", True), ("2606:4700:4700::1111", True), ("8.8.8.8", True), ("1.1.1.1", True),
])
def test_address_forms(address, public):
    assert is_public_address(address) is public


@pytest.mark.parametrize("literal", ["64:ff9b::7f00:1", "::7f00:1", "::ffff:0:7f00:1"])
async def test_the_guard_refuses_ipv6_literals_that_embed_loopback_before_connecting(literal):
    with pytest.raises(SourceBlocked):
        await GuardedBackend().connect_tcp(literal, 80, timeout=2)


def reports(server: LoopbackServer) -> int:
    return sum(1 for path, _ in server.requests if path == "/report")


async def test_a_scholarly_record_sent_as_a_stacked_gzip_bomb_stops_at_the_cap(server, settings):
    import gzip
    import tracemalloc
    import zlib

    from citemark.errors import LookupUnavailable
    from citemark.scholarly.service import ScholarlyHTTP

    inner = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    bomb = gzip.compress(b"".join([inner.compress(b"\0" * (1 << 20)) for _ in range(64)] + [inner.flush()]))
    server.routes["/works/10.1/x"] = Reply(bomb, headers={"Content-Type": "application/json", "Content-Encoding": "gzip, gzip"})
    http = ScholarlyHTTP(settings)
    tracemalloc.start()
    try:
        with pytest.raises(LookupUnavailable, match="record over"):
            await http.get("crossref", server.url(""), "/works/10.1/x", None, lambda body: body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        await http.aclose()
    assert peak < 32_000_000  # decoded within the 5 MB cap, never the 64 MB the bomb holds
