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


# ---------------------------------------------------------------- exit codes and sources, row by row


def test_every_bundled_example_answer_shape_verifies():
    relative = json.loads(citemark("verify", str(ROOT / "examples" / "answer-relative-paths.md"), "--json", "--model", "none").stdout)
    assert [v["verdict"] for v in relative["verdicts"]] == ["supported", "supported", "unreachable"]
    assert relative["verdicts"][0]["citation"]["path"] == str(ROOT / "examples" / "sources" / "eiffel-tower.html")
    reference = citemark("verify", str(ROOT / "examples" / "answer-reference-style.md"), "--json", "--model", "none")
    data = json.loads(reference.stdout)
    assert reference.returncode == 0 and data["summary"]["pass_rate"] == 1.0
    assert [v["claim"] for v in data["verdicts"]][0] == ("The Eiffel Tower was completed in 1889 as the entrance arch "
                                                         "to the World's Fair.")
    ids = json.loads(citemark("verify", str(ROOT / "examples" / "answer-id-markers.json"), "--json", "--model", "none",
                              "--policy", "balanced").stdout)
    assert [v["verdict"] for v in ids["verdicts"]] == ["supported", "supported", "contradicted"]
    # strict names the word the passage does not state ("stands"), where balanced granted "supported"
    ids = json.loads(citemark("verify", str(ROOT / "examples" / "answer-id-markers.json"), "--json", "--model", "none").stdout)
    assert [v["verdict"] for v in ids["verdicts"]] == ["partial", "supported", "contradicted"]
    assert ids["policy"] == "strict" and "stands" in ids["verdicts"][0]["explanation"]


def test_json_summary_carries_total_supported_pass_rate_and_the_source_hash():
    data = json.loads(citemark("verify", str(EXAMPLE), "--json", "--model", "none").stdout)
    assert (data["summary"]["total"], data["summary"]["supported"], data["summary"]["pass_rate"]) == (4, 2, 0.5)
    hashes = {v["source_sha256"] for v in data["verdicts"] if v["verdict"] == "supported"}
    assert len(hashes) == 2 and all(len(h) == 64 for h in hashes)
    assert data["coverage"]["share_cited"] == 1.0


def test_an_answer_whose_every_source_is_unreachable_fails(tmp_path):
    answer = tmp_path / "a.md"
    answer.write_text("The bridge opened in 1937 [1].\n\nSources\n1. missing.html\n")
    result = citemark("verify", str(answer), "--model", "none", "--threshold", "0")
    assert result.returncode == 1 and "no cited source could be read" in result.stderr.decode()


def test_no_citations_fails_and_an_empty_answer_or_a_truncated_json_file_is_an_input_error(tmp_path):
    uncited = tmp_path / "u.md"
    uncited.write_text("The bridge opened in 1937 and is painted orange.\n")
    result = citemark("verify", str(uncited), "--model", "none")
    assert result.returncode == 1 and "no citations found" in result.stderr.decode()
    empty = tmp_path / "e.md"
    empty.write_text("  \n")
    assert citemark("verify", str(empty), "--model", "none").returncode == 2
    truncated = tmp_path / "t.json"
    truncated.write_text('[{"claim": "The bridge opened in 1937.", "url": "https://a.exa')
    result = citemark("verify", str(truncated), "--model", "none")
    assert result.returncode == 2 and "E101" in result.stderr.decode()


def test_a_forced_internal_error_is_exit_2_without_a_traceback_unless_debug(monkeypatch, capsys, tmp_path):
    from citemark import cli, doors

    async def broken(*args, **kwargs):
        raise RuntimeError("forced for the test")

    monkeypatch.setattr(doors, "collect", broken)
    source = tmp_path / "s.txt"
    source.write_text("Alpha is a letter.")
    argv = ["verify", "--claim", "Alpha is a letter.", "--source", str(source), "--model", "none", "--no-cache"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "internal error E000: RuntimeError: forced for the test" in err and "Traceback" not in err
    with pytest.raises(RuntimeError):
        cli.main(["--debug", *argv])


def test_source_strings_typed_on_the_command_line_are_read_as_files(tmp_path):
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "x.txt").write_text("The museum holds 260,000 volumes.")
    claim = ["verify", "--claim", "The museum holds 260,000 volumes.", "--json", "--model", "none", "--source"]
    (tmp_path / "NOTES").write_text("The museum holds 260,000 volumes.")
    for source in ("./dir/x.txt", "dir/x.txt", (tmp_path / "dir" / "x.txt").as_uri(), "NOTES"):
        result = subprocess.run([sys.executable, "-m", "citemark.cli", *claim, source], capture_output=True, timeout=120,
                                cwd=tmp_path, env=os.environ)
        assert result.returncode == 0, (source, result.stderr)
        expected = tmp_path / ("NOTES" if source == "NOTES" else "dir/x.txt")
        assert json.loads(result.stdout)["verdicts"][0]["citation"]["path"] == str(expected)


def test_answer_paths_stay_inside_the_answer_folder_unless_allowed(tmp_path):
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "secret.txt").write_text("The vault code is 4711.")
    folder = tmp_path / "answer"
    folder.mkdir()
    answer = folder / "a.md"
    answer.write_text("The vault code is 4711 [1].\n\nSources\n1. ../secret/secret.txt\n")
    refused = json.loads(citemark("verify", str(answer), "--json", "--model", "none").stdout)
    assert (refused["verdicts"][0]["verdict"], refused["verdicts"][0]["reason"]) == ("unreachable", "local_file_refused")
    allowed = citemark("verify", str(answer), "--json", "--model", "none", "--allow-dir", str(tmp_path / "secret"))
    assert allowed.returncode == 0 and json.loads(allowed.stdout)["verdicts"][0]["verdict"] == "supported"


