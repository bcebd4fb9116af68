"""The contrast suite: authored pages, each source fact stated in true and false variants, judged per kind.

    python -m bench.contrast_suite [--model NAME] [--system citemark --system citesure ...] [--suite DIR]
        [--out bench/out/contrast.json]

The suite (bench/contrast/) is ``pages/<slug>.html`` and ``claims.jsonl``, one
claim a line: {id, page, claim, kind, label, fact, note}. True kinds (label
supported): verbatim, paraphrase, numeric_equivalent, multi_sentence. False
kinds: polarity, antonym, neighbour_figure, other_role, role_reversal
(contradicted), added_detail, unaddressed (unsupported), quantifier
(unsupported or contradicted), ordinal_superlative, date_shift (contradicted). It
is a test, never training data, a synthetic-data template or combiner-fitting
material. bench/contrast_real/ has the same layout (real public text; its false
claims also record the changed word in ``changed``), and ``dev_set()`` reads
train/contrast_dev/ (the development set) as claims and texts; bench/trust.py
runs all three in both verdict policies with the trust measures below
(``true_split``, ``plain_false_contradicted``, ``differences_name_changed``).

Every system judges every claim against its page. citemark (shipped model, the
aegis pair when installed, lexical-only) fetches each page from 127.0.0.1 and
extracts it as it would a real citation (bench/systems.py's served mode); the
peers (citesure, citation-integrity-check, grounded-check, contexttrace) read the
text citemark's own extraction gives (``citemark.sources.extract``), so all
systems read the same text. Per system and kind: the share badged supported
(recall on the true kinds, the false-supported rate on the false ones), the two
overall shares, and for citemark its verdict and reason counts per kind and the
share of claims whose quoted window the model alone gives P(entailment) < 0.5.

Prints a table, writes JSON (``--out``), and ``markdown()`` gives the section
that bench/report.py puts in bench/REPORT.md (``python -m bench.report --only contrast``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.cases import Case, clean
from bench.systems import SYSTEMS, Citemark, Prediction, citemark_models
from citemark.scoring.verdict import BINDING_REASONS

ROOT = Path(__file__).resolve().parents[1]

SUITE = ROOT / "bench" / "contrast"
OUT = ROOT / "bench" / "out" / "contrast.json"
TRUE_KINDS = ("verbatim", "paraphrase", "numeric_equivalent", "multi_sentence")
FALSE_KINDS = ("polarity", "antonym", "neighbour_figure", "other_role", "role_reversal", "added_detail",
               "quantifier", "ordinal_superlative", "date_shift", "unaddressed")
#: The false kinds that edit one page fact into its opposite or a wrong value (TRUST.md's "plain false"):
#: strict must badge none of them supported, and must not badge fewer of them contradicted than balanced.
PLAIN_FALSE_KINDS = ("polarity", "antonym", "neighbour_figure", "other_role", "role_reversal", "quantifier",
                     "ordinal_superlative", "date_shift")
KINDS = TRUE_KINDS + FALSE_KINDS
LABELS = ("supported", "partial", "unsupported", "contradicted")
#: Issue 16: the model alone puts P(entailment) below 0.5 for ≥ 95 % of these kinds' claims.
MODEL_TARGET_KINDS = ("polarity", "antonym", "role_reversal")
MODEL_TARGET = 0.95
#: Issue 16, "done means": no false claim of these kinds badged supported, ≤ 2 % over all
#: false kinds, ≥ 90 % of true claims badged supported.
ZERO_KINDS = ("polarity", "antonym", "neighbour_figure", "other_role", "role_reversal")
FALSE_TARGET = 0.02
TRUE_TARGET = 0.90
PEERS = ("citesure", "cic", "grounded", "contexttrace")


@dataclass(frozen=True)
class ContrastClaim:
    id: str
    page: str  # the slug: pages/<slug>.html
    claim: str
    kind: str
    label: str
    fact: str = ""
    note: str = ""
    changed: str = ""  # false claims of bench/contrast_real: the claim's word(s) that were changed

    @property
    def true(self) -> bool:
        return self.label == "supported"


@dataclass(frozen=True)
class Suite:
    claims: list[ContrastClaim]
    pages: dict[str, bytes]  # slug → the page's HTML


def load_suite(folder: Path | str = SUITE) -> Suite:
    """The suite's claims and the pages they name; a malformed line, an unknown label, a
    label that contradicts its kind, a repeated id or a missing page is an error."""
    folder = Path(folder)
    claims: list[ContrastClaim] = []
    problems: list[str] = []
    seen: set[str] = set()
    lines = (folder / "claims.jsonl").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            claim = ContrastClaim(id=str(row["id"]), page=str(row["page"]), claim=str(row["claim"]),
                                  kind=str(row["kind"]), label=str(row["label"]), fact=str(row.get("fact") or ""),
                                  note=str(row.get("note") or ""), changed=str(row.get("changed") or ""))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            problems.append(f"line {number}: {type(error).__name__}: {error}")
            continue
        problems += [f"line {number} ({claim.id}): {p}" for p in _problems(claim, seen)]
        seen.add(claim.id)
        claims.append(claim)
    pages: dict[str, bytes] = {}
    for slug in dict.fromkeys(c.page for c in claims):
        path = folder / "pages" / f"{slug}.html"
        if path.is_file():
            pages[slug] = path.read_bytes()
        else:
            problems.append(f"page {slug!r}: no {path.relative_to(folder)}")
    if problems:
        raise ValueError(f"{folder / 'claims.jsonl'}: " + "; ".join(problems[:20])
                         + (f"; and {len(problems) - 20} more" if len(problems) > 20 else ""))
    if not claims:
        raise ValueError(f"{folder / 'claims.jsonl'}: no claims")
    return Suite(claims, pages)


def _problems(claim: ContrastClaim, seen: set[str]) -> list[str]:
    out = []
    if claim.id in seen:
        out.append("repeated id")
    if claim.label not in LABELS:
        out.append(f"label {claim.label!r} is not one of {', '.join(LABELS)}")
    elif claim.kind in TRUE_KINDS and not claim.true:
        out.append(f"a {claim.kind} claim must be labelled supported, not {claim.label}")
    elif claim.kind in FALSE_KINDS and claim.true:
        out.append(f"a {claim.kind} claim cannot be labelled supported")
    if not claim.claim.strip() or not claim.page.strip():
        out.append("empty claim or page")
    return out


def kinds_of(claims: Sequence[ContrastClaim]) -> list[str]:
    """The kinds present, in the suite's order (kinds it does not know after, by name)."""
    present = {c.kind for c in claims}
    return [k for k in KINDS if k in present] + sorted(present - set(KINDS))


