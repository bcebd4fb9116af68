"""The user's own access to sources (an intranet wiki, a subscription, an API token), kept in the OS keyring.

``citemark auth set HOST`` stores one header (``Authorization``, ``Cookie``, an
API-key header…) for one exact host. The fetcher asks ``lookup(host)`` for
every connection it makes and sends the credential only over https and only to
that host: a redirect to another host is looked up afresh and gets nothing.
Values are never logged and never returned through any door (``auth list``
shows hosts and header names only).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time

import keyring
from keyring.errors import KeyringError

__all__ = ["SERVICE", "forget", "hosts", "lookup", "remember"]

SERVICE = "citemark"
_INDEX = "__hosts__"  # keyring cannot list entries, so the host names are kept in one entry
_HOST = re.compile(r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$")
_HEADER = re.compile(r"^[A-Za-z0-9-]{1,64}$")
_CACHE_SECONDS = 60.0

log = logging.getLogger(__name__)
_cache: dict[str, tuple[float, dict[str, str] | None]] = {}


def normalise_host(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    if "://" in host or "/" in host or ":" in host or not _HOST.match(host):
        raise ValueError(f"{host!r} is not a host name (give e.g. wiki.example.org, no scheme or path)")
    return host


def remember(host: str, header: str, value: str) -> None:
    host = normalise_host(host)
    if not _HEADER.match(header):
        raise ValueError(f"{header!r} is not a header name")
    if not value or "\n" in value or "\r" in value:
        raise ValueError("the credential value must be one non-empty line")
    keyring.set_password(SERVICE, host, json.dumps({"header": header, "value": value}))
    names = set(hosts())
    names.add(host)
    keyring.set_password(SERVICE, _INDEX, json.dumps(sorted(names)))
    _cache.clear()


def forget(host: str) -> bool:
    host = normalise_host(host)
    names = set(hosts())
    existed = host in names
    with contextlib.suppress(KeyringError):
        keyring.delete_password(SERVICE, host)
    names.discard(host)
    keyring.set_password(SERVICE, _INDEX, json.dumps(sorted(names)))
    _cache.clear()
    return existed


def hosts() -> list[str]:
    raw = keyring.get_password(SERVICE, _INDEX)
    try:
        names = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [n for n in names if isinstance(n, str)]


def header_name(host: str) -> str | None:
    entry = _entry(normalise_host(host))
    return entry[0] if entry else None


def lookup(host: str) -> dict[str, str] | None:
    """``{header: value}`` for exactly ``host``, or None; keyring failures mean None."""
    host = host.lower().rstrip(".")
    now = time.monotonic()
    cached = _cache.get(host)
    if cached and now - cached[0] < _CACHE_SECONDS:
        return cached[1]
    try:
        entry = _entry(host)
    except (KeyringError, RuntimeError) as error:
        log.warning("keyring unavailable; no credentials used (%s)", type(error).__name__)
        entry = None
    result = {entry[0]: entry[1]} if entry else None
    _cache[host] = (now, result)
    return result


def _entry(host: str) -> tuple[str, str] | None:
    if host == _INDEX:
        return None
    raw = keyring.get_password(SERVICE, host)
    if not raw:
        return None
    try:
        data = json.loads(raw)
        return str(data["header"]), str(data["value"])
    except (ValueError, KeyError, TypeError):
        return None
