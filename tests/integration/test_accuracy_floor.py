"""CI accuracy gate: the default model on a fixed 100-case subset must not fall below the pin in bench/floor.json."""

from __future__ import annotations

import json

from bench.floor import PIN, TOLERANCE, measure


def test_balanced_accuracy_does_not_fall_below_the_pin(home):
    pin = json.loads(PIN.read_text())
    result = measure()
    assert result["model"] == pin["model"], "the default model changed: re-pin deliberately (python -m bench.floor --update)"
    assert result["balanced_accuracy"] >= pin["balanced_accuracy"] - TOLERANCE, result
