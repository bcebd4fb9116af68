"""``citemark batch --out`` never changes a file citemark did not write; only a torn last line of its own is cut.

Each attack runs the real CLI and checks, byte for byte, every file it was pointed
at: a clear E104 and the file as it was, whatever ``--out`` names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ITEM = {"id": "a", "claim": "The Danube flows for 2,850 kilometres.",
        "source": "The Danube flows for 2,850 kilometres through ten countries."}


def citemark_batch(folder: Path, source: Path, out: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CITEMARK_MODEL": "none", "HOME": str(folder), "XDG_CACHE_HOME": str(folder / "cache")}
    return subprocess.run([sys.executable, "-m", "citemark.cli", "batch", str(source), "--out", str(out), "-q"],
                          capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture
def source(tmp_path) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps({**ITEM, "id": f"a{i}"}) + "\n" for i in range(20)), encoding="utf-8")
    return path


def assert_refused_and_unchanged(result: subprocess.CompletedProcess, files: dict[Path, bytes], why: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "E104" in result.stderr and why in result.stderr, result.stderr
    assert "E000" not in result.stderr and "Traceback" not in result.stderr
    for path, before in files.items():
        assert path.read_bytes() == before, f"{path} changed"


def test_a_symlink_to_a_notes_file_is_refused_and_the_notes_survive(tmp_path, source):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"My notes: call the plumber.\nNot JSON at all.\n")
    link = tmp_path / "out.jsonl"
    link.symlink_to(notes)
    result = citemark_batch(tmp_path, source, link)
    assert_refused_and_unchanged(result, {notes: notes.read_bytes(), source: source.read_bytes()}, "symbolic link")
    assert link.is_symlink()


def test_an_existing_readme_is_refused_and_kept_whole(tmp_path, source):
    readme = tmp_path / "README.md"
    readme.write_text("# Project\n\n" + "Some documentation line.\n" * 100 + '{"id": 1, "verdicts": []}\n')
    before = readme.read_bytes()
    assert_refused_and_unchanged(citemark_batch(tmp_path, source, readme), {readme: before}, "first line")


def test_the_input_file_given_again_through_a_hard_link_is_refused(tmp_path, source):
    alias = tmp_path / "results.jsonl"
    os.link(source, alias)
    before = source.read_bytes()
    assert_refused_and_unchanged(citemark_batch(tmp_path, source, alias), {source: before}, "is the input file")


def test_a_corrupt_middle_line_keeps_every_record_after_it(tmp_path, source):
    out = tmp_path / "out.jsonl"
    assert citemark_batch(tmp_path, source, out).returncode == 0
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == 20
    out.write_bytes(b"".join(lines[:2]) + b"garbage in the middle\n" + b"".join(lines[2:]))
    before = out.read_bytes()
    assert_refused_and_unchanged(citemark_batch(tmp_path, source, out), {out: before}, "line 3")


def test_a_directory_as_out_is_a_clear_error(tmp_path, source):
    folder = tmp_path / "results"
    folder.mkdir()
    result = citemark_batch(tmp_path, source, folder)
    assert_refused_and_unchanged(result, {source: source.read_bytes()}, "is a directory")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("line", [
    '{"id": 1, "verdicts": 5}', '{"id": 1, "error": "E101"}', '{"id": 1, "verdicts": [1]}',
    '{"id": 1, "verdicts": [{"verdict": ["x"]}]}', '{"id": 1, "verdicts": [{"citation": "x"}]}',
    '{"id": {"a": 1}, "verdicts": []}',
])
def test_wrong_shape_json_in_the_output_is_a_clear_error(tmp_path, source, line):
    out = tmp_path / "out.jsonl"
    out.write_text(line + "\n")
    before = out.read_bytes()
    assert_refused_and_unchanged(citemark_batch(tmp_path, source, out), {out: before}, "not a citemark batch record")


def test_a_torn_last_line_of_its_own_output_is_cut_and_the_batch_resumes(tmp_path, source):
    out = tmp_path / "out.jsonl"
    assert citemark_batch(tmp_path, source, out).returncode == 0
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:5]) + lines[5][:40])
    result = citemark_batch(tmp_path, source, out)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == sorted(f"a{i}" for i in range(20))
    assert out.read_bytes().startswith(b"".join(lines[:5]))