# ------------------------------------------------------------------ aggregation


def _share(count: int, n: int) -> float | None:
    return round(count / n, 4) if n else None


def aggregate(claims: Sequence[ContrastClaim], predictions: Sequence[Prediction]) -> dict:
    """Per kind: n, how many were badged supported and their share; the verdict counts, and
    where the system gives them its reason codes and the model-alone share (P(entailment)
    of the quoted window < 0.5, over the claims that have one). Overall: the share of true
    claims and of false claims badged supported; the model-alone share over MODEL_TARGET_KINDS."""
    if len(claims) != len(predictions):
        raise ValueError(f"{len(claims)} claims but {len(predictions)} predictions")
    by_kind = {}
    for kind in kinds_of(claims):
        chosen = [p for c, p in zip(claims, predictions) if c.kind == kind]
        supported = sum(p.label == "supported" for p in chosen)
        true = kind in TRUE_KINDS or (kind not in FALSE_KINDS and all(c.true for c in claims if c.kind == kind))
        entry = {"side": "true" if true else "false",
                 "n": len(chosen), "supported": supported, "share": _share(supported, len(chosen)),
                 "verdicts": dict(Counter(p.label for p in chosen).most_common())}
        reasons = Counter(p.reason for p in chosen if p.reason)
        if reasons:
            entry["reasons"] = dict(reasons.most_common())
        entry["model_alone"] = _below_half(chosen)
        by_kind[kind] = entry
    overall = {}
    for side, wanted in (("true", True), ("false", False)):
        chosen = [p for c, p in zip(claims, predictions) if c.true == wanted]
        supported = sum(p.label == "supported" for p in chosen)
        overall[side] = {"n": len(chosen), "supported": supported, "share": _share(supported, len(chosen))}
    target = _below_half([p for c, p in zip(claims, predictions) if c.kind in MODEL_TARGET_KINDS])
    if target:
        target.update({"kinds": list(MODEL_TARGET_KINDS), "target": MODEL_TARGET,
                       "met": target["share"] is not None and target["share"] >= MODEL_TARGET})
    return {"overall": overall, "by_kind": by_kind, "model_target": target}


