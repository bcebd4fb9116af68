"""The CI accuracy gate: on a fixed ~100-case subset, neither of two pinned numbers may fall.

- ``balanced_accuracy`` under the balanced policy (what its combiner was fitted for);
- ``strict_precision``: the precision of "supported" under the strict policy (the default),
  whose promise is that a green badge is right.

    python -m bench.floor            # measure and compare with bench/floor.json
    python -m bench.floor --update   # re-pin (a deliberate commit that says why)

The subset is every 7th WiCE-dev case and every 24th AttributionBench-dev case
(50 + 50), sources given as text, with the default model of a fresh install.
``tests/integration/test_accuracy_floor.py`` runs the same check in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bench import metrics
from bench.cases import DATA, load

PIN = Path(__file__).with_name("floor.json")
#: Scores of int8 models move slightly with batch composition; the gate allows this much.
TOLERANCE = 0.02


def subset():
    wice = load(DATA / "wice-dev.jsonl")[::7][:50]
    attr = load(DATA / "attrbench-dev.jsonl")[::24][:50]
    return wice + attr


def measure(model: str | None = None) -> dict:
    from bench.systems import Citemark

    cases = subset()
    gold = [c.label for c in cases]
    result: dict = {"n": len(cases)}
    for policy in ("balanced", "strict"):
        system = Citemark(model, "text", policy=policy)
        predicted = [p.label for p in asyncio.run(system.predict(cases))]
        if policy == "balanced":
            result["balanced_accuracy"] = round(metrics.balanced_accuracy(gold, predicted), 4)
        else:
            result["strict_precision"] = round(metrics.precision(gold, predicted), 4)
        result["model"] = system.model()
    return result


def regressions(result: dict, pin: dict) -> list[str]:
    """Each pinned number the measurement fell below by more than TOLERANCE."""
    return [f"{key}: {result[key]} < pinned {pin[key]} - {TOLERANCE}" for key in ("balanced_accuracy", "strict_precision")
            if key in pin and result[key] < pin[key] - TOLERANCE]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the measured value as the new pin")
    args = parser.parse_args()
    result = measure()
    pin = json.loads(PIN.read_text()) if PIN.exists() else None
    print(json.dumps({"measured": result, "pinned": pin}, indent=2))
    if args.update:
        PIN.write_text(json.dumps(result, indent=2) + "\n")
        print(f"pinned {result['balanced_accuracy']} in {PIN}")
        return 0
    for line in regressions(result, pin) if pin else []:
        print(f"REGRESSION: {line}")
    return 1 if pin and regressions(result, pin) else 0


if __name__ == "__main__":
    sys.exit(main())
