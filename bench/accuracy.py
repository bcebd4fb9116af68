"""Accuracy of citemark (and its peers, side by side) on claim/source cases with human labels.

    python -m bench.accuracy --data ../shared/bench/data/wice-dev.jsonl [--limit N] [--mode text|served]
        [--system citemark --system citesure --system cic --system floor] [--model NAME] [--perturbed]
        [--policy strict|balanced]
        --out REPORT.json

The report (JSON) has, for the first system: n, balanced_accuracy (+ 95 % bootstrap
interval), accuracy, false_supported_rate, false_supported_rate_contradicted,
confusion, seconds_per_case, model, errors {n, ids, why} (cases the engine refused,
e.g. an empty source: left out of every score), cases[{id, gold, predicted, score, evidence}];
and ``systems`` with the same summary for every system run. A short table is
printed. ``--perturbed`` adds contradicted variants of the supported cases
(bench/cases.py) to measure false-supported on contradictions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path

from bench import metrics
from bench.cases import load, perturb
from bench.systems import ERROR, SYSTEMS, Citemark


def summarise(system, cases, predictions, seconds: float) -> dict:
    """The system's scores over the cases it could judge; the rest (an empty source, say) are
    counted and listed by id under ``errors``, since scoring them as "not supported" would
    credit a refusal with a correct answer."""
    failed = [(c, p) for c, p in zip(cases, predictions) if p.label == ERROR]
    judged = [(c, p) for c, p in zip(cases, predictions) if p.label != ERROR]
    cases, predictions = [c for c, _ in judged], [p for _, p in judged]
    gold = [c.label for c in cases]
    predicted = [p.label for p in predictions]
    low, high = metrics.bootstrap_interval(gold, predicted)
    scores = [p.score if p.score is not None else 0.0 for p in predictions]
    return {
        "system": system.name,
        "note": getattr(system, "note", ""),
        "model": system.model(),
        "n": len(cases),
        "balanced_accuracy": round(metrics.balanced_accuracy(gold, predicted), 4),
        "balanced_accuracy_ci95": [round(low, 4), round(high, 4)],
        "accuracy": round(metrics.accuracy(gold, predicted), 4),
        "false_supported_rate": _round(metrics.false_supported_rate(gold, predicted)),
        "false_supported_rate_contradicted": _round(metrics.false_supported_rate(gold, predicted, "contradicted")),
        "roc_auc": _round(metrics.roc_auc(scores, [g == "supported" for g in gold])),
        "confusion": metrics.confusion(gold, predicted),
        "seconds_per_case": round(seconds / max(1, len(cases)), 4),
        "errors": {"n": len(failed), "ids": [c.id for c, _ in failed],
                   "why": dict(Counter(p.error or "" for _, p in failed))},
    }


def _round(value: float | None) -> float | None:
    return None if value is None or value != value else round(value, 4)


async def run(args: argparse.Namespace) -> dict:
    cases = []
    for path in args.data:
        cases.extend(load(path, args.limit))
    if args.perturbed:
        cases += perturb(cases)
    results = []
    for name in args.system or ["citemark", "floor"]:
        combiner = json.loads(args.combiner.read_text()) if args.combiner else None
        system = (Citemark(args.model, args.mode, combiner=combiner, extractor=args.extractor,
                           policy=args.policy) if name == "citemark"
                  else SYSTEMS[name]())
        started = time.perf_counter()
        predictions = await system.predict(cases)
        seconds = time.perf_counter() - started
        summary = summarise(system, cases, predictions, seconds)
        summary["cases"] = [
            {"id": c.id, "gold": c.label, "predicted": p.label, "score": _round(p.score), "evidence": p.evidence}
            for c, p in zip(cases, predictions)
        ]
        results.append(summary)
    report = {k: v for k, v in results[0].items()}
    report["mode"] = args.mode
    report["data"] = [str(p) for p in args.data]
    report["systems"] = [{k: v for k, v in r.items() if k != "cases"} for r in results]
    return report


def print_table(report: dict) -> None:
    print(f"{'system':48} {'n':>5} {'bal.acc':>8} {'95% CI':>15} {'false-sup':>9} {'FS contra':>9} {'AUC':>6} {'s/case':>7}")
    for s in report["systems"]:
        ci = f"{s['balanced_accuracy_ci95'][0]:.3f}–{s['balanced_accuracy_ci95'][1]:.3f}"
        fs = "-" if s["false_supported_rate"] is None else f"{s['false_supported_rate']:.3f}"
        fsc = "-" if s["false_supported_rate_contradicted"] is None else f"{s['false_supported_rate_contradicted']:.3f}"
        auc = "-" if s["roc_auc"] is None else f"{s['roc_auc']:.3f}"
        print(f"{s['system'][:48]:48} {s['n']:>5} {s['balanced_accuracy']:>8.3f} {ci:>15} {fs:>9} {fsc:>9} {auc:>6} {s['seconds_per_case']:>7.3f}")
        if s["errors"]["n"]:
            print(f"  {s['errors']['n']} cases could not be judged (listed under errors): "
                  + "; ".join(f"{why} ×{n}" for why, n in s["errors"]["why"].items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--mode", choices=["text", "served"], default="text")
    parser.add_argument("--system", action="append", choices=sorted(SYSTEMS))
    parser.add_argument("--model", help="citemark model pack (name or folder; 'none' for lexical-only)")
    parser.add_argument("--perturbed", action="store_true", help="add contradicted variants of supported cases")
    parser.add_argument("--extractor", choices=["auto", "trafilatura", "selectolax"], default="auto",
                        help="HTML extractor in served mode")
    parser.add_argument("--combiner", type=Path, help="a combiner JSON to use instead of the model's (cross-fitting)")
    parser.add_argument("--policy", choices=["strict", "balanced"], default="strict", help="citemark's verdict policy")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
