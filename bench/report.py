"""Regenerate bench/REPORT.md: every checker side by side on the dev sets, in one run.

    python -m bench.report [--quick] [--only contrast]

Runs bench/accuracy.py for citemark with its shipped model, with the aegis pair
(when installed) and lexical-only, and for the peers citesure (overlap tiers),
citation-integrity-check, grounded-check and contexttrace (lexical), plus the
trivial floor, on WiCE-dev and AttributionBench-dev; then the WiCE-dev
perturbation set (contradicted claims, per kind, and for the shipped model over
eight generator seeds); then the contrast suite (bench/contrast_suite.py:
authored pages, true and false claims per kind); then the cross-fitted combiner
(fitted on one dev set, tested on the other) and the cross-validated one (5 folds
by page); then bench/speed.py. ``--quick`` runs 150 cases per dev set.
``--only contrast`` runs the contrast suite alone and replaces its section of
bench/REPORT.md, leaving the rest as it was; ``--only trust`` does the same for the
section "Trust: strict and balanced" (bench/trust.py: both verdict policies on the
three contrast sets and the dev sets).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from bench import accuracy, contrast_suite, metrics, trust
from bench.cases import DATA, KINDS, SEED, load, perturb
from bench.systems import SYSTEMS, Citemark, citemark_models

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "bench" / "out"
DATASETS = {"WiCE-dev": DATA / "wice-dev.jsonl", "AttributionBench-dev": DATA / "attrbench-dev.jsonl"}


def run_systems(cases, systems, by_kind: bool = False) -> list[dict]:
    """One summary per system; ``by_kind`` adds the false-supported rate per perturbation kind."""
    results = []
    for system in systems:
        started = time.perf_counter()
        predictions = asyncio.run(system.predict(cases))
        summary = accuracy.summarise(system, cases, predictions, time.perf_counter() - started)
        if by_kind:
            summary["by_kind"] = {}
            for kind in KINDS:
                chosen = [(c.label, p.label) for c, p in zip(cases, predictions) if _kind(c) == kind]
                rate = metrics.false_supported_rate(*zip(*chosen)) if chosen else None
                summary["by_kind"][kind] = None if rate is None else round(rate, 4)
        results.append(summary)
        print(f"  {summary['system']}: {summary['balanced_accuracy']:.3f}", flush=True)
    return results


def citemark_systems(shipped: str | None) -> list:
    return [Citemark(model, "text") for model in citemark_models(shipped)]


def peers() -> list:
    """The peers from PyPI with their own defaults, then the trivial floor (last)."""
    return [SYSTEMS[name]() for name in contrast_suite.PEERS] + [SYSTEMS["floor"]()]


def row(s: dict) -> str:
    low, high = s["balanced_accuracy_ci95"]
    fs = "–" if s["false_supported_rate"] is None else f"{s['false_supported_rate']:.1%}"
    auc = "–" if s["roc_auc"] is None else f"{s['roc_auc']:.3f}"
    return (f"| {s['system']} | {s['balanced_accuracy']:.1%} | {low:.1%}–{high:.1%} | {fs} | {auc} "
            f"| {s['seconds_per_case'] * 1000:.0f} ms |")


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--model", help="the shipped model (default: what a fresh install resolves)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--only", choices=["contrast", "trust"], help="run only this part and replace its section of REPORT.md")
    parser.add_argument("--reuse", action="store_true",
                        help="with --only trust: rewrite the section from bench/out/trust.json without measuring again")
    args = parser.parse_args()
    limit = 150 if args.quick else None
    OUT.mkdir(parents=True, exist_ok=True)
    if args.only == "contrast":
        return only_contrast(args.model)
    if args.only == "trust":
        return only_trust(args.model, reuse=args.reuse)
    tables: dict[str, list[dict]] = {}
    for name, path in DATASETS.items():
        print(f"{name}…", flush=True)
        cases = load(path, limit)
        tables[name] = run_systems(cases, citemark_systems(args.model) + peers())
    wice = load(DATASETS["WiCE-dev"], limit)
    print("WiCE-dev perturbations…", flush=True)
    perturbed = perturb(wice)
    kinds = {kind: sum(_kind(c) == kind for c in perturbed) for kind in KINDS}
    perturbation = run_systems(perturbed, citemark_systems(args.model) + peers()[:-1], by_kind=True)
    print("  the shipped model over generator seeds 1–8…", flush=True)
    seeds = seed_spread(Citemark(args.model, "text"), wice)
    contrast = run_contrast(args.model)
    print("cross-fitting…", flush=True)
    crossfit = cross_fit(args.model, limit)
    print("cross-validating the combiners…", flush=True)
    validated = cross_validated(citemark_models(args.model))
    print("served pages, per extractor…", flush=True)
    served = []
    for extractor in ("trafilatura", "selectolax"):
        served += run_systems(wice, [Citemark(args.model, "served", extractor=extractor)])
    speed = None
    if not args.skip_speed:
        subprocess.run([sys.executable, "-m", "bench.speed", "--out", str(OUT / "speed.json")]
                       + (["--model", args.model] if args.model else []), check=True, cwd=ROOT)
        speed = json.loads((OUT / "speed.json").read_text())
    (OUT / "report.json").write_text(json.dumps({"tables": tables, "perturbation": perturbation, "crossfit": crossfit,
                                                 "served": served, "speed": speed, "perturbation_seeds": seeds, "cross_validated": validated}, indent=2))
    write_markdown(tables, perturbation, kinds, seeds, crossfit, validated, served, speed, limit,
                   contrast_suite.markdown(contrast) if contrast else None)
    return 0


def run_contrast(model: str | None) -> dict | None:
    """The contrast suite (bench/out/contrast.json); None, said aloud, where the tree has no suite."""
    if not (contrast_suite.SUITE / "claims.jsonl").is_file():
        print(f"no contrast suite at {contrast_suite.SUITE.relative_to(ROOT)}: its section is left out", flush=True)
        return None
    print("contrast suite…", flush=True)
    report = contrast_suite.run(model, out=OUT / "contrast.json")
    contrast_suite.print_table(report)
    return report


def only_contrast(model: str | None) -> int:
    """Rerun the contrast suite and put its section into the REPORT.md there is."""
    report = run_contrast(model)
    if report is None:
        return 1
    path = ROOT / "bench" / "REPORT.md"
    text = path.read_text() if path.exists() else "# citemark accuracy and speed report\n"
    path.write_text(splice_section(text, contrast_suite.markdown(report)))
    print(f"wrote the contrast section of {path.relative_to(ROOT)}")
    return 0


def only_trust(model: str | None, reuse: bool = False) -> int:
    """Measure both verdict policies (bench/trust.py), or with ``reuse`` read the last measurement, and
    put the trust section into the REPORT.md there is, just before the cross-fit section."""
    report = json.loads(trust.OUT.read_text()) if reuse else trust.run(model)
    path = ROOT / "bench" / "REPORT.md"
    text = path.read_text() if path.exists() else "# citemark accuracy and speed report\n"
    path.write_text(splice_section(text, trust.markdown(report), TRUST_HEADING, CONTRAST_BEFORE))
    print(trust.markdown(report))
    print(f"wrote the trust section of {path.relative_to(ROOT)}")
    return 0


CONTRAST_HEADING = "## Contrast suite"
TRUST_HEADING = "## Trust: strict and balanced"
CONTRAST_BEFORE = "## Cross-fitted combiner"


def splice_section(text: str, section: str, heading: str = CONTRAST_HEADING, before: str = CONTRAST_BEFORE) -> str:
    """``text`` with its section under ``heading`` (from the heading to the next ``## ``) replaced by
    ``section``; where it has none, put in before the section headed ``before``, or at the end."""
    lines = text.splitlines(keepends=True)
    new = section if section.endswith("\n") else section + "\n"
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        at = next((i for i, line in enumerate(lines) if line.startswith(before)), None)
        if at is None:
            return text.rstrip("\n") + "\n\n" + new
        return "".join(lines[:at]) + new + "\n" + "".join(lines[at:])
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    tail = "".join(lines[end:])
    return "".join(lines[:start]) + new + ("\n" + tail if tail else "")


def cross_validated(models: list[str | None]) -> list[dict]:
    """Each citemark scorer's combiner judged on claims it was not fitted on (train/fit_combiner.py
    --cross-validate: 5 folds by page, 10 deals): the estimate for new claims like the dev sets'."""
    results = []
    for model in models:
        path = OUT / f"cross-validated-{model or 'shipped'}.json"
        command = [sys.executable, "-m", "train.fit_combiner", "--model", model or "", "--cross-validate",
                   "--out", str(path)] + [arg for p in DATASETS.values() for arg in ("--dev", str(p))]
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        found = json.loads(path.read_text())
        results.append({"model": model, **{key: {name: found[key][p.stem] for name, p in DATASETS.items()}
                                           for key in ("balanced_accuracy", "per_draw")}})
    return results