def test_url_map_resolves_markers_of_an_answer_without_a_sources_list(tmp_path):
    (tmp_path / "s.txt").write_text("Alpha is the first letter of the Greek alphabet.")
    (tmp_path / "map.json").write_text(json.dumps({"1": "s.txt", "id:note": "Omega is the last letter."}))
    answer = tmp_path / "a.md"
    answer.write_text("Alpha is the first letter of the Greek alphabet [1]. Omega is the last letter [id:note].\n")
    result = citemark("verify", str(answer), "--json", "--model", "none", "--url-map", str(tmp_path / "map.json"))
    assert result.returncode == 0, result.stderr
    assert [v["verdict"] for v in json.loads(result.stdout)["verdicts"]] == ["supported", "supported"]
    bad = citemark("verify", str(answer), "--url-map", str(tmp_path / "a.md"))
    assert bad.returncode == 2 and "E100" in bad.stderr.decode()


def test_an_existing_file_named_like_a_domain_is_read_never_looked_up(tmp_path):
    text = "The museum holds 260,000 volumes."
    claim = ["verify", "--claim", text, "--json", "--model", "none", "--source"]
    for name in ("x.py", "notes.org", "report.io"):
        (tmp_path / name).write_text(text)
        result = subprocess.run([sys.executable, "-m", "citemark.cli", *claim, name], capture_output=True, timeout=120,
                                cwd=tmp_path, env=os.environ)
        [verdict] = json.loads(result.stdout)["verdicts"]
        assert verdict["citation"].get("path") == str(tmp_path / name) and not verdict["citation"]["url"], name
        assert verdict["verdict"] == "supported", (name, verdict)


@pytest.mark.parametrize(("source", "needle"), [
    ("adir", "is a directory"), ("srcone", "--source-text"), ("missing/notes.txt", "no such file"),
    ("notes.md", "no such file"), ("sub\\notes", "no such file"),
])
def test_a_typo_or_a_directory_as_source_is_an_input_error_not_source_text(tmp_path, source, needle):
    (tmp_path / "adir").mkdir()
    result = subprocess.run([sys.executable, "-m", "citemark.cli", "verify", "--claim", "The museum holds 260,000 "
                             "volumes.", "--source", source, "--model", "none"], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path, env=os.environ)
    assert result.returncode == 2 and "E100" in result.stderr and needle in result.stderr, result.stderr
    assert "UNSUPPORTED" not in result.stdout and "Traceback" not in result.stderr


def test_source_text_is_the_source_whatever_it_looks_like():
    result = citemark("verify", "--claim", "Alpha is first.", "--source-text", "Alpha", "--json", "--model", "none")
    citation = json.loads(result.stdout)["verdicts"][0]["citation"]
    assert not citation["url"] and "path" not in citation
    assert citemark("verify", "--claim", "Alpha.", "--source", "x", "--source-text", "y").returncode == 2


#: 刑法 (Japan's Penal Code) article 36, as e-Gov prints it: the article number in kanji.
PENAL_CODE_36 = "第三十六条 急迫不正の侵害に対して、自己又は他人の権利を防衛するため、やむを得ずにした行為は、罰しない。"


def _verdict(claim: str, source_text: str) -> dict:
    result = citemark("verify", "--claim", claim, "--source-text", source_text, "--json", "-q")
    assert b"Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)["verdicts"][0]


def test_a_statute_cited_with_digits_is_the_article_its_kanji_number_names():
    """三十六 is 36: an exact quote of article 36 cited as 第36条 is no contradiction; as 第37条 it is."""
    quote = "「急迫不正の侵害に対して、自己又は他人の権利を防衛するため、やむを得ずにした行為は、罰しない」"
    right = _verdict(f"刑法第36条は{quote}と定める。", PENAL_CODE_36)
    wrong = _verdict(f"刑法第37条は{quote}と定める。", PENAL_CODE_36)
    assert right["verdict"] != "contradicted" and right["scores"]["number_mismatch"] is False, right
    assert wrong["verdict"] == "contradicted", wrong


def test_a_quotation_turned_into_its_opposite_is_contradicted_naming_both_words():
    claim = "刑法第36条は「急迫不正の侵害に対して、自己又は他人の権利を防衛するため、やむを得ずにした行為は、必ず罰する」と定める。"
    verdict = _verdict(claim, PENAL_CODE_36)
    assert (verdict["verdict"], verdict["reason"]) == ("contradicted", "falsified_quote"), verdict
    (difference,) = verdict["differences"]
    assert claim[difference["claim_start"] : difference["claim_end"]] == "必ず罰する"
    quote = verdict["evidence"]["quote"]
    assert quote[difference["passage_start"] : difference["passage_end"]] == "罰しない"


@pytest.mark.parametrize("policy", ["strict", "balanced"])
def test_a_half_supported_compound_claim_is_partial_and_names_both_halves(policy):
    source = ("The museum opened in 1902 and holds 260,000 volumes. Its director said the collection is the finest "
              "in the region. Admission is free on Sundays.")
    result = citemark("verify", "--claim", "The museum holds 260,000 volumes, and its café serves breakfast every day.",
                      "--source-text", source, "--json", "-q", "--policy", policy)
    verdict = json.loads(result.stdout)["verdicts"][0]
    assert verdict["verdict"] == "partial", verdict
    assert "“The museum holds 260,000 volumes”" in verdict["explanation"]
    assert {"café", "breakfast"} <= set(verdict["missing"]) and "volumes" not in verdict["missing"]
