"""``citemark refs`` and ``check_references`` against fake Crossref / arXiv / OpenAlex servers on 127.0.0.1.

Real HTTP on loopback, real SQLite cache, the real CLI process and MCP session; the
fake servers answer in the services' documented shapes (tests/support/scholarly.py).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from citemark.scholarly.checker import Status, check_bibliography
from citemark.scholarly.references import parse_references
from citemark.scholarly.services import Services
from tests.conftest import ROOT, LoopbackServer, Reply
from tests.support.scholarly import EXAMPLE_PAPERS, FakeScholarly, Paper

EXAMPLE = ROOT / "examples" / "references.md"
#: What each entry of examples/references.md is, and so the status it must get.
EXPECTED = {
    1: "exists",  # arXiv-only, by id
    2: "exists",  # by DOI (upper-case in the citation)
    3: "exists",
    4: "exists",
    5: "not_found",  # fabricated DOI
    6: "not_found",  # fabricated paper, no identifier
    7: "mismatch",  # right DOI, wrong year
    8: "mismatch",  # a real DOI under another paper's title and author
    9: "mismatch",  # near-miss title: another paper's
    10: "retracted",  # publisher and Retraction Watch notices
    11: "retracted",  # Retraction Watch only
    12: "exists",  # arXiv-only
    13: "not_found",  # an arXiv id that does not exist
    14: "exists",  # title + first author + year only
    15: "unverifiable",  # Crossref answers a malformed record
}


@pytest.fixture
def fake(server: LoopbackServer) -> FakeScholarly:
    return FakeScholarly(server, copy.deepcopy(EXAMPLE_PAPERS))


@pytest.fixture
def refs_settings(settings, fake):
    return settings.with_(**fake.settings_for(), scholarly_contact="refs@example.org")


async def test_example_bibliography_gets_the_right_status_for_every_entry(refs_settings):
    report = await check_bibliography(EXAMPLE.read_text(), refs_settings)
    statuses = {r.reference.index: r.status.value for r in report.results}
    assert statuses == EXPECTED
    by_index = {r.reference.index: r for r in report.results}
    assert by_index[1].work.arxiv_id.startswith("1706.03762") and by_index[1].work.authors[0] == "Vaswani"
    assert by_index[2].work.doi == "10.1109/cvpr.2016.90" and by_index[2].resolved_by == "doi"
    assert by_index[14].resolved_by == "title" and by_index[14].work.doi == "10.1038/nature16961"
    assert [d.field for d in by_index[7].differences] == ["year"]
    assert by_index[7].differences[0].record == "1997"
    assert {d.field for d in by_index[8].differences} == {"title", "first_author"}
    assert "doi:10.1016/j.neunet.2014.09.003" in by_index[8].fix  # the paper the cited title names
    assert {d.field for d in by_index[9].differences} == {"first_author", "year"}
    assert by_index[9].work.authors[0] == "Dong"
    wakefield = by_index[10]
    assert "2010-02-06" in wakefield.explanation and "https://doi.org/10.1016/s0140-6736(10)60175-4" in wakefield.explanation
    assert "Retraction Watch" in wakefield.explanation
    assert "malformed" in by_index[15].explanation
    assert all(r.fix for r in report.results if r.status != Status.EXISTS)
    assert not any(r.fix for r in report.results if r.status == Status.EXISTS)
    summary = report.summary()
    assert summary["counts"] == {"exists": 6, "mismatch": 3, "not_found": 3, "retracted": 2, "unverifiable": 1}
    assert summary["grade"] == "F" and summary["score"] == round(6 / 14, 4)


async def test_requests_are_polite_and_carry_the_reference_only(refs_settings, server):
    await check_bibliography(EXAMPLE.read_text(), refs_settings)
    assert server.requests
    for path, headers in server.requests:
        agent = headers.get("User-Agent", "")
        assert agent.startswith("citemark/") and "mailto:refs@example.org" in agent
        if path.startswith(("/crossref", "/openalex")):
            assert "mailto=refs%40example.org" in path
    assert not any("Pre-training" in path for path, _ in server.requests if "10.18653" in path)


async def test_records_are_cached_in_sqlite_and_reused(refs_settings, server):
    text = EXAMPLE.read_text()
    await check_bibliography(text, refs_settings)
    first = len(server.requests)
    second = await check_bibliography(text, refs_settings)
    # the malformed record is an error, never cached: it alone is asked for again
    assert [p for p, _ in server.requests[first:]] and all("malformed" in p for p, _ in server.requests[first:])
    assert {r.reference.index: r.status.value for r in second.results} == EXPECTED


async def test_a_429_with_retry_after_is_waited_out(refs_settings, fake):
    fake.queued["crossref"].append(Reply('{"status": "error"}', 429, {"Content-Type": "application/json",
                                                                       "Retry-After": "1"}))
    started = time.monotonic()
    report = await check_bibliography("1. He, K. (2016). Deep residual learning for image recognition. "
                                      "doi:10.1109/cvpr.2016.90", refs_settings.with_(retries=2), cache=False)
    assert report.results[0].status == Status.EXISTS
    assert time.monotonic() - started >= 0.95
    assert len(fake.calls["crossref"]) == 2


async def test_a_retry_after_past_the_limit_is_unverifiable_not_missing(refs_settings, fake):
    for _ in range(3):
        fake.queued["crossref"].append(Reply("Too Many Requests", 429, {"Retry-After": "3600"}))
        fake.queued["openalex"].append(Reply("Too Many Requests", 429, {"Retry-After": "3600"}))
    started = time.monotonic()
    report = await check_bibliography("1. He, K. (2016). Deep residual learning for image recognition. "
                                      "doi:10.1109/cvpr.2016.90", refs_settings, cache=False)
    result = report.results[0]
    assert result.status == Status.UNVERIFIABLE and "rate-limiting" in result.explanation
    assert time.monotonic() - started < 3 and len(fake.calls["crossref"]) == 1
    assert report.summary()["grade"] == "?"


async def test_an_unreachable_service_is_unverifiable(settings, fake):
    from tests.conftest import free_port

    dead = f"http://127.0.0.1:{free_port()}"
    cut = settings.with_(**{**fake.settings_for(), "crossref_api": dead, "openalex_api": dead})
    report = await check_bibliography("1. LeCun, Y. (2015). Deep learning. doi:10.1038/nature14539", cut, cache=False)
    assert report.results[0].status == Status.UNVERIFIABLE and "could not be reached" in report.results[0].explanation


async def test_no_title_match_while_a_service_is_down_is_unverifiable_not_missing(refs_settings, fake):
    fake.queued["crossref"].append(Reply("Service Unavailable", 503, {"Retry-After": "3600"}))
    report = await check_bibliography("1. Lima, A. (2020). Rivers of the northern plains and their floods. Venue.",
                                      refs_settings, cache=False)
    assert report.results[0].status == Status.UNVERIFIABLE and "crossref" in report.results[0].explanation
    assert fake.calls["arxiv"] and fake.calls["openalex"]  # the others were asked, and had nothing


async def test_malformed_answers_are_unverifiable(refs_settings, fake):
    fake.queued["arxiv"].append(Reply("Rate exceeded.", 200, {"Content-Type": "text/plain"}))
    fake.queued["crossref"].append(Reply("<html>gateway</html>", 200))
    fake.queued["openalex"].append(Reply("{}", 200, {"Content-Type": "application/json"}))
    report = await check_bibliography(
        "1. Kingma, D. (2014). Adam: a method for stochastic optimization. arXiv:1412.6980\n"
        "2. LeCun, Y. (2015). Deep learning. doi:10.1038/nature14539\n", refs_settings, cache=False)
    assert [r.status for r in report.results] == [Status.UNVERIFIABLE, Status.UNVERIFIABLE]


async def test_a_wrong_doi_on_a_real_title_is_not_found_with_the_right_doi_in_the_fix(refs_settings):
    report = await check_bibliography("1. Silver, D. (2016). Mastering the game of Go with deep neural networks and "
                                      "tree search. doi:10.1038/nature99999", refs_settings, cache=False)
    result = report.results[0]
    assert result.status == Status.NOT_FOUND and "10.1038/nature16961" in result.fix


async def test_a_malformed_arxiv_id_is_not_found(refs_settings):
    report = await check_bibliography("@misc{x, title={A paper}, eprint={1234.5}, archivePrefix={arXiv}}",
                                      refs_settings, cache=False)
    assert report.results[0].status == Status.NOT_FOUND


async def test_bibtex_and_latex_bibliographies(refs_settings):
    bibtex = """
