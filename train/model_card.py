"""Write MODEL_CARD.md into a pack: what it is, what data went in (with licences), how well it does, how to rebuild it.

    python -m train.model_card --pack host/citemark/models/packs/citemark-grounding-minilm [--report bench/out/report.json]

Metrics come from bench/report.py's JSON (and are copied into the manifest's
``metrics``); data from the manifest's ``training_data`` (build_data's mix.json).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _heldout_sentence(mix: dict) -> str:
    """How the rows kept out of training were chosen (builds before ``heldout_by`` drew them at random)."""
    if mix.get("heldout_by") == "premise hash":
        return ("3 % of every set was held out, chosen by a hash of the premise: no held-out premise was trained on, "
                "and none was used for synthetic rows.")
    return ("3 % of every set was held out, drawn at random per row (an earlier build_data): 44 % of those rows share "
            "their premise with a training row, so held-out scores on that split run high. The benchmark scores below "
            "are unaffected.")


def _training_sentence(runs: list[dict]) -> str:
    """The recipe of the weights (from gpu_trip.py unpack): one run, or the average of several."""

    def stage(settings: dict) -> str:
        epochs = settings["epochs"]
        return f"{epochs} epoch{'' if epochs == 1 else 's'} at lr {settings['lr']:g}, {settings['max_length']} tokens"

    described = "; ".join(f"stage 1 {stage(run['stage1'])}, then stage 2 {stage(run['stage2'])}, seed "
                          f"{run['stage2']['seed']} (on {run['device']})" for run in runs)
    if len(runs) == 1:
        return f"Training: {described}."
    return f"Training: the weights are the average of {len(runs)} runs: {described}."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", type=Path, required=True)
    parser.add_argument("--report", type=Path, default=HERE.parent / "bench" / "out" / "report.json")
    args = parser.parse_args()
    manifest_path = args.pack / "citemark-model.json"
    manifest = json.loads(manifest_path.read_text())
    mix = manifest.get("training_data", {})
    metrics = {}
    if args.report.exists():
        report = json.loads(args.report.read_text())
        for name, rows in report["tables"].items():
            ours = rows[0]
            metrics[name] = {"balanced_accuracy": ours["balanced_accuracy"], "ci95": ours["balanced_accuracy_ci95"],
                             "false_supported_rate": ours["false_supported_rate"], "roc_auc": ours["roc_auc"],
                             "seconds_per_case": ours["seconds_per_case"]}
        if report.get("perturbation"):
            metrics["WiCE-dev perturbations"] = {"false_supported_rate": report["perturbation"][0]["false_supported_rate"],
                                                "n": report["perturbation"][0]["n"]}
        for row in report.get("crossfit", []):
            metrics[f"{row['test_on']} (combiner fitted on {row['fit_on']} only)"] = {
                "balanced_accuracy": row["balanced_accuracy"], "ci95": row["balanced_accuracy_ci95"],
                "false_supported_rate": row["false_supported_rate"], "roc_auc": row["roc_auc"],
                "seconds_per_case": row["seconds_per_case"]}
        for shipped in report.get("cross_validated", [])[:1]:  # the first scorer is the shipped model
            for name, value in shipped["balanced_accuracy"].items():
                metrics[f"{name} (combiner cross-validated: 5 folds by page)"] = {"balanced_accuracy_cross_validated": value}
        manifest["metrics"] = metrics
        manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    lines = [
        f"# {manifest['name']} {manifest.get('version', '')}",
        "",
        manifest.get("description", ""),
        "",
        f"- **Licence:** {manifest.get('licence')} (weights); base encoder sentence-transformers/all-MiniLM-L6-v2, Apache-2.0.",
        "- **Architecture:** MiniLM-L6-H384 (BERT, uncased, 22 M parameters) + mean pooling + a 3-way head "
        "(entailment / neutral / contradiction); int8 ONNX (dynamic quantisation, per-channel, reduce_range); a second output, "
        "`token_states`, gives layer 4's token states for the alignment's paraphrase matches.",
        "- **Input:** `[CLS] claim [SEP] evidence [SEP]`, up to 256 tokens; evidence is a 1–3 sentence window "
        "chosen by citemark's retrieval.",
        "- **Output use:** citemark combines P(entailment) and P(contradiction) with word, number and name coverage "
        "in a logistic combiner (`combiner` in the manifest) into P(supported). The combiner's dozen or so weights and "
        f"threshold were fitted on {manifest.get('combiner', {}).get('fitted_on', '?')}; the network's weights never "
        "saw benchmark data. The metrics below are those of the last full bench/report.py run (its date is in "
        "bench/REPORT.md), with the combiner it had.",
        "",
        "## Training data",
        "",
        "Only sets with a permissive licence in ../shared/train/SOURCES.md. Rows per stage:",
        "",
        "| set | licence | stage 1 (general NLI) | stage 2 (grounding) | binding rows |",
        "|---|---|---:|---:|---:|",
    ]
    for name, entry in sorted(mix.get("sets", {}).items()):
        lines.append(f"| {name} | {entry.get('licence', '')} | {entry.get('stage1', '')} | {entry.get('stage2', '')} "
                     f"| {entry.get('binding', '')} |")
    synthetic = mix.get("synthetic", {})
    if synthetic:
        lines += ["", "Synthetic rows (stage 2), made from the premises above: "
                  + ", ".join(f"{kind} {count}" for kind, count in synthetic.items()) + "."]
    lines += ["", f"Stage 1: {mix.get('stage1', {}).get('rows', '?')} rows; stage 2: {mix.get('stage2', {}).get('rows', '?')} "
              "rows (including synthetic rows and a replay of stage-1 rows). " + _heldout_sentence(mix) + " No row of "
              "the benchmark data (../shared/bench) was used; the training sets were de-duplicated against it upstream."]
    if manifest.get("training"):
        lines += ["", _training_sentence(manifest["training"])]
    if metrics:
        lines += ["", "## How well it does (bench/REPORT.md)", "", "| data | balanced accuracy | 95 % CI | false-supported | AUC |",
                  "|---|---|---|---|---|"]
        for name, m in metrics.items():
            if "balanced_accuracy_cross_validated" in m:
                lines.append(f"| {name} | {m['balanced_accuracy_cross_validated']:.1%} | | | |")
            elif "balanced_accuracy" in m:
                lines.append(f"| {name} | {m['balanced_accuracy']:.1%} | {m['ci95'][0]:.1%}–{m['ci95'][1]:.1%} "
                             f"| {m['false_supported_rate']:.1%} | {m['roc_auc']:.3f} |")
            else:
                lines.append(f"| {name} (contradicted claims, n={m['n']}) | | | {m['false_supported_rate']:.1%} | |")
    where = ' (these weights: "On a lent GPU", gpu_trip.py sweep and unpack)' if manifest.get("training") else ""
    lines += ["", "## Reproduce", "", f"See train/README.md{where}: build_data → train (two stages) → export → "
              "fit_combiner → bench/report.py. Each step is one command; training resumes from its last checkpoint.", "",
              "## Limits", "",
              "English only. Small model: it misses paraphrases that need world knowledge and long chains of reasoning; "
              "citemark's number and name guards and the contradiction threshold keep it from calling a false claim "
              "supported more than they help it find support. int8 activations are quantised per batch, so the pack "
              "runs one pair at a time (`batch_size: 1`): a claim gets the same score whatever else is in the request.", ""]
    (args.pack / "MODEL_CARD.md").write_text("\n".join(lines))
    print(f"wrote {args.pack / 'MODEL_CARD.md'}")


if __name__ == "__main__":
    main()
