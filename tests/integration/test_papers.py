"""Cited DOIs and arXiv ids read as papers: retraction from the Crossref record, open full text, PDF page links.

Every door: the engine, ``citemark verify`` (CLI), the native host and MCP, all
against fake Crossref / arXiv / OpenAlex servers and landing pages on 127.0.0.1.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from citemark.engine import Engine
from tests.support.host import HostProcess
from tests.support.scholarly import MEHRA, WAKEFIELD, FakeScholarly, Paper

WAKEFIELD_CLAIM = "Twelve children with a history of normal development were investigated"
WAKEFIELD_ANSWER = f"{WAKEFIELD_CLAIM} [1].\n\nSources\n1. https://doi.org/10.1016/S0140-6736(97)11096-0\n"

TRANSFORMER = Paper(
    "Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, arxiv_id="1706.03762",
    pdf_pages=[
        "Attention Is All You Need. Abstract. The dominant sequence transduction models are based on complex "
        "recurrent or convolutional neural networks that include an encoder and a decoder.",
        "Model Architecture. The Transformer encoder is composed of a stack of six identical layers. Each layer has two "
        "sub-layers: multi-head self-attention and a position-wise fully connected feed-forward network.",
        "Training. We trained the base models for a total of 100,000 steps or 12 hours on eight P100 GPUs.",
    ],
)
DELTA_PAGES = [
    "River deltas. Introduction. Deltas form where rivers meet standing water and deposit their sediment load.",
    "Results. The Mekong delta lost 5 square kilometres of land each year between 2003 and 2012 to coastal erosion.",
]


@pytest.fixture
def fake(server):
    papers = [copy.deepcopy(WAKEFIELD), copy.deepcopy(MEHRA), copy.deepcopy(TRANSFORMER)]
    return FakeScholarly(server, papers)


@pytest.fixture
def paper_settings(settings, fake):
    return settings.with_(**fake.settings_for())


async def report(settings, answer: str):
    async with Engine(settings, scorer=None) as engine:
        return await engine.report(answer)


async def test_a_cited_retracted_doi_is_retracted_with_the_notice_date_and_link(paper_settings):
    result = await report(paper_settings, WAKEFIELD_ANSWER)
    verdict = result.verdicts[0]
    assert verdict.label.value == "retracted" and verdict.reason == "retraction_notice"
    assert "2010-02-06" in verdict.explanation
    assert "https://doi.org/10.1016/s0140-6736(10)60175-4" in verdict.explanation
    assert verdict.source_title.startswith("Ileal-lymphoid-nodular hyperplasia")


async def test_retracted_even_when_the_landing_page_cannot_be_read(paper_settings, fake):
    answer = ("Hydroxychloroquine was associated with decreased in-hospital survival [1].\n\n"
              "Sources\n1. https://doi.org/10.1016/S0140-6736(20)31180-6\n")
    verdict = (await report(paper_settings, answer)).verdicts[0]
    assert verdict.label.value == "retracted" and "2020-06-05" in verdict.explanation
    assert any(path.startswith("/landing/") for path, _ in fake.server.requests)  # it tried, and got a 404


async def test_without_scholarly_lookups_no_service_is_asked(paper_settings, fake):
    off = paper_settings.with_(scholarly_lookups=False)
    answer = f"{WAKEFIELD_CLAIM} [1].\n\nSources\n1. {fake.server.url('/landing/' + WAKEFIELD.slug)}\n"
    verdict = (await report(off, answer)).verdicts[0]
    assert verdict.label.value != "retracted"
    assert not any(fake.calls.values())


async def test_an_arxiv_citation_is_verified_against_the_pdf_with_a_page_link(paper_settings, fake):
    claim = "The Transformer encoder is composed of a stack of six identical layers"
    answer = f"{claim} [1].\n\nSources\n1. https://arxiv.org/abs/1706.03762\n"
    async with Engine(paper_settings, scorer=None) as engine:
        verdicts = [(await engine.report(answer)).verdicts[0], await engine.verify_claim(claim, "arXiv:1706.03762")]
    pdf = fake.server.url(f"/pdf/{TRANSFORMER.slug}")
    for verdict in verdicts:
        assert verdict.label.value == "supported", verdict.explanation
        assert verdict.evidence.page == 2 and verdict.evidence.link == f"{pdf}#page=2"
        assert "six identical layers" in verdict.evidence.quote
    assert fake.calls["arxiv"] and "id_list=1706.03762" in fake.calls["arxiv"][0]
    assert not any(path.startswith("/abs") for path, _ in fake.server.requests)  # the PDF, not the abstract page


async def test_a_landing_page_citation_pdf_url_is_followed(paper_settings, fake):
    fake.add(Paper("River delta erosion", [("Ana", "Lima")], 2019, doi="10.5555/delta.2019", landing="open",
                   pdf_pages=DELTA_PAGES))
    answer = ("The Mekong delta lost 5 square kilometres of land each year between 2003 and 2012 [1].\n\n"
              "Sources\n1. https://doi.org/10.5555/delta.2019\n")
    verdict = (await report(paper_settings, answer)).verdicts[0]
    assert verdict.label.value == "supported", verdict.explanation
    assert verdict.evidence.link.startswith(fake.server.url("/pdf/")) and verdict.evidence.link.endswith("#page=2")


async def test_a_paywalled_landing_page_is_verified_against_the_open_copy(paper_settings, fake):
    fake.add(Paper("River delta erosion", [("Ana", "Lima")], 2019, doi="10.5555/delta.closed", landing="paywalled",
                   pdf_pages=DELTA_PAGES, pdf_meta=False, oa_pdf=True))
    answer = ("The Mekong delta lost 5 square kilometres of land each year between 2003 and 2012 [1].\n\n"
              "Sources\n1. https://doi.org/10.5555/delta.closed\n")
    async with Engine(paper_settings, scorer=None) as engine:
        verdict = (await engine.report(answer)).verdicts[0]
        checked = await engine.check_source("https://doi.org/10.5555/delta.closed")
    assert verdict.label.value == "supported", verdict.explanation
    open_copy = fake.server.url("/pdf/" + "10.5555_delta.closed")
    assert verdict.evidence.link == open_copy + "#page=2"
    assert checked["final_url"] == open_copy and checked["kind"] == "pdf"
    assert verdict.read_from == open_copy and verdict.to_dict()["read_from"] == open_copy
    assert fake.calls["openalex"]  # the open copy came from OpenAlex's open-access location


async def test_a_paywalled_landing_page_without_an_open_copy_stays_paywalled(paper_settings, fake):
    fake.add(Paper("Closed river study", [("Ana", "Lima")], 2019, doi="10.5555/closed", landing="paywalled"))
    answer = "The Mekong delta lost land to erosion [1].\n\nSources\n1. https://doi.org/10.5555/closed\n"
    verdict = (await report(paper_settings, answer)).verdicts[0]
    assert verdict.label.value == "paywalled"


def _env(home, fake) -> dict[str, str]:
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_MODEL": "none", "CITEMARK_RETRIES": "0",
           **fake.environment()}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def test_cli_verify_badges_a_retracted_doi(home, fake, tmp_path):
    answer = tmp_path / "answer.md"
    answer.write_text(WAKEFIELD_ANSWER)
    run = subprocess.run([sys.executable, "-m", "citemark.cli", "verify", str(answer), "--json"], capture_output=True,
                         text=True, env={**os.environ, **_env(home, fake)}, timeout=120)
    assert run.returncode == 1, run.stderr  # a retracted citation fails verification
    verdict = json.loads(run.stdout)["verdicts"][0]
    assert verdict["verdict"] == "retracted" and "2010-02-06" in verdict["explanation"]


def test_native_host_badges_a_retracted_doi(home, fake):
    host = HostProcess(_env(home, fake))
    try:
        host.send({"v": 1, "id": "r1", "type": "verify", "answer": {"format": "markdown", "content": WAKEFIELD_ANSWER}})
        frames = host.until("r1", "done")
    finally:
        host.close()
    verdicts = [f["verdict"] for f in frames if f["type"] == "verdict"]
    assert [v["verdict"] for v in verdicts] == ["retracted"]
    assert "https://doi.org/10.1016/s0140-6736(10)60175-4" in verdicts[0]["explanation"]


async def test_mcp_badges_a_retracted_doi(home, fake):
    params = StdioServerParameters(command=sys.executable, args=["-m", "citemark.cli", "mcp"], env=_env(home, fake))
    async with Client(params) as client:
        result = await client.call_tool("verify_answer", {"answer": WAKEFIELD_ANSWER})
    verdict = result.structured_content["verdicts"][0]
    assert verdict["verdict"] == "retracted" and "2010-02-06" in verdict["explanation"]
