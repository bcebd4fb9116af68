"""Attacks through the agent's door: the MCP server over stdio with the SDK's own client."""

from __future__ import annotations

import asyncio
import os
import sys
import time

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters


@pytest.fixture
def allowed(tmp_path):
    folder = tmp_path / "allowed"
    folder.mkdir()
    return folder


@pytest.fixture
def params(home, allowed):
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "CITEMARK_MODEL": "none", "CITEMARK_RETRIES": "0", "CITEMARK_LOCAL_FILE_DIRS": str(allowed)}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return StdioServerParameters(command=sys.executable, args=["-m", "citemark.cli", "mcp"], env=env)


async def test_a_fifo_in_an_allowed_folder_is_refused_at_once_and_the_server_exits(params, allowed):
    fifo = allowed / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    async with Client(params) as client:
        result = await client.call_tool("verify_claims", {"claims": [{"claim": "The pipe says so.", "source": str(fifo)}]})
    assert time.monotonic() - started < 20  # no wait for the request deadline, and the server exited
    [verdict] = result.structured_content["verdicts"]
    assert verdict["verdict"] == "unreachable" and "not a regular file" in verdict["explanation"]


async def test_an_agent_cannot_reach_loopback_or_the_metadata_service(params):
    claims = [{"claim": "The admin page says so.", "source": url} for url in (
        "http://127.0.0.1:9/admin", "http://[::ffff:127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
        "http://169.254.169.254/latest/meta-data/", "http://0177.0.0.1/")]
    async with Client(params) as client:
        result = await client.call_tool("verify_claims", {"claims": claims})
    reasons = {v["reason"] for v in result.structured_content["verdicts"]}
    assert reasons <= {"blocked_by_policy", "malformed_url"}, reasons


HOSTILE_ANSWERS = ["[" * 999_000, "[\n" * 300_000, " _x" * 300_000, (" " * 40_000 + "x\n") * 20]


async def test_hostile_answers_get_a_reply_and_tools_list_is_answered_meanwhile(params):
    async with Client(params) as client:
        for answer in HOSTILE_ANSWERS:
            started = time.monotonic()
            call = asyncio.ensure_future(client.call_tool("verify_answer", {"answer": answer}))
            await asyncio.sleep(0.1)
            asked = time.monotonic()
            assert (await client.list_tools()).tools
            assert time.monotonic() - asked < 1.0
            await call  # a result or a tool error; either way, an answer
            assert time.monotonic() - started < 30


@pytest.mark.parametrize("bibliography", ["@a{" * 300_000, "References\n1. " + "[" * 999_000])
async def test_hostile_bibliographies_are_answered_quickly(params, bibliography):
    started = time.monotonic()
    async with Client(params) as client:
        result = await client.call_tool("check_references", {"bibliography": bibliography})
    assert time.monotonic() - started < 30
    if result.is_error:
        assert "E100" in result.content[0].text
    else:
        assert [r["status"] for r in result.structured_content["references"]] == ["unverifiable"]


def test_the_server_exits_when_its_input_closes_during_a_hostile_call(params):
    import json
    import subprocess

    server = subprocess.Popen([params.command, *params.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=params.env)

    def send(message: dict) -> None:
        server.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        server.stdin.flush()

    send({"id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                                      "clientInfo": {"name": "test", "version": "1"}}})
    assert json.loads(server.stdout.readline())["id"] == 1
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/call", "params": {"name": "verify_answer",
                                                      "arguments": {"answer": (" " * 40_000 + "x\n") * 20}}})
    time.sleep(0.3)
    started = time.monotonic()
    server.stdin.close()
    try:
        assert server.wait(timeout=10) == 0
    finally:
        server.kill()
        server.stdout.close()
    assert time.monotonic() - started < 10


async def test_a_5_mb_claim_with_a_5_mb_source_is_refused_at_once(params):
    started = time.monotonic()
    async with Client(params) as client:
        result = await client.call_tool("verify_claims", {"claims": [
            {"claim": "The river " + "flows " * 800_000, "source": "The river " + "runs " * 1_000_000}]})
    assert result.is_error and "E102" in result.content[0].text
    assert time.monotonic() - started < 30


async def test_quiet_answers_are_tool_errors_with_their_code(params, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("The vault opens at noon every day.")
    async with Client(params) as client:
        for empty in ("", "   "):
            result = await client.call_tool("verify_answer", {"answer": empty})
            assert result.is_error and "E100" in result.content[0].text and "empty" in result.content[0].text
        unknown = await client.call_tool("verify_answer", {"answer": "The vault opens at noon [1].", "passages": 3})
        assert unknown.is_error and "E100" in unknown.content[0].text and "passages" in unknown.content[0].text
        unknown = await client.call_tool("verify_claims", {"claims": [{"claim": "A b c.", "source": "x y z"}],
                                                           "url_map": {"1": "https://example.org"}})
        assert unknown.is_error and "url_map" in unknown.content[0].text
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert all(tool.input_schema.get("additionalProperties") is False for tool in tools.values())
        refused = await client.call_tool("verify_claims", {"claims": [{"claim": "The vault opens at noon.",
                                                                       "source": str(outside)}]})
    [verdict] = refused.structured_content["verdicts"]
    assert "CITEMARK_LOCAL_FILE_DIRS" in verdict["explanation"] and "--allow-dir" not in verdict["explanation"]