def _below_half(predictions: Sequence[Prediction]) -> dict | None:
    scored = [p.entailment for p in predictions if p.entailment is not None]
    if not scored:
        return None
    below = sum(e < 0.5 for e in scored)
    return {"n": len(scored), "below": below, "share": _share(below, len(scored))}


def targets(summary: dict) -> dict:
    """Where one system stands against issue 16's "done means" for the suite."""
    by_kind, overall = summary["by_kind"], summary["overall"]
    zero = {k: by_kind[k]["supported"] for k in ZERO_KINDS if k in by_kind}
    false_share, true_share = overall["false"]["share"], overall["true"]["share"]
    return {"zero_kinds_supported": zero, "zero_kinds_met": not any(zero.values()),
            "false_share": false_share, "false_met": false_share is not None and false_share <= FALSE_TARGET,
            "true_share": true_share, "true_met": true_share is not None and true_share >= TRUE_TARGET}


# ------------------------------------------------------------------ running


def page_url(slug: str) -> str:
    return f"http://127.0.0.1/{slug}.html"


def extract_texts(suite: Suite, extractor: str = "auto") -> dict[str, dict]:
    """Each page read by citemark's own extraction: {slug: {text, title, error}}."""
    from citemark.errors import CitemarkError
    from citemark.sources.extract import extract

    out = {}
    for slug, body in suite.pages.items():
        try:
            document = extract(body, url=page_url(slug), content_type="text/html; charset=utf-8", extractor=extractor)
            out[slug] = {"text": document.text, "title": document.title, "error": None}
        except CitemarkError as error:
            out[slug] = {"text": "", "title": None, "error": str(error)}
    return out


def as_cases(suite: Suite, texts: dict[str, dict]) -> list[Case]:
    """The claims as bench cases whose source is the page's extracted text (what the peers read)."""
    return [Case(id=c.id, dataset="contrast", claim=clean(c.claim), source=texts[c.page]["text"], label=c.label,
                 titles=(texts[c.page]["title"] or "",)) for c in suite.claims]


def default_systems(model: str | None = None, names: Sequence[str] | None = None,
                    combiner: dict | None = None) -> list:
    """citemark served (the shipped model, the aegis pair when installed, lexical-only), then the peers.
    ``combiner``: one to use with the shipped model instead of its own (the others keep theirs)."""
    names = list(names or ("citemark", *PEERS))
    systems: list = []
    for name in names:
        if name == "citemark":
            shipped, *others = citemark_models(model)
            systems += [Citemark(shipped, "served", combiner=combiner)] + [Citemark(m, "served") for m in others]
        else:
            systems.append(SYSTEMS[name]())
    return systems


def short_name(system) -> str:  # noqa: ANN001
    if isinstance(system, Citemark):
        model = system.engine.model_name.split(" (")[0]
        return "citemark: " + ("lexical" if not system.engine.pack else model)
    return system.name.split(" (")[0]


def run(model: str | None = None, *, folder: Path | str = SUITE, names: Sequence[str] | None = None,
        out: Path | None = OUT, systems: list | None = None, combiner: dict | None = None) -> dict:
    """Judge the suite with every system; the report (also written to ``out`` as JSON)."""
    suite = load_suite(folder)
    texts = extract_texts(suite)
    cases = as_cases(suite, texts)
    bodies = [suite.pages[c.page] for c in suite.claims]
    results = []
    for system in systems if systems is not None else default_systems(model, names, combiner):
        print(f"  {system.name}…", flush=True)
        started = time.perf_counter()
        if isinstance(system, Citemark):
            predictions = asyncio.run(system.predict(cases, pages=bodies))
        else:
            predictions = asyncio.run(system.predict(cases))
        results.append(summarise(system, suite.claims, predictions, time.perf_counter() - started))
    report = {
        "suite": {"folder": str(folder), "claims": len(suite.claims), "pages": len(suite.pages),
                  "kinds": {k: sum(c.kind == k for c in suite.claims) for k in kinds_of(suite.claims)},
                  "unreadable_pages": {s: t["error"] for s, t in texts.items() if t["error"]},
                  "page_chars": {s: len(t["text"]) for s, t in texts.items()}},
        "systems": results,
    }
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    return report


