"""The public-address-only policy for fetching what a web page or an agent cites.

A URL in an AI answer is hostile input: it may point at ``http://127.0.0.1:8080/admin``,
a router on ``192.168.1.1``, or the cloud metadata service. The guard therefore
works at the socket: every TCP connection httpx opens — the first request and
every redirect — goes through ``GuardedBackend.connect_tcp``, which resolves the
host itself, refuses the connection unless *every* address is public, and then
connects to the address it checked (no second lookup an attacker's DNS could
answer differently). ``GuardedTransport`` is how httpx gets it: an httpx transport
(httpx's public ``AsyncBaseTransport`` seam) over an httpcore connection pool built on
that backend.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
from collections.abc import AsyncIterator, Callable, Iterable
from urllib.parse import urlsplit

import httpcore
import httpx

from citemark.errors import MalformedURL, SourceBlocked

__all__ = ["GuardedBackend", "GuardedTransport", "check_url", "is_public_address"]

ALLOWED_SCHEMES = frozenset({"http", "https"})

# The IANA special-purpose address registries (iana-ipv4-special-registry and
# iana-ipv6-special-registry, as of 2026), every block that is *not* globally
# reachable, plus multicast and the cloud metadata addresses. A handful of
# anycast service addresses inside these blocks are marked reachable by IANA
# (PCP, TURN, AS112); no web page is served from them, so the whole block is refused.
_NOT_PUBLIC_V4 = tuple(ipaddress.ip_network(block) for block in (
    "0.0.0.0/8",        # "this network" (RFC 791)
    "10.0.0.0/8",       # private use (RFC 1918)
    "100.64.0.0/10",    # shared address space, carrier-grade NAT (RFC 6598)
    "127.0.0.0/8",      # loopback (RFC 1122)
    "169.254.0.0/16",   # link local, the cloud metadata service (RFC 3927)
    "172.16.0.0/12",    # private use (RFC 1918)
    "192.0.0.0/24",     # IETF protocol assignments, DS-Lite, NAT64 discovery (RFC 6890)
    "192.0.2.0/24",     # documentation TEST-NET-1 (RFC 5737)
    "192.88.99.0/24",   # deprecated 6to4 relay anycast (RFC 7526)
    "192.168.0.0/16",   # private use (RFC 1918)
    "198.18.0.0/15",    # benchmarking (RFC 2544)
    "198.51.100.0/24",  # documentation TEST-NET-2 (RFC 5737)
    "203.0.113.0/24",   # documentation TEST-NET-3 (RFC 5737)
    "224.0.0.0/4",      # multicast (RFC 5771)
    "240.0.0.0/4",      # reserved, and the limited broadcast 255.255.255.255 (RFC 1112, RFC 919)
))
#: IPv6 is public only inside global unicast 2000::/3, and not in these blocks.
_GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
_NOT_PUBLIC_V6 = tuple(ipaddress.ip_network(block) for block in (
    "2001::/23",        # IETF protocol assignments, Teredo 2001::/32 (RFC 2928, RFC 4380)
    "2001:db8::/32",    # documentation (RFC 3849)
    "3fff::/20",        # documentation (RFC 9637)
    # 64:ff9b:1::/48 (NAT64 local use, RFC 8215) lies outside 2000::/3 and is refused with it
    "fd00:ec2::/32",    # inside fc00::/7 already; named for the AWS metadata address
))
#: Prefixes whose addresses carry an IPv4 address in their low 32 bits: the
#: IPv4 address is what the packet reaches, so it is the one checked.
_EMBEDS_V4_LOW32 = tuple(ipaddress.ip_network(block) for block in (
    "::ffff:0:0/96",    # IPv4-mapped (RFC 4291)
    "::/96",            # IPv4-compatible, deprecated (RFC 4291); also :: and ::1 (refused below)
    "::ffff:0:0:0/96",  # IPv4-translated, SIIT (RFC 2765)
    "64:ff9b::/96",     # NAT64 well-known prefix (RFC 6052)
))
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


def check_url(url: str) -> None:
    """Refuse what can never be fetched: other schemes, credentials in the URL, no host."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a malformed port
    except ValueError as error:
        raise MalformedURL(f"malformed URL: {error}") from None
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        raise SourceBlocked(f"only http(s) sources can be fetched, not {parts.scheme or 'a bare path'}:")
    if not parts.hostname:
        raise SourceBlocked("URL has no host")
    if parts.username or parts.password:
        raise SourceBlocked("URLs with embedded credentials are not fetched")


