"""``citemark batch --workers N``: worker processes give the records of one process, and Ctrl-C or a
killed worker stops the run cleanly, with the finished answers kept for the next run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citemark.batch import run_batch
from citemark.batch_processes import in_processes
from tests.support.batch import mixed_batch, slow_batch

LOOPBACK = {"CITEMARK_ALLOW_PRIVATE_NETWORK": "1"}


def records(path):
    return {json.dumps(record["id"]): record for record in map(json.loads, path.read_text().splitlines())}


@pytest.mark.parametrize("model", ["none", pytest.param("citemark-grounding-minilm", marks=pytest.mark.model)])
def test_two_workers_give_the_records_of_one_process(server, settings, tmp_path, model):
    settings = settings.with_(model=model)
    source = mixed_batch(server, tmp_path / "in.jsonl")
    alone = run_batch(source, tmp_path / "alone.jsonl", settings=settings)
    shared = run_batch(source, tmp_path / "workers.jsonl", settings=settings, remote=in_processes(2))
    assert records(tmp_path / "workers.jsonl") == records(tmp_path / "alone.jsonl")
    assert (shared.answers, shared.errors) == (alone.answers, alone.errors) == (24, 2)
    assert shared.verdicts == alone.verdicts


def _two_workers(server, tmp_path, delay: float, **popen) -> tuple[list[str], Path, subprocess.Popen]:  # noqa: ANN001
    """``citemark batch --workers 2`` started on 40 slow answers: its command, output file and process."""
    source = slow_batch(server, tmp_path / "in.jsonl", 40, delay)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "citemark.cli", "batch", str(source), "--out", str(out), "--model", "none",
               "--no-cache", "--concurrency", "1", "--workers", "2"]
    process = subprocess.Popen(command, env={**os.environ, **LOOPBACK}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               **popen)
    return command, out, process


def _wait_for_lines(out: Path, count: int) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < count):
        time.sleep(0.05)


def _rerun_completes(command: list[str], out: Path) -> None:
    rerun = subprocess.run(command, env={**os.environ, **LOOPBACK}, capture_output=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr.decode()
    ids = [json.loads(line)["id"] for line in out.read_bytes().splitlines()]
    assert sorted(ids) == list(range(40))  # every answer exactly once


def test_ctrl_c_stops_the_workers_keeps_the_finished_lines_and_a_rerun_completes(server, home, tmp_path):
    # SIGINT as a terminal delivers it (see test_batch's Ctrl-C test)
    command, out, process = _two_workers(server, tmp_path, 0.3,
                                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _wait_for_lines(out, 8)
    workers = _children_of(process.pid)
    assert workers  # the run was stopped while its workers were verifying
    stopped_at = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert time.monotonic() - stopped_at < 15  # the workers stop at once: no shard is finished first
    assert process.returncode == 130, stderr.decode()
    assert b"run the same command to resume" in stderr and b"Traceback" not in stderr
    lines = out.read_bytes().splitlines()
    assert 8 <= len(lines) < 40 and all(json.loads(line)["verdicts"] for line in lines)
    # no worker outlives the run (multiprocessing's resource tracker ends on its own once the run's pipe closes)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(map(_running, workers)):
        time.sleep(0.05)
    assert not [pid for pid in workers if _running(pid)]
    _rerun_completes(command, out)


def test_a_killed_worker_loses_only_its_shards_and_a_rerun_verifies_them(server, home, tmp_path):
    command, out, process = _two_workers(server, tmp_path, 0.2)
    _wait_for_lines(out, 4)
    worker = next(pid for pid in _children_of(process.pid) if b"multiprocessing-fork" in _cmdline(pid))
    os.kill(worker, signal.SIGKILL)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 1, stderr.decode()  # the output is short of the dead worker's answers
    assert b"Traceback" not in stderr
    first = [json.loads(line)["id"] for line in out.read_bytes().splitlines()]
    assert 4 <= len(first) < 40 and len(set(first)) == len(first)
    assert f"{40 - len(first)} answers were not verified".encode() in stderr
    assert b"run the same command to verify them" in stderr
    _rerun_completes(command, out)


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, parent, ...), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children_of(pid: int) -> list[int]:
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and (fields := _stat(entry)) is not None and int(fields[1]) == pid]


def _running(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read()
    except OSError:
        return b""
