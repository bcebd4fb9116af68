"""Speed of ``citemark batch`` on one machine: many answers over shared sources on 127.0.0.1.

    python -m bench.batch [--answers 2000] [--citations 10] [--sources 500] [--model NAME]
                          [--concurrency 16] [--ray] [--out bench/out/batch.json]

The answers are Markdown, ``--citations`` claims each, every claim citing one of
``--sources`` distinct pages (WiCE-dev and AttributionBench-dev sources, served as HTML
by a separate process on 127.0.0.1); a claim is its case's claim or a sentence of its
page. The batch runs through the same parts as ``citemark batch`` (``engine_slot``,
``verify_batch``, ``ResultsFile``) from a cold cache, and the script prints:

- answers per minute and claims per second, peak RSS;
- time per stage: fetch (wall, summed over overlapping fetches), and the busy time of
  extraction, indexing and retrieval (CPU of the threads doing them), the model (wall
  time of its worker thread) and the rest of the event loop's CPU (parsing, guards,
  binding, combiner, JSON), with each one's share of that busy time;
- the model-bound limit, measured in the same run: the model's own pairs/s on a
  sample of the very pairs the batch scored, timed alone, divided by the pairs one
  answer needed; and the share of that limit the batch reached (target ≥ 80 %). Fixed
  probe pairs are timed before and after as well: on a shared machine the model's
  speed moves with the load, and the probes show by how much;
- with ``--ray``: the same input on a local Ray cluster of 2 CPUs (one actor), local and
  Ray passes in turn (``--ray-rounds``, each from a cold cache), the Ray path's overhead
  per round and its median, and whether the records were identical.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import html
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from bench.cases import DATA, load
from bench.systems import page_server

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


# ---------------------------------------------------------------- the workload


def pick_pages(count: int) -> list[tuple[str, str, str]]:
    """(title, text, its case's claim) for ``count`` distinct sources, the longest under 20,000 characters first."""
    pages: dict[str, tuple[str, str, str]] = {}
    for case in load(DATA / "wice-dev.jsonl") + load(DATA / "attrbench-dev.jsonl"):
        if 600 <= len(case.source) <= 20_000 and case.source not in pages and case.claim.strip():
            title = case.pages[0][0] if case.pages else ""
            pages[case.source] = (title, case.source, case.claim)
    chosen = sorted(pages.values(), key=lambda page: -len(page[1]))[:count]
    if len(chosen) < count:
        raise SystemExit(f"only {len(chosen)} distinct sources available; ask for fewer with --sources")
    return chosen


def render(title: str, text: str) -> bytes:
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines() if line.strip())
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body><article>{paragraphs}</article></body></html>").encode()


def claims_of(page: tuple[str, str, str]) -> list[str]:
    """The case's claim and the page's own plain sentences (supported claims), as an answer would state them."""
    sentences = [s.strip() for s in _SENTENCE.split(page[1].replace("\n", " "))
                 if 40 <= len(s.strip()) <= 240 and not re.search(r"://|www\.|\[|\]", s)]
    candidates = [page[2], *sentences[:30]]
    return [re.sub(r"\[\d+\]", "", c).rstrip(" .") + "." for c in candidates]


def write_answers(path: Path, base: str, pages: list, answers: int, citations: int, seed: int = 7) -> int:
    """The input file; returns the number of claims written."""
    rng = random.Random(seed)
    claims = [claims_of(page) for page in pages]
    with open(path, "w", encoding="utf-8") as out:
        for number in range(answers):
            cited = rng.sample(range(len(pages)), citations)
            text = " ".join(f"{rng.choice(claims[i]).rstrip('.')} [{k}]." for k, i in enumerate(cited, 1))
            sources = "\n".join(f"{k}. {base}/{i}.html" for k, i in enumerate(cited, 1))
            out.write(json.dumps({"id": f"a{number}", "answer": f"{text}\n\n## Sources\n{sources}\n"}) + "\n")
    return answers * citations


def serve_pages(pages: list[bytes], port: multiprocessing.Queue) -> None:
    """The source server, in its own process so its CPU is not counted as the batch's."""
    server = page_server(pages)
    port.put(server.server_address[1])
    server.serve_forever()


# ---------------------------------------------------------------- stage timing


