"""Speed of ``citemark batch`` on one machine: many answers over shared sources on 127.0.0.1.

    python -m bench.batch [--answers 2000] [--citations 10] [--sources 500] [--model NAME]
                          [--concurrency 16] [--ray] [--out bench/out/batch.json]

The answers are Markdown, ``--citations`` claims each, every claim citing one of
``--sources`` distinct pages (WiCE-dev and AttributionBench-dev sources, served as HTML
by a separate process on 127.0.0.1); a claim is its case's claim or a sentence of its
page. The batch runs through the same parts as ``citemark batch`` (``engine_slot``,
``verify_batch``, ``ResultsFile``) from a cold cache, and the script prints:

- answers per minute and claims per second, peak RSS, and CPU use per core;
- CPU seconds per stage, each counted in the thread that ran it (``time.thread_time``
  around every call, the innermost stage only), and every thread's CPU from
  ``/proc/self/task``: extraction, indexing, retrieval, parsing (this process's side of it;
  spaCy's own CPU is the parser process's, read from its ``/proc`` entry), judging (the
  checks the judge runs in worker threads), the model (its calling thread plus the
  native threads of onnxruntime and tokenizers), the rest of the event loop's thread
  (answer parsing, HTTP, guards, combiner, JSON) and of the worker threads; fetches as
  overlapping wall time;
- the CPU-bound limit: the model's core-seconds per answer, measured alone on a sample of
  the very pairs the batch scored in each thread setting (its best one counts), plus the
  pipeline's core-seconds per answer counted in the run; ``cores × 60`` core-seconds a
  minute divided by their sum is the answers per minute these cores could give, and the
  batch's answers/min is reported as a share of it. Fixed probe pairs are timed before
  and after as well: on a shared machine the model's speed moves with the load;
- with ``--ray``: the same input on a local Ray cluster of 2 CPUs (one actor), local and
  Ray passes in turn (``--ray-rounds``, each from a cold cache), the Ray path's overhead
  per round and its median, whether the records were identical, and the actor's peak RSS.
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
from dataclasses import dataclass
from pathlib import Path

from bench.cases import DATA, load
from bench.systems import page_server

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: Pairs of the batch kept to time the model alone on.
SAMPLED_PAIRS = 400
#: The stages that are the model's: the thread calling it, and the threads of onnxruntime and tokenizers.
MODEL_STAGES = ("model calling thread", "model native threads", "model sessions", "model token states")
#: spaCy's own work, in the parser's process ("parsing" is this process's side: the request and the arrays).
PARSER_STAGE = "parsing (parser process)"
#: The name prefix of the threads that run the model's sessions (``models/runtime.py``).
SESSION_THREADS = "citemark-model"


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
    """CPU seconds per stage and thread, each call counted in the thread that ran it, nested stages apart."""

    def __init__(self) -> None:
        self.cpu_s: dict[tuple[int, str], float] = defaultdict(float)  # (thread id, stage) → own CPU seconds
        self.calls: dict[str, int] = defaultdict(int)
        self.fetch_wall_s = 0.0
        self._open = threading.local()  # this thread's stages in progress: [name, CPU at start, CPU of inner stages]
        self._lock = threading.Lock()

    def cpu(self, name: str, function):  # noqa: ANN001, ANN201 - wraps any callable
        """Count the calling thread's CPU time in ``function`` as ``name``'s, less what inner stages count."""

        @functools.wraps(function)
        def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            stack = self._open.__dict__.setdefault("stack", [])
            stack.append([name, time.thread_time(), 0.0])
            try:
                return function(*args, **kwargs)
            finally:
                _, started, inner = stack.pop()
                spent = time.thread_time() - started
                if stack:
                    stack[-1][2] += spent
                with self._lock:
                    self.cpu_s[(threading.get_native_id(), name)] += spent - inner
                    self.calls[name] += 1

        return timed

    def fetch(self, function):  # noqa: ANN001, ANN201
        """Fetches overlap on the event loop: their wall time, summed."""

        @functools.wraps(function)
        async def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            started = time.perf_counter()
            try:
                return await function(*args, **kwargs)
            finally:
                self.fetch_wall_s += time.perf_counter() - started
                self.calls["fetch"] += 1

        return timed


def instrument(stages: Stages) -> None:
    """Count the stages where the engine calls them (bench only)."""
    import citemark.engine
    import citemark.scoring.judge
    import citemark.scoring.parse
    import citemark.sources.loader
    from citemark.scoring.retrieve import EvidenceIndex

    citemark.sources.loader.extract = stages.cpu("extraction", citemark.sources.loader.extract)
    citemark.engine.EvidenceIndex = stages.cpu("indexing", EvidenceIndex)
    EvidenceIndex.search = stages.cpu("retrieval", EvidenceIndex.search)
    citemark.scoring.judge._retrieve = stages.cpu("retrieval", citemark.scoring.judge._retrieve)
    citemark.scoring.parse.parse = stages.cpu("parsing", citemark.scoring.parse.parse)
    for module, name in ((citemark.scoring.judge, "measure"), (citemark.scoring.judge, "aligned"),
                         (citemark.scoring.judge, "_conflicting"), (citemark.engine, "check_quotes"),
                         (citemark.engine, "ranked_passages")):
        setattr(module, name, stages.cpu("judging", getattr(module, name)))


def thread_cpu_seconds() -> dict[int, float]:
    """CPU seconds of every thread of this process (Python's and native ones), by thread id."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            found[int(task.name)] = task_cpu_seconds((task / "stat").read_text(), ticks)
        except (OSError, ValueError):  # the thread ended
            continue
    return found


def parser_cpu_seconds() -> float:
    """CPU seconds the dependency parser's process has spent so far: it parses in a process of its own,
    which neither ``/proc/self/task`` nor ``RUSAGE_SELF`` counts (0 when it is not running)."""
    from citemark.scoring import parse

    pid = parse.process_id()
    try:
        return task_cpu_seconds(Path(f"/proc/{pid}/stat").read_text(), os.sysconf("SC_CLK_TCK")) if pid else 0.0
    except (OSError, ValueError):  # it stopped
        return 0.0


def task_cpu_seconds(stat: str, ticks: int) -> float:
    """User plus system time from a ``/proc/*/task/*/stat`` line (fields 14 and 15; the name may hold spaces)."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def stage_cpu(threads_s: dict[int, float], staged_s: dict[tuple[int, str], float], *, event_loop: int,
              python_threads: set[int], session_threads: frozenset[int] = frozenset()) -> dict[str, float]:
    """CPU seconds per stage for one interval, every second counted once, in the thread that spent it.

    ``threads_s``: each thread's CPU in the interval; ``staged_s``: what the stage wrappers counted
    in each thread. A Python thread's CPU outside the wrapped stages is the rest of the event loop
    (its thread) or of the worker threads, or the model's when the thread runs its sessions
    (``session_threads``); native threads (onnxruntime's, tokenizers') are the model's.
    """
    stages: dict[str, float] = defaultdict(float)
    counted: dict[int, float] = defaultdict(float)
    for (thread, name), seconds in staged_s.items():
        stages[name] += seconds
        counted[thread] += seconds
    for thread, seconds in threads_s.items():
        if thread in session_threads:
            stages["model sessions"] += max(0.0, seconds - counted[thread])
        elif thread in python_threads:
            rest = "event loop rest" if thread == event_loop else "worker threads rest"
            stages[rest] += max(0.0, seconds - counted[thread])  # /proc counts in ticks: never below zero
        else:
            stages["model native threads"] += seconds
    return dict(stages)


@dataclass(frozen=True)
class CpuBound:
    """The answers per minute a machine's cores could give if they did nothing else, and the share reached."""

    cores: int
    model_core_s_per_answer: float  # measured alone, in its best thread setting
    pipeline_core_s_per_answer: float  # everything else, counted in the run

    @property
    def answers_per_min(self) -> float:
        return self.cores * 60 / (self.model_core_s_per_answer + self.pipeline_core_s_per_answer)

    def share(self, answers_per_min: float) -> float:
        return answers_per_min / self.answers_per_min


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
    readings: list[int] = []  # the paraphrase matches' token-state readings: the model runs for them too
    sampled_readings: list[tuple[str, str]] = []
    summary = BatchSummary()
    opened = time.perf_counter()
    async with engine_slot(settings) as slot:
        engine = await slot.get()
        engine.warm_up()
        model = engine._scorer.scorer if engine._scorer else None
        before = None
        if model is not None:
            score = model.score
            probe_started = time.perf_counter()
            before = model_alone(score, model_probe_pairs())
            opened += time.perf_counter() - probe_started  # the probe is the bench's, not the batch's

            def recorded(pairs):  # noqa: ANN001, ANN202
                if len(sampled) < SAMPLED_PAIRS:
                    sampled.extend(pairs[: SAMPLED_PAIRS - len(sampled)])
                return score(pairs)

            model.score = stages.cpu("model calling thread", recorded)
            read = model.token_states

            def reading(claim, passage):  # noqa: ANN001, ANN202
                readings.append(len(claim) + len(passage))
                if len(sampled_readings) < SAMPLED_PAIRS:
                    sampled_readings.append((claim, passage))
                return read(claim, passage)

            model.token_states = stages.cpu("model token states", reading)
        engine.fetcher.fetch = stages.fetch(engine.fetcher.fetch)
        started, threads_started, cpu_started = time.perf_counter(), thread_cpu_seconds(), cpu_seconds()
        parser_started = parser_cpu_seconds()
        staged_started = dict(stages.cpu_s)  # warm-up's parses and indexes are not the batch's
        with ResultsFile(out) as results, open(source, "rb") as stream:
            items = read_items(bounded_lines(stream, 1 << 24), max_line_bytes=1 << 24)
            async for record in verify_batch(items, engine=engine, concurrency=concurrency):
                results.write(record)
                summary.add(record)
        # Read while the worker threads live: the slot's executor ends them with the loop.
        finished, threads_finished, cpu = time.perf_counter(), thread_cpu_seconds(), cpu_seconds() - cpu_started
        parser_s = parser_cpu_seconds() - parser_started
        python_threads = {thread.native_id for thread in threading.enumerate()}
        session_threads = frozenset(thread.native_id for thread in threading.enumerate()
                                    if thread.name.startswith(SESSION_THREADS))
        peak_rss = peak_rss_mb()  # before the model is timed alone in sessions of its own
        threads_s = {thread: seconds - threads_started.get(thread, 0.0) for thread, seconds in threads_finished.items()}
        staged_s = {key: seconds - staged_started.get(key, 0.0) for key, seconds in stages.cpu_s.items()}
        stage_s = stage_cpu(threads_s, staged_s, event_loop=threading.main_thread().native_id,
                            python_threads=python_threads, session_threads=session_threads)
        stage_s[PARSER_STAGE] = parser_s
        solo = None
        if model is not None:  # the model alone, on the batch's own pairs, right after it (and on probe pairs before)
            solo = {"settings": model_settings_alone(engine.pack, sampled, sampled_readings),
                    "probe_before_pairs_per_s": before["pairs_per_s"],
                    "probe_after_pairs_per_s": model_alone(score, model_probe_pairs())["pairs_per_s"]}
        return {"model": engine.model_name, "wall_s": round(finished - opened, 2),
                "verify_s": round(finished - started, 2), "cpu_s": round(cpu + parser_s, 2),
                "threads_cpu_s": round(sum(threads_s.values()), 2), "stage_cpu_s": stage_s,
                "fetch_wall_s_overlapping": round(stages.fetch_wall_s, 2), "peak_rss_mb": peak_rss,
                "pairs_scored": engine.pairs_scored, "token_state_readings": len(readings), "sources_loaded": engine.loader.loaded, "model_alone": solo,
                "summary": summary.to_dict()}


@functools.cache
def model_probe_pairs() -> list[tuple[str, str]]:
    """Fixed pairs to time the model on before and after the batch: how much the machine's load moved."""
    from citemark.scoring.retrieve import EvidenceIndex

    pairs = []
    for case in load(DATA / "wice-dev.jsonl")[:60]:
        pairs += [(hit.text, case.claim) for hit in EvidenceIndex(case.source).search(case.claim, k=2)]
    return pairs[:100]


def model_alone(score, pairs: list[tuple[str, str]]) -> dict:  # noqa: ANN001
    """The model's own speed on ``pairs`` with nothing else running: pairs/s, and core-seconds per pair."""
    score(pairs[:8])
    started, cpu_started = time.perf_counter(), cpu_seconds()
    score(pairs)
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu_started
    return {"pairs": len(pairs), "pairs_per_s": round(len(pairs) / seconds, 1),
            "core_s_per_pair": round(cpu / len(pairs), 5)}


def model_settings_alone(pack, pairs: list[tuple[str, str]], readings: list[tuple[str, str]]) -> list[dict]:  # noqa: ANN001
    """The model alone on the batch's pairs and token-state readings: one session of each thread count up to
    the cores, and one single-thread session per core (the engine's own setting)."""
    from citemark.models.runtime import PackScorer

    cores = len(os.sched_getaffinity(0))
    shapes = [(threads, 1) for threads in range(1, cores + 1)] + ([(1, cores)] if cores > 1 else [])
    settings = []
    for threads, sessions in shapes:
        scorer = PackScorer(pack, threads=threads, sessions=sessions)
        scorer.load()
        timed = {"threads": threads, "sessions": sessions, **model_alone(scorer.score, pairs)}
        if readings:  # one reading at a time, as the alignment asks for them
            cpu_started = cpu_seconds()
            for claim, passage in readings:
                scorer.token_states(claim, passage)
            timed["core_s_per_reading"] = round((cpu_seconds() - cpu_started) / len(readings), 5)
        settings.append(timed)
    return settings


def run_on_ray(source: Path, out: Path, settings) -> dict:  # noqa: ANN001
    """One pass over the input on the Ray cluster already initialised: actors start, load the model, verify."""
    from citemark.batch import bounded_lines, read_items
    from citemark.batch_ray import verify_on_ray
    from citemark.batch_results import BatchSummary, ResultsFile

    started = time.perf_counter()
    summary = BatchSummary()
    first = None
    with ActorMemory() as actors, ResultsFile(out) as results, open(source, "rb") as stream:
        items = read_items(bounded_lines(stream, 1 << 24), max_line_bytes=1 << 24)
        for record in verify_on_ray(items, address="local", settings=settings):
            first = first or time.perf_counter()
            results.write(record)
            summary.add(record)
    finished = time.perf_counter()
    return {"wall_s": round(finished - started, 2), "first_shard_s": round((first or finished) - started, 2),
            "actor_peak_rss_mb": actors.peak_mb, "summary": summary.to_dict()}


class ActorMemory:
    """The highest peak RSS (``VmHWM``) of this process's ``ray::Verifier`` descendants, read every half second."""

    def __init__(self) -> None:
        self.peak_mb = 0.0
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> ActorMemory:
        self._reader.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._reader.join()

    def _read(self) -> None:
        while True:
            for process in Path("/proc").iterdir():
                try:
                    if process.name.isdigit() and (process / "cmdline").read_bytes().startswith(b"ray::Verifier"):
                        for line in (process / "status").read_text().splitlines():
                            if line.startswith("VmHWM:"):
                                self.peak_mb = max(self.peak_mb, round(int(line.split()[1]) / 1024, 1))
                except OSError:  # the process ended
                    continue
            if self._stop.wait(0.5):
                return


def ray_rounds(source: Path, work: Path, settings, concurrency: int, rounds: int,  # noqa: ANN001
               first_local: dict) -> dict:
    """Local and Ray passes in turn (the first local pass is the main run), each from a cold cache: on a shared
    machine the load moves between passes, so the overhead is the median of the rounds'."""
    from citemark.batch_ray import local_cluster

    passes = []
    started = time.perf_counter()
    with local_cluster(num_cpus=2):
        init_s = time.perf_counter() - started
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
                           "actor_peak_rss_mb": on_ray["actor_peak_rss_mb"],
                           "overhead": round(on_ray["wall_s"] / local["wall_s"] - 1, 3),
                           "identical_to_local": same_records(work / "local.jsonl", work / f"ray{round_number}.jsonl")})
    overheads = sorted(p["overhead"] for p in passes)
    return {"ray_init_s": round(init_s, 2), "rounds": passes, "median_overhead": overheads[len(overheads) // 2],
            "identical_to_local": all(p["identical_to_local"] for p in passes)}


def run_workers(source: Path, out: Path, settings, concurrency: int, workers: int) -> dict:  # noqa: ANN001
    """The same input through ``--workers`` processes, from a cold cache: wall time, and the CPU and peak RSS
    of the workers (this process only reads the input and writes the records)."""
    from citemark.batch import bounded_lines, read_items
    from citemark.batch_processes import verify_in_processes
    from citemark.batch_results import BatchSummary, ResultsFile

    summary = BatchSummary()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started, cpu_started = time.perf_counter(), cpu_seconds()
    first = None
    with ResultsFile(out) as results, open(source, "rb") as stream:
        items = read_items(bounded_lines(stream, 1 << 24), max_line_bytes=1 << 24)
        for record in verify_in_processes(items, settings=settings, workers=workers, concurrency=concurrency):
            first = first or time.perf_counter()
            results.write(record)
            summary.add(record)
    finished = time.perf_counter()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"workers": workers, "wall_s": round(finished - started, 2),
            "first_records_s": round((first or finished) - started, 2),
            "cpu_s": round(children + cpu_seconds() - cpu_started, 2),
            "worker_peak_rss_mb": round(after.ru_maxrss / 1024, 1), "summary": summary.to_dict()}


