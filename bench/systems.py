"""The checkers compared side by side on the same cases: citemark, its peers from PyPI, and the trivial floor.

Each system turns a list of cases into one prediction per case (a verdict word,
a score, the evidence it used; citemark adds its reason code and the quoted
window's P(entailment)). Peers run as their libraries are documented, with their
own defaults; what they cannot do offline is said in ``note``.
"""

from __future__ import annotations

import asyncio
import html
import http.server
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.cases import Case, source_text


@dataclass(frozen=True)
class Prediction:
    label: str
    score: float | None = None
    evidence: str | None = None
    reason: str | None = None  # citemark's reason code ("entailed", "number_mismatch", …)
    entailment: float | None = None  # citemark: the quoted window's P(entailment); None without a model
    differences: tuple[dict, ...] = ()  # citemark: where claim and quote part (types.Difference as dicts)
    error: str | None = None  # the case could not be judged (label "error"): why
    paraphrased: bool = False  # citemark: a "supported" that rests on a paraphrase match (token states)


#: The label of a case that could not be judged (bench/accuracy.py counts it apart).
ERROR = "error"


class Floor:
    name = "floor (always 'not supported')"
    note = "the trivial baseline: balanced accuracy 50 %"

    def model(self) -> str:
        return "none"

    async def predict(self, cases: list[Case]) -> list[Prediction]:
        return [Prediction("unsupported", 0.0) for _ in cases]


class Citesure:
    name = "citesure 0.2.2 (overlap tiers)"
    note = "overlap tiers only: its NLI tier downloads nli-deberta-v3-base from the Hugging Face hub, unavailable offline"

    def model(self) -> str:
        return "none (term overlap)"

    async def predict(self, cases: list[Case]) -> list[Prediction]:
        from citesure.models import Status
        from citesure.overlap import score_overlap, segment_passages, status_for_score

        out = []
        for case in cases:
            score, passage = score_overlap(case.claim, segment_passages(source_text(case)))
            label = "supported" if status_for_score(score) == Status.SUPPORTED else "unsupported"
            out.append(Prediction(label, score, passage))
        return out


class CitationIntegrity:
    name = "citation-integrity-check 0.1.0"
    note = "token overlap ≥ 0.2 of the claim's words (its default)"

    def model(self) -> str:
        return "none (token overlap)"

    async def predict(self, cases: list[Case]) -> list[Prediction]:
        from citation_integrity_check import verify

        out = []
        for case in cases:
            result = verify(case.claim.rstrip(". ") + " [1].", [{"id": "1", "text": source_text(case)}])
            out.append(Prediction("supported" if result.ok else "unsupported", float(result.ok)))
        return out


class GroundedCheck:
    name = "grounded-check 0.1.2"
    note = ("quotes, numbers, citations and names looked up literally, plus its sentence-overlap tier "
            "(`--sentences`, its default threshold 0.60) counted: supported only when every unit is found "
            "and the sentence reaches the threshold (a claim with nothing to look up is not supported)")

    def model(self) -> str:
        return "none (literal lookups + token overlap)"

    async def predict(self, cases: list[Case]) -> list[Prediction]:
        from grounded import Kind, Source, Verdict, extract, verify

        kinds = {Kind.QUOTE, Kind.NUMBER, Kind.CITATION, Kind.ENTITY, Kind.SENTENCE}
        out = []
        for case in cases:
            text = source_text(case)
            if not text.strip():
                out.append(Prediction("unsupported", 0.0))
                continue
            result = verify(extract(case.claim, kinds=kinds), [Source(path=Path("source"), raw=text)])
            sentences = result.heuristic
            overlap = min((f.score for f in sentences if f.score is not None), default=1.0)
            supported = (bool(result.findings) and result.passed
                         and all(f.verdict is Verdict.GROUNDED for f in sentences))
            out.append(Prediction("supported" if supported else "unsupported", round(result.rate * overlap, 4)))
        return out


class ContextTrace:
    name = "contexttrace 1.3.0 (lexical)"
    note = ("`verify_trace(mode=\"lexical\")`, its default mode, with the claim as the answer and the source "
            "as one context: supported only when every claim it splits the sentence into is `supported`")

    def model(self) -> str:
        return "none (lexical mode)"

    async def predict(self, cases: list[Case]) -> list[Prediction]:
        from contexttrace.verify import RAGTrace, TraceContext, verify_trace

        out = []
        for case in cases:
            trace = RAGTrace(query="", answer=case.claim, contexts=[TraceContext(id="source", text=source_text(case))])
            claims = verify_trace(trace, mode="lexical")["claims"]
            supported = bool(claims) and all(c["verdict"] == "supported" for c in claims)
            score = min((0.0 if c["verdict"] == "contradicted" else float(c["best_score"] or 0.0) for c in claims),
                        default=0.0)
            evidence = " … ".join(c["evidence"] for c in claims if c.get("evidence")) or None
            out.append(Prediction("supported" if supported else "unsupported", score, evidence))
        return out


