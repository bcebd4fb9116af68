"""Fit the combiner (P(supported) from model scores + cheap features): a logistic regression.

Step 4 of train/README.md. Features are computed by
``citemark.scoring.judge.gather`` — exactly what the engine computes. Two
sources of rows:

- ``--dev FILE`` (repeatable; what the shipped pack and combiners.json use): the
  benchmark dev sets, each set weighted the same. About a dozen weights are fitted,
  so this is tuning, not training; ``bench/report.py`` cross-fits (fit on one dev
  set, test on the other) to show how it transfers.
- no ``--dev``: rows from the permissive grounding sets (whole premises, windowed
  by the engine's own retrieval; never ../shared/bench), plus number / entity /
  negation swaps of their supported claims. With ``--held-out``, only the rows that
  ``build_data.held_out`` keeps out of every training stage: no benchmark data is
  fitted on, and the model is read on claims it never saw. The dev sets then only
  measure.

The threshold is chosen on the final verdicts (``verdict.decide``, guards
included), averaged over the dev sets: the highest within ``TIE`` of the best.
The same comparison decides ``refutes`` (may the model's confident contradiction
of the quoted passage overrule word overlap?): on when it costs less than ``TIE``,
since it only ever takes "supported" away.

    python -m train.fit_combiner --model none --dev ../shared/bench/data/wice-dev.jsonl --dev ../shared/bench/data/attrbench-dev.jsonl
    python -m train.fit_combiner --model aegis-pair --dev …      # → scoring/combiners.json
    python -m train.fit_combiner --model path/to/pack --dev …    # → that pack's manifest
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

from bench.cases import load, source_text
from bench.metrics import balanced_accuracy
from citemark.models import registry
from citemark.models.pack import MANIFEST
from citemark.scoring.binding import Binding
from citemark.scoring.calibrate import FEATURES_LEXICAL, FEATURES_MODEL, Combiner, fit
from citemark.scoring.features import Measurement
from citemark.scoring.guards import GuardResult
from citemark.scoring.judge import gather
from citemark.scoring.nli import BatchingScorer
from citemark.scoring.retrieve import EvidenceIndex
from citemark.scoring.verdict import decide
from citemark.settings import Settings
from citemark.types import Document, Label
from train.build_data import PERMISSIVE, held_out, negate, read, swap_entity, swap_number

HERE = Path(__file__).resolve().parent

COMBINERS = HERE.parent / "host" / "citemark" / "scoring" / "combiners.json"
SETS = ["expertqa", "factcheck_gpt", "ragtruth_subset", "wice_nst_train", "scifact_rte", "dialfact",
        "summedits", "fib", "xsumfaith", "factcg_cg2c", "fever_symmetric"]


def rows_for_fitting(count: int, seed: int, heldout_ids: set[str], *, held: bool = False) -> list[dict]:
    """Rows of the permissive grounding sets, each set balanced, plus swaps of supported claims.
    ``held``: only the rows ``build_data.held_out`` keeps out of every training stage, so that
    the combiner reads the model on claims it never trained on."""
    rng = random.Random(seed)
    per_set = max(50, count // len(SETS))
    chosen: list[dict] = []
    for name in SETS:
        assert name in PERMISSIVE
        rows = [r for r in read(name) if held_out(r)] if held else [r for r in read(name) if r["id"] not in heldout_ids]
        positives = [r for r in rows if r["label"] == "entailment"]
        negatives = [r for r in rows if r["label"] != "entailment"]
        rng.shuffle(positives)
        rng.shuffle(negatives)
        half = per_set // 2
        chosen += positives[:half] + negatives[:half]
        for row in positives[half : half + half // 3]:  # swaps: supported claims made false
            swapped = swap_number(row["hypothesis"], row["premise"], rng) or swap_entity(
                row["hypothesis"], row["premise"], rng) or negate(row["hypothesis"])
            if swapped:
                chosen.append({**row, "hypothesis": swapped, "label": "contradiction", "synthetic": True})
    rng.shuffle(chosen)
    return chosen


def dev_rows(paths: list[Path]) -> list[dict]:
    """Benchmark cases as fitting rows (with --dev, for cross-fitting; gpu_trip.py takes their windows)."""
    return [{"premise": source_text(c), "hypothesis": c.claim, "label": "entailment" if c.label == "supported" else "not",
             "group": path.stem} for path in paths for c in load(path)]


def contrast_dev_rows() -> list[dict]:
    """The development contrast set (``train/contrast_dev/``: written for citemark from other texts than
    the suite, never ../shared/bench) as fitting rows: claims as AI answers write them, against whole
    pages, its true kinds supported and its false kinds not."""
    from train.contrast_dev import PARTS, TRUE_KINDS, claims_and_texts

    return [{"premise": text, "hypothesis": claim["claim"],
             "label": "entailment" if claim["kind"] in TRUE_KINDS else "not", "group": "contrast_dev"}
            for claim, text in claims_and_texts(list(PARTS))]


def featurise(rows: list[dict], scorer, k: int) -> list[dict | None]:
    """Per row: the combiner's features and what else the verdict rules read (JSON-ready), measured
    by ``scoring.judge.gather``, the engine's own sequence, with the model batched across rows."""
    return asyncio.run(_featurise(rows, scorer, k))


