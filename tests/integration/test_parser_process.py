"""The parser's process: it fails into "no parse" (never a traceback, never a hang) and never outlives its parent."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from citemark.scoring import parse
from tests.support.needs import need

SENTENCE = "Armstrong and Aldrin walked on the Moon while Collins stayed in orbit."


@pytest.fixture
def parser():
    need(parse.installed(), f"needs spaCy and {parse.PIPELINE} (./scripts/setup installs them)")
    process = parse.ParserProcess(start_timeout=60.0, parse_timeout=2.0)
    yield process
    process.close()


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its reaper is not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == parse.__name__ and r.levelno >= logging.WARNING]


def test_threads_share_one_process_one_request_at_a_time(parser):
    texts = [f"Collins stayed in orbit for {n} days." for n in range(24)]
    with ThreadPoolExecutor(4) as pool:
        docs = list(pool.map(parser.parse, texts))
    assert all(doc is not None and doc.text == text for doc, text in zip(docs, texts, strict=True))


@pytest.mark.skipif(sys.platform == "win32", reason="kills by POSIX signal")
def test_a_killed_parser_gives_no_parse_from_then_on_and_says_why_once(parser, caplog):
    assert parser.parse(SENTENCE) is not None
    os.kill(parser.pid, signal.SIGKILL)
    started = time.monotonic()
    assert parser.parse("Collins stayed in orbit.") is None
    assert parser.parse("Aldrin walked on the Moon.") is None and not parser.available()
    assert time.monotonic() - started < 2.0 and parser.pid is None
    assert warnings_of(caplog) == ["the dependency parser stopped (exit status -9); relations are not checked "
                                   "from here on"]


@pytest.mark.skipif(sys.platform == "win32", reason="stops the child by POSIX signal")
def test_a_parser_that_does_not_answer_is_killed_after_its_timeout(parser, caplog):
    assert parser.available()
    pid = parser.pid
    os.kill(pid, signal.SIGSTOP)
    started = time.monotonic()
    assert parser.parse(SENTENCE) is None
    assert 1.5 < time.monotonic() - started < 10.0
    assert not running(pid) and "did not answer within 2 s" in (parser.failure or "")
    assert len(warnings_of(caplog)) == 1


def test_a_parser_that_cannot_start_or_dies_on_start_gives_no_parse(monkeypatch, caplog):
    need(parse.installed(), f"needs spaCy and {parse.PIPELINE} (./scripts/setup installs them)")
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    missing = parse.ParserProcess()
    assert missing.parse(SENTENCE) is None and "could not start" in (missing.failure or "")
    monkeypatch.setattr(sys, "executable", "false")  # starts, and exits at once
    dying = parse.ParserProcess()
    assert dying.parse(SENTENCE) is None and dying.failure == "stopped (exit status 1)"
    assert len(warnings_of(caplog)) == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_parser_stops_when_its_parent_exits():
    need(parse.installed(), f"needs spaCy and {parse.PIPELINE} (./scripts/setup installs them)")
    script = ("from citemark.scoring import parse\n"
              "parser = parse.ParserProcess()\n"
              "assert parser.available()\n"
              "print(parser.pid, flush=True)\n")
    parent = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    child = int(parent.stdout)
    deadline = time.monotonic() + 10
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(child)