def same_records(a: Path, b: Path) -> bool:
    def keyed(path: Path) -> dict:
        return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}

    return keyed(a) == keyed(b)


def workers_report(run: dict, answers: int, report: dict, work: Path) -> dict:
    """The worker processes' run beside the in-process one: answers/min as a share of the same CPU-bound limit."""
    answers_per_min = answers / run["wall_s"] * 60
    limit = report["cpu_bound"]["answers_per_min_limit"]
    cores = report["configuration"]["cpus_allowed"]
    return {**run, "answers_per_min": round(answers_per_min, 1), "share_of_limit": round(answers_per_min / limit, 3),
            "cpu_use_per_core": round(run["cpu_s"] / run["wall_s"] / cores, 3),
            "identical_to_local": same_records(work / "local.jsonl", work / "workers.jsonl")}


def show_workers(run: dict) -> None:
    print(f"  {run['workers']} worker processes: {run['answers_per_min']} answers/min ({run['wall_s']} s, first "
          f"records after {run['first_records_s']} s, model loads included), {run['share_of_limit']:.1%} of the "
          f"CPU-bound limit; CPU {run['cpu_s']} s ({run['cpu_use_per_core']:.0%} of the cores); worker peak RSS "
          f"{run['worker_peak_rss_mb']} MB; identical records: {run['identical_to_local']}")