async def _featurise(rows: list[dict], scorer, k: int) -> list[dict | None]:
    batching = BatchingScorer(scorer) if scorer is not None else None

    async def one(row: dict) -> dict | None:
        document = Document(url="", text=row["premise"], kind="text")
        gathered = await gather(row["hypothesis"], document, EvidenceIndex(row["premise"]), batching, windows=k)
        if gathered.evidence is None:
            return None
        rules = dataclasses.asdict(gathered.evidence.measurement(0.0, 1.0, refutes=True))
        for name in ("support", "threshold", "retracted", "paywalled", "has_claim"):
            rules.pop(name)
        return {"features": gathered.evidence.features, "rules": rules}

    return list(await asyncio.gather(*(one(row) for row in rows)))


def measurement(record: dict, refutes: bool) -> Measurement:
    """A fitting row's ``Measurement`` (support and threshold still to be set), rebuilt from its JSON record."""
    rules = dict(record["rules"])
    if not refutes:
        rules["evidence_entailment"] = rules["evidence_contradiction"] = None
    guards = {name: tuple(v) if isinstance(v, list) else v for name, v in rules["guards"].items()}
    guards["binding"] = Binding(**{name: tuple(v) for name, v in guards.get("binding", {}).items()})
    rules["guards"] = GuardResult(**guards)
    rules["missing_terms"] = tuple(rules["missing_terms"])
    return Measurement(support=0.0, threshold=1.0, **rules)


def verdict_is_supported(measured: Measurement, support: float, threshold: float) -> bool:
    """The engine's final call for a fitting row: the combiner *and* the guards of ``verdict.decide``."""
    return decide(dataclasses.replace(measured, support=support, threshold=threshold), "balanced").label is Label.SUPPORTED


def cached_features(args: argparse.Namespace, pack, rows: list[dict], scorer, k: int) -> list:  # noqa: ANN001
    """Records of --dev rows are kept per (model, file, code, k) in train/work/features, so refits are instant."""
    if not args.dev:
        return featurise(rows, scorer, k)
    swaps = [r for r in rows if r.get("group") == "swaps"]
    folder = HERE / "work" / "features"
    folder.mkdir(parents=True, exist_ok=True)
    result = []
    for path in args.dev:
        chosen = [r for r in rows if r["group"] == path.stem]
        stamp = (pack.manifest.get("sha256", {}).get("model.onnx", pack.name)[:12] if pack else "lexical") + _code_stamp()
        cache = folder / f"{path.stem}-{stamp}-k{k}.json"
        if cache.exists():
            result += json.loads(cache.read_text())
            continue
        records = featurise(chosen, scorer, k)
        cache.write_text(json.dumps(records))
        result += records
    return result + (featurise(swaps, scorer, k) if swaps else [])


def _code_stamp() -> str:
    """Changes when the feature or verdict code changes, so cached records are never stale."""
    import hashlib

    package = HERE.parent / "host" / "citemark"
    digest = hashlib.sha1()
    for name in ("features.py", "guards.py", "retrieve.py", "lexical.py", "segment.py", "binding", "quantities.py",
                 "comparisons.py", "relations.py", "tables.py", "words.py", "thresholds.py", "verdict.py"):
        path = package / "scoring" / name
        for file in sorted(path.glob("*.py")) if path.is_dir() else [path]:  # binding/ is a package
            digest.update(file.read_bytes())
    return "-" + digest.hexdigest()[:8]


#: Thresholds this close to the best balanced accuracy count as equally good; the highest wins.
#: One point is well inside the dev sets' 95 % intervals (±2.5–4.5 pt), so accuracy cannot tell
#: such thresholds apart, and the higher one calls fewer false claims supported.
TIE = 0.01