def is_public_address(address: str) -> bool:
    """True for globally reachable unicast addresses only, IPv4 embedded in IPv6 included."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if ip in _METADATA:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        return not any(ip in block for block in _NOT_PUBLIC_V4)
    if ip.sixtofour is not None:  # 2002::/16 carries the IPv4 address in bits 16-48
        return is_public_address(str(ip.sixtofour))
    if int(ip) <= 1:  # :: and ::1, inside ::/96 but not IPv4
        return False
    if any(ip in block for block in _EMBEDS_V4_LOW32):
        return is_public_address(str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)))
    return ip in _GLOBAL_UNICAST_V6 and not any(ip in block for block in _NOT_PUBLIC_V6)


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """An httpcore network backend that connects only to public addresses.

    ``allow_private`` (set from ``CITEMARK_ALLOW_PRIVATE_NETWORK=1``, test-only)
    lets the test suite reach its servers on 127.0.0.1; a test may instead pass
    a predicate ``(address, port) -> bool`` that admits one server and no other.
    """

    def __init__(self, allow_private: bool | Callable[[str, int], bool] = False) -> None:
        self._inner = httpcore.AnyIOBackend()
        self._allow_private = allow_private

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        address = await self.resolve(host, port, timeout)
        return await self._inner.connect_tcp(address, port, timeout, local_address, socket_options)

    async def resolve(self, host: str, port: int, timeout: float | None = None) -> str:
        """The address to connect to, after checking every address ``host`` has."""
        host = host.strip("[]")
        try:
            infos = await asyncio.wait_for(
                asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM),
                timeout,
            )
        except (TimeoutError, OSError) as error:
            raise httpcore.ConnectError(f"cannot resolve {host}: {error}") from None
        addresses = list(dict.fromkeys(info[4][0] for info in infos))
        if not addresses:
            raise httpcore.ConnectError(f"cannot resolve {host}")
        if self._allow_private is not True:
            admit = self._allow_private or (lambda address, port: False)
            refused = [a for a in addresses if not is_public_address(a) and not admit(a, port)]
            if refused:
                raise SourceBlocked(
                    f"{host} resolves to a non-public address ({refused[0]}); "
                    "citemark only fetches public http(s) sources"
                )
        return addresses[0]

    async def connect_unix_socket(self, path: str, timeout=None, socket_options=None):  # noqa: ANN001
        raise SourceBlocked("unix sockets are never used for sources")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


#: httpcore's errors, each of which httpx raises under its own name.
_CORE_ERRORS = (httpcore.TimeoutException, httpcore.NetworkError, httpcore.ProtocolError, httpcore.ProxyError,
                httpcore.UnsupportedProtocol)


class GuardedTransport(httpx.AsyncBaseTransport):
    """An httpx transport whose every connection goes through a ``GuardedBackend``.

    httpx's own transport builds its pool with httpcore's default backend and takes
    no other, so this one builds the pool itself and speaks httpx's transport API
    over it: the request in, the response (streamed) out, httpcore's errors raised
    as httpx's errors of the same name.
    """

    def __init__(self, backend: GuardedBackend, *, ssl_context: ssl.SSLContext, max_connections: int) -> None:
        self._pool = httpcore.AsyncConnectionPool(ssl_context=ssl_context, max_connections=max_connections,
                                                  network_backend=backend)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=request.url.raw_scheme, host=request.url.raw_host, port=request.url.port,
                             target=request.url.raw_path),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        try:
            response = await self._pool.handle_async_request(core)
        except _CORE_ERRORS as error:
            raise _as_httpx(error, request) from error
        return httpx.Response(status_code=response.status, headers=response.headers,
                              stream=_Body(response.stream, request), extensions=response.extensions)

    async def aclose(self) -> None:
        await self._pool.aclose()


class _Body(httpx.AsyncByteStream):
    """A response body read from the pool, its errors raised as httpx's."""

    def __init__(self, stream: Iterable[bytes] | AsyncIterator[bytes], request: httpx.Request) -> None:
        self._stream = stream
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._stream:  # type: ignore[union-attr]
                yield part
        except _CORE_ERRORS as error:
            raise _as_httpx(error, self._request) from error

    async def aclose(self) -> None:
        if hasattr(self._stream, "aclose"):
            await self._stream.aclose()


def _as_httpx(error: Exception, request: httpx.Request) -> httpx.TransportError:
    """httpx's error for one of httpcore's: httpx names each of them alike (ReadTimeout, ConnectError…)."""
    for kind in type(error).__mro__:
        mapped = getattr(httpx, kind.__name__, None)
        if isinstance(mapped, type) and issubclass(mapped, httpx.TransportError):
            return mapped(str(error), request=request)
    return httpx.TransportError(str(error), request=request)
