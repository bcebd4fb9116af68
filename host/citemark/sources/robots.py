"""robots.txt for the fetcher: only the rules that apply to citemark, kept per origin within a budget.

The fetcher asks ``RobotsCache.get`` before every request; the file itself is
fetched by the fetcher (same limits, same address guard) and parsed by Protego.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from protego import Protego

__all__ = ["MAX_RULES", "RobotsCache", "rules_for_us"]

MAX_RULES = 2_000


class RobotsCache:
    """Parsed robots.txt per origin, least recently used first out, within a byte budget.

    A parsed file costs about 35 times its size in memory, and one answer may cite
    hundreds of origins, so the budget counts the bytes of the files kept. Concurrent
    fetches from one origin share one robots.txt request.
    """

    BUDGET_BYTES = 2_000_000
    MAX_ORIGINS = 512

    def __init__(self) -> None:
        self._rules: OrderedDict[str, tuple[Protego | None, int]] = OrderedDict()
        self._loading: dict[str, asyncio.Future[tuple[Protego | None, int]]] = {}
        self._bytes = 0

    async def get(
        self, origin: str, load: Callable[[str], Awaitable[tuple[Protego | None, int]]]
    ) -> Protego | None:
        if origin in self._rules:
            self._rules.move_to_end(origin)
            return self._rules[origin][0]
        future = self._loading.get(origin)
        if future is None:
            future = asyncio.ensure_future(load(origin))
            self._loading[origin] = future
            future.add_done_callback(lambda done: self._keep(origin, done))
        rules, _size = await asyncio.shield(future)
        return rules

    def _keep(self, origin: str, done: asyncio.Future[tuple[Protego | None, int]]) -> None:
        self._loading.pop(origin, None)
        if done.cancelled() or done.exception() is not None:
            return
        rules, size = done.result()
        self._rules[origin] = (rules, size)
        self._bytes += size
        while self._rules and (self._bytes > self.BUDGET_BYTES or len(self._rules) > self.MAX_ORIGINS):
            _, (_, dropped) = self._rules.popitem(last=False)
            self._bytes -= dropped


def rules_for_us(robots: str) -> str:
    """The groups of a robots.txt that apply to citemark (``citemark`` or ``*``), at most ``MAX_RULES`` lines.

    Protego parses a 500 kB file in over a second into 17 MB of objects; the
    groups for other crawlers are most of any large file and never consulted.
    """
    kept: list[str] = []
    in_group, ours, rules = False, False, 0
    for line in robots.splitlines():
        field, _, value = line.partition("#")[0].partition(":")
        field = field.strip().lower()
        if field == "user-agent":
            if not in_group:  # a new group starts with its first User-agent line
                in_group, ours = True, False
            agent = value.strip().lower()
            ours = ours or agent == "*" or "citemark" in agent
            kept.append(line)
        elif field in ("allow", "disallow", "crawl-delay"):
            in_group = False
            if ours and rules < MAX_RULES:
                kept.append(line)
                rules += 1
    return "\n".join(kept)