def best_threshold(records: list[dict], probabilities: list[float], labels: list[bool], groups: list[str],
                   refutes: bool = False) -> tuple[float, float]:
    """The threshold whose final verdicts (guards included) have the best balanced accuracy,
    averaged over ``groups`` (each dev set counts the same), and that accuracy. Among thresholds
    within ``TIE`` of the best, the highest: at equal accuracy, fewer false claims badged supported."""
    measured = [measurement(r, refutes) for r in records]
    results = []
    for threshold in [i / 100 for i in range(5, 96)]:
        scores = []
        for group in sorted(set(groups)):
            chosen = [(verdict_is_supported(m, p, threshold), y)
                      for m, p, y, g in zip(measured, probabilities, labels, groups) if g == group]
            pos = sum(y for _, y in chosen)
            neg = len(chosen) - pos
            if not pos or not neg:
                continue
            tp = sum(said and y for said, y in chosen)
            tn = sum(not said and not y for said, y in chosen)
            scores.append((tp / pos + tn / neg) / 2)
        results.append((threshold, sum(scores) / len(scores)))
    best = max(score for _, score in results)
    return max((threshold, score) for threshold, score in results if score >= best - TIE)


def fit_combiner(kept: list[tuple[dict, bool, str]], names: tuple[str, ...], l2: float, *, refutable: bool,
                 fitted_on: str = "", log=lambda *_: None) -> Combiner:  # noqa: ANN001
    """The logistic weights, then the threshold and ``refutes`` on the final verdicts.

    ``kept``: (record, supported?, group) per row; every group counts the same, the
    training-set swaps half as much, and only the dev groups choose the threshold.
    """
    sizes = Counter(g for *_, g in kept)
    share = {g: 0.5 if g == "swaps" else 1.0 for g in sizes}
    weights, bias = fit([r["features"] for r, _, _ in kept], [y for _, y, _ in kept], names, l2=l2,
                        sample_weights=[share[g] / sizes[g] for *_, g in kept])
    combiner = Combiner(tuple(names), weights, bias, 0.5, fitted_on)
    scored = [(r, combiner.probability(r["features"]), y, g) for r, y, g in kept if g != "swaps"]
    columns = list(map(list, zip(*scored)))
    threshold, accuracy = best_threshold(*columns)
    refutes = False
    if refutable:
        with_refutes = best_threshold(*columns, refutes=True)
        refutes = with_refutes[1] >= accuracy - TIE
        log(f"model refutes overlap: {with_refutes[1]:.4f} against {accuracy:.4f} → {'on' if refutes else 'off'}")
        threshold = with_refutes[0] if refutes else threshold
    return Combiner(combiner.features, combiner.weights, combiner.bias, threshold, fitted_on, refutes)


