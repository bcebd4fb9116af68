"""Run citemark over the development contrast set (train/contrast_dev/) and print what it badges, per kind.

The set is material to develop the guards and binding checks on: read its misses, change a
rule, run it again. The contrast *suite* (bench/contrast/, other texts) is the test and is
only ever measured, by ``python -m bench.contrast_suite``.

    python -m train.contrast_dev [--model NAME] [--combiner FILE] [--part text|html|html2|html3|text2|text3|text4] [--show polarity,antonym | --show all]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import defaultdict
from pathlib import Path

from citemark.engine import Engine
from citemark.scoring.calibrate import Combiner
from citemark.settings import Settings
from citemark.sources.extract import extract

SET = Path(__file__).resolve().parent / "contrast_dev"
TRUE_KINDS = {"verbatim", "paraphrase", "numeric_equivalent", "multi_sentence"}


#: The parts of the set: four sets of plain-text passages (text, text2, text3, text4), and three sets of HTML pages
#: with the boilerplate of real sites (read by citemark's own extraction, as a fetched citation is).
PARTS = {"text": ("claims.jsonl", "pages", ".txt"), "html": ("claims-html.jsonl", "html", ".html"),
         "html2": ("claims-html2.jsonl", "html2", ".html"), "html3": ("claims-html3.jsonl", "html3", ".html"),
         "text2": ("claims-text2.jsonl", "pages2", ".txt"), "text3": ("claims-text3.jsonl", "pages3", ".txt"),
         "text4": ("claims-text4.jsonl", "pages4", ".txt")}


def source_text(part: str, page: str) -> str:
    """The text citemark reads from one page of the set."""
    _, folder, suffix = PARTS[part]
    path = SET / folder / f"{page}{suffix}"
    if suffix == ".txt":
        return path.read_text()
    return extract(path.read_bytes(), url=f"http://127.0.0.1/{page}.html", content_type="text/html; charset=utf-8").text


def claims_of(parts: list[str]) -> list[tuple[str, dict]]:
    found = []
    for part in parts:
        claims = SET / PARTS[part][0]
        if claims.exists():
            found += [(part, json.loads(line)) for line in claims.read_text().splitlines() if line.strip()]
    return found


def claims_and_texts(parts: list[str]) -> list[tuple[dict, str]]:
    """Each claim of ``parts`` with the text citemark reads from its page (each page read once)."""
    claims = claims_of(parts)
    texts = {page: source_text(*page) for page in {(part, claim["page"]) for part, claim in claims}}
    return [(claim, texts[part, claim["page"]]) for part, claim in claims]


async def judge(model: str | None, combiner: Combiner | None = None,
                parts: list[str] | None = None) -> list[tuple[dict, object]]:
    settings = Settings.load() if model is None else Settings.load().with_(model=model)
    async with Engine(settings, combiner=combiner) as engine:
        return [(claim, await engine.verify_claim(claim["claim"], text))
                for claim, text in claims_and_texts(parts or list(PARTS))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="pack name or folder ('none': lexical-only); default: the installed default")
    parser.add_argument("--combiner", type=Path, help="a combiner JSON to use instead of the model's")
    parser.add_argument("--show", default="", help="kinds whose misses to print (comma-separated, or 'all')")
    parser.add_argument("--part", action="append", choices=list(PARTS),
                        help="only these parts of the set (repeatable; default: all)")
    args = parser.parse_args()
    by_kind: dict[str, list] = defaultdict(list)
    combiner = Combiner.from_dict(json.loads(args.combiner.read_text())) if args.combiner else None
    for claim, verdict in asyncio.run(judge(args.model, combiner, args.part)):
        by_kind[claim["kind"]].append((claim, verdict))
    shown = set(args.show.split(",")) if args.show else set()
    for kind, rows in sorted(by_kind.items()):
        supported = sum(v.label.value == "supported" for _, v in rows)
        print(f"{kind:20s} {'true ' if kind in TRUE_KINDS else 'false'} n={len(rows):3d}  supported {supported / len(rows):6.1%}")
    for side, kinds in (("true", TRUE_KINDS), ("false", set(by_kind) - TRUE_KINDS)):
        rows = [r for k in kinds for r in by_kind[k]]
        print(f"{side} claims badged supported: {sum(v.label.value == 'supported' for _, v in rows) / len(rows):.1%}")
    for kind, rows in sorted(by_kind.items()):
        if kind not in shown and "all" not in shown:
            continue
        for claim, verdict in rows:
            if (verdict.label.value == "supported") != (kind in TRUE_KINDS):
                quote = verdict.evidence.quote if verdict.evidence else ""
                print(f"--- {kind}: {verdict.label.value} ({verdict.reason})\n  claim: {claim['claim']}\n"
                      f"  note:  {claim['note']}\n  quote: {quote[:300]}")


if __name__ == "__main__":
    main()
