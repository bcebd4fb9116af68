"""Pages and answers the batch tests share (served on 127.0.0.1 by the ``server`` fixture)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Reply


def page(title: str, *paragraphs: str) -> Reply:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return Reply(f"<html><head><title>{title}</title></head><body><article>{body}</article></body></html>")


PAGES = {
    "/danube": page("The Danube", "The Danube is the second-longest river in Europe.",
                    "It flows for 2,850 kilometres through ten countries.",
                    "The river rises in the Black Forest in Germany and empties into the Black Sea."),
    "/rhine": page("The Rhine", "The Rhine rises in the Swiss Alps.",
                   "It flows for about 1,230 kilometres and empties into the North Sea at Rotterdam."),
    "/tower": page("The tower", "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.",
                   "It is 330 metres tall and was the tallest structure in the world until 1930."),
    "/bridge": page("The bridge", "The Golden Gate Bridge opened in 1937.",
                    "Its main span is 1,280 metres long, and it is painted International Orange."),
    "/library": page("The library", "The library opened in 1902 and holds 260,000 volumes.",
                     "It is the oldest public library in the region."),
}


def answers(server) -> list[dict]:  # noqa: ANN001
    url = server.url
    return [
        {"id": "md", "answer": (
            f"The Danube flows for 2,850 kilometres through ten countries [1][2]. "
            f"The Rhine empties into the Baltic Sea [2]. It opened in 1937 [3].\n\n"
            f"Sources\n1. {url('/danube')}\n2. {url('/rhine')}\n3. {url('/bridge')}\n")},
        {"id": "html", "format": "html", "answer": (
            f'<p>The Eiffel Tower was completed in 1889 <a href="{url("/tower")}">[1]</a>. '
            f'It is 500 metres tall <a href="{url("/tower")}">[2]</a>.</p>')},
        {"id": 7, "claims": [{"claim": "The library holds 260,000 volumes.", "url": url("/library")},
                             {"claim": "The library opened in 1950.", "urls": [url("/library"), url("/gone")]}]},
        {"id": "pair", "claim": "The Golden Gate Bridge is painted International Orange.", "source": url("/bridge")},
    ]


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows), encoding="utf-8")
    return path


def mixed_batch(server, path: Path) -> Path:  # noqa: ANN001
    """The answers above, 20 more of one claim each, an answer that is no answer and a broken line, written
    to ``path``: enough answers for several shards of a remote run (24 answers, 2 errors)."""
    server.routes.update(PAGES)
    items = answers(server)
    items += [{"id": f"x{i}", "claims": [{"claim": "The Rhine rises in the Swiss Alps.", "url": server.url("/rhine")}]}
              for i in range(20)]
    items.append({"id": "bad", "answer": 42})
    return write_jsonl(path, [*items, "{broken"])


def slow_batch(server, path: Path, count: int, delay: float) -> Path:  # noqa: ANN001
    """``count`` answers with ids 0…count-1, each citing its own copy of the library page served after
    ``delay`` seconds, written to ``path``: a run long enough to be stopped in the middle."""
    server.routes.update({f"/slow{i}": Reply(PAGES["/library"].body, delay=delay) for i in range(count)})
    return write_jsonl(path, [{"id": i, "claims": [{"claim": "The library holds 260,000 volumes.",
                                                     "url": server.url(f"/slow{i}")}]} for i in range(count)])
