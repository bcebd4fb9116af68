"""Benchmark cases from ../shared/bench/data: loading, claim cleaning, and the perturbation set.

The perturbation set turns WiCE-dev *supported* claims into claims their page
contradicts — negation, a number or date swapped, an entity swapped for another
one taken from the same page — to measure false-"supported" on contradictions,
the worst error a verifier can make. It is written independently of the
synthetic rows in train/build_data.py on purpose: the model must not be tested
with the very generator it was trained on.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from citemark.answer.claims import clean_claim

DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "data"
_MARKERS = re.compile(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")


@dataclass(frozen=True)
class Case:
    id: str
    dataset: str
    claim: str
    source: str  # all sources joined, each preceded by its title line
    label: str
    titles: tuple[str, ...] = ()

    @property
    def pages(self) -> list[tuple[str, str]]:
        """(title, text) per source, for served mode."""
        parts = self.source.split("\n\f\n")
        return [(p.split("\n", 1)[0], p.split("\n", 1)[1] if "\n" in p else "") for p in parts]


def load(path: Path | str, limit: int | None = None) -> list[Case]:
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = [_case(row) for row in rows]
    return cases[:limit] if limit else cases


def _case(row: dict) -> Case:
    sources = row.get("sources") or []
    joined = "\n\f\n".join(f"{(s.get('title') or '').strip()}\n{s.get('text') or ''}" for s in sources)
    return Case(
        id=row["id"], dataset=row.get("dataset", ""), claim=clean(row["claim"]), source=joined,
        label=row["label"], titles=tuple(s.get("title") or "" for s in sources),
    )


def clean(claim: str) -> str:
    """The claim as citemark's answer parser would hand it over: citation markers, list
    markers ("4. ", "• ") and Markdown emphasis gone; every system gets the same text."""
    return clean_claim(_MARKERS.sub("", claim).replace("**", "").replace("__", ""))


def source_text(case: Case) -> str:
    """What text mode gives the engine: titles and texts, form feeds turned into blank lines."""
    return case.source.replace("\n\f\n", "\n\n")


# ---------------------------------------------------------------- perturbations

_NEGATIONS = [(r"\bis\b", "is not"), (r"\bwas\b", "was not"), (r"\bare\b", "are not"), (r"\bwere\b", "were not"),
              (r"\bhas\b", "has not"), (r"\bhave\b", "have not"), (r"\bhad\b", "had not"), (r"\bcan\b", "cannot"),
              (r"\bwill\b", "will not")]
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b|\b[A-Z][a-z]{3,}\b")


def perturb(cases: list[Case], seed: int = 7) -> list[Case]:
    """Contradicted variants of the supported cases (one kind per case, rotating)."""
    rng = random.Random(seed)
    out = []
    for case in (c for c in cases if c.label == "supported"):
        kinds = ["number", "entity", "negation"]
        rng.shuffle(kinds)
        for kind in kinds:
            claim = {"number": _swap_number, "entity": _swap_entity, "negation": _negate}[kind](case, rng)
            if claim and claim != case.claim:
                out.append(Case(id=f"{case.id}-{kind}", dataset=case.dataset + "-perturbed", claim=claim,
                                source=case.source, label="contradicted", titles=case.titles))
                break
    return out


def _negate(case: Case, rng: random.Random) -> str | None:
    if re.search(r"\bnot\b|n't\b|\bnever\b", case.claim):
        return None
    for pattern, replacement in _NEGATIONS:
        new, count = re.subn(pattern, replacement, case.claim, count=1)
        if count:
            return new
    return None


def _swap_number(case: Case, rng: random.Random) -> str | None:
    matches = list(_NUMBER.finditer(case.claim))
    if not matches:
        return None
    match = rng.choice(matches)
    raw = match.group().replace(",", "")
    try:
        value = float(raw)
    except ValueError:
        return None
    if 1500 <= value <= 2100 and "." not in raw:
        new = str(int(value) + rng.choice([-9, -5, -3, -2, 2, 3, 4, 7]))
    elif value < 10 and "." not in raw:
        new = str(int(value) + rng.choice([2, 3, 4, 5]))
    else:
        new = f"{value * rng.choice([0.5, 1.5, 2, 3]):,.0f}"
    if new in case.source:
        return None
    return case.claim[: match.start()] + new + case.claim[match.end():]


def _swap_entity(case: Case, rng: random.Random) -> str | None:
    claim_names = [m for m in _NAME.finditer(case.claim) if m.start() > 0]
    page_names = sorted({m.group() for m in _NAME.finditer(case.source)} - {m.group() for m in claim_names})
    page_names = [n for n in page_names if n not in case.claim and n.lower() not in case.claim.lower()]
    if not claim_names or not page_names:
        return None
    target = rng.choice(claim_names)
    same_shape = [n for n in page_names if (" " in n) == (" " in target.group())] or page_names
    return case.claim[: target.start()] + rng.choice(same_shape) + case.claim[target.end():]
