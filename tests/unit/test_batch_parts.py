"""The batch's parts without a network: reading lines, the results file, the source memory, the summary, progress."""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from citemark.batch import BadLine, BatchItem, BatchSources, bounded_lines, read_items
from citemark.batch_cli import AUTO_WORKERS_FROM, AUTO_WORKERS_MAX, BatchProgress, default_workers
from citemark.batch_results import BatchSummary, ResultsFile
from citemark.engine import Engine
from citemark.errors import SourceUnreachable
from citemark.sources.cache import SourceCache
from citemark.types import Citation, Document


def lines(*rows: object) -> list[bytes]:
    return [(row if isinstance(row, bytes) else json.dumps(row).encode()) + b"\n" for row in rows]


def test_items_keep_their_line_numbers_and_bad_lines_say_why():
    got = list(read_items(lines({"id": "a", "answer": "x"}, b"", b"[1, 2]", b"\xff{", {"id": 3}, {"id": "a"},
                                {"id": 2.5}, b"x" * 50), max_line_bytes=40))
    assert [type(g).__name__ for g in got] == ["BatchItem", "BadLine", "BadLine", "BatchItem", "BadLine", "BadLine",
                                               "BadLine"]
    assert [(g.line, g.id) for g in got if isinstance(g, BatchItem)] == [(1, "a"), (5, 3)]
    assert [(g.line, g.error.code) for g in got if isinstance(g, BadLine)] == [
        (3, "E101"), (4, "E101"), (6, "E100"), (7, "E100"), (8, "E102")]


def test_done_ids_and_done_id_less_lines_are_skipped_on_resume():
    rows = lines({"id": "a"}, {"id": 1}, b"{bad", {"id": "c"})
    got = list(read_items(rows, max_line_bytes=100, skip={"a", "1"}, skip_lines={3}))
    assert [(g.line, g.id) for g in got] == [(4, "c")]


def test_an_overlong_line_is_cut_without_reading_it_into_memory_and_the_next_line_survives():
    stream = io.BytesIO(b'{"id": 1}\n' + b"y" * 5000 + b'\n{"id": 2}\n')
    got = list(bounded_lines(stream, 100))
    assert [len(x) for x in got] == [10, 101, 10] and got[2] == b'{"id": 2}\n'


