"""The real-text contrast set (bench/contrast_real/) is well formed: every claim names its page, its kind
and label agree, and every false claim records the word it changed (a test set: it is only read here)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

SET = Path(__file__).resolve().parents[2] / "bench" / "contrast_real"
TRUE_KINDS = {"verbatim", "paraphrase", "numeric_equivalent", "multi_sentence"}
FALSE_KINDS = {"polarity", "antonym", "neighbour_figure", "other_role", "role_reversal", "quantifier",
               "ordinal_superlative", "date_shift", "added_detail", "unaddressed"}


def test_every_claim_is_well_formed_and_each_false_kind_has_twenty():
    claims = [json.loads(line) for line in (SET / "claims.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(claims) >= 240
    assert len({c["id"] for c in claims}) == len(claims)
    for claim in claims:
        assert (SET / "pages" / f"{claim['page']}.html").is_file(), claim["id"]
        assert claim["kind"] in TRUE_KINDS | FALSE_KINDS, claim["id"]
        assert (claim["label"] == "supported") == (claim["kind"] in TRUE_KINDS), claim["id"]
        if claim["kind"] not in TRUE_KINDS:
            assert claim["changed"] and claim["changed"] in claim["claim"], claim["id"]
    kinds = Counter(c["kind"] for c in claims)
    assert all(kinds[kind] >= 20 for kind in FALSE_KINDS - {"added_detail", "unaddressed"}), kinds
