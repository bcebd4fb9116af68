"""What a request may ask beyond its answer, at the doors: ``verify``'s flags, ``batch --cache-dir`` and MCP's
arguments, against sources served over real HTTP on 127.0.0.1 (lexical-only, as the other door tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import Reply

FILLER = ("<p>Bread was baked at dawn. Markets opened early. Children walked to school.</p>"
          "<p>Winters were long and cold. Snow closed the roads. Villages kept stores of wood.</p>")
PAGE = Reply("<html><head><title>Rivers</title></head><body><article>"
             "<p>The Danube flows for 2,850 kilometres through ten countries.</p>" + FILLER +
             "<p>The river empties into the Black Sea through a wide delta in Romania.</p>" + FILLER +
             "<p>The Danube delta is a reserve where pelicans nest every spring.</p>" + FILLER +
             "<p>Barges carry grain and steel along the Danube for most of the year.</p>"
             "</article></body></html>")
CLAIM = "The Danube flows for 2,850 kilometres."
UNKNOWN_HASH = "0" * 64


@pytest.fixture
def env(home, server):
    server.routes["/danube"] = PAGE
    return {**os.environ, "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_RETRIES": "0", "CITEMARK_MODEL": "none"}


def citemark(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "citemark.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env)


def one(env: dict, server, *flags: str) -> subprocess.CompletedProcess:
    return citemark(env, "verify", "--claim", CLAIM, "--source", server.url("/danube"), "--json", *flags)


def test_top_k_adds_ranked_passages_and_one_keeps_todays_output(env, server):
    plain = json.loads(one(env, server).stdout)["verdicts"][0]
    ranked = json.loads(one(env, server, "--top-k", "3").stdout)["verdicts"][0]
    assert "passages" not in plain
    assert {k: v for k, v in ranked.items() if k != "passages"} == plain
    passages = ranked["passages"]
    assert len(passages) == 3 and passages[0] == ranked["evidence"]
    spans = sorted((p["start"], p["end"]) for p in passages)
    assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))  # no two overlap
    assert all(p["quote"] and p["link"].startswith(server.url("/danube")) for p in passages)
    requests = len(server.requests)
    for bad in ("11", "0"):
        refused = one(env, server, "--top-k", bad)
        assert refused.returncode == 2 and "E100" in refused.stderr and "top_k" in refused.stderr
        assert "Traceback" not in refused.stderr
    assert len(server.requests) == requests  # refused before anything was fetched


def test_source_reuse_in_the_json_and_the_readable_report(env, server, tmp_path):
    answer = tmp_path / "answer.md"
    answer.write_text(f"The Danube flows for 2,850 kilometres [1]. Pelicans nest in the Danube delta [1]. "
                      f"Barges carry grain on the Danube [2].\n\nSources\n1. {server.url('/danube')}\n"
                      f"2. {server.url('/danube?utm_source=chat')}\n3. {server.url('/other')}\n")
    data = json.loads(citemark(env, "verify", str(answer), "--json").stdout)
    reuse = data["source_reuse"]
    assert reuse["sources"] == 1 and reuse["citations"] == 3 and reuse["most_cited_share"] == 1.0
    assert reuse["by_source"] == [{"source": server.url("/danube"), "claims": 3, "citations": 3}]
    readable = citemark(env, "verify", str(answer)).stdout
    assert "sources (claims citing each):" in readable and "the most-cited source carries 3 of 3 citations" in readable


def test_valid_only_drops_failing_citations_and_says_how_many(env, server, tmp_path):
    answer = tmp_path / "answer.md"
    answer.write_text(f"The Danube flows for 2,850 kilometres [1]. The Danube was dug by hand in 1990 [2].\n\n"
                      f"Sources\n1. {server.url('/danube')}\n2. {server.url('/gone')}\n")
    full = citemark(env, "verify", str(answer), "--json")
    valid = citemark(env, "verify", str(answer), "--json", "--valid-only")
    data = json.loads(valid.stdout)
    assert [v["verdict"] for v in json.loads(full.stdout)["verdicts"]] == ["supported", "unreachable"]
    assert [v["verdict"] for v in data["verdicts"]] == ["supported"] and data["dropped"] == 1
    assert valid.returncode == full.returncode == 1  # the gate still judges every citation
    readable = citemark(env, "verify", str(answer), "--valid-only")
    assert "1 citation that did not pass left out" in readable.stdout and "UNREACHABLE" not in readable.stdout


def test_expect_sha256_flags_a_source_whose_text_changed(env, server):
    first = json.loads(one(env, server).stdout)["verdicts"][0]
    same = json.loads(one(env, server, "--expect-sha256", first["source_sha256"].upper()).stdout)["verdicts"][0]
    changed_run = one(env, server, "--expect-sha256", UNKNOWN_HASH)
    changed = json.loads(changed_run.stdout)["verdicts"][0]
    assert first["verdict"] == same["verdict"] == "supported"
    assert changed["verdict"] == "unverifiable" and changed["reason"] == "source_changed"
    assert changed_run.returncode == 1
    bad = one(env, server, "--expect-sha256", "not-a-hash")
    assert bad.returncode == 2 and "E100" in bad.stderr and "expect_sha256" in bad.stderr


def test_support_threshold_only_raises_the_bar(env, server):
    supported = json.loads(one(env, server).stdout)["verdicts"][0]
    raised = json.loads(one(env, server, "--support-threshold", "1").stdout)["verdicts"][0]
    zero = json.loads(one(env, server, "--support-threshold", "0").stdout)["verdicts"][0]
    assert supported["verdict"] == zero["verdict"] == "supported" and supported["scores"]["support"] < 1
    assert raised["verdict"] == "partial" and raised["reason"] == "below_support_threshold"
    unsupported = citemark(env, "verify", "--claim", "Penguins nest on the glaciers of Patagonia in winter.",
                           "--source", server.url("/danube"), "--json", "--support-threshold", "0")
    assert json.loads(unsupported.stdout)["verdicts"][0]["verdict"] != "supported"
    for bad in ("1.5", "-0.1", "nan"):
        refused = one(env, server, "--support-threshold", bad)
        assert refused.returncode == 2 and "E100" in refused.stderr and "support_threshold" in refused.stderr


def test_cache_dir_holds_the_fetch_cache_and_a_file_is_an_input_error(env, server, home, tmp_path):
    folder = tmp_path / "my-cache"
    assert one(env, server, "--cache-dir", str(folder)).returncode == 0
    assert (folder / "sources.sqlite3").is_file() and not (home / "cache" / "citemark" / "sources.sqlite3").exists()
    fetched = len(server.requests)
    assert one(env, server, "--cache-dir", str(folder)).returncode == 0
    assert len([p for p, _ in server.requests[fetched:] if p == "/danube"]) <= 1  # revalidated, not refetched blind
    stats = json.loads(citemark(env, "cache", "stats", "--cache-dir", str(folder)).stdout)
    assert stats["entries"] >= 1
    file = tmp_path / "a-file"
    file.write_text("not a folder")
    for args in (("verify", "--claim", CLAIM, "--source", server.url("/danube"), "--cache-dir", str(file)),
                 ("batch", "-", "--out", str(tmp_path / "out.jsonl"), "--cache-dir", str(file))):
        refused = citemark(env, *args)
        assert refused.returncode == 2 and "E100" in refused.stderr and "is a file" in refused.stderr
    assert file.read_text() == "not a folder" and not (tmp_path / "out.jsonl").exists()


def test_batch_keeps_its_cache_in_the_cache_dir(env, server, tmp_path):
    batch = tmp_path / "in.jsonl"
    batch.write_text(json.dumps({"id": 1, "claim": CLAIM, "source": server.url("/danube")}) + "\n")
    folder = tmp_path / "batch-cache"
    run = citemark(env, "batch", str(batch), "--out", str(tmp_path / "out.jsonl"), "--cache-dir", str(folder), "-q")
    assert run.returncode == 0, run.stderr
    assert (folder / "sources.sqlite3").is_file()
    [record] = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert record["verdicts"][0]["verdict"] == "supported" and record["source_reuse"]["sources"] == 1


async def test_mcp_takes_the_same_asks(env, server):
    params = StdioServerParameters(command=sys.executable, args=["-m", "citemark.cli", "mcp"], env=env)
    claims = [{"claim": CLAIM, "source": server.url("/danube")},
              {"claim": "The Danube was dug by hand in 1990.", "source": server.url("/gone")}]
    async with Client(params) as client:
        plain = (await client.call_tool("verify_claims", {"claims": claims})).structured_content
        asked = (await client.call_tool("verify_claims", {"claims": claims, "top_k": 2,
                                                          "valid_citations_only": True})).structured_content
        changed = (await client.call_tool("verify_claims", {"claims": claims[:1], "expect_sha256": UNKNOWN_HASH})
                   ).structured_content
        raised = (await client.call_tool("verify_answer", {
            "answer": f"{CLAIM} [1]\n\nSources\n1. {server.url('/danube')}\n", "support_threshold": 1})
                  ).structured_content
        errors = [await client.call_tool("verify_claims", {"claims": claims, **bad}) for bad in (
            {"top_k": 11}, {"expect_sha256": "zz"}, {"support_threshold": 2})]
    assert [v["verdict"] for v in plain["verdicts"]] == ["supported", "unreachable"] and plain["dropped"] is None
    assert plain["source_reuse"]["sources"] == 2 and plain["source_reuse"]["most_cited_share"] == 0.5
    assert not plain["verdicts"][0]["passages"]
    [kept] = asked["verdicts"]
    assert asked["dropped"] == 1 and len(kept["passages"]) == 2 and kept["passages"][0] == kept["evidence"]
    assert changed["verdicts"][0]["reason"] == "source_changed" and changed["verdicts"][0]["verdict"] == "unverifiable"
    assert raised["verdicts"][0]["verdict"] == "partial" and raised["verdicts"][0]["reason"] == "below_support_threshold"
    for error, name in zip(errors, ("top_k", "expect_sha256", "support_threshold")):
        assert error.is_error and "E100" in error.content[0].text and name in error.content[0].text
