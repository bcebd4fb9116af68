"""Fetching sources over HTTP: bounded, polite, and safe against hostile URLs.

``Fetcher.fetch`` follows redirects itself so that every hop is checked (scheme,
address through ``GuardedBackend``, robots.txt, where credentials may go), and it
enforces the limits in ``Settings``: connect/read timeouts, a deadline per source,
retries with backoff for transient failures, a redirect limit, a body-size cap
(on the decoded stream, so a gzip bomb stops at the cap too), and concurrency
limits per host and overall. Tests pass their own ``transport``.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx
from protego import Protego

from citemark.errors import RobotsDisallowed, SourceError, SourceTooLarge, SourceUnreachable
from citemark.settings import Settings
from citemark.sources.netguard import GuardedBackend, check_url

__all__ = ["CredentialLookup", "FetchResult", "Fetcher"]

#: ``host -> {"header": value}`` for sources that need the user's own access.
CredentialLookup = Callable[[str], dict[str, str] | None]

_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
_REDIRECT_STATUS = frozenset({301, 302, 303, 307, 308})
_ROBOTS_MAX_BYTES = 500_000


@dataclass(frozen=True, slots=True)
class FetchResult:
    url: str  # what was asked for
    final_url: str  # after redirects
    status: int
    content_type: str
    body: bytes
    etag: str | None = None
    last_modified: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


class Fetcher:
    """Async HTTP client for sources; one per engine, shared by all its requests."""

    def __init__(
        self,
        settings: Settings,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        credentials: CredentialLookup | None = None,
    ) -> None:
        self.settings = settings
        self._credentials = credentials
        self._client = httpx.AsyncClient(
            transport=transport or guarded_transport(settings),
            timeout=httpx.Timeout(settings.read_timeout, connect=settings.connect_timeout),
            headers={"User-Agent": settings.user_agent, "Accept": _ACCEPT},
            follow_redirects=False,
            trust_env=False,  # a proxy from the environment would bypass the address guard
        )
        self._total = asyncio.Semaphore(settings.total_concurrency)
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self._robots: dict[str, Protego | None] = {}

    async def aclose(self) -> None:
        await self._client.aclose()

    async def fetch(self, url: str, *, etag: str | None = None, last_modified: str | None = None) -> FetchResult:
        """GET ``url`` within the source deadline; 304 comes back as status 304."""
        try:
            return await asyncio.wait_for(
                self._fetch(url, etag, last_modified), self.settings.source_deadline
            )
        except TimeoutError:
            raise SourceUnreachable(f"timed out after {self.settings.source_deadline:.0f} s") from None

    async def _fetch(self, url: str, etag: str | None, last_modified: str | None) -> FetchResult:
        current = url
        for _ in range(self.settings.max_redirects + 1):
            check_url(current)
            if self.settings.respect_robots and not await self._robots_allow(current):
                raise RobotsDisallowed(f"robots.txt of {urlsplit(current).hostname} disallows fetching it")
            headers = self._credential_headers(current)
            if current == url:
                if etag:
                    headers["If-None-Match"] = etag
                if last_modified:
                    headers["If-Modified-Since"] = last_modified
            response, body = await self._get_with_retries(current, headers)
            if response.status_code in _REDIRECT_STATUS and "location" in response.headers:
                current = urljoin(current, response.headers["location"])
                continue
            if response.status_code == 304:
                return FetchResult(url, current, 304, "", b"", etag, last_modified)
            if response.status_code >= 400:
                raise SourceUnreachable(
                    f"HTTP {response.status_code} {response.reason_phrase}".strip(),
                    status=response.status_code,
                )
            return FetchResult(
                url=url,
                final_url=current,
                status=response.status_code,
                content_type=response.headers.get("content-type", ""),
                body=body,
                etag=response.headers.get("etag"),
                last_modified=response.headers.get("last-modified"),
                headers={k: v for k, v in response.headers.items() if k in {"content-type", "x-robots-tag"}},
            )
        raise SourceUnreachable(f"more than {self.settings.max_redirects} redirects")

    async def _get_with_retries(self, url: str, headers: dict[str, str]) -> tuple[httpx.Response, bytes]:
        delay = self.settings.backoff
        for attempt in range(self.settings.retries + 1):
            last = attempt == self.settings.retries
            try:
                async with self._slot(url):
                    response, body = await self._get(url, headers, self.settings.max_body_bytes)
            except (httpx.TimeoutException, httpx.NetworkError, httpcore.ConnectError) as error:
                if last:
                    raise SourceUnreachable(_describe(error)) from None
            except httpx.HTTPError as error:  # protocol errors, invalid responses
                raise SourceUnreachable(_describe(error)) from None
            else:
                if response.status_code not in _RETRY_STATUS or last:
                    return response, body
                delay = max(delay, min(_retry_after(response), 5.0))
            await asyncio.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # the loop returns or raises

    async def _get(self, url: str, headers: dict[str, str], cap: int) -> tuple[httpx.Response, bytes]:
        async with self._client.stream("GET", url, headers=headers) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > cap:
                raise SourceTooLarge(f"{int(declared):,} bytes is over the {cap:,}-byte limit")
            chunks, size = [], 0
            if response.status_code < 300:
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > cap:
                        raise SourceTooLarge(f"body is over the {cap:,}-byte limit")
                    chunks.append(chunk)
            return response, b"".join(chunks)

    def _slot(self, url: str) -> _Slot:
        host = urlsplit(url).hostname or ""
        semaphore = self._hosts.setdefault(host, asyncio.Semaphore(self.settings.per_host_concurrency))
        return _Slot(self._total, semaphore)

    def _credential_headers(self, url: str) -> dict[str, str]:
        """The user's credential for exactly this host, and only over https."""
        parts = urlsplit(url)
        if self._credentials is None or parts.scheme != "https" or not parts.hostname:
            return {}
        return dict(self._credentials(parts.hostname) or {})

    async def _robots_allow(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            self._robots[origin] = await self._load_robots(origin)
        rules = self._robots[origin]
        return rules is None or rules.can_fetch(url, "citemark")

    async def _load_robots(self, origin: str) -> Protego | None:
        """The origin's rules; a missing or unreadable robots.txt allows everything."""
        try:
            async with self._slot(origin):
                response, body = await asyncio.wait_for(
                    self._get(origin + "/robots.txt", {}, _ROBOTS_MAX_BYTES), self.settings.read_timeout
                )
        except (TimeoutError, httpx.HTTPError, httpcore.ConnectError, SourceError):
            return None
        if response.status_code != 200:
            return None
        return Protego.parse(body.decode("utf-8", errors="replace"))


class _Slot:
    """Holds the overall and the per-host concurrency permit for one request."""

    def __init__(self, total: asyncio.Semaphore, host: asyncio.Semaphore) -> None:
        self._total, self._host = total, host

    async def __aenter__(self) -> None:
        await self._host.acquire()
        try:
            await self._total.acquire()
        except BaseException:
            self._host.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._total.release()
        self._host.release()


def guarded_transport(settings: Settings) -> httpx.AsyncHTTPTransport:
    """httpx's transport with its connection pool built on ``GuardedBackend``.

    httpx does not take a network backend, so the pool it made is replaced by one
    with the same TLS context that connects through the guard.
    """
    transport = httpx.AsyncHTTPTransport(retries=0)
    if settings.ca_bundle:
        context = ssl.create_default_context(cafile=str(settings.ca_bundle))
    else:
        context = httpx.create_ssl_context()
    transport._pool = httpcore.AsyncConnectionPool(  # noqa: SLF001 - see docstring
        ssl_context=context,
        max_connections=settings.total_concurrency * 2,
        network_backend=GuardedBackend(allow_private=settings.allow_private_network),
    )
    return transport


def _retry_after(response: httpx.Response) -> float:
    value = response.headers.get("retry-after", "")
    return float(value) if value.replace(".", "", 1).isdigit() else 0.0


def _describe(error: Exception) -> str:
    if isinstance(error, httpx.TimeoutException):
        return "timed out"
    text = str(error) or type(error).__name__
    if "Name or service not known" in text or "cannot resolve" in text or "nodename" in text:
        return "host not found (DNS)"
    if "Connection refused" in text or "Errno 111" in text:
        return "connection refused"
    return text


_ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5"

