"""citemark: check that the sources an AI answer cites really say what it claims.

Public API (imported lazily, so ``import citemark`` stays cheap for the native host)::

    from citemark import Engine, Settings, parse_answer, Label

    async with Engine() as engine:
        async for verdict in engine.verify(markdown_answer):
            print(verdict.label, verdict.claim, verdict.evidence)
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Engine": "citemark.engine",
    "Settings": "citemark.settings",
    "parse_answer": "citemark.answer",
    "Citation": "citemark.types",
    "Claim": "citemark.types",
    "Document": "citemark.types",
    "Evidence": "citemark.types",
    "Label": "citemark.types",
    "ParsedAnswer": "citemark.types",
    "Report": "citemark.types",
    "Scores": "citemark.types",
    "Verdict": "citemark.types",
    "CitemarkError": "citemark.errors",
    "snap_quote": "citemark.scoring.quotes",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'citemark' has no attribute {name!r}")