@inproceedings{he2016, author = {He, Kaiming and Zhang, Xiangyu}, title = {Deep Residual Learning for Image
  Recognition}, booktitle = {CVPR}, year = {2016}, doi = {10.1109/CVPR.2016.90}}
@article{hochreiter, author = {Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen}, title = {Long Short-Term Memory},
  journal = {Neural Computation}, year = 1997}
@misc{vaswani, title = {Attention Is All You Need}, author = {Vaswani, Ashish}, year = {2017},
  eprint = {1706.03762}, archivePrefix = {arXiv}}
"""
    latex = r"""\begin{thebibliography}{2}
\bibitem[Silver et~al.(2016)]{silver} D.~Silver, A.~Huang. \newblock Mastering the game of {Go} with deep neural
 networks and tree search. \newblock {\em Nature}, 529:484--489, 2016.
\bibitem{fake} R.~Johnson. \newblock Neural citation verification at planetary scale. \newblock 2020.
\end{thebibliography}"""
    report = await check_bibliography(bibtex, refs_settings, cache=False)
    assert [(r.reference.key, r.status.value) for r in report.results] == [
        ("he2016", "exists"), ("hochreiter", "exists"), ("vaswani", "exists")]
    report = await check_bibliography(latex, refs_settings, cache=False)
    assert [(r.reference.key, r.status.value) for r in report.results] == [("silver", "exists"), ("fake", "not_found")]


async def test_a_correction_alone_leaves_the_paper_standing(refs_settings, fake):
    from tests.support.scholarly import retraction

    fake.add(Paper("A corrected study of river deltas", [("Ana", "Lima")], 2019, doi="10.5555/delta.2019",
                   updates=[retraction((2020, 1, 2), "10.5555/delta.2019.c1", kind="correction", label="Correction")]))
    fake.add(Paper("A troubled study of lake levels", [("Bo", "Ek")], 2019, doi="10.5555/lake.2019",
                   updates=[retraction((2021, 5, 1), "10.5555/lake.eoc", kind="expression_of_concern",
                                       label="Expression of Concern")]))
    report = await check_bibliography(
        "1. Lima, A. (2019). A corrected study of river deltas. doi:10.5555/delta.2019\n"
        "2. Ek, B. (2019). A troubled study of lake levels. doi:10.5555/lake.2019\n", refs_settings, cache=False)
    assert [r.status.value for r in report.results] == ["exists", "retracted"]
    assert "Correction (2020-01-02): https://doi.org/10.5555/delta.2019.c1" in report.results[0].explanation
    assert "Expression of Concern (2021-05-01)" in report.results[1].explanation


def test_turned_off_refs_is_a_clear_error(home):
    env = {**os.environ, "HOME": str(home), "CITEMARK_SCHOLARLY_LOOKUPS": "0"}
    result = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(EXAMPLE)], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 2 and "scholarly lookups are turned off" in result.stderr
    assert "Traceback" not in result.stderr


def _env(home, fake: FakeScholarly) -> dict[str, str]:
    return {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
            "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_MODEL": "none", "CITEMARK_RETRIES": "0",
            **fake.environment(), **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {})}


def test_cli_refs_on_the_example(home, fake):
    env = {**os.environ, **_env(home, fake)}
    run = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(EXAMPLE), "--json"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert {r["reference"]["index"]: r["status"] for r in data["references"]} == EXPECTED
    assert data["summary"]["grade"] == "F"
    text = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(EXAMPLE)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert "[10] retracted" in text.stdout and "fix: " in text.stdout and "(grade F)" in text.stdout
    good = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", "-"], input="1. LeCun, Y. (2015). Deep "
                          "learning. doi:10.1038/nature14539\n", capture_output=True, text=True, env=env, timeout=60)
    assert good.returncode == 0, good.stderr


async def test_mcp_check_references(home, fake):
    params = StdioServerParameters(command=sys.executable, args=["-m", "citemark.cli", "mcp"], env=_env(home, fake))
    async with Client(params) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "check_references" in tools and tools["check_references"].annotations.read_only_hint
        result = await client.call_tool("check_references", {"bibliography": EXAMPLE.read_text()})
        assert not result.is_error
        data = result.structured_content
        assert {r["reference"]["index"]: r["status"] for r in data["references"]} == EXPECTED
        retracted = next(r for r in data["references"] if r["reference"]["index"] == 10)
        assert "2010-02-06" in retracted["notice"] and retracted["record"]["updates"][0]["kind"] == "retraction"
        bad = await client.call_tool("check_references", {"bibliography": "nothing here"})
        assert bad.is_error and "E100" in bad.content[0].text


def test_parsed_example_has_fifteen_entries():
    assert len(parse_references(EXAMPLE.read_text())) == 15


async def test_services_close_cleanly(refs_settings):
    async with Services(refs_settings, cache=False) as services:
        assert await services.crossref.work("10.1234/nothing") is None


def _pdf_of_a_paper(references: str) -> bytes:
    """An unpublished paper's PDF: its body holds words that must never leave the machine."""
    from tests.support.pdf import make_pdf

    body = ("Introduction\nUNPUBLISHED-FINDING: the northern delta rose by 14 metres in 2024, which no one "
            "has reported yet. Methods. We measured it with UNPUBLISHED-FINDING gauges.")
    pdf = make_pdf([body, references], compress=False)
    return pdf.replace(b"%\xe2\xe3\xcf\xd3\n", b"%abcd\n")  # all ASCII: readable as text, as some PDFs are


