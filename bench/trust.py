"""Trust: citemark's two verdict policies, strict and balanced, measured on what neither was fitted on.

    python -m bench.trust [--model NAME] [--out bench/out/trust.json] [--markdown]

Issue 29, item 5 (TRUST.md, "How it is measured"). With the shipped model, in each policy:

- the three contrast sets: bench/contrast (authored pages, served on 127.0.0.1), bench/contrast_real
  (real public text, served the same way; test only) and train/contrast_dev (the development set,
  every part, each claim against the text citemark's own extraction reads from its page): the
  share badged supported per kind, the true claims split three ways, the share of plain false claims
  badged contradicted, and on contrast_real whether the verdict's differences name the changed word;
- strict without the dependency parser, on bench/contrast and contrast_real: ``citemark.scoring.parse.available``
  patched in-process to return False, as on an install without the spaCy pipeline;
- the dev sets (WiCE-dev, AttributionBench-dev): precision and recall of "supported" with 95 % bootstrap
  intervals, and balanced accuracy as in the rest of the report.

The peers do not take a policy, so they are not rerun here (their columns in the contrast suite
section stand). ``bench/report.py --only trust`` puts ``markdown()`` into bench/REPORT.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from bench import accuracy, contrast_suite, metrics
from bench.cases import DATA, load
from bench.systems import Citemark
from citemark.scoring.thresholds import PARAPHRASE_SIMILARITY
from citemark.scoring.verdict import STRICT_CONTRADICTION

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "trust.json"
POLICIES = ("strict", "balanced")
REAL = ROOT / "bench" / "contrast_real"
DEV_SETS = {"WiCE-dev": DATA / "wice-dev.jsonl", "AttributionBench-dev": DATA / "attrbench-dev.jsonl"}
#: Issue 29's "done means", for strict.
TRUE_SUPPORTED = 0.60
TRUE_KIND_SUPPORTED = 0.40
TRUE_KIND_TARGETS = ("paraphrase", "numeric_equivalent", "multi_sentence")
TRUE_SUPPORTED_OR_PARTIAL = 0.95
TRUE_WRONG = 0.03
DEV_PLAIN_FALSE = 0.02  # per plain false kind on train/contrast_dev (0 on the two test sets)


@contextlib.contextmanager
def without_parser() -> Iterator[None]:
    """Strict as on an install without the spaCy pipeline: the parser says it is not available."""
    from citemark.scoring import parse

    available = parse.available
    parse.available = lambda: False
    try:
        yield
    finally:
        parse.available = available


def parser_installed() -> bool:
    """Whether this run had the dependency parser at all (else "without the parser" changes nothing)."""
    from citemark.scoring import parse

    return parse.available()


def served_set(model: str | None, folder: Path, policy: str) -> dict:
    """One contrast suite of HTML pages, citemark alone under ``policy``, served as a citation is."""
    report = contrast_suite.run(model, folder=folder, out=None, systems=[Citemark(model, "served", policy=policy)])
    return report["systems"][0]


def dev_contrast(model: str | None, policy: str, claims: list, cases: list) -> dict:
    """train/contrast_dev under ``policy``: each claim against its page's extracted text."""
    system = Citemark(model, "text", policy=policy)
    print(f"  {system.name}…", flush=True)
    started = time.perf_counter()
    predictions = asyncio.run(system.predict(cases))
    return contrast_suite.summarise(system, claims, predictions, time.perf_counter() - started)


