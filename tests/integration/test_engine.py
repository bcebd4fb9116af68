"""The engine end to end over real HTTP on 127.0.0.1 (lexical-only here; the shipped model runs in test_shipped_model.py)."""

from __future__ import annotations

import asyncio
import json

from citemark.engine import Engine
from citemark.types import Label
from tests.conftest import Reply
from tests.support.pdf import make_pdf


def page(*paragraphs: str, title: str = "Page") -> Reply:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return Reply(f"<html><head><title>{title}</title></head><body><article>{body}</article></body></html>")


RIVER = page(
    "The Danube is the second-longest river in Europe.",
    "It flows for 2,850 kilometres through ten countries.",
    "The river rises in the Black Forest in Germany and empties into the Black Sea.",
    title="The Danube",
)


async def run(settings, answer, **kwargs):
    async with Engine(settings, scorer=None, **kwargs) as engine:
        return await engine.report(answer)


async def test_markdown_answer_gets_one_verdict_per_citation(server, settings):
    server.routes["/danube"] = RIVER
    answer = f"""The Danube flows for 2,850 kilometres through ten countries [1]. The Danube flows for 3,400 kilometres through ten countries [1]. It was dug by hand in 1990 [2].

Sources
1. {server.url('/danube')}
2. {server.url('/gone')}
"""
    report = await run(settings, answer)
    verdicts = {v.claim: v for v in report.verdicts}
    supported = verdicts["The Danube flows for 2,850 kilometres through ten countries."]
    assert supported.label is Label.SUPPORTED
    assert "2,850 kilometres" in supported.evidence.quote
    assert verdicts["The Danube flows for 3,400 kilometres through ten countries."].label is Label.CONTRADICTED
    assert verdicts["It was dug by hand in 1990."].label is Label.UNREACHABLE
    assert report.summary()["text"] == "1 of 3 citations supported, 1 contradicted, 1 unreachable"
    assert "lexical-only" in report.model


async def test_evidence_offsets_and_deep_link_point_at_the_quote(server, settings):
    server.routes["/danube"] = RIVER
    async with Engine(settings, scorer=None) as engine:
        verdict = await engine.verify_claim("The Danube rises in the Black Forest in Germany.", server.url("/danube"))
        document = await engine.loader.load(verdict.citation)
    evidence = verdict.evidence
    assert document.text[evidence.start : evidence.end] == evidence.quote
    assert evidence.link.startswith(server.url("/danube") + "#:~:text=")


async def test_a_source_cited_by_several_claims_is_fetched_once(server, settings):
    server.routes["/danube"] = RIVER
    claims = [{"claim": c, "url": server.url("/danube")} for c in (
        "The Danube is the second-longest river in Europe.", "It flows through ten countries.", "It empties into the Black Sea.")]
    report = await run(settings, json.dumps(claims))
    assert len(report.verdicts) == 3
    assert [p for p, _ in server.requests if p == "/danube"] == ["/danube"]


async def test_verdicts_stream_as_sources_arrive(server, settings):
    server.routes["/fast"] = RIVER
    server.routes["/slow"] = Reply(RIVER.body, delay=2.0)
    answer = json.dumps([
        {"claim": "The Danube empties into the Black Sea.", "url": server.url("/slow")},
        {"claim": "The Danube empties into the Black Sea.", "url": server.url("/fast")},
    ])
    loop = asyncio.get_running_loop()
    started = loop.time()
    arrivals = []
    async with Engine(settings, scorer=None) as engine:
        async for verdict in engine.verify(answer):
            arrivals.append((verdict.citation.url, loop.time() - started))
    assert arrivals[0][0].endswith("/fast") and arrivals[0][1] < 1.5
    assert arrivals[1][0].endswith("/slow")


async def test_source_failures_get_their_own_verdicts(server, settings):
    server.routes["/paywall"] = Reply("""<html><head><script type="application/ld+json">{"isAccessibleForFree": "False"}</script></head>
        <body><p>Subscribe to continue reading.</p></body></html>""")
    server.routes["/retracted"] = page("RETRACTED: This article has been retracted by the journal.",
                                       "The Danube flows for 2,850 kilometres through ten countries.", title="RETRACTED: Danube study")
    server.routes["/image"] = Reply(b"\x89PNG\r\n\x1a\n", headers={"Content-Type": "image/png"})
    server.routes["/login"] = Reply("login", status=401, headers={"Content-Type": "text/plain"})
    claim = "The Danube flows for 2,850 kilometres through ten countries."
    answer = json.dumps([{"claim": claim, "url": server.url(p)} for p in ("/paywall", "/retracted", "/image", "/login")]
                        + [{"claim": claim, "url": "file:///etc/passwd"}])
    report = await run(settings, answer)
    labels = {(v.citation.url or v.citation.path or "").rsplit("/", 1)[-1]: (v.label, v.reason) for v in report.verdicts}
    assert labels["paywall"] == (Label.PAYWALLED, "paywall")
    assert labels["retracted"] == (Label.RETRACTED, "retraction_notice")
    assert labels["image"] == (Label.UNVERIFIABLE, "no_text")
    assert labels["login"] == (Label.PAYWALLED, "login_required")
    assert labels["passwd"] == (Label.UNREACHABLE, "local_file_refused")  # a file: URL is a path; none allowed here
    assert all(v.label not in {Label.UNSUPPORTED, Label.CONTRADICTED} for v in report.verdicts)


async def test_pdf_sources_are_read_with_page_links(server, settings):
    server.routes["/paper.pdf"] = Reply(make_pdf(["Introduction to rivers.", "The Danube flows for 2,850 kilometres."]),
                                        headers={"Content-Type": "application/pdf"})
    async with Engine(settings, scorer=None) as engine:
        verdict = await engine.verify_claim("The Danube flows for 2,850 kilometres.", server.url("/paper.pdf"))
    assert verdict.label is Label.SUPPORTED
    assert verdict.evidence.page == 2 and verdict.evidence.link.endswith("#page=2")


async def test_local_files_are_refused_unless_the_policy_allows(tmp_path, settings):
    secret = tmp_path / "notes.txt"
    secret.write_text("The Danube flows for 2,850 kilometres.")
    answer = json.dumps([{"claim": "The Danube flows for 2,850 kilometres.", "path": str(secret)},
                         {"claim": "The Danube flows for 2,850 kilometres.", "path": str(tmp_path / "absent.txt")}])
    report = await run(settings, answer)
    assert [(v.label, v.reason) for v in report.verdicts] == [(Label.UNREACHABLE, "local_file_refused")] * 2
    assert report.verdicts[0].explanation == report.verdicts[1].explanation  # exists or not: same answer


async def test_the_request_deadline_turns_stragglers_into_unverifiable(server, settings):
    server.routes["/slow"] = Reply(RIVER.body, delay=3.0)
    report = await run(settings.with_(request_deadline=0.5, read_timeout=10.0, source_deadline=10.0),
                       json.dumps([{"claim": "The Danube empties into the Black Sea.", "url": server.url("/slow")}]))
    assert [(v.label, v.reason) for v in report.verdicts] == [(Label.UNVERIFIABLE, "deadline")]


async def test_unresolved_markers_are_in_the_report(server, settings):
    server.routes["/danube"] = RIVER
    report = await run(settings, f"The Danube is in Europe [1]. Orphan [2].\n\nSources\n1. {server.url('/danube')}\n")
    assert [u.marker for u in report.unresolved] == ["2"]
    assert report.to_dict()["unresolved"] == [{"marker": "2", "claim": "Orphan."}]