def test_cli_refs_of_a_pdf_sends_only_its_references_fields(home, fake, server, tmp_path):
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(_pdf_of_a_paper(
        "References\n[1] LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521, 436-444. "
        "doi:10.1038/nature14539\n[2] Silver, D., Huang, A., & Maddison, C. J. (2016). Mastering the game of Go "
        "with deep neural networks and tree search. Nature, 529, 484-489."))
    run = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(paper), "--json"], capture_output=True,
                         text=True, env={**os.environ, **_env(home, fake)}, timeout=120)
    assert run.returncode == 0, run.stderr
    assert [r["status"] for r in json.loads(run.stdout)["references"]] == ["exists", "exists"]
    sent = " ".join(path for path, _ in server.requests)
    assert server.requests and "UNPUBLISHED" not in sent and "delta" not in sent and "Introduction" not in sent


def test_cli_refs_of_a_pdf_without_a_reference_list_is_an_input_error_and_sends_nothing(home, fake, server, tmp_path):
    paper = tmp_path / "paper.pdf"
    paper.write_bytes(_pdf_of_a_paper("Conclusion\nThe UNPUBLISHED-FINDING stands."))
    run = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(paper)], capture_output=True,
                         text=True, env={**os.environ, **_env(home, fake)}, timeout=60)
    assert run.returncode == 2 and "E100" in run.stderr and "no References heading" in run.stderr
    assert "Traceback" not in run.stderr and not server.requests


