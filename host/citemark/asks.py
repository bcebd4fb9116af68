"""What one verify request asks beyond its answer, checked once so that every door refuses the same bad value.

- ``top_k``: up to this many ranked evidence passages per verdict (1, the
  default: the deciding passage alone, as before; at most ``MAX_TOP_K``);
- ``expect_sha256``: the SHA-256 the source's extracted text should have (a
  verdict's ``source_sha256`` from an earlier report); a source whose text
  differs gets ``source_changed`` instead of a judgement of other words;
- ``support_threshold``: a bar that may only be raised: a supported verdict
  whose support score is below it becomes partial (``below_support_threshold``);
- ``valid_only``: the report lists only the citations that pass (``Label.passes``)
  and says how many it left out.

The CLI's flags and MCP's arguments build an ``Asks``; a bad value is an
``InputError`` (E100) before anything is fetched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citemark.errors import InputError

__all__ = ["MAX_TOP_K", "Asks"]

#: More passages than this is a page, not evidence; and each costs retrieval and a quote.
MAX_TOP_K = 10
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, kw_only=True, slots=True)
class Asks:
    top_k: int = 1
    expect_sha256: str | None = None
    support_threshold: float | None = None
    valid_only: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or not 1 <= self.top_k <= MAX_TOP_K:
            raise InputError(f"top_k must be a whole number from 1 to {MAX_TOP_K}, not {self.top_k!r}")
        if self.expect_sha256 is not None:
            digest = self.expect_sha256.strip().lower() if isinstance(self.expect_sha256, str) else ""
            if not _SHA256.fullmatch(digest):
                raise InputError(f"expect_sha256 must be 64 hexadecimal digits (a SHA-256), not {self.expect_sha256!r}")
            object.__setattr__(self, "expect_sha256", digest)
        threshold = self.support_threshold
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int | float)
                                      or not 0 <= threshold <= 1):
            raise InputError(f"support_threshold must be a number from 0 to 1, not {threshold!r}")
