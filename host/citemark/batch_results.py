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
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from citemark.doors import answer_passed
from citemark.errors import OutputRefused
from citemark.types import Label

__all__ = ["BatchSummary", "ResultsFile"]

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- output and resume


class ResultsFile:
    """The output JSON Lines file: what is already done, and one flushed line per finished answer.

    A run killed while writing leaves at most one torn last line; ``open`` cuts it off,
    so that answer is simply verified again. That is the only change ever made to an
    existing file, and only to a file whose every complete line is a citemark record:
    anything else (a foreign first line, a bad line in the middle, a symbolic link, a
    directory, the input file under another name) is ``OutputRefused`` and the file is
    left as it was. Records already there are counted into ``summary`` as they are read,
    so resuming a million-line file keeps only its ids in memory.
    """

    def __init__(self, path: Path, *, summary: BatchSummary | None = None,
                 input_stat: os.stat_result | None = None) -> None:
        self.path = path
        self.summary = summary
        self.input_stat = input_stat  # the input file: never appended to, whatever its name
        self.done_ids: set[str] = set()
        self.done_lines: set[int] = set()  # error records without an id, by input line
        self.policies: set[str] = set()  # the verdict policies of the records already there
        self._handle: BinaryIO | None = None

    def open(self) -> ResultsFile:
        handle = self._open_own()
        try:
            good, size = self._read_done(handle)
            if good != size:
                log.warning("%s: cut a torn last line (a run was stopped while writing it)", self.path)
                os.ftruncate(handle.fileno(), good)
        except BaseException:
            handle.close()
            raise
        self._handle = handle
        return self

    def _open_own(self) -> BinaryIO:
        """The file opened once, never through a link, and checked on that open descriptor."""
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            descriptor = os.open(self.path, flags, 0o644)
        except IsADirectoryError:
            raise OutputRefused(f"--out {self.path} is a directory: give a file name") from None
        except OSError as error:
            if os.path.islink(self.path):
                raise OutputRefused(f"--out {self.path} is a symbolic link: citemark writes only a file it "
                                    "created itself, never through a link") from None
            raise OutputRefused(f"--out {self.path} cannot be opened ({error.strerror or error})") from None
        handle = open(descriptor, "r+b")  # noqa: SIM115 - kept open for the run; O_APPEND makes every write an append
        status = os.fstat(descriptor)
        why = None
        if not stat.S_ISREG(status.st_mode):
            why = "is not a regular file"
        elif self.input_stat is not None and _same_file(status, self.input_stat):
            why = "is the input file"
        if why:
            handle.close()
            raise OutputRefused(f"--out {self.path} {why}: nothing was written")
        return handle

    def _read_done(self, handle: BinaryIO) -> tuple[int, int]:
        """Bytes of whole records at the start, and the file's size; OutputRefused for any line not citemark's."""
        good, number = 0, 0
        while raw := handle.readline(MAX_RECORD_BYTES + 1):
            number += 1
            if not raw.endswith(b"\n") and len(raw) <= MAX_RECORD_BYTES and (
                    raw.startswith(_RECORD_START) or good and _RECORD_START.startswith(raw)):
                break  # a torn last line of ours
            record = _record(raw) if raw.endswith(b"\n") else None
            if record is None:
                where = "its first line" if number == 1 else f"line {number}"
                raise OutputRefused(f"--out {self.path}: {where} is not a citemark batch record, so citemark did "
                                    "not write this file; nothing was changed (give a new file name)")
            good += len(raw)
            self._remember(record)
        return good, os.fstat(handle.fileno()).st_size

    def _remember(self, record: dict[str, Any]) -> None:
        if isinstance(record.get("policy"), str):
            self.policies.add(record["policy"])
        if self.summary is not None:
            self.summary.add(record)
            self.summary.resumed += 1
        if record.get("id") is not None:
            self.done_ids.add(str(record["id"]))
        elif isinstance(record.get("line"), int):
            self.done_lines.add(record["line"])

    def write(self, record: dict[str, Any]) -> None:
        assert self._handle is not None
        try:
            line = json.dumps(record, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from the input ("\ud800"): written escaped, read back the same
            line = json.dumps(record).encode("ascii")
        self._handle.write(line + b"\n")
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __enter__(self) -> ResultsFile:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Every record citemark writes starts so (``json.dumps`` keeps the key order, and ``id`` comes first).
_RECORD_START = b'{"id": '
#: A line longer than this is not one of ours (the largest report, of the longest answer, is far smaller).
MAX_RECORD_BYTES = 64 << 20


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _record(raw: bytes) -> dict[str, Any] | None:
    """A line as citemark writes it: ``{"id", "verdicts": [{...}], ...}`` or ``{"id", "line", "error": {...}}``."""
    if not raw.startswith(_RECORD_START):
        return None
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("id"), str | int | None):
        return None
    if "error" in record:
        return record if isinstance(record["error"], dict) else None
    verdicts = record.get("verdicts")
    return record if isinstance(verdicts, list) and all(_verdict_shape(v) for v in verdicts) else None


def _verdict_shape(verdict: Any) -> bool:
    """The fields ``BatchSummary.add`` counts by are plain values (a list there is not a record of ours)."""
    if not isinstance(verdict, dict) or not isinstance(verdict.get("citation") or {}, dict):
        return False
    citation = verdict.get("citation") or {}
    plain = (verdict.get(k) for k in ("verdict", "reason", "claim_index"))
    where = (citation.get(k) for k in ("url", "path"))
    return all(isinstance(v, str | int | None) for v in plain) and all(isinstance(v, str | None) for v in where)


# ---------------------------------------------------------------- summary


@dataclass
class BatchSummary:
    """What a batch found: pass rate, verdicts and reasons, the sources that let answers down."""

    answers: int = 0  # verified (reports written)
    resumed: int = 0  # records already in the output when the run started (counted in the rest too)
    errors: int = 0  # lines reported as errors
    unfinished: int = 0  # answers a worker took and never returned (it died): the next run verifies them
    passed: int = 0  # answers ``verify`` would exit 0 for (``doors.answer_passed``)
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
        self.passed += answer_passed([v.get("verdict") for v in verdicts])[0]  # as ``verify`` exits 0
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
            "answers": self.answers, "resumed": self.resumed, "errors": self.errors, "unfinished": self.unfinished,
            "passed": self.passed,
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
                 f"{self.passed:,} passed ({self.pass_rate:.1%}: as `verify` passes them)"]
        if self.citations:
            parts = ", ".join(f"{self.verdicts[label.value]:,} {label.value}" for label in Label if self.verdicts[label.value])
            lines.append(f"{self.citations:,} citations of {self.claims:,} claims: {parts}")
            lines.append("reasons: " + ", ".join(f"{reason} {n:,}" for reason, n in self.reasons.most_common(8)))
        if self.unfinished:
            lines.append(f"{self.unfinished:,} answers were not verified: the worker that took them stopped; "
                         "run the same command to verify them")
        if self.error_codes:
            lines.append("errors: " + ", ".join(f"{code} {n:,}" for code, n in self.error_codes.most_common()))
        worst = self.worst_sources(5)
        if worst:
            lines.append("sources most often not supporting their claims:")
            for where, counts in worst:
                lines.append(f"  {counts.total():6,}  {where}  ({', '.join(f'{n} {v}' for v, n in counts.most_common())})")
        return "\n".join(lines) + "\n"
