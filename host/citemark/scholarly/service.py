"""The HTTP client the Crossref, arXiv and OpenAlex clients share: polite, paced, cached, guarded.

- **Polite.** The User-Agent names citemark and, when ``scholarly_contact`` is set,
  carries ``mailto:`` (Crossref's and OpenAlex's polite pools ask for it).
- **Paced.** One pacer per service keeps requests ``*_interval`` seconds apart
  (arXiv asks for one every three seconds), across every concurrent lookup, and
  slower still when the service announces a lower limit (Crossref's
  ``X-Rate-Limit-Limit`` / ``X-Rate-Limit-Interval``).
- **Rate limits.** A 429 or 503 is retried after its ``Retry-After`` (seconds or an
  HTTP date); a wait longer than ``scholarly_max_wait`` is not waited out: the
  lookup fails with ``LookupUnavailable`` and the reference is ``unverifiable``.
- **Guarded.** Requests go through the fetch layer's guarded transport: public
  addresses only, checked at connect time, unless the test-only
  ``CITEMARK_ALLOW_PRIVATE_NETWORK=1`` is set (the API bases are settings, so the
  test suite points them at servers on 127.0.0.1).
- **Cached.** Answers (200 and 404) go to ``RecordCache`` once read; errors and malformed answers never do.
- **Fails fast.** A service that could not be reached (no connection, no answer in
  time) is not asked again for ``DOWN_FOR`` seconds: offline, a 15-entry list is
  unverifiable in seconds, not after every lookup has waited out its pacer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlencode

import httpx

from citemark.errors import LookupUnavailable, SourceBlocked, SourceTooLarge, SourceUnreachable
from citemark.scholarly.cache import RecordCache
from citemark.settings import Settings
from citemark.sources.encoding import ACCEPT_ENCODING, read_capped
from citemark.sources.fetch import guarded_transport, retry_after
from citemark.sources.netguard import check_url

__all__ = ["ScholarlyHTTP"]

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_RECORD_BYTES = 5_000_000
DOWN_FOR = 60.0  # seconds an unreachable service is not asked again
_RATE_LIMITED = frozenset({429, 503})
_RETRY = frozenset({500, 502, 504})


class _Pacer:
    """Spaces one service's requests ``interval`` seconds apart, whoever sends them."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._lock = asyncio.Lock()
        self._next = 0.0
        self._sent = 0.0
        self.down_until = 0.0  # while the service is unreachable nobody waits a turn: they fail at once

    async def wait(self) -> None:
        async with self._lock:
            now = time.monotonic()
            if self._next > now and now >= self.down_until:
                await asyncio.sleep(self._next - now)
            self._sent = time.monotonic()
            self._next = self._sent + self.interval

    def follow(self, headers: httpx.Headers) -> None:
        """Crossref announces its limit (``X-Rate-Limit-Limit: 50``, ``X-Rate-Limit-Interval: 1s``): keep under it."""
        limit, interval = headers.get("x-rate-limit-limit", ""), headers.get("x-rate-limit-interval", "")
        if limit.isdigit() and int(limit) > 0 and interval.endswith("s") and interval[:-1].isdigit():
            self.interval = max(self.interval, int(interval[:-1]) / int(limit))
            self._next = max(self._next, self._sent + self.interval)

    def hold(self, seconds: float) -> None:
        """The service said Retry-After: nobody asks it again before then."""
        self._next = max(self._next, time.monotonic() + seconds)


