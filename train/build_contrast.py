"""Stage-3 data: minimal pairs that teach the model to check *names*, the error it still makes.

Step 1b of the pipeline (see train/README.md); reads ``stage2.jsonl`` and
``heldout.jsonl`` from step 1 and writes ``stage3.jsonl`` beside them.

After stages 1–2 the model scored a claim whose name had been swapped for another
name from the same page almost as high as the true claim: it had learned "is
this passage about the claim's topic", not "does it state this claim". Every
row here is one of a pair over the *same* window, so only the changed detail
can explain the label:

- the true claim → entailment;
- one of its names (one the window states) swapped for a name the window does
  not state — from elsewhere in the same document where there is one, else from
  another document → neutral: the passage never says it;
- a name swapped for another name *in* the window, or the claim negated →
  contradiction;

plus a replay of stage-2 rows so the rest is not forgotten. Sources: the
permissive grounding sets only (``build_data.STAGE2``), never ../shared/bench.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

from build_data import PERMISSIVE, STAGE2, negate, read, windowed

_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]*[a-z][\w'-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'-]*)*")


def names(text: str) -> list[str]:
    """Capitalised names that do not open a sentence."""
    return [m.group() for m in _NAME.finditer(text) if len(m.group()) > 2]


def swap(claim: str, window: str, candidates: list[str], rng: random.Random) -> str | None:
    """``claim`` with one name the window states replaced by one of ``candidates`` of the same shape."""
    stated = [m for m in _NAME.finditer(claim) if m.group() in window]
    if not stated:
        return None
    target = rng.choice(stated)
    shape = " " in target.group()
    pool = [c for c in candidates if (" " in c) == shape and c.lower() not in claim.lower()] or \
        [c for c in candidates if c.lower() not in claim.lower()]
    if not pool:
        return None
    return claim[: target.start()] + rng.choice(pool) + claim[target.end():]


def pairs(sources: list[dict], rng: random.Random, limit: int) -> list[dict]:
    """Minimal pairs over the window the engine retrieves for each true claim."""
    out: list[dict] = []
    foreign = [n for row in rng.sample(sources, min(3000, len(sources))) for n in names(row["premise"])]
    for row in sources:
        if len(out) >= limit:
            break
        cut = windowed(row)
        if cut is None:
            continue
        window, claim = cut["premise"], row["hypothesis"]
        elsewhere = sorted({n for n in names(row["premise"]) if n not in window})
        inside = sorted({n for n in names(window) if n not in claim})
        made = []
        outside = swap(claim, window, elsewhere or rng.sample(foreign, min(50, len(foreign))), rng)
        if outside:
            made.append((outside, "neutral", "name_outside_window" if elsewhere else "name_from_elsewhere"))
        within = swap(claim, window, inside, rng) if rng.random() < 0.5 else None
        if within:
            made.append((within, "contradiction", "name_inside_window"))
        elif rng.random() < 0.3 and (negated := negate(claim)):
            made.append((negated, "contradiction", "negation"))
        if not made:
            continue
        out.append({**row, "premise": window, "synthetic": "pair_original"})
        for hypothesis, label, kind in made:
            out.append({**row, "premise": window, "hypothesis": hypothesis, "label": label, "synthetic": kind})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("train/work/data"))
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--pairs", type=int, default=12000, help="rows of minimal pairs at most")
    parser.add_argument("--replay", type=int, default=10000, help="stage-2 rows replayed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    heldout = {json.loads(line)["id"] for line in (args.data / "heldout.jsonl").read_text().splitlines()}
    sources = [r for name in STAGE2 if name in PERMISSIVE for r in read(name)
               if r["label"] == "entailment" and r["id"] not in heldout]
    rng.shuffle(sources)
    contrast = pairs(sources, rng, args.pairs)
    stage2 = [json.loads(line) for line in (args.data / "stage2.jsonl").read_text().splitlines()]
    rows = contrast + rng.sample(stage2, min(args.replay, len(stage2)))
    rng.shuffle(rows)
    with open(args.data / "stage3.jsonl", "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    summary = {"rows": len(rows), "labels": dict(Counter(r["label"] for r in rows)),
               "pairs": dict(Counter(r.get("synthetic") for r in contrast))}
    mix_path = args.data / "mix.json"
    mix = json.loads(mix_path.read_text()) if mix_path.exists() else {}
    mix["stage3"] = summary
    mix_path.write_text(json.dumps(mix, indent=2))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