def test_the_results_file_cuts_a_torn_last_line_and_remembers_what_is_done(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_bytes(b'{"id": "a", "verdicts": []}\n{"id": null, "line": 4, "error": {"code": "E101"}}\n{"id": "b", "ver')
    with ResultsFile(path) as results:
        assert results.done_ids == {"a"} and results.done_lines == {4}
        results.write({"id": "b", "verdicts": []})
    assert path.read_bytes().splitlines() == [b'{"id": "a", "verdicts": []}',
                                              b'{"id": null, "line": 4, "error": {"code": "E101"}}',
                                              b'{"id": "b", "verdicts": []}']


class CountingLoader:
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def load(self, citation, local_files=None):  # noqa: ANN001, ANN201
        self.calls.append(citation.url)
        await asyncio.sleep(0.01)
        if "dead" in citation.url:
            raise SourceUnreachable("HTTP 404")
        return Document(url=citation.url, text="x" * 100)


async def test_sources_are_loaded_once_failures_included_and_memory_stays_bounded():
    loader = CountingLoader()
    sources = BatchSources(loader, max_chars=250)
    urls = ["https://a.example/1", "https://a.example/1?utm_source=x", "https://a.example/dead"] * 3
    results = await asyncio.gather(*(sources.load(Citation(url=u)) for u in urls), return_exceptions=True)
    assert loader.calls == ["https://a.example/1", "https://a.example/dead"]
    assert sum(isinstance(r, SourceUnreachable) for r in results) == 3
    for n in range(2, 6):
        await sources.load(Citation(url=f"https://a.example/{n}"))
    await sources.load(Citation(url="https://a.example/1"))  # pushed out by the later pages: loaded again
    assert loader.calls.count("https://a.example/1") == 2


def record(*labels: str, url: str = "https://s.example/a") -> dict:
    return {"id": 1, "verdicts": [{"verdict": label, "reason": f"r_{label}", "claim_index": i,
                                   "citation": {"url": url}} for i, label in enumerate(labels)]}


def test_summary_pass_rate_counts_and_worst_sources():
    summary = BatchSummary()
    summary.add(record("supported", "supported"))
    summary.add(record("supported", "contradicted", url="https://bad.example/x"))
    summary.add(record("unreachable", url="https://dead.example/"))
    summary.add({"id": None, "line": 9, "error": {"code": "E101"}})
    data = summary.to_dict()
    assert (data["answers"], data["errors"], data["passed"], data["pass_rate"]) == (3, 1, 1, 0.3333)  # the unreachable-only answer fails, as in verify
    assert (data["claims"], data["citations"], data["supported_share"]) == (5, 5, 0.6)
    assert data["verdicts"]["contradicted"] == 1 and data["reasons"]["r_supported"] == 3
    assert [w["source"] for w in data["worst_sources"]] == ["https://bad.example/x", "https://dead.example/"]
    assert "3 answers verified, 1 lines with errors; 1 passed (33.3%" in summary.to_text()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_is_a_log_line_every_few_seconds_when_not_on_a_terminal():
    summary, clock, stream = BatchSummary(), Clock(), io.StringIO()
    progress = BatchProgress(summary, 100, stream=stream, clock=clock)
    for step in range(40):
        clock.now = step * 0.5
        done = record("supported", "partial")
        summary.add(done)
        progress.step(done)
    progress.done()
    logged = stream.getvalue().splitlines()
    assert len(logged) == 2  # one at 10 s (40 steps over 19.5 s), and the final line
    assert logged[0].startswith("citemark: 21/100 answers")
    assert logged[-1].startswith("citemark: 40/100 answers") and "123/min" in logged[-1]
    assert "4.1 claims/s" in logged[-1] and "ETA 0m29s" in logged[-1] and "✔ 40 ◐ 40" in logged[-1]


class BrokenEngine:
    """An engine whose parser path meets a bug on one answer."""

    settings = type("S", (), {"max_answer_chars": 1000, "policy": "strict"})()
    model_name = "none"
    pack_version = None

    async def verify(self, parsed, local_files=None, policy=None, asks=None):  # noqa: ANN001, ANN201
        if parsed.claims[0].text.startswith("boom"):
            raise KeyError("a bug")
        return
        yield


async def test_a_bug_met_by_one_answer_is_its_error_record_and_the_batch_goes_on():
    from citemark.batch import verify_batch

    items = [{"id": n, "claims": [{"claim": text, "source_text": "x"}]} for n, text in enumerate(["ok", "boom", "ok"])]
    records = [r async for r in verify_batch(items, engine=BrokenEngine(), concurrency=2)]
    assert sorted((r["id"], "error" in r) for r in records) == [(0, False), (1, True), (2, False)]
    assert [r["error"]["code"] for r in records if "error" in r] == ["E000"]


async def test_a_failure_is_tried_again_after_its_time_is_up():
    loader = CountingLoader()
    sources = BatchSources(loader, failure_ttl=0.05)
    for _ in range(2):
        with pytest.raises(SourceUnreachable):
            await sources.load(Citation(url="https://a.example/dead"))
    await asyncio.sleep(0.06)
    with pytest.raises(SourceUnreachable):
        await sources.load(Citation(url="https://a.example/dead"))
    assert loader.calls == ["https://a.example/dead"] * 2


async def test_a_batch_told_to_keep_no_cache_writes_nothing_in_the_cache_folder(settings):
    """--no-cache gives the batch a temporary source cache; the papers' records (Crossref, arXiv) are kept
    in it too, not in the user's cache folder, and all of it goes when the engine closes."""
    cache = SourceCache.temporary()
    async with Engine(settings, cache=cache) as engine:
        assert engine.papers is not None  # scholarly lookups are on: their record cache was opened
    assert not cache.path.exists()
    assert not settings.cache_dir.exists() or not any(settings.cache_dir.rglob("*"))


def test_a_large_input_gets_a_worker_per_core_by_default_and_a_small_one_or_stdin_one_process(monkeypatch):
    from citemark.models import runtime

    monkeypatch.setattr(runtime, "usable_cpus", lambda: 2)
    assert default_workers(AUTO_WORKERS_FROM) == 2
    assert default_workers(AUTO_WORKERS_FROM - 1) == default_workers(None) == 1
    assert default_workers(10_000, ray=True) == 1  # a Ray run has actors instead
    monkeypatch.setattr(runtime, "usable_cpus", lambda: 64)
    assert default_workers(10_000) == AUTO_WORKERS_MAX
