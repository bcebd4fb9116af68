"""The contrast-suite runner's pure parts: loading the suite, the per-kind shares, the report section."""

import json

import pytest

from bench.contrast_suite import ContrastClaim, aggregate, as_cases, load_suite, markdown, table_rows, targets
from bench.report import splice_section
from bench.systems import Prediction

PAGE = b"<html><head><title>Bees</title></head><body><p>The waggle dance was decoded by Karl von Frisch.</p></body></html>"


def write_suite(folder, rows, pages=("bees",)):
    (folder / "pages").mkdir(parents=True, exist_ok=True)
    for slug in pages:
        (folder / "pages" / f"{slug}.html").write_bytes(PAGE)
    (folder / "claims.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    return folder


def row(id, kind, label, claim="The waggle dance was decoded by Karl von Frisch.", page="bees"):
    return {"id": id, "page": page, "claim": claim, "kind": kind, "label": label, "fact": "decoder", "note": ""}


def claim(id, kind, label):
    return ContrastClaim(id=id, page="bees", claim="c", kind=kind, label=label)


def test_load_suite_reads_claims_and_the_pages_they_name(tmp_path):
    suite = load_suite(write_suite(tmp_path, [row("b1", "verbatim", "supported"),
                                              row("b2", "other_role", "contradicted", "It was decoded by Tinbergen.")]))
    assert [c.id for c in suite.claims] == ["b1", "b2"]
    assert suite.claims[1].kind == "other_role" and not suite.claims[1].true and suite.claims[0].true
    assert suite.pages == {"bees": PAGE}


@pytest.mark.parametrize("rows, problem", [
    ([row("b1", "verbatim", "supported"), row("b1", "polarity", "contradicted")], "repeated id"),
    ([row("b1", "polarity", "supported")], "cannot be labelled supported"),
    ([row("b1", "paraphrase", "unsupported")], "must be labelled supported"),
    ([row("b1", "verbatim", "true")], "is not one of"),
    ([row("b1", "verbatim", "supported", page="missing")], "page 'missing'"),
    ([{"id": "b1", "page": "bees", "claim": "x"}], "KeyError"),
])
def test_load_suite_names_what_is_wrong(tmp_path, rows, problem):
    with pytest.raises(ValueError, match=problem):
        load_suite(write_suite(tmp_path, rows))


def test_a_broken_line_is_an_error_with_its_number(tmp_path):
    folder = write_suite(tmp_path, [row("b1", "verbatim", "supported")])
    (folder / "claims.jsonl").write_text(json.dumps(row("b1", "verbatim", "supported")) + '\n{"id": "b2", "pa')
    with pytest.raises(ValueError, match="line 2"):
        load_suite(folder)


def test_as_cases_gives_every_claim_its_pages_extracted_text(tmp_path):
    suite = load_suite(write_suite(tmp_path, [row("b1", "verbatim", "supported", claim="**Bees** dance.")]))
    cases = as_cases(suite, {"bees": {"text": "Bees dance.", "title": "Bees", "error": None}})
    assert cases[0].source == "Bees dance." and cases[0].label == "supported" and cases[0].claim == "Bees dance."


CLAIMS = [claim("t1", "verbatim", "supported"), claim("t2", "verbatim", "supported"),
          claim("t3", "paraphrase", "supported"), claim("f1", "polarity", "contradicted"),
          claim("f2", "polarity", "contradicted"), claim("f3", "unaddressed", "unsupported"),
          claim("f4", "antonym", "contradicted")]
PREDICTIONS = [Prediction("supported", 0.9, reason="entailed", entailment=0.95),
               Prediction("partial", 0.4, reason="partial_coverage", entailment=0.7),
               Prediction("supported", 0.8, reason="entailed", entailment=0.4),
               Prediction("supported", 0.7, reason="entailed", entailment=0.9),
               Prediction("contradicted", 0.1, reason="contradicted_by_source", entailment=0.02),
               Prediction("unsupported", 0.1, reason="not_found", entailment=None),
               Prediction("contradicted", 0.1, reason="contradicted_by_source", entailment=0.3)]


def test_aggregate_gives_the_share_badged_supported_per_kind_in_the_suites_order():
    summary = aggregate(CLAIMS, PREDICTIONS)
    by_kind = summary["by_kind"]
    assert list(by_kind) == ["verbatim", "paraphrase", "polarity", "antonym", "unaddressed"]
    assert by_kind["verbatim"] == {"side": "true", "n": 2, "supported": 1, "share": 0.5,
                                   "verdicts": {"supported": 1, "partial": 1},
                                   "reasons": {"entailed": 1, "partial_coverage": 1},
                                   "model_alone": {"n": 2, "below": 0, "share": 0.0}}
    assert by_kind["polarity"]["share"] == 0.5 and by_kind["polarity"]["side"] == "false"
    assert by_kind["unaddressed"]["model_alone"] is None  # no window was scored by a model
    assert summary["overall"] == {"true": {"n": 3, "supported": 2, "share": 0.6667},
                                  "false": {"n": 4, "supported": 1, "share": 0.25}}


def test_the_model_alone_target_counts_polarity_antonym_and_role_reversal():
    target = aggregate(CLAIMS, PREDICTIONS)["model_target"]
    # polarity 0.9 and 0.02, antonym 0.3: two of three below 0.5
    assert target["n"] == 3 and target["below"] == 2 and target["share"] == 0.6667 and target["met"] is False


def test_a_system_without_reasons_or_a_model_reports_only_its_shares():
    summary = aggregate(CLAIMS, [Prediction("supported")] * len(CLAIMS))
    assert summary["model_target"] is None
    assert "reasons" not in summary["by_kind"]["verbatim"]
    assert summary["overall"]["false"]["share"] == 1.0
    with pytest.raises(ValueError):
        aggregate(CLAIMS, [Prediction("supported")])


def test_targets_say_where_a_system_stands():
    t = targets(aggregate(CLAIMS, PREDICTIONS))
    assert t["zero_kinds_supported"] == {"polarity": 1, "antonym": 0} and not t["zero_kinds_met"]
    assert not t["false_met"] and not t["true_met"]


def fake_report():
    systems = []
    for name, predictions, is_citemark in (("citemark (m, served/auto)", PREDICTIONS, True),
                                           ("peer 1.0", [Prediction("unsupported")] * len(CLAIMS), False)):
        summary = {"system": name, "short": name.split(" (")[0], "note": "", "citemark": is_citemark,
                   "seconds_per_claim": 0.01, **aggregate(CLAIMS, predictions)}
        summary["targets"] = targets(summary)
        systems.append(summary)
    return {"suite": {"claims": len(CLAIMS), "pages": 1, "unreadable_pages": {}}, "systems": systems}


def test_the_table_has_a_row_per_kind_and_the_two_overall_rows():
    rows = table_rows(fake_report())
    assert rows[0] == ["kind", "side", "n", "citemark", "peer 1.0"]
    assert rows[1] == ["verbatim", "true", "2", "50.0%", "0.0%"]
    assert rows[-1] == ["false claims badged supported", "false", "4", "25.0%", "0.0%"]


def test_the_markdown_section_has_the_table_the_reasons_and_the_model_alone():
    text = markdown(fake_report())
    assert text.startswith("## Contrast suite")
    assert "| polarity | false | 2 | 50.0% | 0.0% |" in text
    assert "`contradicted_by_source` 1" in text
    assert "**66.7% of 3** (not met)" in text


def test_splice_section_replaces_the_old_section_or_puts_it_before_the_cross_fit():
    report = "# R\n\n## Dev\n\nx\n\n## Cross-fitted combiner (out of sample)\n\ny\n"
    once = splice_section(report, "## Contrast suite (1)\n\nold\n")
    assert once == "# R\n\n## Dev\n\nx\n\n## Contrast suite (1)\n\nold\n\n## Cross-fitted combiner (out of sample)\n\ny\n"
    twice = splice_section(once, "## Contrast suite (2)\n\nnew\n")
    assert twice == once.replace("(1)\n\nold", "(2)\n\nnew")
    assert splice_section("# R\n", "## Contrast suite\n") == "# R\n\n## Contrast suite\n"