async def test_running_text_given_as_one_entry_is_never_sent(refs_settings, server):
    prose = ("Smith, J. (2024). " + "Our unpublished results show UNPUBLISHED-FINDING in every river we measured "
             "over the last decade of fieldwork and laboratory study " * 40)
    report = await check_bibliography(prose, refs_settings, cache=False)
    [result] = report.results
    assert result.status == Status.UNVERIFIABLE and "nothing was sent" in result.explanation
    assert not server.requests


BAD_ENTRIES = ("@inproceedings{k\x1b[31mred\x1b]52;c;ZXZpbA==\x07, author={He, Kaiming and Zhang, Xiangyu}, "
               "title={Deep Residual Learning for Image Recognition}, doi={10.1109/CVPR.2016.90}, year={2016}}\n"
               "@article{esc, title={Deep learning}, doi={10.1038/nature\x1b14539}, year={2015}}\n"
               "@article{nul, title={Deep learning}, doi={10.1038/nat\x00ure}, year={2015}}\n"
               "@article{dots, title={Deep learning}, doi={10.1038/../../admin}, year={2015}}\n"
               "@article{good, author={LeCun, Yann}, title={Deep learning}, doi={10.1038/nature14539}, year={2015}}\n")


def test_cli_refs_one_bad_doi_is_that_entry_s_answer_and_keys_cannot_drive_the_terminal(home, fake, server, tmp_path):
    bib = tmp_path / "bad.bib"
    bib.write_text(BAD_ENTRIES, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(bib)], capture_output=True, text=True,
                         env={**os.environ, **_env(home, fake)}, timeout=60)
    assert run.returncode == 0, run.stderr  # unverifiable entries do not fail the list without --strict
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout and "\x00" not in run.stdout
    assert "\\x1b[31m" in run.stdout
    lines = run.stdout.splitlines()
    assert sum("unverifiable" in line for line in lines if line.startswith("[")) == 3
    assert sum(" exists " in line for line in lines if line.startswith("[")) == 2
    assert not any("admin" in path or ".." in path for path, _ in server.requests)


