"""Prove that each browser can start the host: ``citemark doctor [--json]``.

For every build of every browser (``citemark.browsers``), the doctor finds the manifest
that browser will actually read (its user place first, its system place second; on
Windows the file the registry key names), checks it names ``org.citemark.host`` and an
executable that exists, that it allows the extension (``allowed_origins`` holds
``chrome-extension://<id>/``; Firefox: ``allowed_extensions`` holds the add-on id), and
then starts that executable the way the browser does (Chromium: the origin as the only
argument; Firefox: the manifest path and the add-on id; the executable's folder as the
working directory) and asks ``hello`` over the real framing (32-bit native-order
length, UTF-8 JSON). A browser build found on this machine without a manifest is a
failure; one that is not here is only listed. Every failure comes with the exact
command that fixes it. The model and the source cache are checked too.

    citemark doctor                       # what each browser will find, and how to fix it
    citemark doctor --json                # the same for scripts
    citemark doctor --user-data-dir DIR   # a Chromium started with --user-data-dir DIR
"""

from __future__ import annotations

import json
import os
import shlex
import struct
import subprocess
import tempfile
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from citemark import __version__
from citemark.browsers import EXTENSION_ID, GECKO_ID, HOST_NAME, Layout, Location, Route
from citemark.install import Installer, Registry, chosen_browsers
from citemark.native import encode_frame

__all__ = ["Doctor", "Finding", "run"]

_HEADER = struct.Struct("=I")
#: A hello reply is a few hundred bytes; anything much larger is not our host talking.
_MAX_REPLY = 1024 * 1024


@dataclass
class Finding:
    """What one browser build will find, and what to do about it."""

    browser: str
    variant: str
    status: str  # ok | fail | absent
    manifest: str | None = None
    problems: list[str] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    host: dict[str, Any] | None = None  # the hello reply

    @property
    def label(self) -> str:
        return f"{self.browser} ({self.variant})" if self.variant else self.browser

    def line(self) -> str:
        if self.status == "ok":
            answered = f" → {self.host.get('name')} {self.host.get('version')} answered hello" if self.host else ""
            return f"ok    {self.label}: {self.manifest}{answered}"
        text = f"FAIL  {self.label}: " + "; ".join(self.problems)
        return text + "".join(f"\n        fix: {fix}" for fix in self.fixes)


