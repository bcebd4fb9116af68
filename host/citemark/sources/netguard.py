"""The public-address-only policy for fetching what a web page or an agent cites.

A URL in an AI answer is hostile input: it may point at ``http://127.0.0.1:8080/admin``,
a router on ``192.168.1.1``, or the cloud metadata service. The guard therefore
works at the socket: every TCP connection httpx opens — the first request and
every redirect — goes through ``GuardedBackend.connect_tcp``, which resolves the
host itself, refuses the connection unless *every* address is public, and then
connects to the address it checked (no second lookup an attacker's DNS could
answer differently).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

import httpcore

from citemark.errors import SourceBlocked

__all__ = ["GuardedBackend", "check_url", "is_public_address"]

ALLOWED_SCHEMES = frozenset({"http", "https"})
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


def check_url(url: str) -> None:
    """Refuse what can never be fetched: other schemes, credentials in the URL, no host."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a malformed port
    except ValueError as error:
        raise SourceBlocked(f"malformed URL: {error}") from None
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        raise SourceBlocked(f"only http(s) sources can be fetched, not {parts.scheme or 'a bare path'}:")
    if not parts.hostname:
        raise SourceBlocked("URL has no host")
    if parts.username or parts.password:
        raise SourceBlocked("URLs with embedded credentials are not fetched")


def is_public_address(address: str) -> bool:
    """True for globally routable unicast addresses only."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if mapped is not None:
            return is_public_address(str(mapped))
    return ip.is_global and not ip.is_multicast and ip not in _METADATA


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
