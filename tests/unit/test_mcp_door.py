"""The MCP server's shape: a lifespan owns the one engine; every tool refuses arguments it does not take."""

from __future__ import annotations

import pytest
from mcp import Client

from citemark.mcpserver import lifespan, server


@pytest.fixture
def lexical(home, monkeypatch):
    monkeypatch.setenv("CITEMARK_MODEL", "none")


async def test_the_lifespan_builds_the_engine_on_first_use_and_closes_it(lexical):
    async with lifespan(server) as door:
        assert door.engines.started is None  # initialize and tools/list never wait for a model
        engine = await door.engines.get()
        assert await door.engines.get() is engine and engine.cache.available
    assert door.engines.started is None and not engine.cache.available


async def test_in_process_client_gets_strict_schemas_and_an_offline_tool_answers(lexical):
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
        snapped = await client.call_tool("snap_quote", {"anchor": "the river", "source_text": "See the river."})
        extra = await client.call_tool("snap_quote", {"anchor": "a", "source_text": "a b", "k": 1})
    assert {tool.name for tool in tools} == {"verify_answer", "verify_claims", "check_source", "snap_quote",
                                             "check_references"}
    assert all(tool.input_schema["additionalProperties"] is False for tool in tools)
    assert snapped.structured_content["quote"] == "the river"
    assert extra.is_error and "E100" in extra.content[0].text and "does not take k" in extra.content[0].text