def summarise(system, claims: Sequence[ContrastClaim], predictions: Sequence[Prediction], seconds: float) -> dict:  # noqa: ANN001
    """One system's summary of one run: the aggregate, the targets, and every claim's verdict."""
    summary = {"system": system.name, "short": short_name(system), "note": getattr(system, "note", ""),
               "model": system.model(), "citemark": isinstance(system, Citemark),
               "seconds_per_claim": round(seconds / max(1, len(claims)), 4), **aggregate(claims, predictions)}
    summary["targets"] = targets(summary)
    summary["cases"] = [{"id": c.id, "page": c.page, "kind": c.kind, "gold": c.label, "predicted": p.label,
                         "score": None if p.score is None else round(p.score, 4), "reason": p.reason,
                         "entailment": None if p.entailment is None else round(p.entailment, 4),
                         "evidence": p.evidence, "changed": c.changed, "differences": list(p.differences),
                         "paraphrased": p.paraphrased}
                        for c, p in zip(claims, predictions)]
    return summary


def dev_set(parts: Sequence[str] | None = None) -> tuple[list[ContrastClaim], list[Case]]:
    """The development contrast set (train/contrast_dev/, every part by default) as claims and
    text-mode cases: each claim with the text citemark's own extraction reads from its page."""
    from train.contrast_dev import PARTS, claims_and_texts

    claims, cases = [], []
    for part in parts or list(PARTS):
        for row, text in claims_and_texts([part]):
            claim = ContrastClaim(id=f"{part}:{row['id']}", page=f"{part}:{row['page']}", claim=row["claim"],
                                  kind=row["kind"], label=row["label"], fact=row.get("fact") or "",
                                  note=row.get("note") or "")
            claims.append(claim)
            cases.append(Case(id=claim.id, dataset="contrast_dev", claim=clean(claim.claim), source=text,
                              label=claim.label))
    return claims, cases


# ------------------------------------------------------------------ trust measures (over summarise()'s cases)


def true_split(cases: Sequence[dict]) -> dict:
    """The true claims split three ways: supported, partial (the badge that says "check this"), and
    contradicted or unsupported (the badge that calls a true claim false: the costly miss)."""
    verdicts = [c["predicted"] for c in cases if c["gold"] == "supported"]
    wrong = sum(v in ("contradicted", "unsupported") for v in verdicts)
    return {"n": len(verdicts), "supported": _share(verdicts.count("supported"), len(verdicts)),
            "partial": _share(verdicts.count("partial"), len(verdicts)),
            "supported_or_partial": _share(verdicts.count("supported") + verdicts.count("partial"), len(verdicts)),
            "contradicted_or_unsupported": _share(wrong, len(verdicts))}


def plain_false_contradicted(cases: Sequence[dict]) -> dict:
    """The share of plain false claims badged contradicted: "red stays red" compares it across policies."""
    verdicts = [c["predicted"] for c in cases if c["kind"] in PLAIN_FALSE_KINDS]
    return {"n": len(verdicts), "contradicted": _share(verdicts.count("contradicted"), len(verdicts))}


def names_changed(case: dict) -> bool:
    """Whether the verdict's differences point at the edit: ``changed`` shares a content word with
    some difference's claim or passage text (case-insensitive; whole words, so "in" is not "remain")."""
    changed = _words(case.get("changed") or "")
    return any(changed & _words(side or "") for difference in case.get("differences") or ()
               for side in (difference.get("claim_text"), difference.get("passage_text")))


def differences_name_changed(cases: Sequence[dict]) -> dict:
    """Of the false claims with a recorded edit that were not badged supported, the share whose
    verdict's differences name the changed word: can a reader see *what* is wrong."""
    chosen = [c for c in cases if c["gold"] != "supported" and c.get("changed") and c["predicted"] != "supported"]
    named = sum(map(names_changed, chosen))
    return {"n": len(chosen), "named": named, "share": _share(named, len(chosen))}


