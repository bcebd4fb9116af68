"""``citemark batch`` as a user runs it: real processes, real HTTP on 127.0.0.1, real SQLite; resume after a kill."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from citemark.batch import engine_slot, verify_batch
from citemark.scoring.retrieve import EvidenceIndex
from tests.conftest import ROOT, Reply
from tests.support.batch import PAGES, answers, slow_batch, write_jsonl

LOOPBACK = {"CITEMARK_ALLOW_PRIVATE_NETWORK": "1"}


def citemark(*args: str, stdin: bytes | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "citemark.cli", *args], input=stdin, capture_output=True,
                          timeout=timeout, env={**os.environ, **LOOPBACK})


def serve(server) -> None:  # noqa: ANN001
    server.routes.update(PAGES)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def verify_json(item: dict, folder: Path, model: str) -> dict:
    """What ``citemark verify --json`` prints for one batch item."""
    if "claim" in item:
        result = citemark("verify", "--claim", item["claim"], "--source", item["source"], "--json", "--model", model)
    else:
        answer = item.get("answer", item.get("claims"))
        text = answer if isinstance(answer, str) else json.dumps(answer)
        file = folder / f"{item['id']}.txt"
        file.write_text(text, encoding="utf-8")
        extra = ["--format", item["format"]] if "format" in item else ["--format", "json"] if "claims" in item else []
        result = citemark("verify", str(file), "--json", "--model", model, *extra)
    assert result.returncode in (0, 1), result.stderr.decode()
    return json.loads(result.stdout)


@pytest.mark.parametrize("model", ["none", pytest.param("citemark-grounding-minilm", marks=pytest.mark.model)])
def test_each_output_line_is_what_verify_json_prints_for_that_answer(server, home, tmp_path, model):
    serve(server)
    items = answers(server)
    source = write_jsonl(tmp_path / "in.jsonl", items)
    result = citemark("batch", str(source), "--out", str(tmp_path / "out.jsonl"), "--model", model)
    assert result.returncode == 0, result.stderr.decode()
    records = {record.pop("id"): record for record in read_jsonl(tmp_path / "out.jsonl")}
    assert set(records) == {"md", "html", 7, "pair"}
    for item in items:
        assert records[item["id"]] == verify_json(item, tmp_path, model), item["id"]
    labels = [v["verdict"] for v in records["md"]["verdicts"]]
    assert labels.count("supported") >= 1 and "unreachable" not in labels
    assert [v["citation"]["marker"] for v in records["md"]["verdicts"]][:2] == ["1", "2"]  # answer order, not arrival
    assert "unreachable" in [v["verdict"] for v in records[7]["verdicts"]]  # /gone is a 404


def test_bad_lines_are_reported_and_skipped_and_never_stop_the_batch(server, home, tmp_path):
    serve(server)
    good = answers(server)
    rows = [good[0], "{not json", {"answer": "no id here"}, {"id": "md", "answer": "the same id again"},
            {"id": "empty", "claims": [{"claim": ""}]}, {"id": "both", "answer": "x", "claim": "y", "source": "z"},
            {"id": True, "answer": "a boolean id"}, good[3]]
    result = citemark("batch", str(write_jsonl(tmp_path / "in.jsonl", rows)), "--out", str(tmp_path / "out.jsonl"),
                      "--model", "none", "--summary", str(tmp_path / "summary.json"))
    assert result.returncode == 0, result.stderr.decode()
    records = read_jsonl(tmp_path / "out.jsonl")
    verified = {r["id"] for r in records if "verdicts" in r}
    errors = {(r["id"], r["line"]): r["error"]["code"] for r in records if "error" in r}
    assert verified == {"md", "pair"}
    assert errors == {(None, 2): "E101", (None, 3): "E100", (None, 4): "E100", ("empty", 5): "E101",
                      ("both", 6): "E100", (None, 7): "E100"}
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert (summary["answers"], summary["errors"]) == (2, 6)
    stderr = result.stderr.decode()
    assert "2 answers verified, 6 lines with errors" in stderr and "Traceback" not in stderr


async def test_each_distinct_source_is_fetched_and_indexed_once_for_the_whole_batch(server, settings, monkeypatch):
    import citemark.engine

    built = Counter()

    def counting_index(text):  # noqa: ANN001, ANN202
        built[text[:30]] += 1
        return EvidenceIndex(text)

    monkeypatch.setattr(citemark.engine, "EvidenceIndex", counting_index)
    serve(server)
    paths = sorted(PAGES)
    items = [{"id": i, "claims": [{"claim": f"Claim {i} about {p[1:]} holds.", "url": server.url(p)}
                                  for p in (paths[i % 5], paths[(i + 1) % 5], paths[(i + 3) % 5], "/gone")]}
             for i in range(30)]
    async with engine_slot(settings, scorer=None, cache=None) as slot:
        engine = await slot.get()
        records = [record async for record in verify_batch(items, engine=engine, concurrency=8)]
    assert sorted(r["id"] for r in records) == list(range(30))
    fetched = Counter(path for path, _ in server.requests)
    assert {path: fetched[path] for path in [*paths, "/gone"]} == {path: 1 for path in [*paths, "/gone"]}
    assert len(built) == 5 and set(built.values()) == {1}  # each page's evidence index built once
    unreachable = [v for r in records for v in r["verdicts"] if v["citation"]["url"].endswith("/gone")]
    assert len(unreachable) == 30 and {v["verdict"] for v in unreachable} == {"unreachable"}


def test_a_killed_batch_resumes_where_it_stopped(server, home, tmp_path):
    slow = {f"/slow{i}": Reply(PAGES["/library"].body, delay=0.3) for i in range(24)}
    server.routes.update(slow)
    items = [{"id": f"a{i}", "claims": [{"claim": "The library holds 260,000 volumes.", "url": server.url(f"/slow{i}")}]}
             for i in range(24)]
    source = write_jsonl(tmp_path / "in.jsonl", items)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "citemark.cli", "batch", str(source), "--out", str(out), "--model", "none",
               "--no-cache", "--concurrency", "2"]
    process = subprocess.Popen(command, env={**os.environ, **LOOPBACK}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 4):
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    before = out.read_bytes()
    done_before = {json.loads(line)["id"] for line in before.splitlines()}
    assert 4 <= len(done_before) < 24
    with open(out, "ab") as torn:  # as if the kill had landed in the middle of a write
        torn.write(b'{"id": "a23", "verdicts": [{"claim": "The libr')
    requests_before = Counter(path for path, _ in server.requests)

    result = citemark("batch", str(source), "--out", str(out), "--model", "none", "--no-cache")
    assert result.returncode == 0, result.stderr.decode()
    after = out.read_bytes()
    assert after.startswith(before)  # finished lines are kept as they were, the torn one cut off
    ids = [json.loads(line)["id"] for line in after.splitlines()]
    assert sorted(ids) == sorted(item["id"] for item in items)  # every answer exactly once
    requested = Counter(path for path, _ in server.requests) - requests_before
    resumed_paths = {f"/slow{item[1:]}" for item in done_before}
    assert not resumed_paths & set(requested)  # answers already written were not verified again
    assert f"24 answers verified, 0 lines with errors ({len(done_before)} already in the output" in result.stderr.decode()


def test_ctrl_c_stops_after_the_finished_lines_and_exits_130(server, home, tmp_path):
    source = slow_batch(server, tmp_path / "in.jsonl", 12, 0.3)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "citemark.cli", "batch", str(source), "--out", str(out), "--model", "none",
               "--no-cache", "--concurrency", "1"]
    # SIGINT as a terminal delivers it, even when the tests were started in the background of a shell
    # without job control (which starts them, and so this child, with SIGINT ignored).
    process = subprocess.Popen(command, env={**os.environ, **LOOPBACK}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 2):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr.decode()
    assert b"run the same command to resume" in stderr and b"Traceback" not in stderr
    lines = out.read_bytes().splitlines()
    assert 2 <= len(lines) < 12 and all(json.loads(line)["verdicts"] for line in lines)


def test_the_example_file_and_its_local_paths_read_as_verify_reads_them(home, tmp_path):
    example = ROOT / "examples" / "batch.jsonl"
    result = citemark("batch", str(example), "--out", str(tmp_path / "out.jsonl"), "--model", "none")
    assert result.returncode == 0, result.stderr.decode()
    records = {r["id"]: r for r in read_jsonl(tmp_path / "out.jsonl")}
    verdicts = {key: [v["verdict"] for v in r["verdicts"]] for key, r in records.items() if key}
    assert verdicts == {"eiffel-1": ["supported", "contradicted"], "eiffel-2": ["supported", "supported"],
                        "eiffel-3": ["supported"], "eiffel-4": ["supported", "unreachable"]}
    assert records[None]["error"]["code"] == "E101"
    # the first answer, saved as a file beside the example's sources, gives verify the same report
    shutil.copytree(ROOT / "examples" / "sources", tmp_path / "sources")
    answer = json.loads(example.read_text().splitlines()[0])["answer"]
    (tmp_path / "answer.md").write_text(answer, encoding="utf-8")
    verified = json.loads(citemark("verify", str(tmp_path / "answer.md"), "--json", "--model", "none").stdout)
    batch_record = dict(records["eiffel-1"])
    del batch_record["id"]
    text = json.dumps(batch_record).replace(str(ROOT / "examples"), str(tmp_path))
    assert json.loads(text) == verified


@pytest.mark.parametrize(("args", "needle"), [
    (["missing.jsonl", "--out", "{out}"], "no such file"),
    (["{input}", "--out", "{out}", "--concurrency", "0"], "--concurrency"),
    (["{input}", "--out", "{input}"], "is the input file"),
    (["{input}", "--out", "{out}", "--ray-actors", "2"], "goes with --ray"),
])
def test_usage_errors_are_exit_2_and_leave_the_output_alone(home, tmp_path, args, needle):
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": 1, "claim": "x", "source": "y"}])
    out = tmp_path / "out.jsonl"
    result = citemark("batch", *[a.format(input=source, out=out) for a in args], "--model", "none")
    assert result.returncode == 2 and needle in result.stderr.decode()
    assert not out.exists() and source.read_text().count("\n") == 1


def test_a_batch_does_not_resume_under_another_policy(server, home, tmp_path):
    """Records of one policy and another in one output would be counted as one run: refused, file unchanged."""
    serve(server)
    source = write_jsonl(tmp_path / "in.jsonl", answers(server)[:2])
    out = tmp_path / "out.jsonl"
    first = citemark("batch", str(source), "--out", str(out), "--model", "none", "--policy", "balanced")
    assert first.returncode == 0, first.stderr.decode()
    assert all(record["policy"] == "balanced" and "pack_version" in record for record in read_jsonl(out)
               if "error" not in record)
    before = out.read_bytes()
    again = citemark("batch", str(source), "--out", str(out), "--model", "none")
    assert again.returncode == 2 and b"--policy balanced" in again.stderr, again.stderr.decode()
    assert out.read_bytes() == before