async def test_mcp_check_references_one_bad_doi_does_not_sink_the_list(home, fake, server):
    params = StdioServerParameters(command=sys.executable, args=["-m", "citemark.cli", "mcp"], env=_env(home, fake))
    async with Client(params) as client:
        result = await client.call_tool("check_references", {"bibliography": BAD_ENTRIES})
    assert not result.is_error, result.content
    statuses = {r["reference"]["key"]: r["status"] for r in result.structured_content["references"]}
    assert statuses == {"k\x1b[31mred\x1b]52;c;ZXZpbA==\x07": "exists", "esc": "unverifiable", "nul": "unverifiable",
                        "dots": "unverifiable", "good": "exists"}
    assert not any("admin" in path or ".." in path for path, _ in server.requests)


def test_cli_refs_offline_fails_fast_and_says_why_in_words(home, tmp_path):
    from tests.conftest import free_port

    dead = f"http://127.0.0.1:{free_port()}"
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "CITEMARK_ALLOW_PRIVATE_NETWORK": "1",
           "CITEMARK_CROSSREF_API": dead, "CITEMARK_ARXIV_API": dead + "/api/query", "CITEMARK_OPENALEX_API": dead}
    started = time.monotonic()  # the services' own pacing (arXiv: one request every 3 s) is left as it is
    run = subprocess.run([sys.executable, "-m", "citemark.cli", "refs", str(EXAMPLE), "--no-cache"],
                         capture_output=True, text=True, env=env, timeout=120)
    elapsed = time.monotonic() - started
    assert run.returncode == 1 and "no reference could be checked" in run.stderr, run.stderr
    assert "15 unverifiable" in run.stdout
    assert elapsed < 15, f"{elapsed:.0f} s"
    assert "could not be reached (no connection" in run.stdout
    assert "ConnectError" not in run.stdout + run.stderr and "Traceback" not in run.stderr