def seed_spread(system, cases, seeds=range(1, 9)) -> list[dict]:
    """False-supported of one system on the perturbation sets of several generator seeds.

    One seed's set is a draw: which name replaces which, by how much a number moves.
    The spread over seeds says how much of the table's rate is that draw.
    """
    out = []
    for seed in seeds:
        perturbed = perturb(cases, seed=seed)
        predictions = asyncio.run(system.predict(perturbed))
        passed = [_kind(c) for c, p in zip(perturbed, predictions) if p.label == "supported"]
        out.append({"seed": seed, "n": len(perturbed), "supported": len(passed),
                    "n_entity": sum(_kind(c) == "entity" for c in perturbed), "supported_entity": passed.count("entity")})
    return out


def _kind(case) -> str:
    return case.id.rsplit("-", 1)[1]


def cross_fit(model: str | None, limit: int | None) -> list[dict]:
    """Combiner fitted on one dev set (train/fit_combiner.py --dev), tested on the other."""
    results = []
    names = list(DATASETS)
    for fit_on, test_on in ((names[0], names[1]), (names[1], names[0])):
        combiner_path = OUT / f"combiner-fit-on-{fit_on}.json"
        command = [sys.executable, "-m", "train.fit_combiner", "--model", model or "", "--dev",
                   str(DATASETS[fit_on]), "--out", str(combiner_path)]
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        combiner = json.loads(combiner_path.read_text())
        cases = load(DATASETS[test_on], limit)
        system = Citemark(model, "text", combiner=combiner)
        started = time.perf_counter()
        predictions = asyncio.run(system.predict(cases))
        summary = accuracy.summarise(system, cases, predictions, time.perf_counter() - started)
        summary.update({"fit_on": fit_on, "test_on": test_on})
        results.append(summary)
    return results