@dataclass
class Doctor:
    """Checks the registration for one OS layout; ``timeout`` bounds each start of the host."""

    layout: Layout
    registry: Registry | None = None
    extension_ids: list[str] = field(default_factory=lambda: [EXTENSION_ID])
    timeout: float = 30.0

    def check(self, browsers: list[str], user_data_dir: Path | None = None) -> list[Finding]:
        findings, proven = [], {}
        for browser in browsers:
            for route in self.layout.routes(browser, user_data_dir):
                findings.append(self._check_route(route, user_data_dir, proven))
        return findings

    # ------------------------------------------------------------ one browser build

    def _check_route(self, route: Route, user_data_dir: Path | None, proven: dict[Path, Finding]) -> Finding:
        finding = Finding(route.browser, route.variant, "fail")
        if user_data_dir is None and not self.layout.found(route.locations[0]):
            finding.status = "absent"
            return finding
        read = self._manifest_read(route)
        fix = _install_command(route, user_data_dir)
        if read is None:
            where = route.locations[0]
            looked = "\\".join(where.registry_key) if where.registry_key else str(where.manifest)
            finding.problems.append(f"no manifest: the browser looks for {looked}")
            finding.fixes.append(fix)
            return finding
        place, path = read
        finding.manifest = str(path)
        if place.variant == "system":
            fix = f"citemark install --system --browser {route.browser}"
            fix = f"{fix} (in an administrator shell)" if self.layout.platform == "win32" else f"sudo {fix}"
        if path in proven:  # several builds read one file (a Flatpak Firefox through the portal)
            done = proven[path]
            finding.status, finding.problems, finding.fixes, finding.host = done.status, done.problems, done.fixes, done.host
            return finding
        self._prove(finding, route.browser, path, fix)
        proven[path] = finding
        return finding

    def _manifest_read(self, route: Route) -> tuple[Location, Path] | None:
        """The place and file the browser reads first, or None when it finds none."""
        for place in route.locations:
            if place.registry_key:
                value = self.registry.get_default(*place.registry_key) if self.registry else None
                if value and Path(value).is_file():
                    return place, Path(value)
            elif place.manifest.is_file():
                return place, place.manifest
        return None

    def _prove(self, finding: Finding, browser: str, path: Path, fix: str) -> None:
        problems, fixes = finding.problems, finding.fixes
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except (OSError, UnicodeDecodeError, ValueError) as error:
            problems.append(f"{path} is not a readable JSON manifest ({error})")
            fixes.append(fix)
            return
        if data.get("name") != HOST_NAME:
            problems.append(f"its name is {data.get('name')!r}, not {HOST_NAME!r}")
        if data.get("type") != "stdio":
            problems.append(f"its type is {data.get('type')!r}, not 'stdio'")
        executable = Path(str(data.get("path") or ""))
        if not executable.is_absolute() or not executable.is_file():
            problems.append(f"the executable it names, {executable}, does not exist")
        elif self.layout.platform != "win32" and not os.access(executable, os.X_OK):
            problems.append(f"{executable} is not executable")
            fixes.append(f"chmod +x {shlex.quote(str(executable))}")
        origin = self._allowed(browser, data)
        if origin is None:
            wanted = GECKO_ID if browser == "firefox" else f"chrome-extension://{self.extension_ids[0]}/"
            problems.append(f"it does not allow the extension {wanted}")
            extra = "".join(f" --extension-id {i}" for i in self.extension_ids if i != EXTENSION_ID)
            fixes.append(fix + (extra if browser != "firefox" else ""))
        if problems:
            if not any(f.startswith(fix) for f in fixes):
                fixes.append(fix)
            return
        assert origin is not None
        reply, why = self._hello(browser, executable, path, origin)
        if reply is None:
            problems.append(f"{executable} was started as the browser starts it but {why}")
            fixes.append(f"run it by hand to see why: {shlex.quote(str(executable))} host, or reinstall: {fix}")
            return
        finding.host = reply
        if reply.get("type") == "error":
            problems.append(f"the host refused the browser's hello: {reply.get('code')} {reply.get('message')}")
            fixes.append(fix)
        elif reply.get("type") != "hello" or reply.get("name") != HOST_NAME:
            problems.append(f"{executable} answered, but not as {HOST_NAME} ({str(reply)[:120]})")
            fixes.append(fix)
        elif reply.get("version") != __version__:
            problems.append(f"it starts citemark {reply.get('version')}, and this citemark (and its extension) is {__version__}")
            fixes.append(fix)
        else:
            finding.status = "ok"

    def _allowed(self, browser: str, data: dict[str, Any]) -> str | None:
        """The caller the browser will name when it starts the host, if the manifest allows it."""
        if browser == "firefox":
            allowed = data.get("allowed_extensions") or []
            return GECKO_ID if isinstance(allowed, list) and GECKO_ID in allowed else None
        allowed = data.get("allowed_origins") or []
        for extension_id in self.extension_ids:
            origin = f"chrome-extension://{extension_id}/"
            if isinstance(allowed, list) and origin in allowed:
                return origin
        return None

    def _hello(self, browser: str, executable: Path, manifest: Path, origin: str) -> tuple[dict[str, Any] | None, str]:
        """Start the host as ``browser`` would, send hello, and return its first reply (or why there is none)."""
        argv = [str(executable), str(manifest), origin] if browser == "firefox" else [str(executable), origin]
        with tempfile.TemporaryFile() as stderr:
            try:
                process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                           cwd=executable.parent)
            except OSError as error:
                return None, f"could not be started ({error.strerror or error})"
            reply: dict[str, Any] = {}
            reader = threading.Thread(target=_read_reply, args=(process.stdout, reply), daemon=True)
            reader.start()
            try:
                assert process.stdin is not None
                process.stdin.write(encode_frame({"v": 1, "id": "doctor", "type": "hello"}))
                process.stdin.flush()
            except OSError:
                pass  # it exited already; the reader sees EOF
            reader.join(self.timeout)
            _stop(process)
            reader.join(1)
            stderr.seek(0)
            said = stderr.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        if "message" in reply:
            return reply["message"], ""
        if reader.is_alive():
            return None, f"did not answer hello within {self.timeout:.0f} s"
        why = reply.get("error") or "exited without answering hello"
        return None, why + (f" (it said: {' | '.join(said)})" if said else "")