def measure(summary: dict, *, plain_false_limit: float) -> dict:
    """What the trust section shows of one run: shares per kind, the true split, red stays red,
    differences naming the edit, and where strict stands against the targets."""
    cases = summary["cases"]
    by_kind = {kind: {"side": e["side"], "n": e["n"], "supported": e["share"]} for kind, e in summary["by_kind"].items()}
    split = contrast_suite.true_split(cases)
    plain = {k: by_kind[k]["supported"] for k in contrast_suite.PLAIN_FALSE_KINDS if k in by_kind}
    kind_true = {k: by_kind[k]["supported"] for k in TRUE_KIND_TARGETS if k in by_kind}
    met = {
        "plain_false": all(share is not None and share <= plain_false_limit for share in plain.values()),
        "true_supported": (split["supported"] or 0) >= TRUE_SUPPORTED,
        "true_kinds": all((share or 0) >= TRUE_KIND_SUPPORTED for share in kind_true.values()),
        "true_supported_or_partial": (split["supported_or_partial"] or 0) >= TRUE_SUPPORTED_OR_PARTIAL,
        "true_wrong": (split["contradicted_or_unsupported"] or 0) <= TRUE_WRONG,
    }
    return {"system": summary["system"], "seconds_per_claim": summary["seconds_per_claim"], "by_kind": by_kind,
            "true": split, "plain_false_supported": plain, "plain_false_limit": plain_false_limit,
            "plain_false_contradicted": contrast_suite.plain_false_contradicted(cases),
            "differences_name_changed": contrast_suite.differences_name_changed(cases), "met": met,
            "paraphrased": paraphrase_counts([(c["gold"], c["predicted"], c["paraphrased"]) for c in cases]),
            "reasons_true_not_supported": _reasons(c for c in cases if c["gold"] == "supported"
                                                   and c["predicted"] != "supported")}


def _reasons(cases) -> dict[str, int]:  # noqa: ANN001
    counts: dict[str, int] = {}
    for case in cases:
        key = f"{case['predicted']}/{case['reason']}"
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def contrast_runs(model: str | None) -> dict[str, dict[str, dict]]:
    """{set: {policy (or "strict, no parser"): measure()}} over the three contrast sets."""
    runs: dict[str, dict[str, dict]] = {}
    for name, folder in (("bench/contrast", contrast_suite.SUITE), ("bench/contrast_real", REAL)):
        print(f"{name}…", flush=True)
        runs[name] = {policy: measure(served_set(model, folder, policy), plain_false_limit=0.0) for policy in POLICIES}
        with without_parser():
            runs[name]["strict, no parser"] = measure(served_set(model, folder, "strict"), plain_false_limit=0.0)
    print("train/contrast_dev…", flush=True)
    claims, cases = contrast_suite.dev_set()
    runs["train/contrast_dev"] = {policy: measure(dev_contrast(model, policy, claims, cases),
                                                  plain_false_limit=DEV_PLAIN_FALSE) for policy in POLICIES}
    return runs


def dev_runs(model: str | None) -> dict[str, dict[str, dict]]:
    """{dev set: {policy: summary}}: balanced accuracy as accuracy.summarise gives it, plus precision
    and recall of "supported" with their bootstrap intervals."""
    runs: dict[str, dict[str, dict]] = {}
    for name, path in DEV_SETS.items():
        cases = load(path)
        runs[name] = {}
        for policy in POLICIES:
            system = Citemark(model, "text", policy=policy)
            print(f"{name}: {system.name}…", flush=True)
            started = time.perf_counter()
            predictions = asyncio.run(system.predict(cases))
            summary = accuracy.summarise(system, cases, predictions, time.perf_counter() - started)
            runs[name][policy] = {**summary, **precision_recall(cases, predictions),
                                  "paraphrased": paraphrase_counts([(c.label, p.label, p.paraphrased)
                                                                    for c, p in zip(cases, predictions)])}
    return runs


def paraphrase_counts(judged) -> dict:  # noqa: ANN001
    """Of the "supported" verdicts that rest on a paraphrase match (a token-state match): how many, and how
    many of those are false. ``judged``: (gold label, predicted label, rests on a paraphrase) triples."""
    resting = [gold for gold, predicted, paraphrased in judged if predicted == "supported" and paraphrased]
    return {"supported": len(resting), "false": sum(gold != "supported" for gold in resting)}


def embedding_matches(report: dict) -> str:
    """The false-supported rate among strict verdicts that rest on a paraphrase match, over every set."""
    parts, supported, false = [], 0, 0
    for name, runs in [*report["contrast"].items(), *report["dev"].items()]:
        count = runs["strict"]["paraphrased"]
        parts.append(f"{name} {count['false']} of {count['supported']}")
        supported, false = supported + count["supported"], false + count["false"]
    rate = f"{100 * false / supported:.1f}%" if supported else "–"
    return f"{rate} ({false} of {supported} such verdicts false: {'; '.join(parts)})"