class ScholarlyHTTP:
    """GET JSON or Atom from a scholarly API; ``None`` for 404, bytes for 200, ``LookupUnavailable`` otherwise."""

    def __init__(self, settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None,
                 cache: RecordCache | None = None) -> None:
        self.settings = settings
        self.cache = cache
        contact = settings.scholarly_contact.strip()
        self.user_agent = settings.user_agent.replace(")", f"; mailto:{contact})") if contact else settings.user_agent
        self._client = httpx.AsyncClient(
            transport=transport or guarded_transport(settings),
            timeout=httpx.Timeout(settings.read_timeout, connect=settings.connect_timeout),
            headers={"User-Agent": self.user_agent, "Accept-Encoding": ACCEPT_ENCODING},
            follow_redirects=True,  # every hop goes through the guarded transport
            max_redirects=settings.max_redirects,
            trust_env=False,
        )
        self._pacers = {
            "crossref": _Pacer(settings.crossref_interval),
            "arxiv": _Pacer(settings.arxiv_interval),
            "openalex": _Pacer(settings.openalex_interval),
        }
        self.requests_sent = 0
        self._down: dict[str, tuple[float, str]] = {}  # service → (until, why), after it could not be reached

    async def aclose(self) -> None:
        await self._client.aclose()
        if self.cache:
            self.cache.close()

    async def get(self, service: str, base: str, path: str, params: dict[str, str] | None,
                  parse: Callable[[bytes], T], *, accept: str = "application/json") -> T | None:
        """``parse`` of the body of ``base + path ? params``; None for 404. The contact e-mail is added
        where the service takes one; an answer is cached only once ``parse`` has accepted it."""
        query = dict(params or {})
        url = base.rstrip("/") + path + (("?" + urlencode(query)) if query else "")
        cached = await asyncio.to_thread(self.cache.get, url) if self.cache else None
        if cached is not None:
            status, body = cached
            return parse(body) if status == 200 else None
        sent = url
        if self.settings.scholarly_contact and service in ("crossref", "openalex"):
            query["mailto"] = self.settings.scholarly_contact.strip()
            sent = base.rstrip("/") + path + "?" + urlencode(query)
        try:
            check_url(sent)
        except SourceBlocked as error:
            raise LookupUnavailable(f"{service}: {error.message}") from None
        status, body = await self._get(service, sent, accept)
        result = parse(body) if status == 200 else None  # LookupUnavailable for a malformed answer: not cached
        if self.cache:
            await asyncio.to_thread(self.cache.put, url, status, body)
        return result

    async def _get(self, service: str, url: str, accept: str) -> tuple[int, bytes]:
        pacer = self._pacers[service]
        attempts = self.settings.retries + 1
        for attempt in range(attempts):
            self._fail_if_down(service)
            await pacer.wait()
            self._fail_if_down(service)  # it went down while this request waited its turn
            self.requests_sent += 1
            try:
                status, headers, body = await self._send(url, accept)
            except SourceBlocked as error:
                raise LookupUnavailable(f"{service}: {error.message}") from None
            except httpx.TooManyRedirects:
                raise LookupUnavailable(f"{service}: too many redirects") from None
            except (httpx.TimeoutException, httpx.NetworkError) as error:
                # No connection at all (offline, a name that does not resolve) is not retried: it would
                # only wait out the pacer again. A request that broke off mid-way is.
                if attempt + 1 == attempts or isinstance(error, httpx.ConnectError | httpx.ConnectTimeout):
                    why = _in_words(error, self.settings.read_timeout)
                    self._down[service] = (time.monotonic() + DOWN_FOR, why)
                    pacer.down_until = time.monotonic() + DOWN_FOR
                    raise LookupUnavailable(f"{service} could not be reached ({why})") from None
                await asyncio.sleep(self.settings.backoff * 2**attempt)
                continue
            except httpx.HTTPError as error:
                raise LookupUnavailable(f"{service}: {error}") from None
            if status in (200, 404):
                pacer.follow(headers)
                return status, body
            if status in _RATE_LIMITED:
                wait = retry_after(headers.get("retry-after", ""))
                if wait is None:
                    wait = self.settings.backoff * 2**attempt
                if wait > self.settings.scholarly_max_wait or attempt + 1 == attempts:
                    pacer.hold(min(wait, self.settings.scholarly_max_wait))
                    raise LookupUnavailable(f"{service} is rate-limiting citemark (HTTP {status}, retry after {wait:.0f} s)")
                log.info("%s answered %d; retrying in %.1f s", service, status, wait)
                pacer.hold(wait)
                continue
            if status in _RETRY and attempt + 1 < attempts:
                await asyncio.sleep(self.settings.backoff * 2**attempt)
                continue
            raise LookupUnavailable(f"{service} answered HTTP {status}")
        raise AssertionError("unreachable")  # the loop returns or raises

    def _fail_if_down(self, service: str) -> None:
        until, why = self._down.get(service, (0.0, ""))
        if time.monotonic() < until:
            raise LookupUnavailable(f"{service} could not be reached ({why})")

    async def _send(self, url: str, accept: str) -> tuple[int, httpx.Headers, bytes]:
        async with self._client.stream("GET", url, headers={"Accept": accept}) as response:
            try:  # capped on the raw stream and every decoded layer, as the fetcher reads sources
                body = await read_capped(response, MAX_RECORD_BYTES) if response.status_code == 200 else b""
            except SourceTooLarge:
                raise LookupUnavailable(f"a record over {MAX_RECORD_BYTES:,} bytes") from None
            except SourceUnreachable as error:  # an encoding citemark does not read, a corrupt body
                raise LookupUnavailable(error.message) from None
            return response.status_code, response.headers, body


def _in_words(error: httpx.HTTPError, timeout: float) -> str:
    """What went wrong, for a person: not httpx's class name."""
    if isinstance(error, httpx.ConnectTimeout):
        return "no connection within the time allowed"
    if isinstance(error, httpx.TimeoutException):
        return f"no answer within {timeout:.0f} s"
    if isinstance(error, httpx.ConnectError):
        return "no connection: offline, or the name did not resolve"
    return "the connection broke off"
