"""Speed of one realistic request: a 10-citation answer over 10 distinct ~6 k-character pages on 127.0.0.1.

    python -m bench.speed [--model NAME] [--out bench/out/speed.json]

Measures, on this machine, with the model warm:
- through the engine (library): time to the first verdict, time to all verdicts,
  NLI pairs per second, peak RSS (and the parser process's);
- through the native host (a real ``citemark host`` subprocess, real pipes):
  start-up to ``hello``, idle RSS after ``hello``, first verdict and all
  verdicts of a cold request (the model loads) and of a warm one;
- the same answer through citesure's overlap tiers, as a ratio;
- cold processes: ``citemark verify`` and ``citesure verify --no-nli`` on the same answer file,
  each a fresh process with an empty cache (best of three wall times, and their CPU).

Targets on a 2-core machine: first verdict ≤ 0.3 s, all ≤ 1.0 s, hello ≤ 0.5 s,
idle RSS ≤ 300 MB. The pages are WiCE-dev sources of 5–7 k characters.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.cases import DATA, load
from bench.systems import _PageServer


def pick_cases(count: int = 10):
    cases = [c for c in load(DATA / "wice-dev.jsonl") if 5000 <= len(c.source) <= 7000]
    return cases[:count]


def answer_markdown(server: _PageServer, cases) -> str:
    claims = " ".join(f"{c.claim.rstrip('.')} [{i}]." for i, c in enumerate(cases, 1))
    sources = "\n".join(f"{i}. {server.url(i - 1)}" for i in range(1, len(cases) + 1))
    return f"{claims}\n\n## Sources\n{sources}\n"


async def through_engine(model: str | None, answer: str, cases) -> dict:  # noqa: ANN001
    from citemark.engine import Engine
    from citemark.scoring import parse
    from citemark.settings import Settings

    settings = Settings(model=model, allow_private_network=True, retries=0)
    engine = Engine(settings, cache=None)
    engine.warm_up()
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        first = None
        count = 0
        async for _verdict in engine.verify(answer):
            count += 1
            first = first or time.perf_counter() - started
        runs.append({"first_verdict_s": round(first or 0.0, 3), "all_verdicts_s": round(time.perf_counter() - started, 3),
                     "verdicts": count})
    model = _model_cost(engine, cases) if engine._scorer is not None else None
    parser = parse.process_id()
    parser_peak = _rss_mb(parser, "VmHWM") if parser is not None else None
    await engine.aclose()
    best = min(runs, key=lambda r: r["all_verdicts_s"])
    return {"model": engine.model_name, "runs": runs, "best": best, "model_cost": model,
            "peak_rss_mb": _peak_rss_mb(), "parser_peak_rss_mb": parser_peak}


def _model_cost(engine, cases) -> dict:  # noqa: ANN001
    """The model's share: the very (window, claim) pairs the engine scores for these claims, timed alone."""
    from citemark.scoring.retrieve import EvidenceIndex

    pairs = []
    for case in cases:
        hits = EvidenceIndex(case.source).search(case.claim, k=engine.settings.evidence_windows)
        pairs += [(hit.text, case.claim) for hit in hits]
    started = time.perf_counter()
    engine._scorer.scorer.score(pairs)
    seconds = time.perf_counter() - started
    return {"pairs": len(pairs), "pairs_per_s": round(len(pairs) / seconds, 1),
            "ms_per_claim": round(1000 * seconds / len(cases), 1)}