SURVEY = Paper("A survey of deep learning for rivers", [("Ada", "Rivers")], 2024, doi="10.5555/survey.2024",
               references=[
                   {"key": "ref1", "DOI": "10.1038/NATURE14539", "author": "LeCun", "year": "2015",
                    "article-title": "Deep learning", "journal-title": "Nature"},
                   {"key": "ref2", "unstructured": "Hochreiter, S., & Schmidhuber, J. (1997). Long short-term "
                                                   "memory. Neural Computation, 9(8), 1735-1780."},
                   {"key": "ref3", "author": "Nobody", "year": "2020",
                    "article-title": "A study of rivers that no one ever wrote"}])


def _refs(home, fake, *args, cwd):
    """``citemark refs ARGS --json`` run in ``cwd`` (a bare name there may be a file), on the checkout under test."""
    env = {**os.environ, **_env(home, fake)}
    if "PYTHONPATH" in env:
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(part) for part in env["PYTHONPATH"].split(os.pathsep))
    return subprocess.run([sys.executable, "-m", "citemark.cli", "refs", *args, "--json"], capture_output=True,
                          text=True, env=env, timeout=120, cwd=cwd)


def test_cli_refs_of_a_doi_checks_the_references_crossref_lists_for_it(home, fake, server, tmp_path):
    fake.add(SURVEY)
    run = _refs(home, fake, "10.5555/survey.2024", cwd=tmp_path)
    assert run.returncode == 1, run.stderr  # one reference does not exist
    data = json.loads(run.stdout)
    assert [r["status"] for r in data["references"]] == ["exists", "exists", "not_found"]
    assert data["references"][0]["reference"]["doi"] == "10.1038/nature14539"
    assert "/crossref/works/10.5555/survey.2024" in fake.calls["crossref"]
    unknown = _refs(home, fake, "doi:10.5555/nobody.2024", cwd=tmp_path)
    assert unknown.returncode == 2 and "E100" in unknown.stderr and "does not know" in unknown.stderr
    bare = copy.deepcopy(SURVEY)
    bare.doi, bare.references = "10.5555/bare.2024", None
    fake.add(bare)
    none = _refs(home, fake, "10.5555/bare.2024", cwd=tmp_path)
    assert none.returncode == 2 and "lists no references" in none.stderr and "Traceback" not in none.stderr


def test_cli_refs_of_an_arxiv_id_reads_the_reference_list_of_its_pdf(home, fake, server, tmp_path):
    paper = Paper("Rivers and models", [("Ada", "Rivers")], 2026, arxiv_id="2607.22693", pdf_pages=[
        "Introduction\nUNPUBLISHED-FINDING: the northern delta rose by 14 metres in 2024.",
        "References\n[1] LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521, 436-444. "
        "doi:10.1038/nature14539\n[2] Silver, D., Huang, A., & Maddison, C. J. (2016). Mastering the game of Go "
        "with deep neural networks and tree search. Nature, 529, 484-489."])
    fake.add(paper)
    run = _refs(home, fake, "2607.22693", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [r["status"] for r in json.loads(run.stdout)["references"]] == ["exists", "exists"]
    sent = " ".join(path for path, _ in server.requests)
    assert "id_list=2607.22693" in sent and "UNPUBLISHED" not in sent and "delta" not in sent
    missing = _refs(home, fake, "arXiv:2607.99999", cwd=tmp_path)
    assert missing.returncode == 2 and "arXiv has no paper 2607.99999" in missing.stderr


def test_cli_refs_an_existing_file_named_like_an_id_wins(home, fake, server, tmp_path):
    (tmp_path / "2607.22693").write_text("1. LeCun, Y. (2015). Deep learning. doi:10.1038/nature14539\n")
    run = _refs(home, fake, "2607.22693", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [r["reference"]["doi"] for r in json.loads(run.stdout)["references"]] == ["10.1038/nature14539"]
    assert not any("2607.22693" in call for call in fake.calls["arxiv"])
