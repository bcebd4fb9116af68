"""Answer parsing speed on hostile and ordinary input, and how it grows with size.

    python -m bench.parse_speed

Prints, for each shape, the seconds to parse n and 2n units and their ratio
(a linear parser stays near 2; a quadratic one near 4): Markdown with markers
spread through one line, HTML of nested ``<div>``s each with an id, and the
corpus of copied answers in ``tests/corpus/answers`` (per answer).

citemark's own passes are linear; for HTML the ratio also carries lexbor's tree
builder, whose HTML-spec scope checks grow with nesting depth (6,000 nested
``<div>``s: ~0.2 s of the total; 12,000: ~0.9 s).
"""

from __future__ import annotations

import time
from pathlib import Path

from citemark.answer import parse_answer

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "answers"


def markdown_markers(n: int) -> str:
    sources = "\n".join(f"{i}. https://r.example/{i}" for i in range(1, 51))
    return "A claim about " + "".join(f"rivers [{i % 50 + 1}] " for i in range(n)) + f".\n\nSources\n{sources}\n"


def nested_divs(n: int) -> str:
    return "".join(f'<div id="d{i}"><p>Claim {i} [1].</p>' for i in range(n)) + '<a href="https://r.example">r</a>' + "</div>" * n


def seconds(text: str, fmt: str, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        parse_answer(text, fmt)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for name, build, fmt, n in (("markdown, markers on one line", markdown_markers, "markdown", 12_000),
                                ("html, nested divs with ids", nested_divs, "html", 6_000)):
        small, large = seconds(build(n // 2), fmt), seconds(build(n), fmt)
        print(f"{name:32} n={n:>6}  {len(build(n)):>9,} chars  {large:7.3f} s   2n/n ratio {large / small:4.2f}")
    answers = sorted(CORPUS.glob("*.md"))
    total = sum(seconds(path.read_text(encoding="utf-8"), "markdown") for path in answers)
    print(f"{'corpus of copied answers':32} {len(answers)} answers  {1000 * total / len(answers):.2f} ms per answer")


if __name__ == "__main__":
    main()
