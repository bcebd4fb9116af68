"""Drive ``citemark host`` as the browser does: a subprocess, real pipes, length-prefixed frames."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


def host_environment(home: Path, *, model: str = "none") -> dict[str, str]:
    """A host's environment in a temporary home: its own folders, loopback sources allowed (test-only), no retries."""
    return {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
            "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "CITEMARK_ALLOW_PRIVATE_NETWORK": "1", "CITEMARK_MODEL": model, "CITEMARK_RETRIES": "0"}


class HostProcess:
    def __init__(self, env: dict[str, str], origin: str = "chrome-extension://bhadmilphieoccdcfilkjpfmilnfkdop/") -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "citemark.cli", origin],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **env},
        )
        self.frames: queue.Queue[Any] = queue.Queue()
        self.raw_errors: list[str] = []
        self.stderr = b""
        self._threads = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._drain_stderr, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            header = stream.read(4)
            if len(header) < 4:
                self.frames.put(None)
                return
            (length,) = struct.unpack("=I", header)
            body = stream.read(length)
            try:
                self.frames.put(json.loads(body.decode("utf-8")))
            except ValueError as error:  # anything but a frame on stdout is a bug
                self.raw_errors.append(f"{error}: {body[:200]!r}")
                self.frames.put({"type": "__garbage__"})

    def _drain_stderr(self) -> None:
        self.stderr = self.process.stderr.read()

    def send(self, message: dict[str, Any] | bytes) -> None:
        body = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.write(struct.pack("=I", len(body)) + body)

    def write(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def receive(self, timeout: float = 20.0) -> dict[str, Any]:
        frame = self.frames.get(timeout=timeout)
        assert frame is not None, "host closed stdout"
        return frame

    def until(self, request_id: Any, kind: str, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Every frame up to and including the first of ``kind`` for ``request_id`` (others are kept)."""
        deadline = time.monotonic() + timeout
        seen: list[dict[str, Any]] = []
        while True:
            frame = self.receive(max(0.1, deadline - time.monotonic()))
            seen.append(frame)
            if frame.get("id") == request_id and frame.get("type") == kind:
                return seen

    def close(self, timeout: float = 15.0) -> int:
        if self.process.stdin and not self.process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            code = self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            for thread in self._threads:
                thread.join(5)
            self.process.stdout.close()
            self.process.stderr.close()
        return code