def _read_reply(stream: Any, out: dict[str, Any]) -> None:
    """Read one frame the way a browser does."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return
    (length,) = _HEADER.unpack(header)
    if length > _MAX_REPLY:
        out["error"] = f"sent a frame of {length:,} bytes, which is not a hello reply"
        return
    body = stream.read(length)
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        out["error"] = "sent a frame that is not UTF-8 JSON"
        return
    out["message"] = message if isinstance(message, dict) else {"type": repr(message)}


def _stop(process: subprocess.Popen) -> None:
    """Close stdin (the host ends on EOF, as when the browser closes the port); kill it if it lingers."""
    try:
        if process.stdin:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout:
        process.stdout.close()


def _install_command(route: Route, user_data_dir: Path | None) -> str:
    command = f"citemark install --browser {route.browser}"
    if user_data_dir is not None:
        command += f" --user-data-dir {shlex.quote(str(user_data_dir))}"
    return command


def _model_and_cache() -> dict[str, Any]:
    from citemark.credentials import keyring_problem
    from citemark.errors import CitemarkError
    from citemark.models import registry
    from citemark.settings import Settings
    from citemark.sources.cache import SourceCache

    settings = Settings.load()
    try:
        pack = registry.resolve(settings)
        model = {"ok": True, "name": pack.name if pack else None,
                 "detail": pack.name if pack else "no model pack: lexical-only"}
    except CitemarkError as error:
        model = {"ok": False, "name": None, "detail": f"{error.code} {error.message}"}
    cache = SourceCache(settings.cache_dir / "sources.sqlite3")
    stats = cache.stats()
    cache.close()
    problem = keyring_problem()
    return {"model": model, "cache": {"ok": bool(stats["available"]), "path": str(stats["path"]),
                                      "entries": stats["entries"]},
            "credentials": {"ok": problem is None, "detail": problem or "the OS keyring answers"}}


def run(args: Any) -> int:
    """CLI entry for doctor: exit 0 when every browser found can start the host, 1 otherwise."""
    installer = Installer()
    ids = [*(getattr(args, "extension_id", None) or []), EXTENSION_ID]
    doctor = Doctor(installer.layout, installer.registry, list(dict.fromkeys(ids)))
    user_data_dir = getattr(args, "user_data_dir", None)
    chosen = getattr(args, "browser", None) or (["chromium"] if user_data_dir else ["all"])
    findings = doctor.check(chosen_browsers(installer.layout, chosen), user_data_dir)
    extras = _model_and_cache()
    registered = [f for f in findings if f.status == "ok"]
    ok = bool(registered) and not any(f.status == "fail" for f in findings) and extras["model"]["ok"] and extras["cache"]["ok"]
    if getattr(args, "json", False):
        print(json.dumps({"ok": ok, "version": __version__, "executable": str(installer.executable),
                          "browsers": [{**asdict(f), "label": f.label} for f in findings], **extras}, indent=2))
        return 0 if ok else 1
    print(f"citemark {__version__} at {installer.executable}")
    for finding in findings:
        if finding.status != "absent":
            print(finding.line())
    absent = [f.label for f in findings if f.status == "absent"]
    if absent:
        print("-     not used on this machine: " + ", ".join(absent))
    if not registered and not any(f.status == "fail" for f in findings):
        print("FAIL  no browser on this machine has the host registered\n        fix: citemark install")
    model, cache = extras["model"], extras["cache"]
    print(f"{'ok   ' if model['ok'] else 'FAIL '} model {model['detail']}")
    print(f"{'ok   ' if cache['ok'] else 'FAIL '} cache {cache['path']} ({cache['entries']} sources)")
    credentials = extras["credentials"]  # optional: without a keyring citemark works, without credentials
    print(f"{'ok   ' if credentials['ok'] else 'note '} credentials: {credentials['detail']}")
    return 0 if ok else 1
