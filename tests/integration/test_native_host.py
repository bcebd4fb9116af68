"""The native-messaging host as a subprocess over real pipes: framing, streaming, cancel, concurrency, hostile input."""

from __future__ import annotations

import json
import struct
import time

import pytest

from citemark.native import MAX_OUTGOING, encode_frame
from tests.conftest import Reply
from tests.support.host import HostProcess

PAGE = Reply("<html><head><title>Rivers</title></head><body><article><p>The Danube flows for 2,850 kilometres.</p>"
             "<p>It empties into the Black Sea.</p></article></body></html>")


def answer(*urls: str, claim: str = "The Danube flows for 2,850 kilometres") -> dict:
    markers = "".join(f"[{i}]" for i in range(1, len(urls) + 1))
    sources = "\n".join(f"{i}. {u}" for i, u in enumerate(urls, 1))
    return {"format": "markdown", "content": f"{claim} {markers}.\n\nSources\n{sources}\n"}


def test_hello_answers_fast_with_version_model_and_capabilities(host):
    started = time.monotonic()
    host.send({"v": 1, "id": 1, "type": "hello"})
    reply = host.receive()
    assert reply["type"] == "hello" and reply["id"] == 1 and reply["v"] == 1
    assert reply["name"] == "org.citemark.host" and reply["protocol"] == 1
    assert reply["mode"] == "lexical-only" and reply["model"] is None
    assert {"verify", "cancel", "verify_selection", "status", "ping"} <= set(reply["capabilities"])
    assert time.monotonic() - started < 10


def test_verify_streams_accepted_verdicts_and_done(host, server):
    server.routes["/danube"] = PAGE
    host.send({"v": 1, "id": "r1", "type": "verify", "answer": answer(server.url("/danube"), server.url("/gone")),
               "page_url": "https://chatgpt.com/c/1"})
    frames = host.until("r1", "done")
    kinds = [f["type"] for f in frames]
    assert kinds[0] == "accepted" and kinds.count("verdict") == 2 and kinds[-1] == "done"
    verdicts = {f["verdict"]["citation"]["url"].rsplit("/", 1)[-1]: f["verdict"] for f in frames if f["type"] == "verdict"}
    assert verdicts["danube"]["verdict"] == "supported"
    assert "2,850 kilometres" in verdicts["danube"]["evidence"]["quote"]
    assert verdicts["gone"]["verdict"] == "unreachable"
    assert frames[-1]["summary"]["text"] == "1 of 2 citations supported, 1 unreachable"


def test_one_slow_source_does_not_block_another_request(host, server):
    server.routes["/slow"] = Reply(PAGE.body, delay=3.0)
    server.routes["/fast"] = PAGE
    host.send({"v": 1, "id": "slow", "type": "verify", "answer": answer(server.url("/slow"))})
    host.send({"v": 1, "id": "fast", "type": "verify", "answer": answer(server.url("/fast"))})
    frames = host.until("slow", "done", timeout=40)
    done_order = [f["id"] for f in frames if f["type"] == "done"]
    assert done_order == ["fast", "slow"]


def test_cancel_stops_a_request_and_the_host_keeps_serving(host, server):
    server.routes["/slow"] = Reply(PAGE.body, delay=5.0)
    host.send({"v": 1, "id": "c1", "type": "verify", "answer": answer(server.url("/slow"))})
    host.until("c1", "accepted")
    host.send({"v": 1, "id": "c1", "type": "cancel"})
    frames = host.until("c1", "cancelled", timeout=10)
    assert not [f for f in frames if f["type"] == "done"]
    host.send({"v": 1, "id": "p", "type": "ping"})
    assert host.until("p", "pong")[-1]["type"] == "pong"


def test_verify_selection_checks_one_sentence_against_one_link(host, server):
    server.routes["/danube"] = PAGE
    host.send({"v": 1, "id": "s", "type": "verify_selection", "text": "The Danube empties into the Black Sea.",
               "url": server.url("/danube")})
    frames = host.until("s", "done")
    verdict = next(f["verdict"] for f in frames if f["type"] == "verdict")
    assert verdict["verdict"] == "supported" and verdict["citation"]["marker"] == "selection"


