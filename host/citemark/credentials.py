"""The user's own access to sources (an intranet wiki, a subscription, an API token), kept in the OS keyring.

``citemark auth set HOST`` stores one header (``Authorization``, ``Cookie``, an
API-key header…) for one exact host. The fetcher asks ``lookup(host)`` for
every connection it makes and sends the credential only over https and only to
that host: a redirect to another host is looked up afresh and gets nothing.
Values are never logged and never returned through any door (``auth list``
shows hosts and header names only).

Who may use a credential is part of it. The CLI (the user at a terminal) always
may. A request that comes from a web page (the browser extension) or from an
agent (MCP) is hostile input: if it could make citemark fetch with the user's
cookie, the page would read the user's intranet through citemark (a confused
deputy). Those requesters get a credential only when it was stored with
``--share page`` / ``--share agent``; the default is no.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple

__all__ = ["REQUESTERS", "SERVICE", "forget", "hosts", "keyring_problem", "lookup", "lookup_for", "remember"]

SERVICE = "citemark"
_INDEX = "__hosts__"  # keyring cannot list entries, so the host names are kept in one entry
_HOST = re.compile(r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$")
_HEADER = re.compile(r"^[A-Za-z0-9-]{1,64}$")
_CACHE_SECONDS = 60.0
#: Who asks for a fetch: the user's CLI, a web page through the extension, an agent through MCP.
REQUESTERS = ("cli", "page", "agent")

log = logging.getLogger(__name__)
_cache: dict[str, tuple[float, _Entry | None]] = {}


def _keyring() -> ModuleType:
    """The keyring package, imported at its first use (about 50 ms): a verify that fetches nothing
    over https never asks it for a credential."""
    import keyring
    import keyring.errors

    return keyring


def normalise_host(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    if "://" in host or "/" in host or ":" in host or not _HOST.match(host):
        raise ValueError(f"{host!r} is not a host name (give e.g. wiki.example.org, no scheme or path)")
    return host


def remember(host: str, header: str, value: str, share: tuple[str, ...] = ()) -> None:
    """Store one header for ``host``; ``share`` names the requesters besides the CLI that may use it."""
    host = normalise_host(host)
    if not _HEADER.match(header):
        raise ValueError(f"{header!r} is not a header name")
    if not value or "\n" in value or "\r" in value:
        raise ValueError("the credential value must be one non-empty line")
    unknown = [name for name in share if name not in ("page", "agent")]
    if unknown:
        raise ValueError(f"--share takes 'page' or 'agent', not {unknown[0]!r}")
    keyring = _keyring()
    keyring.set_password(SERVICE, host, json.dumps({"header": header, "value": value, "share": sorted(set(share))}))
    names = set(hosts())
    names.add(host)
    keyring.set_password(SERVICE, _INDEX, json.dumps(sorted(names)))
    _cache.clear()


def forget(host: str) -> bool:
    host = normalise_host(host)
    names = set(hosts())
    existed = host in names
    keyring = _keyring()
    with contextlib.suppress(keyring.errors.KeyringError):
        keyring.delete_password(SERVICE, host)
    names.discard(host)
    keyring.set_password(SERVICE, _INDEX, json.dumps(sorted(names)))
    _cache.clear()
    return existed


def hosts() -> list[str]:
    raw = _keyring().get_password(SERVICE, _INDEX)
    try:
        names = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [n for n in names if isinstance(n, str)]


def header_name(host: str) -> str | None:
    entry = _entry(normalise_host(host))
    return entry.header if entry else None


def shared_with(host: str) -> tuple[str, ...]:
    entry = _entry(normalise_host(host))
    return entry.share if entry else ()


def lookup_for(requester: str) -> Callable[[str], dict[str, str] | None]:
    """The credential lookup for one kind of requester (see the module docstring)."""
    if requester not in REQUESTERS:
        raise ValueError(f"unknown requester {requester!r}")

    def lookup_allowed(host: str) -> dict[str, str] | None:
        entry = _cached_entry(host)
        if entry is None or (requester != "cli" and requester not in entry.share):
            return None
        return {entry.header: entry.value}

    return lookup_allowed


def lookup(host: str) -> dict[str, str] | None:
    """``{header: value}`` for exactly ``host`` as the CLI may use it, or None."""
    return lookup_for("cli")(host)


def _cached_entry(host: str) -> _Entry | None:
    """The stored entry, or None; keyring failures mean None."""
    host = host.lower().rstrip(".")
    now = time.monotonic()
    cached = _cache.get(host)
    if cached and now - cached[0] < _CACHE_SECONDS:
        return cached[1]
    try:
        entry = _entry(host)
    except (_keyring().errors.KeyringError, RuntimeError) as error:
        # Not a warning: without a keyring there are simply no credentials, and a warning here
        # would print on every fetch. ``citemark doctor`` says it once (``keyring_problem``).
        log.info("keyring unavailable; no credentials used (%s)", type(error).__name__)
        entry = None
    _cache[host] = (now, entry)
    return entry


def keyring_problem() -> str | None:
    """Why stored credentials cannot be used on this machine, or None when the keyring answers."""
    keyring = _keyring()
    try:
        keyring.get_password(SERVICE, _INDEX)
    except (keyring.errors.KeyringError, RuntimeError) as error:
        return f"the OS keyring is unavailable ({type(error).__name__}): sources are fetched without credentials"
    return None


class _Entry(NamedTuple):
    header: str
    value: str
    share: tuple[str, ...]


def _entry(host: str) -> _Entry | None:
    if host == _INDEX:
        return None
    raw = _keyring().get_password(SERVICE, host)
    if not raw:
        return None
    try:
        data = json.loads(raw)
        share = tuple(name for name in data.get("share", ()) if name in ("page", "agent"))
        return _Entry(str(data["header"]), str(data["value"]), share)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
