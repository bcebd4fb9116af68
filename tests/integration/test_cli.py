"""The ``citemark`` command as a user runs it: real process, real files, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "answer.md"


def citemark(*args: str, stdin: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "citemark.cli", *args], input=stdin, capture_output=True, timeout=120,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(autouse=True)
def _isolated(home):
    """Every CLI run gets the temporary HOME of the ``home`` fixture."""


def test_example_answer_verdicts_lexical_only():
    result = citemark("verify", str(EXAMPLE), "--json", "--model", "none")
    assert result.returncode == 1, result.stderr  # one citation is contradicted
    report = json.loads(result.stdout)
    verdicts = [(v["citation"]["marker"], v["verdict"]) for v in report["verdicts"]]
    assert verdicts == [("1", "supported"), ("1", "contradicted"), ("2", "supported"), ("3", "unreachable")]
    first = report["verdicts"][0]
    assert set(first) >= {"claim", "citation", "verdict", "reason", "scores", "evidence"}
    assert set(first["evidence"]) >= {"quote", "start", "end", "link"}
    assert "lexical-only" in report["model"]


def test_terminal_report_and_markdown_file(tmp_path):
    md = tmp_path / "report.md"
    result = citemark("verify", str(EXAMPLE), "--model", "none", "--md", str(md))
    out = result.stdout.decode()
    assert "✔ SUPPORTED" in out and "✘ CONTRADICTED" in out and "⚠ UNREACHABLE" in out
    assert "2 of 4 citations supported, 1 contradicted, 1 unreachable" in out
    assert "| ✘ contradicted |" in md.read_text()


def test_single_claim_against_a_local_source(tmp_path):
    source = tmp_path / "s.txt"
    source.write_text("The museum opened in 1902 and holds 260,000 volumes.")
    ok = citemark("verify", "--claim", "The museum holds 260,000 volumes.", "--source", str(source), "--json", "--model", "none")
    assert ok.returncode == 0 and json.loads(ok.stdout)["verdicts"][0]["verdict"] == "supported"
    strict = citemark("verify", "--claim", "The museum opened in 1902 in Boston.", "--source", str(source), "--strict", "--model", "none")
    assert strict.returncode == 1


def test_answer_from_stdin_with_threshold(tmp_path):
    source = tmp_path / "s.txt"
    source.write_text("Alpha is the first letter of the Greek alphabet.")
    answer = f"Alpha is the first letter of the Greek alphabet [1]. Omega is the first letter [2].\n\nSources\n1. {source}\n2. {source}\n"
    allow = ["--allow-dir", str(tmp_path)]  # an answer on stdin may read files only where the user says
    passing = citemark("verify", "-", "--model", "none", "--threshold", "0.5", *allow, stdin=answer.encode())
    failing = citemark("verify", "-", "--model", "none", "--threshold", "0.9", *allow, stdin=answer.encode())
    assert (passing.returncode, failing.returncode) == (0, 1)


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["verify", "-"], b"\xff\xfe not utf-8 [1]", "E100"),
        (["verify", "does-not-exist.md"], None, "no such file"),
        (["verify", "-", "--format", "json"], b"{not json", "E101"),
        (["verify", "--claim", "x"], None, "go together"),
        (["verify", str(EXAMPLE), "--model", "no-such-model"], None, "E301"),
    ],
)
def test_bad_input_is_exit_2_with_a_clear_message(args, stdin, needle):
    result = citemark(*args, stdin=stdin)
    assert result.returncode == 2
    assert needle in result.stderr.decode()
    assert "Traceback" not in result.stderr.decode()
