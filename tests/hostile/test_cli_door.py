"""Attacks through the command line: huge and endless files, tens of thousands of claims.

Each run is a real ``citemark`` process; its own peak memory (``wait4``) stays
under ``MEMORY_LIMIT_MB``, it answers within 30 s, and a bad input is a clear
error with its code, never a traceback.
"""

from __future__ import annotations

import json
import os

import pytest

from tests.hostile.conftest import MEMORY_LIMIT_MB, run_cli


@pytest.fixture
def env(home) -> dict[str, str]:
    return {**os.environ, "CITEMARK_MODEL": "none", "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache")}


@pytest.mark.parametrize("command", ["verify", "refs"])
def test_an_endless_file_is_refused_at_the_limit_without_reading_it_all(env, command):
    run = run_cli([command, "/dev/zero"], env=env, timeout=30)
    assert run.returncode == 2 and "E102" in run.stderr and "over the limit" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert run.peak_mb < MEMORY_LIMIT_MB, f"{run.peak_mb:.0f} MB"


def test_a_300_mb_answer_file_costs_no_more_than_the_limit(env, tmp_path):
    big = tmp_path / "big.md"
    with open(big, "wb") as handle:
        handle.truncate(300 << 20)  # sparse: 300 MB to read, nothing written to disk
    run = run_cli(["verify", str(big)], env=env, timeout=30)
    assert run.returncode == 2 and "E102" in run.stderr
    assert run.peak_mb < MEMORY_LIMIT_MB, f"{run.peak_mb:.0f} MB"


def test_32k_citations_past_the_cap_are_each_reported_quickly(env, tmp_path):
    (tmp_path / "danube.txt").write_text("The Danube flows for 2,850 kilometres through ten countries.")
    answer = tmp_path / "a.md"
    answer.write_text("".join(f"Danube claim {i} [1].\n" for i in range(32_000)) + "\nSources\n1. ./danube.txt\n")
    run = run_cli(["verify", str(answer), "--json", "-q"], env=env, timeout=60)
    assert run.returncode == 1, run.stderr
    reasons = [v["reason"] for v in json.loads(run.stdout)["verdicts"]]
    assert len(reasons) == 32_000 and reasons.count("over_citation_limit") == 31_800
    assert run.seconds < 30, f"{run.seconds:.1f} s"
    assert run.peak_mb < MEMORY_LIMIT_MB, f"{run.peak_mb:.0f} MB"
