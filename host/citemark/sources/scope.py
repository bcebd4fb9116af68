"""What a fetch was allowed to do, so a cached copy goes only to requests that could have fetched it.

One SQLite cache serves the CLI, the MCP server and the browser host. A page the
CLI fetched with the user's intranet cookie, or a loopback page a test run fetched
with private addresses allowed, must not be served later to a web page's request,
which may use neither. Every cache entry therefore records its ``FetchScope``, and
a lookup is served only when the current request's scope covers it.

Credentials are recorded by a fingerprint per host (a truncated SHA-256 of the
header and value), never by value: after ``citemark auth remove`` or a changed
token the fingerprint no longer matches and the entry is refetched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["FetchScope", "fingerprint"]


def fingerprint(headers: Mapping[str, str]) -> str:
    joined = "\n".join(f"{name.lower()}\0{value}" for name, value in sorted(headers.items()))
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class FetchScope:
    """``private_network``: fetched with non-public addresses allowed (test-only switch).
    ``credentials``: ``(host, fingerprint)`` of every credential sent on the way."""

    private_network: bool = False
    credentials: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> str:
        return json.dumps({"private_network": self.private_network, "credentials": [list(c) for c in self.credentials]})

    @classmethod
    def from_json(cls, raw: str | None) -> FetchScope | None:
        """None for an entry written before scopes were recorded: it is served to no one."""
        if not raw:
            return None
        try:
            data = json.loads(raw)
            return cls(bool(data["private_network"]), tuple((str(h), str(f)) for h, f in data["credentials"]))
        except (ValueError, KeyError, TypeError):
            return None

    def served_to(self, *, private_network: bool, credential_for: Callable[[str], Mapping[str, str] | None]) -> bool:
        """Could a request with these permissions have made this fetch itself?"""
        if self.private_network and not private_network:
            return False
        for host, expected in self.credentials:
            current = credential_for(host)
            if not current or fingerprint(current) != expected:
                return False
        return True