def _peak_rss_mb() -> float:
    """This process's peak RSS. VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a bench
    started by a big parent would report the parent's size."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def through_host(model: str | None, answer: str) -> dict:
    home = Path(tempfile.mkdtemp())
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "c"), "XDG_STATE_HOME": str(home / "s"),
           "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_CACHE_TTL": "0", "CITEMARK_RETRIES": "0"}
    if model:
        env["CITEMARK_MODEL"] = model
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "citemark.cli", "host"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)

    def send(message: dict) -> None:
        body = json.dumps(message).encode()
        process.stdin.write(struct.pack("=I", len(body)) + body)
        process.stdin.flush()

    def receive() -> dict:
        (length,) = struct.unpack("=I", process.stdout.read(4))
        return json.loads(process.stdout.read(length))

    send({"v": 1, "id": 0, "type": "hello"})
    receive()
    hello_s = time.perf_counter() - started
    idle_rss = _rss_mb(process.pid)
    result = {"hello_s": round(hello_s, 3), "idle_rss_mb": idle_rss}
    for label in ("cold", "warm"):
        started = time.perf_counter()
        send({"v": 1, "id": label, "type": "verify", "answer": {"format": "markdown", "content": answer}})
        first = None
        while True:
            message = receive()
            if message["type"] == "verdict" and first is None:
                first = time.perf_counter() - started
            if message["type"] in ("done", "error"):
                break
        result[label] = {"first_verdict_s": round(first or 0.0, 3), "all_verdicts_s": round(time.perf_counter() - started, 3)}
    result["busy_rss_mb"] = _rss_mb(process.pid)
    process.stdin.close()
    process.wait(30)
    process.stdout.close()
    return result


def through_citesure(answer: str) -> dict:
    os.environ["CITECHECK_CACHE_DIR"] = tempfile.mkdtemp()
    from citesure import extract_citations
    from citesure.overlap import verify_citations

    citations = extract_citations(answer)
    started = time.perf_counter()
    asyncio.run(verify_citations(citations, use_overlap=True))
    return {"citations": len(citations), "all_verdicts_s": round(time.perf_counter() - started, 3)}


def cold_processes(answer: str, runs: int = 3) -> dict:
    """Wall and CPU seconds of each tool's own command in a fresh process: interpreter, imports, model and
    parser loads, fetching and verdicts (best of ``runs``; a fresh cache every time)."""
    folder = Path(tempfile.mkdtemp())
    (folder / "answer.md").write_text(answer, encoding="utf-8")
    env = {**os.environ, "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_RETRIES": "0"}
    bin_dir = Path(sys.executable).parent
    commands = {
        "citemark": lambda n: [str(bin_dir / "citemark"), "verify", "answer.md", "--no-cache"],
        "citesure": lambda n: [str(bin_dir / "citesure"), "verify", "answer.md", "--no-nli",
                               "--cache-dir", str(folder / f"citesure-cache-{n}")],
    }
    result = {}
    for name, command in commands.items():
        timings = []
        for n in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run(command(n), cwd=folder, env=env, capture_output=True, timeout=300)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            timings.append({"wall_s": round(time.perf_counter() - started, 3), "cpu_s": round(cpu, 3)})
        result[name] = min(timings, key=lambda t: t["wall_s"])
    result["ratio_wall"] = round(result["citemark"]["wall_s"] / max(result["citesure"]["wall_s"], 1e-6), 2)
    return result


def _rss_mb(pid: int, field: str = "VmRSS") -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model")
    parser.add_argument("--out", type=Path, default=Path("bench/out/speed.json"))
    args = parser.parse_args()
    cases = pick_cases()
    server = _PageServer(cases)
    try:
        answer = answer_markdown(server, cases)
        engine = asyncio.run(through_engine(args.model, answer, cases))
        host = through_host(args.model, answer)
        peer = through_citesure(answer)
        cold = cold_processes(answer)
    finally:
        server.close()
    report = {
        "pages": len(cases), "page_chars": [len(c.source) for c in cases], "engine": engine, "host": host,
        "citesure_overlap": peer, "cold_processes": cold,
        "ratio_citemark_to_citesure": round(engine["best"]["all_verdicts_s"] / max(peer["all_verdicts_s"], 1e-6), 2),
        "cpus": os.cpu_count(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    best = engine["best"]
    print(f"engine ({engine['model']}): first verdict {best['first_verdict_s']} s, all {best['all_verdicts_s']} s, "
          f"model {engine['model_cost']}, peak RSS {engine['peak_rss_mb']} MB (the parser's process {engine['parser_peak_rss_mb']} MB)")
    print(f"host: hello {host['hello_s']} s, idle RSS {host['idle_rss_mb']} MB; cold {host['cold']}; warm {host['warm']}; "
          f"busy RSS {host['busy_rss_mb']} MB")
    print(f"citesure overlap tiers: all {peer['all_verdicts_s']} s for {peer['citations']} citations "
          f"(citemark/citesure = {report['ratio_citemark_to_citesure']})")
    print(f"cold processes: citemark verify {cold['citemark']['wall_s']} s ({cold['citemark']['cpu_s']} s CPU), "
          f"citesure verify --no-nli {cold['citesure']['wall_s']} s ({cold['citesure']['cpu_s']} s CPU): "
          f"ratio {cold['ratio_wall']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
