"""CI accuracy gate: on a fixed 100-case subset, balanced accuracy (balanced policy) and the precision of "supported" (strict) must not fall below the pins in bench/floor.json."""

from __future__ import annotations

import json

from bench.cases import DATA
from bench.floor import PIN, measure, regressions
from tests.support.needs import need_files


def test_accuracy_does_not_fall_below_the_pins(home):
    need_files(DATA / "wice-dev.jsonl", DATA / "attrbench-dev.jsonl",
               origin="the WiCE and AttributionBench dev sets, kept beside the clone in ../shared/bench/data (not in the repository)")
    pin = json.loads(PIN.read_text())
    result = measure()
    assert result["model"] == pin["model"], "the default model changed: re-pin deliberately (python -m bench.floor --update)"
    assert not regressions(result, pin), result
