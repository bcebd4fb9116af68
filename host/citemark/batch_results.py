"""What a batch leaves behind: the results file that makes it resumable, and its summary.

``ResultsFile`` is the output JSON Lines file: it tells a new run which ids are done,
cuts a line torn by a kill, and writes each finished answer as one flushed line.
``BatchSummary`` counts what the records say: the pass rate, verdicts and reasons, and
the sources that most often did not support their claims.
"""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from citemark.types import Label

__all__ = ["BatchSummary", "ResultsFile"]

log = logging.getLogger(__name__)

_FAILING = (Label.CONTRADICTED.value, Label.RETRACTED.value)  # what makes ``verify`` exit 1


# ---------------------------------------------------------------- output and resume


class ResultsFile:
    """The output JSON Lines file: what is already done, and one flushed line per finished answer.

    A run killed while writing leaves at most one torn last line; ``open`` cuts it off,
    so that answer is simply verified again.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done_ids: set[str] = set()
        self.done_lines: set[int] = set()  # error records without an id, by input line
        self.previous: list[dict[str, Any]] = []
        self.policies: set[str] = set()  # the verdict policies of the records already there
        self._handle: BinaryIO | None = None

    def open(self) -> ResultsFile:
        good = 0
        if self.path.exists():
            with open(self.path, "rb") as existing:
                for raw in existing:
                    if not raw.endswith(b"\n"):
                        break
                    try:
                        record = json.loads(raw)
                    except ValueError:
                        break
                    good += len(raw)
                    self._remember(record)
            if good != self.path.stat().st_size:
                log.warning("%s: cut a torn last line (a run was stopped while writing it)", self.path)
                os.truncate(self.path, good)
        self._handle = open(self.path, "ab")  # noqa: SIM115 - kept open for the run
        return self

    def _remember(self, record: dict[str, Any]) -> None:
        self.previous.append(_summary_view(record))
        if isinstance(record.get("policy"), str):
            self.policies.add(record["policy"])
        if record.get("id") is not None:
            self.done_ids.add(str(record["id"]))
        elif isinstance(record.get("line"), int):
            self.done_lines.add(record["line"])

    def write(self, record: dict[str, Any]) -> None:
        assert self._handle is not None
        self._handle.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __enter__(self) -> ResultsFile:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _summary_view(record: dict[str, Any]) -> dict[str, Any]:
    """The parts of a record the summary reads (resume keeps these, not whole quotes)."""
    if "error" in record:
        return {"error": record["error"]}
    return {"verdicts": [{"verdict": v.get("verdict"), "reason": v.get("reason"), "claim_index": v.get("claim_index"),
                          "citation": v.get("citation") or {}} for v in record.get("verdicts", [])]}


# ---------------------------------------------------------------- summary


@dataclass
class BatchSummary:
    """What a batch found: pass rate, verdicts and reasons, the sources that let answers down."""

    answers: int = 0  # verified (reports written)
    resumed: int = 0  # records already in the output when the run started (counted in the rest too)
    errors: int = 0  # lines reported as errors
    passed: int = 0  # answers with no contradicted or retracted citation (``verify`` would exit 0)
    claims: int = 0
    citations: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    error_codes: Counter[str] = field(default_factory=Counter)
    sources: dict[str, Counter[str]] = field(default_factory=dict)  # source → verdict counts, where not supported

    def add(self, record: dict[str, Any]) -> None:
        if "error" in record:
            self.errors += 1
            self.error_codes[str(record["error"].get("code"))] += 1
            return
        verdicts = record.get("verdicts", [])
        self.answers += 1
        self.citations += len(verdicts)
        self.claims += len({v.get("claim_index") for v in verdicts})
        labels = [v.get("verdict") for v in verdicts]
        self.passed += not any(label in _FAILING for label in labels)
        for verdict in verdicts:
            self.verdicts[verdict.get("verdict")] += 1
            self.reasons[verdict.get("reason")] += 1
            if verdict.get("verdict") != Label.SUPPORTED.value:
                citation = verdict.get("citation") or {}
                where = citation.get("url") or citation.get("path") or "(inline text)"
                self.sources.setdefault(where, Counter())[verdict.get("verdict")] += 1

    @property
    def pass_rate(self) -> float:
        return self.passed / self.answers if self.answers else 0.0

    def worst_sources(self, count: int = 10) -> list[tuple[str, Counter[str]]]:
        """Sources with the most citations not supported, most first."""
        return sorted(self.sources.items(), key=lambda item: (-item[1].total(), item[0]))[:count]

    def to_dict(self) -> dict[str, Any]:
        return {
            "answers": self.answers, "resumed": self.resumed, "errors": self.errors, "passed": self.passed,
            "pass_rate": round(self.pass_rate, 4), "claims": self.claims, "citations": self.citations,
            "supported_share": round(self.verdicts[Label.SUPPORTED.value] / self.citations, 4) if self.citations else 0.0,
            "verdicts": {label.value: self.verdicts[label.value] for label in Label},
            "reasons": dict(self.reasons.most_common()),
            "error_codes": dict(self.error_codes.most_common()),
            "worst_sources": [{"source": where, "not_supported": counts.total(), "verdicts": dict(counts.most_common())}
                              for where, counts in self.worst_sources()],
        }

    def to_text(self) -> str:
        earlier = f" ({self.resumed:,} already in the output from an earlier run)" if self.resumed else ""
        lines = [f"{self.answers:,} answers verified, {self.errors:,} lines with errors{earlier}; "
                 f"{self.passed:,} passed ({self.pass_rate:.1%}: no citation contradicted or retracted)"]
        if self.citations:
            parts = ", ".join(f"{self.verdicts[label.value]:,} {label.value}" for label in Label if self.verdicts[label.value])
            lines.append(f"{self.citations:,} citations of {self.claims:,} claims: {parts}")
            lines.append("reasons: " + ", ".join(f"{reason} {n:,}" for reason, n in self.reasons.most_common(8)))
        if self.error_codes:
            lines.append("errors: " + ", ".join(f"{code} {n:,}" for code, n in self.error_codes.most_common()))
        worst = self.worst_sources(5)
        if worst:
            lines.append("sources most often not supporting their claims:")
            for where, counts in worst:
                lines.append(f"  {counts.total():6,}  {where}  ({', '.join(f'{n} {v}' for v, n in counts.most_common())})")
        return "\n".join(lines) + "\n"
