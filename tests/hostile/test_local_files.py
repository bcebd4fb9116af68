"""An answer file (or a batch file) is untrusted input: the local files it cites are read only under its folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def citemark(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CITEMARK_MODEL": "none", "HOME": str(cwd), "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "citemark.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def layout(tmp_path: Path) -> Path:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "secret.txt").write_text("The launch code is 0000 and the vault opens at noon every day.")
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "notes.txt").write_text("The vault opens at noon every day, the notes say, for visitors.")
    return answers


def test_an_answer_file_cannot_make_the_cli_read_outside_its_folder(tmp_path):
    answers = layout(tmp_path)
    (answers / "answer.md").write_text("The vault opens at noon every day [1]. The vault opens at noon [2].\n\n"
                                       "Sources\n1. ../secret/secret.txt\n2. notes.txt\n")
    result = citemark("verify", str(answers / "answer.md"), "--json", cwd=tmp_path)
    reasons = {v["citation"].get("path", "").rsplit("/", 1)[-1]: v["reason"] for v in json.loads(result.stdout)["verdicts"]}
    assert reasons["secret.txt"] == "local_file_refused"
    assert reasons["notes.txt"] != "local_file_refused"
    assert "launch code" not in result.stdout


def test_a_batch_file_cannot_make_citemark_read_outside_its_folder(tmp_path):
    answers = layout(tmp_path)
    lines = [{"id": "a", "answer": "The vault opens at noon every day [1].\n\nSources\n1. ../secret/secret.txt\n"},
             {"id": "b", "claims": [{"claim": "The vault opens at noon every day.", "path": "../secret/secret.txt"}]},
             {"id": "c", "claims": [{"claim": "The vault opens at noon every day.", "path": "notes.txt"}]}]
    (answers / "in.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = citemark("batch", str(answers / "in.jsonl"), "--out", str(tmp_path / "out.jsonl"), "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    records = {r["id"]: r for r in map(json.loads, (tmp_path / "out.jsonl").read_text().splitlines())}
    assert [v["reason"] for v in records["a"]["verdicts"]] == ["local_file_refused"]
    assert [v["reason"] for v in records["b"]["verdicts"]] == ["local_file_refused"]
    assert records["c"]["verdicts"][0]["reason"] != "local_file_refused"
    assert "launch code" not in (tmp_path / "out.jsonl").read_text()
