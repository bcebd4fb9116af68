"""Benchmark cases from ../shared/bench/data: loading, claim cleaning, and the perturbation set.

The perturbation set turns WiCE-dev *supported* claims into claims their page
contradicts — negation, a number or date swapped, a name swapped for another
name the page writes in the same place — to measure false-"supported" on contradictions,
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
#: A name: capitalised words on one line, joined by single spaces (one word needs 4+ letters).
_NAME = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b|\b[A-Z][a-z]{3,}\b")
#: What must come just before a name for it to count: a lower-case word, a comma or an
#: opening bracket or quote and one space. A capital at a sentence or line start, or
#: after another capitalised word, may be an ordinary word ("When", "Approximately").
_MID_SENTENCE = re.compile(r"[a-z,;:(\"“] $")
_MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"}
KINDS = ("number", "entity", "negation")
#: The seed of the perturbation set of record (bench/REPORT.md's table).
SEED = 7


def perturb(cases: list[Case], seed: int = SEED) -> list[Case]:
    """Contradicted variants of the supported cases: one per kind that applies to a claim.

    Each case draws from its own generator (seeded by the seed and the case id), so a
    change to one case or to the case list never changes another case's variant.
    """
    out = []
    for case in (c for c in cases if c.label == "supported"):
        rng = random.Random(f"{seed}:{case.id}")
        for kind in KINDS:
            claim = {"number": _swap_number, "entity": _swap_entity, "negation": _negate}[kind](case, rng)
            if claim and claim != case.claim:
                out.append(Case(id=f"{case.id}-{kind}", dataset=case.dataset + "-perturbed", claim=claim,
                                source=case.source, label="contradicted", titles=case.titles))
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


def _names(text: str) -> list[tuple[str, str, re.Match]]:
    """The names written mid-sentence in ``text``, each with the word before it."""
    out = []
    for match in _NAME.finditer(text):
        before = text[max(0, match.start() - 30): match.start()]
        after = text[match.end(): match.end() + 1]
        if _MID_SENTENCE.search(before) and after not in ("-", "'", "’"):
            out.append((before.split()[-1].lower().strip(",;:(\"“"), match.group(), match))
    return out


def _swap_entity(case: Case, rng: random.Random) -> str | None:
    """A name of the claim replaced by another name its page writes after the same word
    ("died in Blackville" → "died in Marion", "the Pounceys" → "the Dolphins"), so the
    swap reads like a real mistake rather than a broken sentence ("in Calgary, When")."""
    page = {}
    for before, name, _ in _names(case.source):
        page.setdefault(before, set()).add(name)
    choices = []
    for before, name, match in _names(case.claim):
        others = sorted(n for n in page.get(before, ()) if n.lower() not in case.claim.lower()
                        and n.count(" ") == name.count(" ") and (n in _MONTHS) == (name in _MONTHS))
        if before and others:
            choices.append((match, others))
    if not choices:
        return None
    match, others = rng.choice(choices)
    return case.claim[: match.start()] + rng.choice(others) + case.claim[match.end():]
