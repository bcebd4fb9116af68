"""The fetcher against a real HTTP server on 127.0.0.1: limits, redirects, robots.txt, the address guard."""

from __future__ import annotations

import asyncio
import gzip

import pytest

from citemark.errors import RobotsDisallowed, SourceBlocked, SourceTooLarge, SourceUnreachable
from citemark.sources.fetch import Fetcher, guarded_transport
from tests.conftest import Reply, free_port

PAGE = "<html><head><title>T</title></head><body><p>Hello world.</p></body></html>"


async def fetch(settings, url, **kwargs):
    fetcher = Fetcher(settings, **kwargs)
    try:
        return await fetcher.fetch(url)
    finally:
        await fetcher.aclose()


async def test_fetches_a_page_and_identifies_itself(server, settings):
    server.routes["/page"] = Reply(PAGE)
    result = await fetch(settings, server.url("/page"))
    assert result.status == 200 and b"Hello world" in result.body
    path, headers = server.requests[-1]
    assert headers["User-Agent"].startswith("citemark/")


async def test_follows_redirects_up_to_the_limit(server, settings):
    server.routes["/a"] = Reply(status=301, headers={"Location": "/b"})
    server.routes["/b"] = Reply(status=302, headers={"Location": server.url("/c")})
    server.routes["/c"] = Reply(PAGE)
    result = await fetch(settings, server.url("/a"))
    assert result.final_url == server.url("/c")
    for hop in range(10):
        server.routes[f"/loop{hop}"] = Reply(status=302, headers={"Location": f"/loop{hop + 1}"})
    with pytest.raises(SourceUnreachable, match="redirects"):
        await fetch(settings, server.url("/loop0"))


async def test_http_errors_are_unreachable_with_their_status(server, settings):
    with pytest.raises(SourceUnreachable) as caught:
        await fetch(settings, server.url("/missing"))
    assert caught.value.status == 404


async def test_transient_errors_are_retried(server, settings):
    calls = []

    def flaky(handler):
        calls.append(1)
        return Reply(status=503) if len(calls) == 1 else Reply(PAGE)

    server.routes["/flaky"] = flaky
    result = await fetch(settings, server.url("/flaky"))
    assert result.status == 200 and len(calls) == 2


async def test_slow_responses_time_out(server, settings):
    server.routes["/slow"] = Reply(PAGE, delay=3.0)
    fast = settings.with_(read_timeout=0.3, retries=0)
    with pytest.raises(SourceUnreachable, match="timed out"):
        await fetch(fast, server.url("/slow"))


async def test_the_source_deadline_bounds_every_try_together(server, settings):
    server.routes["/slow"] = Reply(PAGE, delay=1.0)
    tight = settings.with_(read_timeout=5.0, source_deadline=0.5)
    with pytest.raises(SourceUnreachable, match="timed out"):
        await fetch(tight, server.url("/slow"))


async def test_huge_bodies_stop_at_the_cap(server, settings):
    server.routes["/declared"] = Reply("x" * 5000, headers={"Content-Type": "text/html"})
    server.routes["/endless"] = Reply(stream_forever=True, headers={"Content-Type": "text/html"})
    small = settings.with_(max_body_bytes=1000)
    with pytest.raises(SourceTooLarge):
        await fetch(small, server.url("/declared"))
    with pytest.raises(SourceTooLarge):
        await fetch(small, server.url("/endless"))


async def test_a_gzip_bomb_stops_at_the_cap_on_the_decoded_size(server, settings):
    bomb = gzip.compress(b"\0" * 50_000_000)
    server.routes["/bomb"] = Reply(bomb, headers={"Content-Type": "text/html", "Content-Encoding": "gzip"})
    with pytest.raises(SourceTooLarge):
        await fetch(settings.with_(max_body_bytes=1_000_000), server.url("/bomb"))


async def test_robots_txt_is_respected(server, settings):
    server.routes["/robots.txt"] = Reply("User-agent: *\nDisallow: /private/\n", headers={"Content-Type": "text/plain"})
    server.routes["/private/page"] = Reply(PAGE)
    server.routes["/public/page"] = Reply(PAGE)
    assert (await fetch(settings, server.url("/public/page"))).status == 200
    with pytest.raises(RobotsDisallowed):
        await fetch(settings, server.url("/private/page"))


async def test_only_http_and_https_are_fetched(settings):
    for url in ("file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "gopher://x", "/relative"):
        with pytest.raises(SourceBlocked):
            await fetch(settings, url)


async def test_a_redirect_to_a_file_url_is_refused(server, settings):
    server.routes["/to-file"] = Reply(status=302, headers={"Location": "file:///etc/passwd"})
    with pytest.raises(SourceBlocked):
        await fetch(settings, server.url("/to-file"))


async def test_loopback_is_refused_without_the_test_switch(server, settings):
    server.routes["/page"] = Reply(PAGE)
    with pytest.raises(SourceBlocked, match="non-public"):
        await fetch(settings.with_(allow_private_network=False), server.url("/page"))
    with pytest.raises(SourceBlocked):
        await fetch(settings.with_(allow_private_network=False), f"http://localhost:{server.port}/page")


async def test_every_redirect_hop_is_checked_by_the_address_guard(server, settings):
    """The first server is admitted (as a public site would be); its redirect to an
    internal service on another port is refused at connection time."""
    internal = free_port()
    server.routes["/hop"] = Reply(status=302, headers={"Location": f"http://127.0.0.1:{internal}/admin"})
    transport = guarded_transport(settings, allow_private=lambda address, port: port == server.port)
    with pytest.raises(SourceBlocked, match="non-public"):
        await fetch(settings, server.url("/hop"), transport=transport)


async def test_credentials_go_only_to_their_host_over_https(server, settings):
    seen = []
    server.routes["/page"] = Reply(PAGE)
    result = await fetch(settings, server.url("/page"), credentials=lambda host: seen.append(host) or {"Authorization": "Bearer s3cret"})
    assert result.status == 200
    assert "Authorization" not in server.requests[-1][1]  # plain http: never sent


async def test_a_dead_port_is_unreachable_quickly(settings):
    started = asyncio.get_running_loop().time()
    with pytest.raises(SourceUnreachable):
        await fetch(settings.with_(retries=0), f"http://127.0.0.1:{free_port()}/")
    assert asyncio.get_running_loop().time() - started < 5
