"""Synthetic rows that teach the model binding, not overlap: stage 3 of the training mix.

A small cross-encoder learns that a claim sharing every word with its evidence is
supported. These rows share every word and are not: each takes a sentence of a
permissive training premise (never ../shared/bench, never the contrast suite) and
changes what its words are attached to, keeping the rest:

- ``negation_removed`` / ``negation_added``: "is not" ↔ "is", "without" → "with",
  "no longer" → "still", "never" dropped (contradiction);
- ``antonym``: one word replaced by its opposite, from the runtime list
  (``binding.opposite_pairs``) (contradiction);
- ``figure_swap``: two figures of one sentence, or of two neighbouring
  sentences, exchanged (contradiction);
- ``name_swap``: two names of one sentence exchanged, or a name replaced by
  another name of the same window (contradiction);
- ``quantifier``: "some"/"most" → "all", "may" → "will", "suggests" → "proves" (neutral);
- ``verbatim`` / ``trimmed``: the sentence itself, or cut at a clause boundary
  (entailment), so that the model is not taught that overlap means "false".

The premise of every row is the sentence with its neighbours, as the engine's
evidence windows are. Rows whose premise is held out by ``build_data.held_out``
are never made.

    python -m train.binding_rows --out ~/.cache/citemark-train/stage3
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

from citemark.scoring.binding import opposite_pairs
from citemark.scoring.segment import sentences
from train.build_data import PERMISSIVE, STAGE1, balanced, held_out, read, windowed

#: Where premises come from: sets whose premises are prose (news, encyclopaedia, science).
PREMISE_SETS = ["wice_nst_train", "fever_symmetric", "summedits", "xsumfaith", "fib", "factcc_explanations",
                "factcg_cg2c", "scifact_rte", "ragtruth_subset", "expertqa", "factcheck_gpt"]

_NOT = re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would|should|does|do|did|must)\s+not\b")
_AFFIRM = re.compile(r"\b(is|are|was|were|has|have|can|will)\b(?!\s+not\b)")
_NEGATED = re.compile(r"\b(?:not|no|never|without|n't|none|nor)\b|n't\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?: (?:of |de |van |von )?[A-Z][a-z]+)*")
_QUANTIFIERS = [(r"\b(?:some|many|most|several)\b", "all"), (r"\b(?:may|might|could)\b", "will"),
                (r"\bsuggests\b", "proves"), (r"\bsuggested\b", "proved"), (r"\b(?:often|usually|sometimes)\b",
                                                                              "always")]


KINDS = ("verbatim", "trimmed", "negation_removed", "negation_added", "antonym", "figure_swap", "name_swap",
         "quantifier")


def _sentences(text: str) -> list[str]:
    return [text[s.start : s.end].strip() for s in sentences(text)]


def variants(window: list[str], i: int, rng: random.Random, opposites: dict[str, str]) -> list[tuple[str, str, str]]:
    """(kind, claim, label) rows made from sentence ``i`` of a window of sentences."""
    sentence = window[i]
    out: list[tuple[str, str, str]] = [("verbatim", sentence, "entailment")]
    parts = sentence.split(", ")
    if len(parts) > 1 and len(parts[0].split()) >= 6:
        out.append(("trimmed", parts[0].rstrip(",;") + ".", "entailment"))
    if _NOT.search(sentence):
        out.append(("negation_removed", _NOT.sub(r"\1", sentence, count=1), "contradiction"))
    elif " without " in sentence:
        out.append(("negation_removed", sentence.replace(" without ", " with ", 1), "contradiction"))
    elif " no longer " in sentence:
        out.append(("negation_removed", sentence.replace(" no longer ", " still ", 1), "contradiction"))
    elif " never " in sentence:
        out.append(("negation_removed", sentence.replace(" never ", " ", 1), "contradiction"))
    elif not _NEGATED.search(sentence) and _AFFIRM.search(sentence):
        out.append(("negation_added", _AFFIRM.sub(r"\1 not", sentence, count=1), "contradiction"))
    words = re.findall(r"\b[a-z]+\b", sentence)
    swappable = [w for w in words if w in opposites and opposites[w] not in words]
    if swappable:
        word = rng.choice(swappable)
        out.append(("antonym", re.sub(rf"\b{word}\b", opposites[word], sentence, count=1), "contradiction"))
    numbers = list(_NUMBER.finditer(sentence))
    distinct = [m for m in numbers if m.group() != numbers[0].group()] if numbers else []
    if numbers and distinct:
        a, b = numbers[0], distinct[0]
        out.append(("figure_swap", sentence[: a.start()] + b.group() + sentence[a.end() : b.start()] + a.group()
                    + sentence[b.end() :], "contradiction"))
    elif numbers and i + 1 < len(window):
        foreign = [m.group() for m in _NUMBER.finditer(window[i + 1]) if m.group() not in sentence]
        if foreign:
            a = numbers[0]
            out.append(("figure_swap", sentence[: a.start()] + rng.choice(foreign) + sentence[a.end() :],
                        "contradiction"))
    names = list(_NAME.finditer(sentence))
    if len(names) >= 2 and names[0].group() != names[1].group() and " and " not in sentence[
            names[0].end() : names[1].start()]:
        a, b = names[0], names[1]
        out.append(("name_swap", sentence[: a.start()] + b.group() + sentence[a.end() : b.start()] + a.group()
                    + sentence[b.end() :], "contradiction"))
    elif names:
        others = sorted({m.group() for s in window for m in _NAME.finditer(s)} - {m.group() for m in names})
        if others:
            a = rng.choice(names)
            out.append(("name_swap", sentence[: a.start()] + rng.choice(others) + sentence[a.end() :],
                        "contradiction"))
    for pattern, strong in _QUANTIFIERS:
        if re.search(pattern, sentence) and strong not in words:
            out.append(("quantifier", re.sub(pattern, strong, sentence, count=1), "neutral"))
            break
    return out


def build(per_kind: int, replay: int, nli: int, seed: int,
          added: tuple[str, ...] = ()) -> tuple[list[dict], list[dict], Counter]:
    """The stage's rows, its held-out rows, and how many rows of each binding kind were made.
    ``added``: permissive sets whose rows (all but the held-out ones) join the mix whole."""
    rng = random.Random(seed)
    opposites: dict[str, str] = {}
    for a, b in opposite_pairs():
        opposites.setdefault(a, b)
        opposites.setdefault(b, a)
    made: Counter[str] = Counter()
    rows: list[dict] = []
    heldout: list[dict] = []
    seen: set[str] = set()
    grounding: list[dict] = []
    for name in PREMISE_SETS:
        assert name in PERMISSIVE
        for row in read(name):
            if held_out(row):
                heldout.append(row)
                continue
            grounding.append(row)
    rng.shuffle(grounding)
    for row in grounding:
        if all(made[kind] >= per_kind for kind in KINDS):
            break
        if row["premise"] in seen:
            continue
        seen.add(row["premise"])
        window = _sentences(row["premise"])[:40]
        for i, sentence in enumerate(window):
            if not 8 <= len(sentence.split()) <= 45:
                continue
            premise = " ".join(window[max(0, i - 1) : i + 2])
            for kind, claim, label in variants(window, i, rng, opposites):
                if made[kind] >= per_kind or claim == sentence and kind != "verbatim":
                    continue
                made[kind] += 1
                rows.append({"premise": premise, "hypothesis": claim, "label": label, "dataset": row["dataset"],
                             "synthetic": "binding:" + kind})
    stage2 = [w for w in (windowed(r) for r in grounding[: replay * 2]) if w]
    rows += balanced(stage2, rng)[:replay]
    general = []
    for name in STAGE1:
        general += [r for r in read(name) if r["label"] != "not_entailment" and not held_out(r)]
    rng.shuffle(general)
    rows += general[:nli]
    for name in added:
        assert name in PERMISSIVE, f"{name} is not a permissive set (build_data.PERMISSIVE)"
        rows += [r for r in read(name) if not held_out(r)]
    rng.shuffle(rows)
    rng.shuffle(heldout)
    return rows, heldout[:3000], made


def with_binding(mix: dict, binding: dict) -> dict:
    """The build's mix with the binding rows' sets added (each set's row count under "binding"),
    so that the card lists every set the weights saw, with its licence."""
    sets = {name: dict(entry) for name, entry in mix.get("sets", {}).items()}
    for name, entry in binding.get("sets", {}).items():
        sets.setdefault(name, {"licence": entry["licence"]})["binding"] = entry["rows"]
    summary = {key: binding[key] for key in ("rows", "labels", "binding") if key in binding}
    return {**mix, "sets": sets, "binding_rows": summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-kind", type=int, default=3000)
    parser.add_argument("--replay", type=int, default=12000, help="grounding rows of stage 2 replayed")
    parser.add_argument("--nli", type=int, default=8000, help="general NLI rows replayed")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--add", action="append", default=[], choices=sorted(PERMISSIVE),
                        help="a permissive set whose rows join the mix whole (repeatable; e.g. mnli_dev)")
    args = parser.parse_args()
    rows, heldout, made = build(args.per_kind, args.replay, args.nli, args.seed, tuple(args.add))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, part in (("stage3", rows), ("heldout", heldout)):
        with open(args.out / f"{name}.jsonl", "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in part)
    sets = Counter(r["dataset"] for r in rows)
    summary = {"rows": len(rows), "labels": dict(Counter(r["label"] for r in rows)), "binding": dict(made),
               "sets": {name: {"licence": PERMISSIVE[name], "rows": n} for name, n in sorted(sets.items())},
               "heldout": len(heldout)}
    (args.out / "mix.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
