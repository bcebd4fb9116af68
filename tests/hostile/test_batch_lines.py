"""One bad line of a batch gets one error record; every other line is verified, and reruns resume."""

from __future__ import annotations

import json
import os

import pytest

from tests.hostile.conftest import MEMORY_LIMIT_MB, run_cli

GOOD = {"id": "ok", "claim": "The Danube flows for 2,850 kilometres.",
        "source": "The Danube flows for 2,850 kilometres through ten countries."}


@pytest.fixture
def env(home) -> dict[str, str]:
    return {**os.environ, "CITEMARK_MODEL": "none", "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache")}


def records(path) -> dict:  # noqa: ANN001
    return {str(r["id"]) if r["id"] is not None else f"line {r['line']}": r
            for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def test_a_line_nested_100k_deep_and_lone_surrogates_do_not_stop_the_batch(env, tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(
        '{"id": "deep", "answer": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
        + json.dumps(GOOD) + "\n"
        + '{"id": "surrogate", "claim": "The river \\ud800 flows.", "source": "The river flows \\ud800 far away."}\n'
        + '{"id": "\\udc00", "claim": "A lone id.", "source": "Some text about it."}\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run = run_cli(["batch", str(source), "--out", str(out), "-q"], env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "E000" not in run.stderr
    done = records(out)
    assert done["line 1"]["error"]["code"] == "E101" and "nested too deeply" in done["line 1"]["error"]["message"]
    assert done["ok"]["verdicts"][0]["verdict"] == "supported"
    assert "surrogate" in done and "\udc00" in done
    written = out.read_bytes()
    rerun = run_cli(["batch", str(source), "--out", str(out), "-q"], env=env, timeout=60)
    assert rerun.returncode == 0 and out.read_bytes() == written  # everything was done: nothing redone, nothing cut
    assert run.peak_mb < MEMORY_LIMIT_MB


def test_a_binary_input_is_counted_right_and_is_an_input_error(env, tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_bytes(bytes(range(256)) * 16 + b"no newline at the end")  # 16 newlines (byte 10), 17 lines
    out = tmp_path / "out.jsonl"
    run = run_cli(["batch", str(source), "--out", str(out)], env=env, timeout=60)
    assert run.returncode == 2 and "E101" in run.stderr and "none of its 17 lines" in run.stderr, run.stderr
    assert "17/17 answers" in run.stderr
    assert len(out.read_text().splitlines()) == 17


def test_an_answer_whose_every_citation_is_unreachable_is_not_passed(env, tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "dead", "claim": "The bridge opened in 1937.", "source": "./missing.html"})
                      + "\n" + json.dumps(GOOD) + "\n", encoding="utf-8")
    summary = tmp_path / "summary.json"
    run = run_cli(["batch", str(source), "--out", str(tmp_path / "out.jsonl"), "--summary", str(summary), "-q"],
                  env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    data = json.loads(summary.read_text())
    assert (data["answers"], data["passed"], data["pass_rate"]) == (2, 1, 0.5)


def test_resuming_a_million_line_output_stays_small(env, tmp_path):
    out = tmp_path / "out.jsonl"
    with open(out, "w", encoding="utf-8") as handle:
        for i in range(1_000_000):
            handle.write(f'{{"id": "a{i}", "verdicts": [{{"verdict": "supported", "claim_index": 0}}]}}\n')
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({**GOOD, "id": "a5"}) + "\n", encoding="utf-8")
    run = run_cli(["batch", str(source), "--out", str(out), "--summary", str(tmp_path / "s.json"), "-q"], env=env,
                  timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads((tmp_path / "s.json").read_text())["resumed"] == 1_000_000
    assert run.peak_mb < MEMORY_LIMIT_MB, f"{run.peak_mb:.0f} MB"
