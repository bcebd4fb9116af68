"""The model threshold of the strict policy on training rows: the separation that informs ``STRICT_CONTRADICTION``.

Strict says "supported" when the alignment accounts for the whole claim *and* the model's
P(contradiction) of the quoted passage is below a threshold. This reads rows of the
permissive training sets that ``build_data.held_out`` keeps out of every training stage (the
model never saw them; no benchmark, dev or contrast data is read), only those whose
hypothesis the alignment accounts for completely (where only the model can still object),
and prints the threshold that best separates entailment from contradiction rows (Youden's J:
the share of entailments below it minus the share of contradictions below it).

That is not the shipped value. Here the best separation is 0.25, but at 0.25 a quarter of
true claims whose every word the passage states scored above it; ``STRICT_CONTRADICTION`` was
chosen on the development contrast set (``train/contrast_dev``) instead, as
``scoring/thresholds.py`` records: the highest value, in steps of 0.05, that keeps that set's
false claims badged supported at or below 1 %.

    python -m train.fit_strict [--model NAME] [--rows 4000] [--seed 7]

Prints the shares below a few thresholds and the best-separating one.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path

from citemark.engine import Engine
from citemark.scoring.align import align
from citemark.settings import Settings
from train.build_data import DATA, PERMISSIVE, WINDOW_CHARS, held_out

#: Sets with entailment and contradiction labels, under permissive licences.
SETS = tuple(name for name in ("mnli_dev", "snli_dev_test", "scitail_test", "cad_snli", "breaking_nli", "conjnli",
                               "taxinli_mnli", "dnc_recast") if name in PERMISSIVE)


def held_out_rows() -> Iterator[dict]:
    """The held-out rows of ``SETS`` (never in any training stage) whose premise fits one window."""
    for name in SETS:
        path = Path(DATA) / f"{name}.jsonl"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if len(row["premise"]) <= WINDOW_CHARS and held_out(row):
                yield row


def rows(count: int, seed: int) -> list[dict]:
    """A seeded draw of held-out entailment and contradiction rows, half of each."""
    found: dict[str, list[dict]] = {"entailment": [], "contradiction": []}
    for row in held_out_rows():
        if row.get("label") in found and align(row["hypothesis"], row["premise"], subject_context=row["premise"]).complete:
            found[row["label"]].append(row)
    rng = random.Random(seed)
    return [row for label in found for row in rng.sample(found[label], min(count // 2, len(found[label])))]


def youden(entailed: list[float], contradicted: list[float]) -> tuple[float, float, float]:
    """(threshold, share of entailments below it, share of contradictions below it) with the largest gap."""
    best = (0.5, 0.0, 0.0)
    for step in range(5, 100, 5):
        threshold = step / 100
        passed = sum(p < threshold for p in entailed) / len(entailed)
        leaked = sum(p < threshold for p in contradicted) / len(contradicted)
        if passed - leaked > best[1] - best[2]:
            best = (threshold, passed, leaked)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="pack name or folder; default: the installed default")
    parser.add_argument("--rows", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    engine = Engine(Settings.load(model=args.model), cache=None)
    if engine.scorer is None:
        raise SystemExit("no model pack installed: strict's threshold is for a model's P(contradiction)")
    drawn = rows(args.rows, args.seed)
    scores = engine.scorer.score([(row["premise"], row["hypothesis"]) for row in drawn])
    entailed = [s.contradiction for s, row in zip(scores, drawn, strict=True) if row["label"] == "entailment"]
    contradicted = [s.contradiction for s, row in zip(scores, drawn, strict=True) if row["label"] == "contradiction"]
    threshold, passed, leaked = youden(entailed, contradicted)
    for step in (25, 50, 75, 90):
        t = step / 100
        print(f"  below {t}: entailments {sum(p < t for p in entailed) / len(entailed):.1%}, "
              f"contradictions {sum(p < t for p in contradicted) / len(contradicted):.1%}")
    print(f"{engine.model_name}: {len(entailed)} entailment and {len(contradicted)} contradiction rows, held out of "
          f"training and completely aligned (sets {', '.join(SETS)}, seed {args.seed})")
    print(f"best separation on these rows: {threshold}: {passed:.1%} of entailments and {leaked:.1%} of contradictions below it")


if __name__ == "__main__":
    main()