class Citemark:
    """citemark through its engine: sources as text, or served as HTML pages on 127.0.0.1, under a
    verdict ``policy`` (strict, the default, or balanced: settings.POLICIES)."""

    def __init__(self, model: str | None, mode: str = "text", concurrency: int = 16, combiner: dict | None = None,
                 extractor: str = "auto", policy: str = "strict") -> None:
        from citemark.engine import Engine
        from citemark.scoring.calibrate import Combiner
        from citemark.settings import Settings

        settings = Settings(model=model, allow_private_network=True, retries=0, request_deadline=600.0,
                            html_extractor=extractor, policy=policy)
        self.engine = Engine(settings, cache=None, combiner=Combiner.from_dict(combiner) if combiner else None)
        self.mode = mode
        self.policy = policy
        self.concurrency = concurrency
        self.name = (f"citemark ({self.engine.model_name.split(' (')[0]}, {mode}"
                     f"{'/' + extractor if mode == 'served' else ''}, {policy}"
                     f"{', combiner ' + combiner.get('fitted_on', '')[:20] if combiner else ''})")
        self.note = "" if self.engine.pack else "lexical-only: no model pack"

    def model(self) -> str:
        return self.engine.model_name

    async def predict(self, cases: list[Case], pages: Sequence[bytes] | None = None) -> list[Prediction]:
        """``pages``: in served mode, the HTML to serve for each case (default: the case's text rendered).
        A case the engine refuses (an empty source) comes back labelled "error", so one bad case
        never stops a run of a thousand."""
        from citemark.errors import CitemarkError
        from citemark.scoring.verdict import IN_OTHER_WORDS

        self.engine.warm_up()
        server = _PageServer(list(pages) if pages is not None else cases) if self.mode == "served" else None
        gate = asyncio.Semaphore(self.concurrency)

        async def one(index: int, case: Case) -> Prediction:
            async with gate:
                source = server.url(index) if server else source_text(case)
                try:
                    verdict = await self.engine.verify_claim(case.claim, source)
                except CitemarkError as error:
                    return Prediction(ERROR, error=f"{type(error).__name__}: {error}")
            scores = verdict.scores
            return Prediction(verdict.label.value, scores.support if scores else None,
                              verdict.evidence.quote if verdict.evidence else None, verdict.reason,
                              scores.entailment if scores else None,
                              tuple(d.to_dict() for d in verdict.differences),
                              paraphrased=verdict.reason == "aligned" and IN_OTHER_WORDS in verdict.explanation)

        try:
            return list(await asyncio.gather(*(one(i, c) for i, c in enumerate(cases))))
        finally:
            if server:
                server.close()
            await self.engine.aclose()


def citemark_models(shipped: str | None) -> list[str | None]:
    """The scorers citemark is measured with: the shipped model, the aegis pair (when installed), none."""
    from citemark.models.aegis import aegis_installed

    return [shipped] + (["aegis-pair"] if aegis_installed() else []) + ["none"]


def page_server(pages: Sequence[bytes]) -> http.server.ThreadingHTTPServer:
    """A server on 127.0.0.1 (not yet serving) of ``pages``, the i-th at ``/i.html``."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            try:
                body, status = pages[int(self.path.strip("/").split(".")[0])], 200
            except (ValueError, IndexError):
                body, status = b"not found", 404
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True
        # socketserver's backlog is 5: ten clients connecting at once overflow it, and the kernel's SYN
        # retry costs the client a whole second (a tool that fetches in parallel measured a second slower)
        request_queue_size = 128

        def handle_error(self, request: object, client_address: object) -> None:
            """The engine closing a kept-alive connection is not an error worth a traceback."""
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    return Server(("127.0.0.1", 0), Handler)


class _PageServer:
    """HTML pages on 127.0.0.1, the i-th at ``/i.html``: a case's sources rendered as one page
    (title + one paragraph per line), or a page's bytes as given."""

    def __init__(self, cases: Sequence[Case | bytes]) -> None:
        self._server = page_server([item if isinstance(item, bytes) else _render(item) for item in cases])
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def url(self, index: int) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{index}.html"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _render(case: Case) -> bytes:
    sections = []
    for title, text in case.pages:
        paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines() if line.strip())
        sections.append(f"<section><h2>{html.escape(title)}</h2>{paragraphs}</section>")
    title = html.escape(case.pages[0][0] if case.pages else "")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body><article>{''.join(sections)}</article></body></html>").encode()


SYSTEMS = {"citemark": Citemark, "citesure": Citesure, "cic": CitationIntegrity, "grounded": GroundedCheck,
           "contexttrace": ContextTrace, "floor": Floor}