class Stages:
    """Seconds per stage, summed over every call (threads included)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.seconds[name] += seconds
            self.calls[name] += 1

    def cpu(self, name: str, function):  # noqa: ANN001, ANN201 - wraps any callable
        """Count the calling thread's CPU time (extraction, indexing, retrieval: Python holding the GIL)."""

        @functools.wraps(function)
        def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(name, time.thread_time() - started)

        return timed

    def wall(self, name: str, function):  # noqa: ANN001, ANN201
        """Count wall time: the model (onnxruntime runs on its own threads) and fetches (async, overlapping)."""
        if asyncio.iscoroutinefunction(function):

            @functools.wraps(function)
            async def timed_async(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
                started = time.perf_counter()
                try:
                    return await function(*args, **kwargs)
                finally:
                    self.add(name, time.perf_counter() - started)

            return timed_async

        @functools.wraps(function)
        def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(name, time.perf_counter() - started)

        return timed


def instrument(stages: Stages) -> None:
    """Time extraction, index building and retrieval where the engine calls them (bench only)."""
    import citemark.engine
    import citemark.sources.loader
    from citemark.scoring.retrieve import EvidenceIndex

    citemark.sources.loader.extract = stages.cpu("extraction", citemark.sources.loader.extract)
    citemark.engine.EvidenceIndex = stages.cpu("indexing", EvidenceIndex)
    EvidenceIndex.search = stages.cpu("retrieval", EvidenceIndex.search)


# ---------------------------------------------------------------- the runs


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


async def run_local(source: Path, out: Path, settings, concurrency: int, stages: Stages) -> dict:  # noqa: ANN001
    from citemark.batch import bounded_lines, engine_slot, read_items, verify_batch
    from citemark.batch_results import BatchSummary, ResultsFile

    sampled: list[tuple[str, str]] = []
    score = None
    summary = BatchSummary()
    started, cpu_started = time.perf_counter(), cpu_seconds()
    async with engine_slot(settings) as slot:
        engine = await slot.get()
        engine.warm_up()
        model = engine._scorer.scorer if engine._scorer else None
        before = None
        if model is not None:
            score = model.score
            probe_started, probe_cpu = time.perf_counter(), cpu_seconds()
            before = model_alone(score, model_probe_pairs())
            started += time.perf_counter() - probe_started  # the probe is the bench's, not the batch's
            cpu_started += cpu_seconds() - probe_cpu

            def recorded(pairs):  # noqa: ANN001, ANN202
                if len(sampled) < 600:
                    sampled.extend(pairs[: 600 - len(sampled)])
                return score(pairs)

            model.score = stages.wall("model", recorded)
        ready, loop_cpu_started = time.perf_counter(), time.thread_time()
        engine.fetcher.fetch = stages.wall("fetch", engine.fetcher.fetch)
        with ResultsFile(out) as results, open(source, "rb") as stream:
            items = read_items(bounded_lines(stream, 1 << 24), max_line_bytes=1 << 24)
            async for record in verify_batch(items, engine=engine, concurrency=concurrency):
                results.write(record)
                summary.add(record)
        finished, loop_cpu = time.perf_counter(), time.thread_time() - loop_cpu_started
        cpu = cpu_seconds() - cpu_started
        pairs = engine.pairs_scored
        solo = None
        if model is not None:  # the model alone, on the batch's own pairs, right after it (and on probe pairs before)
            solo = model_alone(score, sampled)
            solo["probe_before_pairs_per_s"] = before["pairs_per_s"]
            solo["probe_after_pairs_per_s"] = model_alone(score, model_probe_pairs())["pairs_per_s"]
        fetched = engine.loader.loaded
        model_name = engine.model_name
    return {"model": model_name, "wall_s": round(finished - started, 2), "verify_s": round(finished - ready, 2),
            "cpu_s": round(cpu, 2), "loop_cpu_s": round(loop_cpu, 2), "pairs_scored": pairs, "sources_loaded": fetched,
            "model_alone": solo, "summary": summary.to_dict()}


@functools.cache
def model_probe_pairs() -> list[tuple[str, str]]:
    """Fixed pairs to time the model on before and after the batch: how much the machine's load moved."""
    from citemark.scoring.retrieve import EvidenceIndex

    pairs = []
    for case in load(DATA / "wice-dev.jsonl")[:60]:
        pairs += [(hit.text, case.claim) for hit in EvidenceIndex(case.source).search(case.claim, k=2)]
    return pairs[:100]


def model_alone(score, pairs: list[tuple[str, str]]) -> dict:  # noqa: ANN001
    """The model's own speed on pairs the batch scored, with nothing else running."""
    score(pairs[:8])
    started = time.perf_counter()
    score(pairs)
    seconds = time.perf_counter() - started
    return {"pairs": len(pairs), "pairs_per_s": round(len(pairs) / seconds, 1)}


def run_on_ray(source: Path, out: Path, settings) -> dict:  # noqa: ANN001
    """One pass over the input on the Ray cluster already initialised: actors start, load the model, verify."""
    from citemark.batch import bounded_lines, read_items
    from citemark.batch_ray import verify_on_ray
    from citemark.batch_results import BatchSummary, ResultsFile

    started = time.perf_counter()
    summary = BatchSummary()
    first = None
    with ResultsFile(out) as results, open(source, "rb") as stream:
        items = read_items(bounded_lines(stream, 1 << 24), max_line_bytes=1 << 24)
        for record in verify_on_ray(items, address="local", settings=settings):
            first = first or time.perf_counter()
            results.write(record)
            summary.add(record)
    finished = time.perf_counter()
    return {"wall_s": round(finished - started, 2), "first_shard_s": round((first or finished) - started, 2),
            "summary": summary.to_dict()}


def ray_rounds(source: Path, work: Path, settings, concurrency: int, rounds: int,  # noqa: ANN001
               first_local: dict) -> dict:
    """Local and Ray passes in turn (the first local pass is the main run), each from a cold cache: on a shared
    machine the load moves between passes, so the overhead is the median of the rounds'."""
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    init_s = time.perf_counter() - started
    passes = []
    try:
        for round_number in range(rounds):
            if round_number == 0:
                local = first_local
            else:
                local = asyncio.run(run_local(source, work / f"local{round_number}.jsonl",
                                              settings.with_(cache_dir=work / f"cache{round_number}"), concurrency,
                                              Stages()))
            on_ray = run_on_ray(source, work / f"ray{round_number}.jsonl",
                                settings.with_(cache_dir=work / f"cache-ray{round_number}"))
            passes.append({"local_s": local["wall_s"], "ray_s": on_ray["wall_s"],
                           "ray_first_shard_s": on_ray["first_shard_s"],
                           "overhead": round(on_ray["wall_s"] / local["wall_s"] - 1, 3),
                           "identical_to_local": same_records(work / "local.jsonl", work / f"ray{round_number}.jsonl")})
    finally:
        ray.shutdown()
    overheads = sorted(p["overhead"] for p in passes)
    return {"ray_init_s": round(init_s, 2), "rounds": passes, "median_overhead": overheads[len(overheads) // 2],
            "identical_to_local": all(p["identical_to_local"] for p in passes)}


def same_records(a: Path, b: Path) -> bool:
    def keyed(path: Path) -> dict:
        return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}

    return keyed(a) == keyed(b)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--citations", type=int, default=10)
    parser.add_argument("--sources", type=int, default=500)
    parser.add_argument("--model", help="model pack (default: the best installed); 'none' for lexical-only")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--ray", action="store_true", help="also run on a local 2-CPU Ray cluster")
    parser.add_argument("--ray-rounds", type=int, default=3, help="local and Ray passes in turn (default 3)")
    parser.add_argument("--out", type=Path, default=Path("bench/out/batch.json"))
    args = parser.parse_args()

    from citemark.settings import Settings

    pages = pick_pages(args.sources)
    queue: multiprocessing.Queue = multiprocessing.get_context("spawn").Queue()
    server = multiprocessing.get_context("spawn").Process(
        target=serve_pages, args=([render(t, x) for t, x, _ in pages], queue), daemon=True)
    server.start()
    port = queue.get(timeout=60)
    work = Path(tempfile.mkdtemp(prefix="citemark-bench-batch-"))
    source = work / "answers.jsonl"
    claims = write_answers(source, f"http://127.0.0.1:{port}", pages, args.answers, args.citations)
    settings = Settings(model=args.model, allow_private_network=True, retries=0, cache_dir=work / "cache")
    stages = Stages()
    instrument(stages)
    try:
        local = asyncio.run(run_local(source, work / "local.jsonl", settings, args.concurrency, stages))
        measured = defaultdict(float, stages.seconds)  # the main run's stages (later passes add to ``stages``)
        calls = {name: stages.calls[name] for name in ("fetch", "extraction", "indexing")}
        load_after = os.getloadavg()
        ray_run = None
        if args.ray:
            ray_run = ray_rounds(source, work, settings, args.concurrency, args.ray_rounds, local)
    finally:
        server.terminate()
        shutil.rmtree(work, ignore_errors=True)

    verify_s = local["verify_s"]
    answers_per_min = args.answers / verify_s * 60
    report = {
        "configuration": {"answers": args.answers, "citations_per_answer": args.citations, "sources": args.sources,
                          "median_source_chars": sorted(len(x) for _, x, _ in pages)[len(pages) // 2],
                          "concurrency": args.concurrency, "cpus": os.cpu_count(),
                          "cpus_allowed": len(os.sched_getaffinity(0))},
        "local": local,
        "answers_per_min": round(answers_per_min, 1),
        "claims_per_s": round(claims / verify_s, 1),
        "peak_rss_mb": peak_rss_mb(),
        "load_average_after": load_after,
    }
    # Fetches overlap (wall time, summed); the rest is busy time of one thread each, whose shares are given.
    busy = {"extraction": measured["extraction"], "indexing": measured["indexing"],
            "retrieval": measured["retrieval"], "model": measured["model"],
            "judging_and_rest": max(0.0, local["loop_cpu_s"] - measured["retrieval"])}
    report["fetch_wall_s_overlapping"] = round(measured["fetch"], 2)
    report["calls"] = calls  # each distinct source fetched, extracted and indexed once
    report["stages_busy_s"] = {name: round(seconds, 2) for name, seconds in busy.items()}
    report["stages_share"] = {name: round(seconds / sum(busy.values()), 3) for name, seconds in busy.items()}
    if local["model_alone"]:
        pairs_per_answer = local["pairs_scored"] / args.answers
        limit = local["model_alone"]["pairs_per_s"] / pairs_per_answer * 60
        report["model_bound"] = {"pairs_per_answer": round(pairs_per_answer, 2),
                                 "answers_per_min_limit": round(limit, 1),
                                 "share_of_limit": round(answers_per_min / limit, 3),
                                 "model_busy_share_of_wall": round(measured["model"] / verify_s, 3)}
    if ray_run:
        report["ray"] = ray_run
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")

    conf = report["configuration"]
    print(f"{conf['answers']} answers × {conf['citations_per_answer']} citations over {conf['sources']} sources "
          f"(median {conf['median_source_chars']} chars), concurrency {conf['concurrency']}, "
          f"{conf['cpus_allowed']} CPUs; model {local['model']}")
    print(f"  {report['answers_per_min']} answers/min, {report['claims_per_s']} claims/s "
          f"({verify_s} s after warm-up; {local['wall_s']} s in all), peak RSS {report['peak_rss_mb']} MB; "
          f"{local['sources_loaded']} sources loaded: {calls['fetch']} fetches, {calls['extraction']} extractions, "
          f"{calls['indexing']} indexes built")
    print(f"  fetch {report['fetch_wall_s_overlapping']} s (wall, overlapping); busy: " + ", ".join(
        f"{name} {report['stages_busy_s'][name]} s ({share:.0%})" for name, share in report["stages_share"].items())
        + f"; process CPU {local['cpu_s']} s; load average {report['load_average_after'][0]:.1f}")
    if "model_bound" in report:
        bound = report["model_bound"]
        solo = local["model_alone"]
        print(f"  model alone {solo['pairs_per_s']} pairs/s on the batch's pairs (probe before/after: "
              f"{solo['probe_before_pairs_per_s']} / {solo['probe_after_pairs_per_s']} pairs/s), "
              f"{bound['pairs_per_answer']} pairs/answer "
              f"→ limit {bound['answers_per_min_limit']} answers/min; reached {bound['share_of_limit']:.1%} "
              f"(model busy {bound['model_busy_share_of_wall']:.1%} of the wall)")
    summary = local["summary"]
    print(f"  pass rate {summary['pass_rate']:.1%}, verdicts {summary['verdicts']}")
    if ray_run:
        print(f"  ray (local cluster of 2 CPUs, 1 actor; init {ray_run['ray_init_s']} s once): " + "; ".join(
            f"local {p['local_s']} s vs ray {p['ray_s']} s ({p['overhead']:+.1%})" for p in ray_run["rounds"])
            + f"; median overhead {ray_run['median_overhead']:+.1%}; identical records: {ray_run['identical_to_local']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
