"""Build the training mixes for citemark's grounding model from ../shared/train/data.

Step 1 of the pipeline (see train/README.md). Writes, under ``--out``:

- ``stage1.jsonl``  general NLI (3-way), to teach the basic relation;
- ``stage2.jsonl``  grounding / faithfulness rows, windowed exactly as the engine
  windows a source at run time, plus synthetic rows and a replay of stage 1;
- ``heldout.jsonl`` 3 % of every set, never trained on (nor are its premises used
  for synthetic rows);
- ``mix.json``      what went in: rows per set, per label, per synthetic kind, and
  the SHA-256 of each file written, so that two builds can be compared.

Only sets whose licence in SOURCES.md is permissive go in (``PERMISSIVE``), unless
``--experimental`` is given; the shipped model is never built with that flag.
The benchmark data in ../shared/bench is never read here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
from collections import Counter
from pathlib import Path

from citemark.scoring.retrieve import EvidenceIndex
from citemark.scoring.segment import sentences

DATA = Path(__file__).resolve().parents[2] / "shared" / "train" / "data"

#: Licence per SOURCES.md: MIT, Apache-2.0, BSD, CC BY, CC BY-SA, ODC-BY, C-UDA.
PERMISSIVE = {
    # grounding / attribution / fact-checking
    "expertqa": "MIT",
    "factcheck_gpt": "Apache-2.0",
    "ragtruth_subset": "MIT (RAGTruth data)",
    "wice_nst_train": "ODC-BY 1.0",
    "fever_symmetric": "CC BY-SA 3.0",
    "scifact_rte": "CC BY 4.0 / ODC-By 1.0",
    "dialfact": "BSD-3-Clause",
    # summarisation faithfulness
    "summedits": "Apache-2.0",
    "fib": "CC BY 4.0",
    "xsumfaith": "CC BY 4.0",
    "factcc_explanations": "Apache-2.0",
    "factcg_cg2c": "MIT",
    # general NLI
    "snli_dev_test": "CC BY-SA 4.0",
    "taxinli_mnli": "C-UDA 1.0",
    "cad_snli": "Apache-2.0",
    "breaking_nli": "CC BY-SA 4.0",
    "conjnli": "MIT",
    "dnc_recast": "MIT / BSD-like / CC BY-SA / CC BY 4.0",
    # added to ../shared/train in 2026-12; read by train.binding_rows --add
    "mnli_dev": "OANC / CC BY-SA 3.0 (MultiNLI)",
    "scitail_test": "Apache-2.0",
}
#: Research-only sets: for experiments that learn what helps, never shipped.
EXPERIMENTAL = ["bingcheck", "climate_fever", "healthver", "check_covid", "covidfact", "politihop"]

#: General NLI: name -> rows to sample (synthetic/templated sets kept small).
STAGE1 = {
    "snli_dev_test": 20000,
    "taxinli_mnli": 11000,
    "cad_snli": 11000,
    "conjnli": 5000,
    "dnc_recast": 4000,
    "breaking_nli": 2500,
    "fever_symmetric": 1500,
}
STAGE2 = [
    "expertqa",
    "factcheck_gpt",
    "ragtruth_subset",
    "wice_nst_train",
    "scifact_rte",
    "dialfact",
    "summedits",
    "fib",
    "xsumfaith",
    "factcc_explanations",
    "factcg_cg2c",
    "fever_symmetric",
]
#: A premise longer than this is windowed like a source at run time.
WINDOW_CHARS = 700
HELDOUT_SHARE = 0.03


def held_out(row: dict) -> bool:
    """Whether a row is held out: chosen by a hash of its premise, not by a random draw.

    A drawn split moves whenever anything drawn before it changes (the retrieval that
    windows premises changes how many rows earlier sets keep), so a rebuild would hold
    out rows an earlier model trained on. A hash keeps the same rows out whatever else
    changes, and keeps every claim about one premise (and a row two sets share) on one
    side: a model is never tested on a document it read in training.
    """
    digest = hashlib.sha256(row["premise"].encode()).digest()
    return int.from_bytes(digest[:4], "big") % 10_000 < HELDOUT_SHARE * 10_000


def read(name: str) -> list[dict]:
    with open(DATA / f"{name}.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def balanced(rows: list[dict], rng: random.Random, max_ratio: float = 2.0) -> list[dict]:
    """Cap "supported" and "not supported" rows at ``max_ratio`` times the rarer side.

    The two sides of citemark's binary decision are balanced per set; within
    "not supported", neutral and contradiction rows are kept as the set has them.
    """
    sides: dict[bool, list[dict]] = {True: [], False: []}
    for row in rows:
        sides[row["label"] == "entailment"].append(row)
    if not sides[True] or not sides[False]:
        return rows
    cap = int(max_ratio * min(len(side) for side in sides.values()))
    kept: list[dict] = []
    for side in sides.values():
        rng.shuffle(side)
        kept.extend(side[:cap])
    return kept


def windowed(row: dict) -> dict | None:
    """Cut a long premise down to the window the engine would retrieve for the claim.

    An 'entailment' row whose best window covers little of the claim is dropped:
    after windowing its label would be noise.
    """
    premise = row["premise"]
    if len(premise) <= WINDOW_CHARS and len(sentences(premise)) <= 3:
        return row
    hits = EvidenceIndex(premise).search(row["hypothesis"], k=1)
    if not hits:
        return None
    if row["label"] == "entailment" and hits[0].coverage.weighted < 0.6:
        return None
    return {**row, "premise": hits[0].text, "windowed": True}


# ---------------------------------------------------------------- synthetic rows

_NEGATABLE = [
    (r"\bis\b", "is not"),
    (r"\bwas\b", "was not"),
    (r"\bare\b", "are not"),
    (r"\bwere\b", "were not"),
    (r"\bcan\b", "cannot"),
    (r"\bhas\b", "has not"),
    (r"\bhave\b", "have not"),
    (r"\bwill\b", "will not"),
    (r"\bdid\b", "did not"),
]
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_ENTITY = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")


def negate(claim: str) -> str | None:
    for pattern, replacement in _NEGATABLE:
        if re.search(pattern + r"\s+not\b", claim) or re.search(r"\bn't\b|\bnot\b|\bnever\b", claim):
            return None
        new, count = re.subn(pattern, replacement, claim, count=1)
        if count:
            return new
    return None


def swap_number(claim: str, premise: str, rng: random.Random) -> str | None:
    numbers = [m for m in _NUMBER.finditer(claim) if m.group() in premise]
    if not numbers:
        return None
    match = rng.choice(numbers)
    value = match.group().replace(",", "")
    try:
        number = float(value)
    except ValueError:
        return None
    if 1800 <= number <= 2100 and "." not in value:
        new = str(int(number) + rng.choice([-11, -7, -3, -2, -1, 1, 2, 3, 5, 9]))
    elif "." in value:
        new = f"{number * rng.choice([0.5, 0.8, 1.3, 2.0]):.{len(value.split('.')[1])}f}"
    else:
        new = str(max(0, int(number) + rng.choice([-1, 1]) * max(1, int(number * rng.choice([0.2, 0.5, 1.0])))))
    if new == value or new in premise:
        return None
    return claim[: match.start()] + new + claim[match.end() :]


def swap_entity(claim: str, premise: str, rng: random.Random) -> str | None:
    in_claim = [m for m in _ENTITY.finditer(claim) if m.group() in premise]
    others = sorted({m.group() for m in _ENTITY.finditer(premise)} - {m.group() for m in in_claim})
    others = [o for o in others if o not in claim and len(o) > 3]
    if not in_claim or not others:
        return None
    match = rng.choice(in_claim)
    return claim[: match.start()] + rng.choice(others) + claim[match.end() :]


def synthetic(
    entailed: list[dict], documents: list[dict], rng: random.Random, per_kind: int
) -> list[dict]:
    """Rows that teach what badges need; each kind is capped at ``per_kind``."""
    out: list[dict] = []
    made: Counter[str] = Counter()

    def add(kind: str, premise: str, hypothesis: str, label: str, origin: str) -> None:
        if made[kind] < per_kind:
            made[kind] += 1
            out.append(
                {"premise": premise, "hypothesis": hypothesis, "label": label,
                 "dataset": origin, "synthetic": kind}
            )

    pool = entailed[:]
    rng.shuffle(pool)
    for row in pool:
        premise, claim, origin = row["premise"], row["hypothesis"], row["dataset"]
        negated = negate(claim)
        if negated:
            add("negation", premise, negated, "contradiction", origin)
        swapped = swap_number(claim, premise, rng)
        if swapped:
            add("number_swap", premise, swapped, "contradiction", origin)
        swapped = swap_entity(claim, premise, rng)
        if swapped:
            add("entity_swap", premise, swapped, "contradiction", origin)
    # A claim that adds a detail the premise lacks -> neutral; two premises that
    # together state a two-part claim -> entailment, one of them alone -> neutral.
    for first, second in zip(pool[::2], pool[1::2]):
        joined = first["hypothesis"].rstrip(" .") + ", and " + _lower_first(second["hypothesis"])
        add("added_detail", first["premise"], joined, "neutral", first["dataset"])
        if len(first["premise"]) + len(second["premise"]) < WINDOW_CHARS:
            add(
                "two_sentence",
                first["premise"].rstrip() + " " + second["premise"].lstrip(),
                joined,
                "entailment",
                first["dataset"],
            )
    # A window from elsewhere in the same document -> neutral.
    for row in documents:
        index = EvidenceIndex(row["premise"])
        if len(index.windows) < 6:
            continue
        far = [
            w for w in rng.sample(index.windows, min(8, len(index.windows)))
            if w.last == w.first + 1
        ]
        for window in far:
            text = index.window_text(window)
            hit = EvidenceIndex(text).document_coverage(row["hypothesis"])
            if hit.weighted < 0.35:
                add("other_window", text, row["hypothesis"], "neutral", row["dataset"])
                break
    return out


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("train/work/data"))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--synthetic-per-kind", type=int, default=2500)
    parser.add_argument("--replay", type=int, default=8000, help="stage-1 rows replayed in stage 2")
    parser.add_argument(
        "--experimental", action="store_true",
        help="also use research-only sets (never for the shipped model)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    heldout: list[dict] = []
    mix: dict = {"sets": {}, "synthetic": {}, "experimental": args.experimental, "heldout_by": "premise hash"}

    def split(name: str, rows: list[dict]) -> list[dict]:
        kept = []
        for row in rows:
            (heldout if held_out(row) else kept).append(row)
        rng.shuffle(kept)
        return kept

    stage1: list[dict] = []
    for name, limit in STAGE1.items():
        rows = split(name, [r for r in read(name) if r["label"] != "not_entailment" or name == "dnc_recast"])
        rows = balanced(rows, rng)[:limit]
        stage1.extend(rows)
        mix["sets"][name] = {"licence": PERMISSIVE[name], "stage1": len(rows)}

    stage2: list[dict] = []
    documents: list[dict] = []
    entailed: list[dict] = []
    names = STAGE2 + (EXPERIMENTAL if args.experimental else [])
    for name in names:
        raw = split(name, read(name))
        documents.extend(r for r in raw if len(r["premise"]) > 2 * WINDOW_CHARS)
        rows = [w for w in (windowed(r) for r in raw) if w]
        rows = balanced(rows, rng)
        stage2.extend(rows)
        entailed.extend(r for r in rows if r["label"] == "entailment")
        entry = mix["sets"].setdefault(name, {"licence": PERMISSIVE.get(name, "research only")})
        entry["stage2"] = len(rows)
        entry["stage2_labels"] = dict(Counter(r["label"] for r in rows))
    nli_entailed = [r for r in stage1 if r["label"] == "entailment" and r["dataset"] != "dnc_recast"]
    rng.shuffle(nli_entailed)
    synth = synthetic(entailed + nli_entailed[:4000], documents[:4000], rng, args.synthetic_per_kind)
    mix["synthetic"] = dict(Counter(r["synthetic"] for r in synth))
    replay = rng.sample(stage1, min(args.replay, len(stage1)))
    stage2 = stage2 + synth + replay
    rng.shuffle(stage1)
    rng.shuffle(stage2)
    for name, rows in (("stage1", stage1), ("stage2", stage2), ("heldout", heldout)):
        digest = hashlib.sha256()
        with open(args.out / f"{name}.jsonl", "wb") as handle:
            for row in rows:
                line = (json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8")
                handle.write(line)
                digest.update(line)
        mix[name] = {"rows": len(rows), "labels": dict(Counter(r["label"] for r in rows)), "sha256": digest.hexdigest()}
    (args.out / "mix.json").write_text(json.dumps(mix, indent=2))
    print(json.dumps({k: mix[k] for k in ("stage1", "stage2", "heldout", "synthetic")}, indent=2))


if __name__ == "__main__":
    main()
