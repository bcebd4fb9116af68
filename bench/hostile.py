"""Load and memory under hostile input: what each attack costs the native host, measured.

    python -m bench.hostile [--model NAME] [--only NAME ...] [--out bench/out/hostile.json]

For each attack a fresh ``citemark host`` subprocess (real pipes, sources on
127.0.0.1) is pinged every 0.2 s while the attack runs, and an ordinary
one-citation request is sent alongside it. Reported per attack: seconds until
the attack is answered, the slowest ping, the ordinary request's time to its
verdict, and the host's peak RSS (VmHWM). ``tests/hostile`` asserts the limits
(ping < 1 s, RSS < 400 MB); this script prints the numbers for the report.
The host and servers come from the test suite's support code (``tests.support``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import LoopbackServer, Reply
from tests.hostile.conftest import besiege
from tests.support.host import HostProcess, host_environment

DANUBE = ("<html><head><title>Rivers</title></head><body><article><p>The Danube flows for 2,850 kilometres.</p>"
          "<p>It empties into the Black Sea.</p></article></body></html>")
CLAIM = "The Danube flows for 2,850 kilometres"


def _answer(*urls: str) -> dict[str, str]:
    markers = "".join(f"[{i}]" for i in range(1, len(urls) + 1))
    sources = "\n".join(f"{i}. {u}" for i, u in enumerate(urls, 1))
    return {"format": "markdown", "content": f"{CLAIM} {markers}.\n\nSources\n{sources}\n"}


def _bomb() -> bytes:
    inner = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * (1 << 20)
    return gzip.compress(b"".join([inner.compress(block) for _ in range(1024)] + [inner.flush()]), 9)


def stacked_gzip(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    server.routes["/bomb"] = Reply(_bomb(), headers={"Content-Type": "text/html", "Content-Encoding": "gzip, gzip"})
    return {"v": 1, "id": "attack", "type": "verify", "answer": _answer(server.url("/bomb"))}


def nested_source(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    server.routes["/deep"] = Reply("<div>" * 1_000_000 + f"<p>{CLAIM}.</p>" + "</div>" * 1_000_000)
    return {"v": 1, "id": "attack", "type": "verify", "answer": _answer(server.url("/deep"))}


def robots_of_many_origins(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    rules = "".join(f"User-agent: bot{i}\nDisallow: /p{i}/*/x$\nAllow: /q{i}\n" for i in range(12_000))[:499_000]
    for origin in extra:
        origin.routes["/robots.txt"] = Reply(rules, headers={"Content-Type": "text/plain"})
        origin.routes["/danube"] = Reply(DANUBE)
    return {"v": 1, "id": "attack", "type": "verify", "answer": _answer(*(o.url("/danube") for o in extra))}


def long_selection(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    words = [f"term{i}" for i in range(5000)]
    sentences = [" ".join(words[(i * 7 + j) % 5000] for j in range(6)).capitalize() + "." for i in range(50_000)]
    server.routes["/long"] = Reply("\n".join(sentences), headers={"Content-Type": "text/plain; charset=utf-8"})
    return {"v": 1, "id": "attack", "type": "verify_selection", "text": " ".join(words[:3000])[:20_000],
            "url": server.url("/long")}


def many_citations(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    server.routes["/danube"] = Reply(DANUBE)
    content = "".join(f"Claim {i}: {CLAIM} [{i}].\n" for i in range(1, 5001))
    content += "\n" + "".join(f"[{i}]: {server.url('/danube')}?n={i}\n" for i in range(1, 5001))
    return {"v": 1, "id": "attack", "type": "verify", "answer": {"format": "markdown", "content": content}}


def nested_answer(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    server.routes["/danube"] = Reply(DANUBE)
    html = "<div>" * 27_000 + f'<p>{CLAIM} <a href="{server.url("/danube")}">1</a>.</p>' + "</div>" * 27_000
    return {"v": 1, "id": "attack", "type": "verify", "answer": {"format": "html", "content": html}}


def repeated_markers(server: LoopbackServer, extra: list[LoopbackServer]) -> dict[str, Any]:
    server.routes["/danube"] = Reply(DANUBE)
    content = f"{CLAIM} " + "[1]" * 12_000 + f".\n\n[1]: {server.url('/danube')}\n"
    return {"v": 1, "id": "attack", "type": "verify", "answer": {"format": "markdown", "content": content}}


ATTACKS: dict[str, Callable[[LoopbackServer, list[LoopbackServer]], dict[str, Any]]] = {
    "stacked gzip bomb (1 GB in ~1 kB)": stacked_gzip,
    "source of 1M nested divs (11 MB)": nested_source,
    "30 origins, 500 kB robots.txt each": robots_of_many_origins,
    "20 k-character selection, 50 k-sentence source": long_selection,
    "5,000 citations in one answer": many_citations,
    "300 kB answer of nested divs": nested_answer,
    "12,000 [1] markers": repeated_markers,
}


def run_attack(name: str, env: dict[str, str]) -> dict[str, Any]:
    extra = [LoopbackServer().__enter__() for _ in range(30 if "robots" in name else 0)]
    with LoopbackServer() as server:
        server.routes["/ordinary"] = Reply(DANUBE)
        host = HostProcess(env)
        try:
            host.send({"v": 1, "id": "warm", "type": "verify", "answer": _answer(server.url("/ordinary") + "?warm")})
            host.until("warm", "done", timeout=120)
            request = ATTACKS[name](server, extra)
            started = time.monotonic()
            host.send({"v": 1, "id": "ordinary", "type": "verify", "answer": _answer(server.url("/ordinary"))})
            siege = besiege(host, request, ("attack", ("done", "error")), timeout=300)
            answered = time.monotonic() - started
            ordinary = [f for f in siege.frames if f.get("id") == "ordinary" and f["type"] == "done"]
            if not ordinary:
                ordinary = host.until("ordinary", "done", timeout=60)
            return {"attack": name, "answered_s": round(answered, 2), "slowest_ping_s": round(siege.slowest_ping, 3),
                    "pings": siege.pings, "peak_rss_mb": round(siege.peak_mb), "outcome": siege.frames[-1]["type"]}
        finally:
            host.close()
            for origin in extra:
                origin.__exit__(None, None, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="none", help="model pack for the host (default: none, lexical-only)")
    parser.add_argument("--only", nargs="*", help="run only attacks whose name contains one of these words")
    parser.add_argument("--out", type=Path, default=Path("bench/out/hostile.json"))
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="citemark-hostile-"))
    env = {**host_environment(home, model=args.model),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(Path("host").resolve()), os.environ.get("PYTHONPATH")]))}
    names = [n for n in ATTACKS if not args.only or any(word in n for word in args.only)]
    rows = []
    print(f"{'attack':<48} {'answered':>9} {'slowest ping':>13} {'peak RSS':>9}  outcome")
    for name in names:
        row = run_attack(name, env)
        rows.append(row)
        print(f"{name:<48} {row['answered_s']:>8.2f}s {row['slowest_ping_s']:>12.3f}s {row['peak_rss_mb']:>6} MB  {row['outcome']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"model": args.model, "rows": rows}, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
