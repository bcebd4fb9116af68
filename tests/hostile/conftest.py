"""The hostile-input suite's tools: a host under attack that is pinged throughout, and its peak memory.

Every attack here is a test that must pass: the host (a real subprocess over real
pipes, serving sources from 127.0.0.1) answers a ``ping`` within ``PING_LIMIT``
seconds during each attack, and its peak resident memory stays under
``MEMORY_LIMIT_MB``. Bombs are generated in the test; nothing leaves loopback.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tests.support.host import HostProcess

PING_LIMIT = 1.0
MEMORY_LIMIT_MB = 400


@dataclass
class Siege:
    """What one attack produced: its frames, the slowest ping reply, and the host's peak memory."""

    frames: list[dict[str, Any]] = field(default_factory=list)
    slowest_ping: float = 0.0
    pings: int = 0
    peak_mb: float = 0.0

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == kind]


def besiege(host: HostProcess, request: dict[str, Any] | bytes, until: tuple[Any, str | tuple[str, ...]],
            timeout: float = 60.0, interval: float = 0.2) -> Siege:
    """Send ``request``, ping every ``interval`` s until the frame ``until`` = (id, type) arrives."""
    siege = Siege()
    wanted_id, wanted = until
    wanted_types = (wanted,) if isinstance(wanted, str) else wanted
    host.send(request)
    sent: dict[str, float] = {}
    deadline = time.monotonic() + timeout
    next_ping = time.monotonic()
    finished = False
    while not finished or sent:
        now = time.monotonic()
        assert now < deadline, f"attack not answered within {timeout} s; frames so far: {siege.frames[-3:]}"
        if now >= next_ping and not finished:
            ping_id = f"ping-{siege.pings}"
            siege.pings += 1
            sent[ping_id] = now
            host.send({"v": 1, "id": ping_id, "type": "ping"})
            next_ping = now + interval
        for at in sent.values():  # a ping still unanswered counts as slow while we wait
            siege.slowest_ping = max(siege.slowest_ping, now - at)
        try:
            frame = host.frames.get(timeout=0.05)
        except Exception:  # queue.Empty
            continue
        assert frame is not None, "host closed stdout during the attack"
        if frame.get("type") == "pong" and frame.get("id") in sent:
            siege.slowest_ping = max(siege.slowest_ping, time.monotonic() - sent.pop(frame["id"]))
            continue
        siege.frames.append(frame)
        if frame.get("id") == wanted_id and frame.get("type") in wanted_types:
            finished = True
    siege.peak_mb = peak_rss_mb(host.process.pid)
    return siege


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from /proc/PID/task/PID/children."""
    found, index = [pid], 0
    while index < len(found):
        try:
            with open(f"/proc/{found[index]}/task/{found[index]}/children", encoding="ascii") as children:
                found += [int(child) for child in children.read().split()]
        except OSError:
            pass
        index += 1
    return found


def _high_water_kb(pid: int) -> int:
    """VmHWM of a running process in kB; 0 once it has exited."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident set size so far (VmHWM), in MB."""
    kb = _high_water_kb(pid)
    assert kb, f"no VmHWM in /proc/{pid}/status"
    return kb / 1024


def assert_held(siege: Siege) -> None:
    assert siege.pings >= 1
    assert siege.slowest_ping < PING_LIMIT, f"a ping waited {siege.slowest_ping:.2f} s during the attack"
    assert siege.peak_mb < MEMORY_LIMIT_MB, f"host peaked at {siege.peak_mb:.0f} MB"


@dataclass
class Run:
    """A finished CLI process: its exit status, output, and its own peak memory."""

    returncode: int
    stdout: str
    stderr: str
    peak_mb: float
    seconds: float


def run_cli(args: list[str], *, env: dict[str, str], cwd: str | None = None, timeout: float = 120.0) -> Run:
    """``python -m citemark.cli ARGS``; its peak is the largest VmHWM of the child and of any process it starts
    (batch workers), read while it runs. Not ``wait4``'s ``ru_maxrss``: Linux carries the high-water mark
    across ``exec``, so it would report this test process's own peak (a model loaded by an earlier test)."""
    import os
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        child = subprocess.Popen([sys.executable, "-m", "citemark.cli", *args], stdin=subprocess.DEVNULL,
                                 stdout=out, stderr=err, env=env, cwd=cwd)
        deadline = started + timeout
        peak_kb = 0
        while True:
            peak_kb = max(peak_kb, *(_high_water_kb(pid) for pid in _tree(child.pid)))
            pid, status, _ = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                child.kill()
                child.wait()
                raise AssertionError(f"citemark {' '.join(args)[:80]} ran over {timeout} s")
            time.sleep(0.02)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Run(child.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   peak_kb / 1024, seconds)