def test_status_reports_model_and_cache(host):
    host.send({"v": 1, "id": "st", "type": "status"})
    reply = host.until("st", "status")[-1]
    assert "lexical-only" in reply["model"] and reply["cache"]["available"] is True


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"\xff\xfe{\"type\": \"ping\"}", "E401"),  # invalid UTF-8
        (b"[1, 2, 3]", "E402"),  # JSON, not an object
        (b"{not json", "E402"),
        (json.dumps({"v": 1, "id": 9, "type": "launch_missiles"}).encode(), "E402"),
        (json.dumps({"v": 1, "id": 9, "type": "verify"}).encode(), "E402"),  # no answer
        (json.dumps({"v": 1, "id": 9, "type": "verify", "answer": {"format": "pdf", "content": "x"}}).encode(), "E402"),
        (json.dumps({"v": 2, "id": 9, "type": "hello"}).encode(), "E402"),
        (json.dumps({"v": 1, "id": {"a": 1}, "type": "hello"}).encode(), "E402"),
        (json.dumps({"v": 1, "id": 9, "type": "verify", "answer": {"format": "html", "content": "x" * 1_100_000}}).encode(), "E102"),
    ],
)
def test_hostile_messages_get_an_error_and_the_host_keeps_serving(host, raw, code):
    host.send(raw)
    reply = host.receive()
    assert reply["type"] == "error" and reply["code"] == code, reply
    host.send({"v": 1, "id": "after", "type": "ping"})
    assert host.until("after", "pong")[-1]["type"] == "pong"


def test_an_oversized_frame_is_skipped_and_serving_continues(host):
    host.write(struct.pack("=I", 9 * 1024 * 1024) + b" " * (9 * 1024 * 1024))
    assert host.receive()["code"] == "E401"
    host.send({"v": 1, "id": "after", "type": "ping"})
    assert host.until("after", "pong")[-1]["type"] == "pong"


def test_duplicate_request_ids_are_refused(host, server):
    server.routes["/slow"] = Reply(PAGE.body, delay=2.0)
    message = {"v": 1, "id": "dup", "type": "verify", "answer": answer(server.url("/slow"))}
    host.send(message)
    host.send(message)
    frames = host.until("dup", "done")
    assert any(f["type"] == "error" and "already running" in f["message"] for f in frames)


@pytest.mark.parametrize("tail", [struct.pack("=I", 2**31) + b"{", struct.pack("=I", 100) + b'{"v": 1', b"\x01\x00"])
def test_a_2gb_length_or_truncated_frame_then_eof_ends_the_host_cleanly(host_env, tail):
    process = HostProcess(host_env)
    process.send({"v": 1, "id": 1, "type": "ping"})
    assert process.receive()["type"] == "pong"
    process.write(tail)
    assert process.close() == 0


def test_page_requests_cannot_reach_private_addresses(host_env, server):
    server.routes["/danube"] = PAGE
    env = {k: v for k, v in host_env.items() if k != "CITEMARK_ALLOW_PRIVATE_NETWORK"}
    process = HostProcess({**env, "CITEMARK_ALLOW_PRIVATE_NETWORK": "0"})
    try:
        process.send({"v": 1, "id": "x", "type": "verify", "answer": answer(server.url("/danube"), "file:///etc/passwd")})
        verdicts = [f["verdict"] for f in process.until("x", "done") if f["type"] == "verdict"]
        # a private address is blocked by the fetch policy; a file: URL is a local path, which the host never reads
        assert {(v["verdict"], v["reason"]) for v in verdicts} == {("unreachable", "blocked_by_policy"),
                                                                   ("unreachable", "local_file_refused")}
        assert not [p for p, _ in server.requests if p == "/danube"]
    finally:
        process.close()


def test_outgoing_frames_stay_under_the_browser_limit():
    frame = encode_frame({"v": 1, "id": 1, "type": "verdict", "verdict": {"claim": "x" * 3_000_000, "evidence": {"quote": "y" * 2_000_000}}})
    (length,) = struct.unpack("=I", frame[:4])
    assert length == len(frame) - 4 <= MAX_OUTGOING
    assert json.loads(frame[4:])["verdict"]["claim"].endswith("…")


def test_coverage_is_opt_in_for_the_extension(host, server):
    server.routes["/danube"] = PAGE
    content = (f"The Danube flows for 2,850 kilometres [1]. The river freezes over in most winters since 1950.\n\n"
               f"Sources\n1. {server.url('/danube')}\n")
    host.send({"v": 1, "id": "plain", "type": "verify", "answer": {"format": "markdown", "content": content}})
    plain = host.until("plain", "done")[-1]
    host.send({"v": 1, "id": "cov", "type": "verify", "answer": {"format": "markdown", "content": content},
               "coverage": True})
    covered = host.until("cov", "done")[-1]
    assert "coverage" not in plain
    assert covered["coverage"]["uncited"] == ["The river freezes over in most winters since 1950."]
    assert covered["summary"]["pass_rate"] == 1.0
