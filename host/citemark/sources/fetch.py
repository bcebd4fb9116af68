"""Fetching sources over HTTP: bounded, polite, and safe against hostile URLs.

``Fetcher.fetch`` follows redirects itself so that every hop is checked (scheme,
address through ``GuardedBackend``, robots.txt, where credentials may go), and it
enforces the limits in ``Settings``: connect/read timeouts, a deadline per source,
retries with backoff for transient failures, a redirect limit, a body-size cap
(on the raw stream and on every decoded layer, ``sources.encoding``, so a
stacked gzip bomb stops at the cap too), and concurrency
limits per host and overall. Tests pass their own ``transport``.
"""

from __future__ import annotations

import asyncio
import email.utils
import re
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx
from protego import Protego

from citemark.errors import MalformedURL, RobotsDisallowed, SourceError, SourceTooLarge, SourceUnreachable
from citemark.settings import Settings
from citemark.sources.encoding import ACCEPT_ENCODING, read_capped
from citemark.sources.netguard import GuardedBackend, GuardedTransport, check_url
from citemark.sources.robots import RobotsCache, rules_for_us
from citemark.sources.scope import FetchScope, fingerprint

__all__ = ["CredentialLookup", "FetchResult", "Fetcher", "retry_after"]

#: ``host -> {"header": value}`` for sources that need the user's own access.
CredentialLookup = Callable[[str], dict[str, str] | None]

_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
_REDIRECT_STATUS = frozenset({301, 302, 303, 307, 308})
_ROBOTS_MAX_BYTES = 500_000
_SECONDS = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,3})?")


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
    scope: FetchScope = FetchScope()  # what this fetch was allowed to do, recorded with its cache entry


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
        # A transport a caller passes in (tests) may reach anything: its results count as private.
        self.private_network = settings.allow_private_network or transport is not None
        self._client = httpx.AsyncClient(
            transport=transport or guarded_transport(settings),
            timeout=httpx.Timeout(settings.read_timeout, connect=settings.connect_timeout),
            headers={"User-Agent": settings.user_agent, "Accept": _ACCEPT, "Accept-Encoding": ACCEPT_ENCODING},
            follow_redirects=False,
            trust_env=False,  # a proxy from the environment would bypass the address guard
        )
        self._total = asyncio.Semaphore(settings.total_concurrency)
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self._robots = RobotsCache()

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
        sent: dict[str, str] = {}
        for _ in range(self.settings.max_redirects + 1):
            check_url(current)
            if self.settings.respect_robots and not await self._robots_allow(current):
                raise RobotsDisallowed(f"robots.txt of {urlsplit(current).hostname} disallows fetching it")
            headers = self._credential_headers(current)
            if headers:
                sent[urlsplit(current).hostname or ""] = fingerprint(headers)
            if current == url:
                if etag:
                    headers["If-None-Match"] = etag
                if last_modified:
                    headers["If-Modified-Since"] = last_modified
            response, body = await self._get_with_retries(current, headers)
            if response.status_code in _REDIRECT_STATUS and "location" in response.headers:
                current = urljoin(current, response.headers["location"])
                continue
            scope = FetchScope(self.private_network, tuple(sorted(sent.items())))
            if response.status_code == 304:
                return FetchResult(url, current, 304, "", b"", etag, last_modified, scope=scope)
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
                scope=scope,
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
            except (httpx.InvalidURL, UnicodeError) as error:  # '0177.0.0.1', a NUL in the path, host '☃.example'
                raise MalformedURL(f"malformed URL: {error}") from None
            else:
                if response.status_code not in _RETRY_STATUS or last:
                    return response, body
                delay = max(delay, min(retry_after(response.headers.get("retry-after", "")) or 0.0, 5.0))
            await asyncio.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # the loop returns or raises

    async def _get(self, url: str, headers: dict[str, str], cap: int) -> tuple[httpx.Response, bytes]:
        async with self._client.stream("GET", url, headers=headers) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > cap:
                raise SourceTooLarge(f"{int(declared):,} bytes is over the {cap:,}-byte limit")
            return response, await read_capped(response, cap) if response.status_code < 300 else b""

    def _slot(self, url: str) -> _Slot:
        host = urlsplit(url).hostname or ""
        semaphore = self._hosts.setdefault(host, asyncio.Semaphore(self.settings.per_host_concurrency))
        return _Slot(self._total, semaphore)

    def credential_for(self, host: str) -> dict[str, str] | None:
        """The credential this fetcher would send to ``host`` now (for cache scope checks)."""
        return self._credentials(host) if self._credentials is not None else None

    def _credential_headers(self, url: str) -> dict[str, str]:
        """The user's credential for exactly this host, and only over https."""
        parts = urlsplit(url)
        if self._credentials is None or parts.scheme != "https" or not parts.hostname:
            return {}
        return dict(self._credentials(parts.hostname) or {})

    async def _robots_allow(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        rules = await self._robots.get(origin, self._load_robots)
        return rules is None or rules.can_fetch(url, "citemark")

    async def _load_robots(self, origin: str) -> tuple[Protego | None, int]:
        """The origin's rules and their size; a missing or unreadable robots.txt allows everything."""
        try:
            async with self._slot(origin):
                response, body = await asyncio.wait_for(
                    self._get(origin + "/robots.txt", {}, _ROBOTS_MAX_BYTES), self.settings.read_timeout
                )
        except (TimeoutError, httpx.HTTPError, httpx.InvalidURL, httpcore.ConnectError, SourceError):
            return None, 0
        if response.status_code != 200:
            return None, 0
        relevant = rules_for_us(body.decode("utf-8", errors="replace"))
        rules = await asyncio.to_thread(Protego.parse, relevant)
        return rules, len(relevant)


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


def guarded_transport(settings: Settings, *,
                      allow_private: bool | Callable[[str, int], bool] | None = None) -> GuardedTransport:
    """The transport every fetch goes through: connections only to public addresses (``GuardedBackend``),
    with the settings' TLS trust and connection limit; ``allow_private`` overrides the settings'
    ``allow_private_network`` (a test admits its one server with a predicate ``(address, port) -> bool``)."""
    if settings.ca_bundle:
        context = ssl.create_default_context(cafile=str(settings.ca_bundle))
    else:
        context = httpx.create_ssl_context()
    backend = GuardedBackend(allow_private=settings.allow_private_network if allow_private is None else allow_private)
    return GuardedTransport(backend, ssl_context=context, max_connections=settings.total_concurrency * 2)


def retry_after(value: str, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: ASCII delta-seconds or an HTTP date; None when
    absent or unreadable ('²' and other Unicode digits included)."""
    value = value.strip()
    if _SECONDS.fullmatch(value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - (now or time.time()))


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

