"""``citemark mcp`` through the SDK's own client over stdio: tools, schemas, structured results, errors, progress."""

from __future__ import annotations

import json
import os
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import Reply

PAGE = Reply("<html><head><title>Rivers</title></head><body><article><p>The Danube flows for 2,850 kilometres.</p>"
             "<p>It empties into the Black Sea.</p></article></body></html>")


@pytest.fixture
def params(home, tmp_path):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "notes.txt").write_text("The Danube empties into the Black Sea.")
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_MODEL": "none", "CITEMARK_RETRIES": "0",
           "CITEMARK_LOCAL_FILE_DIRS": str(allowed)}
    if "PYTHONPATH" in os.environ:  # the server runs the checkout under test
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return StdioServerParameters(command=sys.executable, args=["-m", "citemark.cli", "mcp"], env=env)


async def test_tools_are_listed_with_schemas_and_annotations(params):
    async with Client(params) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == {"verify_answer", "verify_claims", "check_source", "check_references", "snap_quote"}
    for tool in tools.values():
        assert tool.description and tool.output_schema
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.open_world_hint is (tool.name != "snap_quote")  # snap_quote fetches nothing
    for name in ("verify_claims", "check_source"):  # one name for a source in every tool
        schema = json.dumps(tools[name].input_schema)
        assert '"source"' in schema and '"url"' not in schema
    assert "answer" in tools["verify_answer"].input_schema["properties"]
    assert "verdicts" in tools["verify_answer"].output_schema["properties"]


async def test_verify_answer_returns_structured_verdicts_and_reports_progress(params, server):
    server.routes["/danube"] = PAGE
    progress = []

    async def on_progress(done, total, message):
        progress.append((done, total))

    answer = f"The Danube flows for 2,850 kilometres [1]. It was built in 1990 [2].\n\nSources\n1. {server.url('/danube')}\n2. {server.url('/gone')}\n"
    async with Client(params) as client:
        result = await client.call_tool("verify_answer", {"answer": answer}, progress_callback=on_progress)
    assert not result.is_error
    data = result.structured_content
    assert [v["verdict"] for v in sorted(data["verdicts"], key=lambda v: v["citation"]["marker"])] == ["supported", "unreachable"]
    assert data["summary"]["citations"] == 2 and "lexical-only" in data["model"]
    assert progress and progress[-1] == (2, 2)


async def test_verify_claims_with_urls_text_and_local_paths(params, server, tmp_path):
    server.routes["/danube"] = PAGE
    claims = [
        {"claim": "The Danube flows for 2,850 kilometres.", "source": server.url("/danube")},
        {"claim": "The Danube empties into the Black Sea.", "source": "Rivers: the Danube empties into the Black Sea."},
        {"claim": "The Danube empties into the Black Sea.", "source": str(tmp_path / "allowed" / "notes.txt")},
        {"claim": "The Danube empties into the Black Sea.", "source": "/etc/passwd"},
        {"claim": "The Danube empties into the Black Sea.", "source": "/etc/does-not-exist"},
    ]
    async with Client(params) as client:
        result = await client.call_tool("verify_claims", {"claims": claims})
    verdicts = result.structured_content["verdicts"]
    labels = [v["verdict"] for v in result.structured_content["verdicts"]]
    assert labels.count("supported") == 3
    refused = [v for v in verdicts if v["reason"] == "local_file_refused"]
    assert len(refused) == 2 and refused[0]["explanation"] == refused[1]["explanation"]


async def test_check_source_reports_reachability(params, server):
    server.routes["/danube"] = PAGE
    async with Client(params) as client:
        good = (await client.call_tool("check_source", {"source": server.url("/danube")})).structured_content
        bad = (await client.call_tool("check_source", {"source": server.url("/missing")})).structured_content
    assert good["reachable"] and good["title"] == "Rivers" and good["kind"] == "html" and good["text_chars"] > 20
    assert not bad["reachable"] and bad["verdict"] == "unreachable" and "E202" in bad["error"]


async def test_bad_input_is_a_tool_error_not_a_success_payload(params):
    async with Client(params) as client:
        empty = await client.call_tool("verify_claims", {"claims": []})
        bad_json = await client.call_tool("verify_answer", {"answer": "{oops", "format": "json"})
    assert empty.is_error and "E100" in json.dumps(empty.model_dump(mode="json"))
    assert bad_json.is_error and "E101" in json.dumps(bad_json.model_dump(mode="json"))


async def test_compact_by_default_full_scores_on_request_and_coverage(params, server):
    server.routes["/danube"] = PAGE
    answer = ("The Danube flows for 2,850 kilometres [1]. The river freezes over in most winters since 1950.\n\n"
              f"Sources\n1. {server.url('/danube')}\n")
    async with Client(params) as client:
        compact = (await client.call_tool("verify_answer", {"answer": answer})).structured_content
        full = (await client.call_tool("verify_answer", {"answer": answer, "detail": "full", "coverage": False})).structured_content
    assert compact["verdicts"][0]["scores"] is None and full["verdicts"][0]["scores"]["support"] > 0
    assert compact["coverage"]["uncited"] == ["The river freezes over in most winters since 1950."]
    assert compact["coverage"]["share_cited"] == 0.5 and full.get("coverage") is None
    assert len(compact["verdicts"][0]["source_sha256"]) == 64
    assert compact["summary"]["total"] == 1 and compact["summary"]["pass_rate"] == 1.0


async def test_sources_map_resolves_id_markers(params, server):
    server.routes["/danube"] = PAGE
    answer = "The Danube flows for 2,850 kilometres [id:danube]. It empties into the Black Sea [id:notes]."
    sources = {"danube": server.url("/danube"), "id:notes": "Atlas: the Danube empties into the Black Sea."}
    async with Client(params) as client:
        data = (await client.call_tool("verify_answer", {"answer": answer, "sources": sources})).structured_content
    assert [v["verdict"] for v in data["verdicts"]] == ["supported", "supported"]
    assert not data["unresolved"]


async def test_snap_quote_cuts_the_verbatim_passage(params):
    source = "Article 7. The taxpayer shall file the return within two months after the year ends."
    async with Client(params) as client:
        exact = (await client.call_tool("snap_quote", {"anchor": "the TAXPAYER shall file the return", "source_text": source})).structured_content
        near = (await client.call_tool("snap_quote", {"anchor": "taxpayers shall file the returns within two months",
                                                      "source_text": source})).structured_content
        bad = await client.call_tool("snap_quote", {"anchor": " ", "source_text": source})
    assert exact["exact"] and exact["quote"] == "The taxpayer shall file the return"
    assert source[exact["start"]:exact["end"]] == exact["quote"]
    assert near["found"] and not near["exact"] and source[near["start"]:near["end"]] == near["quote"]
    assert "within two months" in near["quote"]
    assert bad.is_error and "E100" in bad.content[0].text