def local_report(args: argparse.Namespace, local: dict, pages: list, claims: int, calls: dict) -> dict:
    """The main run's report: speed, memory, CPU per stage and the CPU-bound limit."""
    verify_s = local["verify_s"]
    answers_per_min = args.answers / verify_s * 60
    cores = len(os.sched_getaffinity(0))
    report = {
        "configuration": {"answers": args.answers, "citations_per_answer": args.citations, "sources": args.sources,
                          "median_source_chars": sorted(len(x) for _, x, _ in pages)[len(pages) // 2],
                          "concurrency": args.concurrency, "cpus": os.cpu_count(), "cpus_allowed": cores},
        "local": local,
        "answers_per_min": round(answers_per_min, 1),
        "claims_per_s": round(claims / verify_s, 1),
        "peak_rss_mb": local["peak_rss_mb"],
        "cpu_use_per_core": round(local["cpu_s"] / (verify_s * cores), 3),
        "load_average_after": os.getloadavg(),
        "calls": calls,  # each distinct source fetched, extracted and indexed once
    }
    stage_s = local["stage_cpu_s"]
    model_s = sum(seconds for name, seconds in stage_s.items() if name in MODEL_STAGES)
    pipeline_s = sum(seconds for name, seconds in stage_s.items() if name not in MODEL_STAGES)
    report["stage_cpu_s"] = {name: round(seconds, 2) for name, seconds in sorted(stage_s.items(), key=lambda kv: -kv[1])}
    report["stage_cpu_s_per_answer"] = {name: round(seconds / args.answers, 4)
                                        for name, seconds in report["stage_cpu_s"].items()}
    report["pipeline_core_s_per_answer"] = round(pipeline_s / args.answers, 4)
    if local["model_alone"]:
        pairs_per_answer = local["pairs_scored"] / args.answers
        readings_per_answer = local["token_state_readings"] / args.answers

        def model_cost(setting: dict) -> float:
            return setting["core_s_per_pair"] * pairs_per_answer + setting.get("core_s_per_reading", 0.0) * (
                readings_per_answer)

        best = min(local["model_alone"]["settings"], key=model_cost)
        bound = CpuBound(cores, model_cost(best), pipeline_s / args.answers)
        report["cpu_bound"] = {"pairs_per_answer": round(pairs_per_answer, 2),
                               "token_state_readings_per_answer": round(readings_per_answer, 2), "model_best_threads": best["threads"],
                               "model_best_sessions": best.get("sessions", 1),
                               "model_alone_core_s_per_answer": round(bound.model_core_s_per_answer, 4),
                               "model_in_batch_core_s_per_answer": round(model_s / args.answers, 4),
                               "answers_per_min_limit": round(bound.answers_per_min, 1),
                               "share_of_limit": round(bound.share(answers_per_min), 3)}
    else:
        bound = CpuBound(cores, 0.0, pipeline_s / args.answers)
        report["cpu_bound"] = {"answers_per_min_limit": round(bound.answers_per_min, 1),
                               "share_of_limit": round(bound.share(answers_per_min), 3)}
    return report


def write_report(out: Path, report: dict) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def show(report: dict) -> None:
    local, cores = report["local"], report["configuration"]["cpus_allowed"]
    verify_s, calls = local["verify_s"], report["calls"]
    conf = report["configuration"]
    print(f"{conf['answers']} answers × {conf['citations_per_answer']} citations over {conf['sources']} sources "
          f"(median {conf['median_source_chars']} chars), concurrency {conf['concurrency']}, "
          f"{conf['cpus_allowed']} CPUs; model {local['model']}")
    print(f"  {report['answers_per_min']} answers/min, {report['claims_per_s']} claims/s "
          f"({verify_s} s after warm-up; {local['wall_s']} s in all), peak RSS {report['peak_rss_mb']} MB; "
          f"{local['sources_loaded']} sources loaded: {calls['fetch']} fetches, {calls['extraction']} extractions, "
          f"{calls['indexing']} indexes built")
    print(f"  CPU {local['cpu_s']} s ({report['cpu_use_per_core']:.0%} of {cores} cores; threads' sum "
          f"{local['threads_cpu_s']} s), by stage where it ran: " + ", ".join(
              f"{name} {seconds} s" for name, seconds in report["stage_cpu_s"].items())
          + f"; fetch {local['fetch_wall_s_overlapping']} s wall (overlapping); "
            f"load average {report['load_average_after'][0]:.1f}")
    bound = report["cpu_bound"]
    if local["model_alone"]:
        solo = local["model_alone"]
        print("  model alone on the batch's pairs: " + ", ".join(
            f"{setting.get('sessions', 1)} session(s) × {setting['threads']} thread(s) {setting['pairs_per_s']} pairs/s, "
            f"{setting['core_s_per_pair'] * 1000:.1f} core-ms/pair" for setting in solo["settings"])
            + f" (probe before/after: {solo['probe_before_pairs_per_s']} / {solo['probe_after_pairs_per_s']} "
              f"pairs/s); {bound['pairs_per_answer']} pairs and {bound['token_state_readings_per_answer']} "
              f"token-state readings per answer")
        print(f"  core-s per answer: model alone {bound['model_alone_core_s_per_answer']} (in the batch "
              f"{bound['model_in_batch_core_s_per_answer']}) + pipeline {report['pipeline_core_s_per_answer']} "
              f"→ CPU-bound limit {bound['answers_per_min_limit']} answers/min on {cores} cores; "
              f"reached {bound['share_of_limit']:.1%}")
    else:
        print(f"  core-s per answer: pipeline {report['pipeline_core_s_per_answer']} → CPU-bound limit "
              f"{bound['answers_per_min_limit']} answers/min on {cores} cores; reached {bound['share_of_limit']:.1%}")
    summary = local["summary"]
    print(f"  pass rate {summary['pass_rate']:.1%}, verdicts {summary['verdicts']}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--citations", type=int, default=10)
    parser.add_argument("--sources", type=int, default=500)
    parser.add_argument("--model", help="model pack (default: the best installed); 'none' for lexical-only")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--workers", type=int, default=None,
                        help="also run with this many worker processes (default: one per core; 1: not at all)")
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
        calls = {name: stages.calls[name] for name in ("fetch", "extraction", "indexing")}
        report = local_report(args, local, pages, claims, calls)
        write_report(args.out, report)
        show(report)  # before the Ray rounds, which a shared machine may not let finish
        workers = args.workers or len(os.sched_getaffinity(0))
        if workers > 1:
            report["workers"] = workers_report(
                run_workers(source, work / "workers.jsonl", settings.with_(cache_dir=work / "cache-workers"),
                            args.concurrency, workers), args.answers, report, work)
            write_report(args.out, report)
            show_workers(report["workers"])
        if args.ray:
            ray_run = ray_rounds(source, work, settings, args.concurrency, args.ray_rounds, local)
            report["ray"] = ray_run
            write_report(args.out, report)
            print(f"  ray (local cluster of 2 CPUs, 1 actor; init {ray_run['ray_init_s']} s once): " + "; ".join(
                f"local {p['local_s']} s vs ray {p['ray_s']} s ({p['overhead']:+.1%}), actor peak RSS "
                f"{p['actor_peak_rss_mb']} MB" for p in ray_run["rounds"])
                + f"; median overhead {ray_run['median_overhead']:+.1%}; "
                  f"identical records: {ray_run['identical_to_local']}")
    finally:
        server.terminate()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