def cross_validate(records: list, rows: list[dict], names: tuple[str, ...], l2: float, *, refutable: bool,
                   folds: int = 5, draws: tuple[int, ...] = tuple(range(1, 11))) -> dict:
    """Balanced accuracy of the whole fitting procedure on rows it did not see, per dev set.

    The rows are dealt into ``folds`` by page (claims about one page stay together); each
    fold is judged by a combiner fitted, threshold and all, on the others. Averaged over
    ``draws`` deals. Unlike cross-fitting (one dev set against the other), this estimates
    the shipped procedure: fitted on both sets, used on new claims like theirs.
    """
    groups = sorted({r["group"] for r in rows} - {"swaps"})
    scores: dict[str, list[float]] = {g: [] for g in groups}
    pages = sorted({r["premise"] for r in rows})
    for draw in draws:
        dealt = pages[:]
        random.Random(draw).shuffle(dealt)
        fold_of = {page: i % folds for i, page in enumerate(dealt)}
        said = [False] * len(rows)
        for fold in range(folds):
            kept = [(rec, r["label"] == "entailment", r["group"]) for rec, r in zip(records, rows)
                    if rec and fold_of[r["premise"]] != fold]
            combiner = fit_combiner(kept, names, l2, refutable=refutable)
            for i, (rec, r) in enumerate(zip(records, rows)):
                if rec and fold_of[r["premise"]] == fold:
                    said[i] = verdict_is_supported(measurement(rec, combiner.refutes),
                                                   combiner.probability(rec["features"]), combiner.threshold)
        for group in groups:
            gold = ["supported" if r["label"] == "entailment" else "not" for r in rows if r["group"] == group]
            predicted = ["supported" if s else "not" for s, r in zip(said, rows) if r["group"] == group]
            scores[group].append(balanced_accuracy(gold, predicted))
    return {"folds": folds, "draws": len(draws), "l2": l2,
            "balanced_accuracy": {g: round(sum(v) / len(v), 4) for g, v in scores.items()},
            "per_draw": {g: [round(x, 4) for x in v] for g, v in scores.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="pack name or folder, or 'none' for lexical-only")
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--heldout", type=Path, default=HERE / "work" / "data" / "heldout.jsonl")
    parser.add_argument("--dev", type=Path, action="append",
                        help="fit on these benchmark files (cross-fitting: fit on one, evaluate on the other)")
    parser.add_argument("--out", type=Path, help="write the combiner JSON here instead of into the pack / combiners.json")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty of the logistic fit")
    parser.add_argument("--held-out", action="store_true",
                        help="without --dev: fit on the training sets' held-out rows only (never trained on; "
                             "what the shipped combiners use, so that no benchmark data is fitted on)")
    parser.add_argument("--contrast-dev", action="store_true",
                        help="without --dev: also fit on the development contrast set (train/contrast_dev/), "
                             "which then chooses the threshold beside the training rows")
    parser.add_argument("--cross-validate", action="store_true",
                        help="with --dev: estimate the fitted combiner's balanced accuracy on unseen claims (5 folds by page)")
    parser.add_argument("--swaps", type=int, default=0,
                        help="with --dev: add this many number/entity/negation swaps of supported training claims "
                             "(whole documents as premises), so the combiner learns what a changed detail looks like")
    args = parser.parse_args()
    if args.cross_validate and not args.dev:
        parser.error("--cross-validate needs the dev sets (--dev FILE, repeated)")
    if args.contrast_dev and args.dev:
        parser.error("--contrast-dev fits on training material; it does not mix with the dev sets (--dev)")

    settings = Settings(model=args.model)
    pack = registry.resolve(settings)
    scorer = None
    if pack is not None:
        from citemark.models.runtime import PackScorer

        scorer = PackScorer(pack)
    heldout_ids = set()
    if args.heldout.exists():
        heldout_ids = {json.loads(line)["id"] for line in args.heldout.read_text().splitlines() if '"id"' in line}
    rows = rows_for_fitting(args.rows, args.seed, heldout_ids, held=args.held_out) if not args.dev else dev_rows(args.dev)
    if args.contrast_dev:
        rows += contrast_dev_rows()
    if args.dev and args.swaps:
        swaps = [r for r in rows_for_fitting(args.swaps * 4, args.seed, heldout_ids) if r.get("synthetic")][: args.swaps]
        rows += [{**r, "group": "swaps"} for r in swaps]
    print(f"featurising {len(rows)} rows with {pack.name if pack else 'no model'}…", flush=True)
    records = cached_features(args, pack, rows, scorer, settings.evidence_windows)
    names = FEATURES_MODEL if pack else FEATURES_LEXICAL
    if args.cross_validate:
        result = cross_validate(records, rows, names, args.l2, refutable=pack is not None)
        print(json.dumps(result, indent=2))
        if args.out:
            args.out.write_text(json.dumps(result, indent=2) + "\n")
        return
    kept = [(record, r["label"] == "entailment", r.get("group", "")) for record, r in zip(records, rows) if record]
    source = ", ".join(p.stem for p in args.dev) if args.dev else (
        f"held-out rows of {', '.join(SETS)} (+ swaps)" if args.held_out else f"{', '.join(SETS)} (+ swaps)")
    if args.contrast_dev:
        from train.contrast_dev import PARTS

        source += f" and the development contrast set ({', '.join(PARTS)})"
    combiner = fit_combiner(kept, names, args.l2, refutable=pack is not None, fitted_on=f"{len(kept)} rows of {source}",
                            log=print)
    print(json.dumps(combiner.to_dict(), indent=2))
    if args.out:
        args.out.write_text(json.dumps(combiner.to_dict(), indent=2) + "\n")
        print(f"written into {args.out}")
        return
    if pack is not None and pack.root is not None and pack.root.is_dir() and (pack.root / MANIFEST).exists():
        manifest = json.loads((pack.root / MANIFEST).read_text())
        manifest["combiner"] = combiner.to_dict()
        (pack.root / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        print(f"written into {pack.root / MANIFEST}")
    else:
        table = json.loads(COMBINERS.read_text()) if COMBINERS.exists() else {}
        table["lexical" if pack is None else pack.name] = combiner.to_dict()
        COMBINERS.write_text(json.dumps(table, indent=2) + "\n")
        print(f"written into {COMBINERS}")


if __name__ == "__main__":
    main()