def precision_recall(cases, predictions) -> dict:  # noqa: ANN001
    """Precision and recall of "supported" over the judged cases, each with its 95 % bootstrap interval
    (1,000 resamples)."""
    judged = [(c.label, p.label) for c, p in zip(cases, predictions) if p.label != "error"]
    gold, predicted = [g for g, _ in judged], [p for _, p in judged]
    out = {}
    for name, statistic in (("precision", metrics.precision), ("recall", metrics.recall)):
        low, high = metrics.bootstrap_interval(gold, predicted, statistic=statistic)
        out[name] = round(statistic(gold, predicted), 4)
        out[f"{name}_ci95"] = [round(low, 4), round(high, 4)]
    return out


def run(model: str | None = None, out: Path | None = OUT) -> dict:
    report = {"model": model, "parser_installed": parser_installed(), "contrast": contrast_runs(model),
              "dev": dev_runs(model)}
    report["embedding_matches"] = embedding_matches(report)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    return report


# ------------------------------------------------------------------ output


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _kinds(report: dict) -> list[str]:
    present = {k for runs in report["contrast"].values() for m in runs.values() for k in m["by_kind"]}
    return [k for k in contrast_suite.KINDS if k in present] + sorted(present - set(contrast_suite.KINDS))


def kind_table(report: dict) -> list[str]:
    """Per kind and set: the share badged supported, strict beside balanced, and strict's target."""
    sets = list(report["contrast"])
    header = ["kind", "target (strict)"] + [f"{s.split('/')[-1]} {part}" for s in sets for part in ("n", "strict", "balanced")]
    lines = ["| " + " | ".join(header) + " |", "|---|---|" + "---|" * (len(header) - 2)]
    for kind in _kinds(report):
        if kind in contrast_suite.PLAIN_FALSE_KINDS:
            target = f"0 (dev ≤ {DEV_PLAIN_FALSE:.0%})"
        elif kind in TRUE_KIND_TARGETS:
            target = f"≥ {TRUE_KIND_SUPPORTED:.0%}"
        else:
            target = ""
        cells = [kind, target]
        for name in sets:
            runs = report["contrast"][name]
            entry = runs["strict"]["by_kind"].get(kind)
            cells += [str(entry["n"]) if entry else "–"]
            cells += [_pct(runs[p]["by_kind"][kind]["supported"]) if kind in runs[p]["by_kind"] else "–" for p in POLICIES]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


TARGET_NAMES = {"plain_false": "plain false kinds badged supported", "true_supported": "true supported",
                "true_kinds": "true supported per kind", "true_supported_or_partial": "true supported or partial",
                "true_wrong": "true contradicted or unsupported", "red_stays_red": "red stays red"}


def missed(runs: dict[str, dict], policy: str) -> list[str]:
    """The targets a strict run misses; red stays red compares its plain-false contradicted share with balanced's."""
    m = runs[policy]
    checks = dict(m["met"])
    red, balanced_red = m["plain_false_contradicted"]["contradicted"], runs["balanced"]["plain_false_contradicted"]["contradicted"]
    checks["red_stays_red"] = red is None or balanced_red is None or red >= balanced_red
    return [TARGET_NAMES[k] for k, ok in checks.items() if not ok]


def summary_table(report: dict) -> list[str]:
    """Per set and policy: the true split, red stays red, differences naming the edit, targets met."""
    lines = ["| set | policy | true: supported | partial | contradicted or unsupported | supported or partial "
             "| plain false badged supported, worst kind | plain false badged contradicted | differences name the changed word | strict's targets | ms/claim |",
             "|---|---|---|---|---|---|---|---|---|---|---|",
             f"| target (strict) | | ≥ {TRUE_SUPPORTED:.0%} | | ≤ {TRUE_WRONG:.0%} | ≥ {TRUE_SUPPORTED_OR_PARTIAL:.0%} "
             f"| 0 (contrast_dev ≤ {DEV_PLAIN_FALSE:.0%}) | not below balanced | | | |"]
    for name, runs in report["contrast"].items():
        for policy, m in runs.items():
            t, red, named = m["true"], m["plain_false_contradicted"], m["differences_name_changed"]
            misses = missed(runs, policy) if policy.startswith("strict") else None
            verdict = "" if misses is None else "all met" if not misses else "not met: " + ", ".join(misses)
            lines.append(f"| {name} | {policy} | {_pct(t['supported'])} | {_pct(t['partial'])} "
                         f"| {_pct(t['contradicted_or_unsupported'])} | {_pct(t['supported_or_partial'])} "
                         f"| {_worst(m['plain_false_supported'])} | {_pct(red['contradicted'])} of {red['n']} "
                         f"| {(_pct(named['share']) + ' of ' + str(named['n'])) if named['n'] else '–'} "
                         f"| {verdict} | {m['seconds_per_claim'] * 1000:.0f} |")
    return lines