def _words(text: str) -> set[str]:
    """Content words, case-folded: a shared "the" or "of" is no evidence that two spans name the same edit."""
    words = (w.strip(".,-") for w in re.findall(r"[\w.,%$€£-]+", text.casefold()))
    return {w for w in words if w and w not in _STOP}


_STOP = frozenset(["a", "an", "the", "of", "in", "on", "at", "to", "and", "or", "by", "for", "is", "was", "are",
                   "were", "be", "been", "it", "its", "as", "with", "from"])


# ------------------------------------------------------------------ output


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _kinds(report: dict) -> list[str]:
    first = report["systems"][0]["by_kind"] if report["systems"] else {}
    return list(first)


def table_rows(report: dict) -> list[list[str]]:
    """Header, one row per kind, then the two overall rows: the share badged supported per system."""
    systems = report["systems"]
    rows = [["kind", "side", "n", *(s["short"] for s in systems)]]
    for kind in _kinds(report):
        entry = systems[0]["by_kind"][kind]
        rows.append([kind, entry["side"], str(entry["n"]), *(_pct(s["by_kind"][kind]["share"]) for s in systems)])
    for side, title in (("true", "true claims badged supported"), ("false", "false claims badged supported")):
        n = systems[0]["overall"][side]["n"] if systems else 0
        rows.append([title, side, str(n), *(_pct(s["overall"][side]["share"]) for s in systems)])
    return rows


def print_table(report: dict) -> None:
    rows = table_rows(report)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))
        if index == 0 or index == len(rows) - 3:
            print("  ".join("-" * w for w in widths))
    for s in (s for s in report["systems"] if s["citemark"]):
        print(f"\n{s['system']}: verdicts / reasons per kind")
        for kind, entry in s["by_kind"].items():
            reasons = ", ".join(f"{r} {n}" for r, n in entry.get("reasons", {}).items())
            verdicts = ", ".join(f"{v} {n}" for v, n in entry["verdicts"].items())
            alone = entry["model_alone"]
            model = f"  | model alone P(ent) < 0.5: {_pct(alone['share'])} of {alone['n']}" if alone else ""
            print(f"  {kind:20} {verdicts:40} | {reasons}{model}")
        if s["model_target"]:
            t = s["model_target"]
            print(f"  model alone on {', '.join(t['kinds'])}: {_pct(t['share'])} of {t['n']} below 0.5 "
                  f"(target ≥ {t['target']:.0%}: {'met' if t['met'] else 'not met'})")


def _precision_cost(system: dict) -> str:
    """What the binding checks cost true claims: how many lost "supported" to a finding (at most; some
    of them the combiner would not have badged supported either)."""
    true_kinds = [entry for entry in system["by_kind"].values() if entry["side"] == "true"]
    lost: Counter[str] = Counter()
    for entry in true_kinds:
        lost.update({r: n for r, n in entry.get("reasons", {}).items() if r in BINDING_REASONS})
    total = sum(entry["n"] for entry in true_kinds)
    if not total:
        return ""
    parts = ", ".join(f"`{r}` {n}" for r, n in lost.most_common())
    return (f"What precision costs: {sum(lost.values())} of {total} true claims "
            f"({sum(lost.values()) / total:.1%}) carry a binding finding instead of \"supported\""
            + (f" ({parts})." if parts else "."))