def write_markdown(tables, perturbation, kinds, seeds, crossfit, validated, served, speed, limit, contrast=None) -> None:
    shipped = tables["WiCE-dev"][0]
    lines = [
        "# citemark accuracy and speed report",
        "",
        f"Generated by `python -m bench.report` at commit `{commit()}` on {time.strftime('%Y-%m-%d')}, "
        f"on this machine ({__import__('os').cpu_count()} CPU cores). Model of a fresh install: **{shipped['model']}**."
        + (f" Quick run: {limit} cases per set." if limit else ""),
        "",
        "Binary task: *supported* vs *not supported* (partial, unsupported and contradicted are all \"not\"). "
        "Balanced accuracy = mean recall of the two classes (the trivial floor is 50 %); 95 % intervals by "
        "bootstrap over cases (1000 resamples); false-supported = share of not-supported cases badged "
        "supported; AUC = ROC AUC of the system's score. Time is wall-clock per case with the model warm "
        "(citemark: 16 cases in flight, batched).",
        "",
        "**What was tuned on what.** citemark's retrieval weights were chosen on WiCE-dev gold sentences "
        "(recall of a full gold set in the top windows). The shipped model's weights saw only the training sets "
        "(`train/`, never `../shared/bench`). The combiners that turn model probabilities and word, number and "
        "name coverage into P(supported) (8–12 logistic weights per scorer: the shipped model's in its "
        "manifest, the lexical and aegis-pair ones in `scoring/combiners.json`) were fitted, weights, threshold and "
        "all, on training material only: the held-out rows of the permissive training sets (never trained on) and "
        "the development contrast set `train/contrast_dev` (`python -m train.fit_combiner --model … --held-out "
        "--contrast-dev`); each combiner's threshold is the highest within 1 pt of the best mean balanced accuracy "
        "of the final verdicts on those rows. Nothing is fitted on the two dev sets below, so their tables are "
        "out of sample; the rule thresholds in `scoring/thresholds.py` say beside each what chose it. The cross-fit "
        "table refits the combiner on one dev set and tests it on the other, for comparison.",
        "",
    ]
    for name, results in tables.items():
        lines += [f"## {name} ({results[0]['n']} cases)", "",
                  "| system | balanced accuracy | 95 % CI | false-supported | AUC | time/case |", "|---|---|---|---|---|---|"]
        lines += [row(s) for s in results]
        notes = [f"- {s['system']}: {s['note']}" for s in results if s.get("note")]
        lines += [""] + notes + [""]
    total = sum(kinds.values())
    lines += [
        f"## Contradicted claims: WiCE-dev perturbation set ({total} cases)", "",
        "Each supported WiCE-dev claim turned into every contradiction of its page that applies to it: "
        + ", ".join(f"{kinds[k]} {k} swaps" if k != "negation" else f"{kinds[k]} negations" for k in KINDS)
        + ". An entity swap puts in another name the page writes after the same word (\"died in Blackville\" → "
        "\"died in Marion\"), a month for a month. Every case is \"not supported\": the share badged supported is "
        "the worst error a verifier can make.", "",
        "| system | false-supported on contradicted | 95 % CI | " + " | ".join(KINDS) + " |",
        "|---|---|---|" + "---|" * len(KINDS),
    ]
    for s in perturbation:
        rate = s["false_supported_rate"]
        low, high = _rate_interval(rate, s["n"])
        per_kind = " | ".join(f"{s['by_kind'][k]:.1%}" if s["by_kind"][k] is not None else "–" for k in KINDS)
        lines.append(f"| {s['system']} | {rate:.1%} | {low:.1%}–{high:.1%} | {per_kind} |")
    rates = [s["supported"] / s["n"] for s in seeds]
    lines += ["", f"The table's set is drawn with seed {SEED}. Over the sets of seeds {seeds[0]['seed']}–{seeds[-1]['seed']}, "
              f"{perturbation[0]['system']} badges {sum(s['supported'] for s in seeds) / sum(s['n'] for s in seeds):.1%} "
              f"of {sum(s['n'] for s in seeds):,} contradicted claims supported ({min(rates):.1%}–{max(rates):.1%} per seed), "
              f"entity swaps {sum(s['supported_entity'] for s in seeds) / sum(s['n_entity'] for s in seeds):.1%}."]
    if contrast:
        lines += ["", contrast.rstrip("\n")]
    lines += ["", "## Cross-fitted combiner (out of sample)", "",
              "| fitted on | tested on | balanced accuracy | 95 % CI | false-supported |", "|---|---|---|---|---|"]
    for s in crossfit:
        low, high = s["balanced_accuracy_ci95"]
        lines.append(f"| {s['fit_on']} | {s['test_on']} | {s['balanced_accuracy']:.1%} | {low:.1%}–{high:.1%} "
                     f"| {s['false_supported_rate']:.1%} |")
    wice, attrbench = DATASETS
    deals = len(validated[0]["per_draw"][wice]) if validated else 0
    lines += ["", "## Cross-validated combiner (out of sample)", "",
              "The whole fitting procedure (weights, threshold, `refutes`) run on four fifths of the pooled dev "
              f"claims and judged on the fifth, pages never split across folds; balanced accuracy averaged over {deals} "
              "deals of 5 folds, and its range over the deals. This estimates what the shipped procedure does on new "
              "claims like the dev sets'; the cross-fit above is the harder case of a new kind of claim.", "",
              "| system | WiCE-dev | range | AttributionBench-dev | range |", "|---|---|---|---|---|"]
    for s, named in zip(validated, tables[wice]):
        ba, per = s["balanced_accuracy"], s["per_draw"]
        lines.append(f"| {named['system']} | {ba[wice]:.1%} | {min(per[wice]):.1%}–{max(per[wice]):.1%} "
                     f"| {ba[attrbench]:.1%} | {min(per[attrbench]):.1%}–{max(per[attrbench]):.1%} |")
    lines += ["", "## Served mode: fetch → extract → retrieve → NLI (WiCE-dev pages on 127.0.0.1)", "",
              "Each case's source rendered as an HTML page and fetched over loopback, once per HTML extractor. "
              "These pages have clean markup, so the extractors read the same text; on pages with navigation, "
              "footers and cookie banners trafilatura removes the boilerplate the cheap selectolax path keeps "
              "(tests/integration/test_extract.py), which is why `auto` (trafilatura first) is the default.", "",
              "| extractor | balanced accuracy | 95 % CI | time/case |", "|---|---|---|---|"]
    for s in served:
        low, high = s["balanced_accuracy_ci95"]
        lines.append(f"| {s['system']} | {s['balanced_accuracy']:.1%} | {low:.1%}–{high:.1%} | {s['seconds_per_case'] * 1000:.0f} ms |")
    if speed:
        best, host = speed["engine"]["best"], speed["host"]
        lines += ["", "## Speed (bench/speed.py)", "",
                  f"A {speed['pages']}-citation answer over {speed['pages']} distinct pages of "
                  f"{min(speed['page_chars']):,}–{max(speed['page_chars']):,} characters served on 127.0.0.1.", "",
                  "| measure | value | target |", "|---|---|---|",
                  f"| engine, warm: first verdict | {best['first_verdict_s']:.3f} s | ≤ 0.3 s |",
                  f"| engine, warm: all verdicts | {best['all_verdicts_s']:.3f} s | ≤ 1.0 s |",
                  *([f"| model alone: the answer's {speed['engine']['model_cost']['pairs']} (window, claim) pairs | "
                     f"{speed['engine']['model_cost']['pairs_per_s']} pairs/s, "
                     f"{speed['engine']['model_cost']['ms_per_claim']:.0f} ms per claim | ≤ 50 ms per claim |"]
                    if speed["engine"].get("model_cost") else []),
                  f"| engine peak RSS (model loaded) | {speed['engine']['peak_rss_mb']} MB | |",
                  f"| native host: start-up to `hello` | {host['hello_s']:.3f} s | ≤ 0.5 s |",
                  f"| native host: idle RSS after `hello` | {host['idle_rss_mb']} MB | ≤ 300 MB |",
                  f"| native host: cold request (loads the model), all verdicts | {host['cold']['all_verdicts_s']:.2f} s | |",
                  f"| native host: warm request, first / all verdicts | {host['warm']['first_verdict_s']:.3f} / "
                  f"{host['warm']['all_verdicts_s']:.3f} s | |",
                  f"| native host RSS after requests | {host['busy_rss_mb']} MB | |",
                  f"| citesure overlap tiers, same answer, all verdicts | {speed['citesure_overlap']['all_verdicts_s']:.3f} s | |",
                  f"| ratio citemark / citesure | {speed['ratio_citemark_to_citesure']} | |"]
    lines += ["", "## Reference points (published, not measured here)", "",
              "MiniCheck-Flan-T5-L: 75.0 % average balanced accuracy on LLM-AggreFact (72.2 % on its WiCE part); "
              "HHEM-2.1-open: 71.8 %. Neither runs here (hub download).", ""]
    (ROOT / "bench" / "REPORT.md").write_text("\n".join(lines))
    print("wrote bench/REPORT.md")


def _rate_interval(rate: float, n: int) -> tuple[float, float]:
    """Wilson 95 % interval for a proportion."""
    if not n:
        return 0.0, 0.0
    z = 1.96
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((rate * (1 - rate) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


if __name__ == "__main__":
    sys.exit(main())