def _worst(shares: dict[str, float | None]) -> str:
    kind, share = max(shares.items(), key=lambda item: item[1] or 0.0)
    return f"{_pct(share)} ({kind})" if share else "0 in every kind"


def dev_table(report: dict) -> list[str]:
    lines = ["| set | policy | n | precision of supported | 95 % CI | recall of supported | 95 % CI "
             "| balanced accuracy | 95 % CI | false-supported | not judged |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, runs in report["dev"].items():
        for policy, s in runs.items():
            cells = [name, policy, str(s["n"])]
            for key in ("precision", "recall", "balanced_accuracy"):
                low, high = s[f"{key}_ci95"]
                cells += [_pct(s[key]), f"{low:.1%}–{high:.1%}"]
            cells += [_pct(s["false_supported_rate"]), str(s["errors"]["n"])]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(report: dict) -> str:
    """The "Trust: strict and balanced" section of bench/REPORT.md."""
    first = next(iter(report["contrast"].values()))["strict"]["system"]
    parser = ("installed" if report["parser_installed"]
              else "NOT installed, so \"strict, no parser\" equals strict here")
    lines = [
        "## Trust: strict and balanced", "",
        f"`python -m bench.report --only trust` (bench/trust.py), shipped model only ({first}; balanced the same "
        "model under the earlier policy). Strict badges *supported* only when the alignment "
        "(`scoring/align.py`) accounts for every content unit of the claim in the quoted passage and the model's "
        f"P(contradiction) < {STRICT_CONTRADICTION}; balanced is the earlier behaviour. A common word may be matched "
        "by a passage word whose token state in the shipped model (layer 4 of 0–5) has cosine at least "
        f"{PARAPHRASE_SIMILARITY} with its own (`scoring/paraphrase.py`). Where the thresholds come from: strict's "
        "model threshold was chosen on the development contrast set (train/contrast_dev; see docs/verdicts.md), the "
        "paraphrase threshold on held-out training rows (`python -m train.fit_paraphrase`); the shipped model's "
        "combiner, which both policies read, was fitted on held-out training rows and train/contrast_dev (its "
        "`fitted_on` in the manifest), never on the dev sets or the two test contrast sets, so every dev-set number "
        "below is out of sample.", "",
        "Sets: `bench/contrast` and `bench/contrast_real` (tests: real public text, never run while it was "
        "written) served on 127.0.0.1 as a citation is fetched; `train/contrast_dev` (development material, all "
        "its parts) against the text citemark's extraction reads from each page. \"strict, no parser\": strict "
        "with `citemark.scoring.parse.available` patched in-process to return False, as on an install without the "
        f"spaCy pipeline (in this run the pipeline was {parser}). The peers take no policy and were not rerun: "
        "their columns in the contrast suite section above stand.", "",
        "### Share badged supported, per kind", "",
        *kind_table(report), "",
        "### True claims, red stays red, and what the differences show", "",
        "True claims split into supported / partial / contradicted or unsupported. \"Plain false\": "
        + ", ".join(contrast_suite.PLAIN_FALSE_KINDS) + " (polarity is the negation kind); red stays red asks "
        "that strict badge no fewer of them contradicted than balanced. \"Differences name the changed word\" "
        "(contrast_real, whose false claims record the edited word): of its false claims not badged supported, "
        "the share whose verdict's `differences` have a claim or passage text sharing a content word with "
        "`changed` (case-insensitive).", "",
        *summary_table(report), "",
        "### Dev sets: precision and recall of \"supported\"", "",
        "95 % intervals by bootstrap over cases (1,000 resamples). A case citemark refuses to judge (an empty "
        "source) is left out of every score and counted under \"not judged\".", "",
        *dev_table(report), "",
        "False-supported rate among strict verdicts that rest on an embedding match (a paraphrase matched by "
        f"token states): {report['embedding_matches']}.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="citemark's shipped model (default: what a fresh install resolves)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    report = run(args.model, args.out)
    print(markdown(report))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
