"""Attacks through the agent's door: the MCP server over stdio with the SDK's own client."""

from __future__ import annotations

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
