"""Choose the paraphrase threshold (``thresholds.PARAPHRASE_SIMILARITY``) and layer on training rows.

A claim word the alignment leaves unmatched may be matched by a passage word whose token
state is similar enough. How similar is chosen here, on rows of the permissive training
sets that ``build_data.held_out`` keeps out of every training stage (the model never saw
them; no benchmark, dev or contrast data is read):

- the rows the alignment leaves short of complete by 1–3 common words only (the rows a
  paraphrase match can complete), entailment against contradiction and neutral rows;
- for each threshold, strict's verdict on them (complete, and the model's P(contradiction)
  below ``STRICT_CONTRADICTION``), and its precision;
- the bar: the precision of strict's verdict on the rows the alignment completes by lemma
  alone. A paraphrase match must be as trustworthy as a lemma match, at the threshold and
  not only on average: the chosen threshold is the lowest whose *marginal* rows (completed
  at it but not at ``MARGIN`` above it) are at least that precise, as are those of every
  threshold above it.

    python -m train.fit_paraphrase [--layers 3 4 5] [--seed 7]

Prints, per layer, the bar, each threshold's precision and recall, and the choice.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import shutil
import tempfile
from pathlib import Path

from citemark.models.pack import MANIFEST, file_sha256, load_pack
from citemark.models.runtime import PackScorer
from citemark.scoring import thresholds
from citemark.scoring.align import PARAPHRASE_GAP, align
from citemark.scoring.thresholds import STRICT_CONTRADICTION
from train.fit_strict import held_out_rows
from train.token_states import expose

PACK = Path(__file__).resolve().parents[1] / "host" / "citemark" / "models" / "packs" / "citemark-grounding-minilm"
#: The width of the band of thresholds whose rows count as marginal to its lower edge.
MARGIN = 0.10
GRID = tuple(round(0.30 + 0.02 * i, 2) for i in range(34))


def gap_rows(seed: int) -> tuple[list[dict], list[dict]]:
    """(rows the alignment completes by lemma, rows it leaves short by 1–3 common words), held-out only."""
    complete, short = [], []
    for row in held_out_rows():
        if row.get("label") not in ("entailment", "neutral", "contradiction"):
            continue
        found = align(row["hypothesis"], row["premise"], subject_context=row["premise"])
        if found.complete:
            complete.append(row)
        elif 0 < len(found.unmatched) <= PARAPHRASE_GAP and not found.unmatched_modifiers and \
                all(u.kind == "word" for u in found.unmatched):
            short.append(row)
    random.Random(seed).shuffle(short)
    return complete, short


def scorer_for(layer: int, scratch: Path) -> PackScorer:
    """The shipped pack with the given layer as its token states, in a scratch copy."""
    pack_dir = scratch / f"layer{layer}"
    shutil.copytree(PACK, pack_dir)
    manifest = json.loads((pack_dir / MANIFEST).read_text())
    model = pack_dir / manifest["parts"]["nli"]["onnx"]
    expose(model, layer)
    manifest["sha256"][model.name] = file_sha256(model)
    (pack_dir / MANIFEST).write_text(json.dumps(manifest))
    scorer = PackScorer(load_pack(pack_dir), threads=2)
    scorer.load()
    return scorer


def precision(rows: list[dict]) -> tuple[float, int]:
    return (sum(r["label"] == "entailment" for r in rows) / len(rows) if rows else 0.0), len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rows", type=int, default=900, help="at most this many short rows")
    args = parser.parse_args()
    complete, short = gap_rows(args.seed)
    short = short[: args.rows]
    with tempfile.TemporaryDirectory() as scratch:
        for layer in args.layers:
            scorer = scorer_for(layer, Path(scratch))
            contradiction = {id(r): s.contradiction for r, s in zip(
                complete + short, scorer.score([(r["premise"], r["hypothesis"]) for r in complete + short]))}
            bar, bar_n = precision([r for r in complete if contradiction[id(r)] < STRICT_CONTRADICTION])
            entailed = sum(r["label"] == "entailment" for r in short)
            read = functools.lru_cache(maxsize=None)(scorer.token_states)  # each pair read once over the grid

            print(f"layer {layer}: bar (lemma-complete rows, strict) precision {bar:.3f} of {bar_n}; "
                  f"short rows {len(short)} ({entailed} entailment)")
            passed_at: dict[float, set[int]] = {}
            for threshold in GRID:
                thresholds.PARAPHRASE_SIMILARITY = threshold
                passed = [r for r in short if contradiction[id(r)] < STRICT_CONTRADICTION and align(
                    r["hypothesis"], r["premise"], subject_context=r["premise"], paraphraser=read).complete]
                passed_at[threshold] = {id(r) for r in passed}
                p, n = precision(passed)
                recall = sum(r["label"] == "entailment" for r in passed) / max(1, entailed)
                print(f"  {threshold:.2f}: precision {p:.3f} of {n}, recall {recall:.3f}")
            by_id = {id(r): r for r in short}
            chosen = None
            for threshold in reversed(GRID):
                above = min((t for t in GRID if t >= threshold + MARGIN - 1e-9), default=None)
                if above is None:
                    continue
                p, n = precision([by_id[i] for i in passed_at[threshold] - passed_at[above]])
                if n and p < bar:
                    break
                chosen = threshold
            print(f"  chosen: {chosen} (marginal rows at least as precise as the bar from there up)")


if __name__ == "__main__":
    main()