def markdown(report: dict) -> str:
    """The bench/REPORT.md section: per kind, every system; citemark's verdicts and reasons; the model alone."""
    suite, systems = report["suite"], report["systems"]
    lines = [
        f"## Contrast suite: authored pages, each fact true and false ({suite['claims']} claims over "
        f"{suite['pages']} pages)", "",
        "`bench/contrast/`: pages written for this test, with the boilerplate of real pages, and each of their facts "
        "stated in true variants (verbatim, paraphrase, a numeric equivalent, one needing two adjacent sentences) and "
        "false ones (polarity, antonym, a neighbouring subject's figure, a name from another role, the two parties "
        "reversed, an added detail, a changed quantifier or modality, a shifted date, on topic but unaddressed). "
        "citemark fetches each page from 127.0.0.1 and extracts it as it would a real citation; the peers read "
        "the same extracted text (`citemark.sources.extract`), with their own defaults. A cell is the share badged "
        "*supported*: recall on the true kinds, the false-supported rate on the false ones. The suite is a test: "
        "its pages and sentences never enter training data, synthetic templates or combiner fitting. "
        "`python -m bench.report --only contrast` reruns this section alone.", "",
    ]
    rows = table_rows(report)
    lines.append("| " + " | ".join(rows[0]) + " |")
    lines.append("|---|---|---|" + "---|" * (len(rows[0]) - 3))
    for index, row in enumerate(rows[1:], 1):
        cells = [f"**{c}**" for c in row] if index >= len(rows) - 2 else row  # the two overall rows
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"- {s['system']}: {s['seconds_per_claim'] * 1000:.0f} ms per claim"
              + (f"; {s['note']}" if s.get("note") else "") for s in systems]
    if suite.get("unreadable_pages"):
        lines.append(f"- pages citemark could not read: {', '.join(sorted(suite['unreadable_pages']))}")
    shipped = next((s for s in systems if s["citemark"]), None)
    if shipped:
        t = shipped["targets"]
        zero = ", ".join(f"{k} {n}" for k, n in t["zero_kinds_supported"].items())
        lines += ["", f"Against issue 16's targets, {shipped['short']}: false claims badged supported in the "
                  f"polarity, antonym, neighbour-figure, other-role and role-reversal kinds (target 0): {zero} "
                  f"({'met' if t['zero_kinds_met'] else 'not met'}); over all false kinds {_pct(t['false_share'])} "
                  f"(target ≤ {FALSE_TARGET:.0%}: {'met' if t['false_met'] else 'not met'}); true claims badged "
                  f"supported {_pct(t['true_share'])} (target ≥ {TRUE_TARGET:.0%}: "
                  f"{'met' if t['true_met'] else 'not met'}). {_precision_cost(shipped)}", "",
                  f"### {shipped['system']}: verdicts and reasons per kind", "",
                  "| kind | n | verdicts | reasons |", "|---|---|---|---|"]
        for kind, entry in shipped["by_kind"].items():
            verdicts = ", ".join(f"{v} {n}" for v, n in entry["verdicts"].items())
            reasons = ", ".join(f"`{r}` {n}" for r, n in entry.get("reasons", {}).items())
            lines.append(f"| {kind} | {entry['n']} | {verdicts} | {reasons} |")
    modelled = [s for s in systems if s["citemark"] and s["model_target"]]
    if modelled:
        lines += ["", "### The model alone: P(entailment) of the quoted window below 0.5", "",
                  "Per kind, the share of claims whose quoted window the model alone (`scores.entailment`) puts "
                  "below 0.5, before guards and combiner; on false kinds higher is better. Issue 16's target: "
                  f"≥ {MODEL_TARGET:.0%} of the {', '.join(MODEL_TARGET_KINDS)} claims.", "",
                  "| kind | " + " | ".join(s["short"] for s in modelled) + " |", "|---|" + "---|" * len(modelled)]
        for kind in _kinds(report):
            cells = []
            for s in modelled:
                alone = s["by_kind"][kind]["model_alone"]
                cells.append("–" if not alone else f"{_pct(alone['share'])} of {alone['n']}")
            lines.append(f"| {kind} | " + " | ".join(cells) + " |")
        cells = [f"**{_pct(s['model_target']['share'])} of {s['model_target']['n']}** "
                 f"({'met' if s['model_target']['met'] else 'not met'})" for s in modelled]
        lines.append(f"| **{' + '.join(MODEL_TARGET_KINDS)}** | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="citemark's shipped model (default: what a fresh install resolves)")
    parser.add_argument("--system", action="append", choices=["citemark", *PEERS],
                        help="run only these (repeatable; default: citemark's three scorers and every peer)")
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--markdown", action="store_true", help="also print the REPORT.md section")
    parser.add_argument("--combiner", type=Path, help="a combiner JSON to use with citemark's model instead of its own")
    args = parser.parse_args(argv)
    combiner = json.loads(args.combiner.read_text()) if args.combiner else None
    report = run(args.model, folder=args.suite, names=args.system, out=args.out, combiner=combiner)
    print()
    print_table(report)
    if args.markdown:
        print()
        print(markdown(report))
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
