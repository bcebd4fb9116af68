"""What a test needs from outside the repository: on a fresh clone the test is skipped with where to get it; in CI it fails.

CI (``CI=1``, set by ``.ci/run``) has every piece, so a missing one there is a broken set-up, not a reason to skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

__all__ = ["need", "need_files"]


def need(present: bool, reason: str) -> None:
    """Skip (outside CI) or fail (in CI) the calling test unless ``present``."""
    if present:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must provide this: {reason}", pytrace=False)
    pytest.skip(reason)


def need_files(*paths: Path, origin: str) -> None:
    """Every path must exist; ``origin`` says in one line where the files come from."""
    missing = [str(p) for p in paths if not p.exists()]
    need(not missing, f"needs {', '.join(missing)}: {origin}")
