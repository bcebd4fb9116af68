"""Register the native host with browsers: ``citemark install | uninstall | doctor``.

Every browser looks for the host manifest (``org.citemark.host.json``) in its own
place: a folder per browser on Linux and macOS, user or system wide; on
Windows a manifest file anywhere plus a registry key (HKCU or HKLM) pointing at
it. ``install`` writes the manifest with the absolute path of the ``citemark``
executable and records what it wrote; ``uninstall`` removes exactly that;
``doctor`` checks manifests, the executable, the model and the cache and says
what to fix. The registry sits behind a small interface so the Windows layout
is tested on any OS.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from citemark.native import HOST_NAME

__all__ = ["BROWSERS", "EXTENSION_ID", "GECKO_ID", "Installer", "Registry", "WindowsRegistry", "run"]

#: The extension's id in Chromium browsers (fixed by the "key" in extension/manifest.json).
EXTENSION_ID = "bhadmilphieoccdcfilkjpfmilnfkdop"
#: The extension's id in Firefox (browser_specific_settings.gecko.id).
GECKO_ID = "citemark@citemark.org"
BROWSERS = ("chrome", "chromium", "edge", "brave", "vivaldi", "firefox")

_LINUX_USER = {
    "chrome": ".config/google-chrome/NativeMessagingHosts",
    "chromium": ".config/chromium/NativeMessagingHosts",
    "edge": ".config/microsoft-edge/NativeMessagingHosts",
    "brave": ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "vivaldi": ".config/vivaldi/NativeMessagingHosts",
    "firefox": ".mozilla/native-messaging-hosts",
}
_LINUX_SYSTEM = {
    "chrome": "/etc/opt/chrome/native-messaging-hosts",
    "chromium": "/etc/chromium/native-messaging-hosts",
    "edge": "/etc/opt/edge/native-messaging-hosts",
    "brave": "/etc/opt/brave.com/brave/native-messaging-hosts",
    "vivaldi": "/etc/opt/vivaldi/native-messaging-hosts",
    "firefox": "/usr/lib/mozilla/native-messaging-hosts",
}
_MAC_USER = {
    "chrome": "Library/Application Support/Google/Chrome/NativeMessagingHosts",
    "chromium": "Library/Application Support/Chromium/NativeMessagingHosts",
    "edge": "Library/Application Support/Microsoft Edge/NativeMessagingHosts",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "vivaldi": "Library/Application Support/Vivaldi/NativeMessagingHosts",
    "firefox": "Library/Application Support/Mozilla/NativeMessagingHosts",
}
_MAC_SYSTEM = {
    "chrome": "/Library/Google/Chrome/NativeMessagingHosts",
    "chromium": "/Library/Application Support/Chromium/NativeMessagingHosts",
    "edge": "/Library/Microsoft/Edge/NativeMessagingHosts",
    "brave": "/Library/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "vivaldi": "/Library/Application Support/Vivaldi/NativeMessagingHosts",
    "firefox": "/Library/Application Support/Mozilla/NativeMessagingHosts",
}
_WINDOWS_KEYS = {
    "chrome": r"Software\Google\Chrome\NativeMessagingHosts",
    "chromium": r"Software\Chromium\NativeMessagingHosts",
    "edge": r"Software\Microsoft\Edge\NativeMessagingHosts",
    "brave": r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts",
    "vivaldi": r"Software\Vivaldi\NativeMessagingHosts",
    "firefox": r"Software\Mozilla\NativeMessagingHosts",
}


class Registry(Protocol):
    """The part of the Windows registry the installer touches: one default value per key."""

    def set_default(self, root: str, key: str, value: str) -> None: ...

    def get_default(self, root: str, key: str) -> str | None: ...

    def delete(self, root: str, key: str) -> None: ...


class WindowsRegistry:
    """``winreg`` behind the Registry interface (Windows only)."""

    def _root(self, root: str):  # noqa: ANN202
        import winreg  # type: ignore[import-not-found]

        return {"HKCU": winreg.HKEY_CURRENT_USER, "HKLM": winreg.HKEY_LOCAL_MACHINE}[root]

    def set_default(self, root: str, key: str, value: str) -> None:
        import winreg  # type: ignore[import-not-found]

        with winreg.CreateKey(self._root(root), key) as handle:
            winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, value)

    def get_default(self, root: str, key: str) -> str | None:
        import winreg  # type: ignore[import-not-found]

        try:
            with winreg.OpenKey(self._root(root), key) as handle:
                return str(winreg.QueryValueEx(handle, "")[0])
        except OSError:
            return None

    def delete(self, root: str, key: str) -> None:
        import winreg  # type: ignore[import-not-found]

        with contextlib.suppress(OSError):
            winreg.DeleteKey(self._root(root), key)


@dataclass
class Installer:
    """Install/uninstall/check host manifests for one OS layout (``platform``: linux, darwin, win32)."""

    platform: str = sys.platform
    home: Path = field(default_factory=Path.home)
    scope: str = "user"  # user | system
    executable: Path | None = None
    registry: Registry | None = None
    record_dir: Path | None = None

    def __post_init__(self) -> None:
        if self.platform.startswith("linux"):
            self.platform = "linux"
        if self.platform not in ("linux", "darwin", "win32"):
            raise ValueError(f"unsupported platform {self.platform!r}")
        if self.executable is None:
            self.executable = host_executable()
        if self.platform == "win32" and self.registry is None:
            self.registry = WindowsRegistry()
        if self.record_dir is None:
            self.record_dir = self._data_root() / "citemark"

    # ------------------------------------------------------------ layout

    def _data_root(self) -> Path:
        if self.platform == "win32":
            return Path(os.environ.get("LOCALAPPDATA") or self.home / "AppData" / "Local")
        if self.platform == "darwin":
            return self.home / "Library" / "Application Support"
        return Path(os.environ.get("XDG_DATA_HOME") or self.home / ".local" / "share")

    def manifest_path(self, browser: str) -> Path:
        name = f"{HOST_NAME}.json"
        if self.platform == "win32":
            base = Path(os.environ.get("PROGRAMDATA", "C:/ProgramData")) if self.scope == "system" else self._data_root()
            return base / "citemark" / "native-messaging" / browser / name
        table = {("linux", "user"): _LINUX_USER, ("linux", "system"): _LINUX_SYSTEM,
                 ("darwin", "user"): _MAC_USER, ("darwin", "system"): _MAC_SYSTEM}[(self.platform, self.scope)]
        folder = Path(table[browser])
        return (folder if folder.is_absolute() else self.home / folder) / name

    def registry_key(self, browser: str) -> tuple[str, str] | None:
        if self.platform != "win32":
            return None
        return ("HKLM" if self.scope == "system" else "HKCU", _WINDOWS_KEYS[browser] + "\\" + HOST_NAME)

    def manifest(self, browser: str, extension_ids: list[str]) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": HOST_NAME,
            "description": "citemark: checks that cited sources say what AI answers claim",
            "path": str(self.executable),
            "type": "stdio",
        }
        if browser == "firefox":
            data["allowed_extensions"] = [GECKO_ID]
        else:
            data["allowed_origins"] = [f"chrome-extension://{i}/" for i in dict.fromkeys(extension_ids)]
        return data

    # ------------------------------------------------------------ actions

    @property
    def record_path(self) -> Path:
        assert self.record_dir is not None
        return self.record_dir / f"installed-{self.scope}.json"

    def install(self, browsers: list[str], extension_ids: list[str] | None = None) -> list[str]:
        """Write manifests (and registry keys); returns what was written. Idempotent."""
        ids = [EXTENSION_ID, *(extension_ids or [])]
        record = self._record()
        done = []
        for browser in browsers:
            path = self.manifest_path(browser)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.manifest(browser, ids), indent=2) + "\n", encoding="utf-8")
            tmp.replace(path)
            if self.platform != "win32":
                path.chmod(0o644)
            if str(path) not in record["files"]:
                record["files"].append(str(path))
            key = self.registry_key(browser)
            if key:
                assert self.registry is not None
                self.registry.set_default(key[0], key[1], str(path))
                if list(key) not in record["registry"]:
                    record["registry"].append(list(key))
            done.append(f"{browser}: {path}" + (f" (+ {key[0]}\\{key[1]})" if key else ""))
        self._save(record)
        return done

    def uninstall(self) -> list[str]:
        """Remove exactly what ``install`` recorded; returns what was removed."""
        record = self._record()
        removed = []
        for file in record["files"]:
            path = Path(file)
            if path.exists():
                path.unlink()
                removed.append(str(path))
            for parent in (path.parent, path.parent.parent):  # our own folders on Windows
                if "citemark" in parent.parts and parent.exists() and not any(parent.iterdir()):
                    parent.rmdir()
        for root, key in record["registry"]:
            assert self.registry is not None
            self.registry.delete(root, key)
            removed.append(f"{root}\\{key}")
        if self.record_path.exists():
            self.record_path.unlink()
        return removed

    def doctor(self, browsers: list[str]) -> tuple[bool, list[str]]:
        """Check every browser's manifest, the executable, the model and the cache."""
        lines, ok = [], True
        executable = Path(str(self.executable))
        if executable.exists() and (self.platform == "win32" or os.access(executable, os.X_OK)):
            lines.append(f"ok    executable {executable}")
        else:
            ok = False
            lines.append(f"FAIL  executable {executable} missing or not executable — reinstall citemark")
        found_any = False
        for browser in browsers:
            path = self.manifest_path(browser)
            if not path.exists():
                lines.append(f"-     {browser}: no manifest at {path} (run: citemark install --browser {browser})")
                continue
            found_any = True
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                ok = False
                lines.append(f"FAIL  {browser}: {path} is not valid JSON — run: citemark install --browser {browser}")
                continue
            problems = []
            if data.get("name") != HOST_NAME:
                problems.append(f"name is not {HOST_NAME}")
            target = Path(str(data.get("path", "")))
            if not target.is_absolute() or not target.exists():
                problems.append(f"path {target} does not exist")
            allowed = data.get("allowed_extensions" if browser == "firefox" else "allowed_origins") or []
            expected = GECKO_ID if browser == "firefox" else f"chrome-extension://{EXTENSION_ID}/"
            if expected not in allowed:
                problems.append(f"{expected} is not allowed")
            key = self.registry_key(browser)
            if key and self.registry is not None and self.registry.get_default(*key) != str(path):
                problems.append(f"registry key {key[0]}\\{key[1]} does not point at the manifest")
            if problems:
                ok = False
                lines.append(f"FAIL  {browser}: " + "; ".join(problems) + f" — run: citemark install --browser {browser}")
            else:
                lines.append(f"ok    {browser}: {path}")
        if not found_any:
            ok = False
            lines.append("FAIL  the host is registered with no browser — run: citemark install")
        return ok, lines

    def _record(self) -> dict[str, list]:
        try:
            data = json.loads(self.record_path.read_text(encoding="utf-8"))
            return {"files": list(data.get("files", [])), "registry": list(data.get("registry", []))}
        except (OSError, ValueError):
            return {"files": [], "registry": []}

    def _save(self, record: dict[str, list]) -> None:
        self.record_path.parent.mkdir(parents=True, exist_ok=True)
        self.record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def host_executable() -> Path:
    """The absolute path of the installed ``citemark`` command (what browsers will start)."""
    name = "citemark.exe" if sys.platform == "win32" else "citemark"
    beside_python = Path(sys.executable).parent / name
    if beside_python.exists():
        return beside_python.resolve()
    found = shutil.which("citemark")
    return Path(found).resolve() if found else beside_python


def detected_browsers(installer: Installer) -> list[str]:
    """Browsers whose configuration folder exists for this user (all of them if none is found)."""
    present = [b for b in BROWSERS if installer.manifest_path(b).parent.parent.exists()]
    return present or list(BROWSERS)


def run(args: Any) -> int:
    """CLI entry for install / uninstall / doctor."""
    installer = Installer(scope="system" if getattr(args, "system", False) else "user")
    command = args.install_command
    chosen = getattr(args, "browser", None) or ["auto"]
    browsers = detected_browsers(installer) if "auto" in chosen else (list(BROWSERS) if "all" in chosen else chosen)
    if command == "install":
        for line in installer.install(browsers, args.extension_id or []):
            print(f"registered {HOST_NAME} for {line}")
        print("next: load the extension (README → Browser extension), then click the toolbar icon to check the host")
        return 0
    if command == "uninstall":
        removed = installer.uninstall()
        print("\n".join(f"removed {r}" for r in removed) or "nothing to remove")
        return 0
    ok, lines = installer.doctor(list(BROWSERS))
    print("\n".join(lines))
    print(_model_and_cache())
    return 0 if ok else 1


def _model_and_cache() -> str:
    from citemark.errors import CitemarkError
    from citemark.models import registry
    from citemark.settings import Settings
    from citemark.sources.cache import SourceCache

    settings = Settings.load()
    try:
        pack = registry.resolve(settings)
        model = f"ok    model {pack.name}" if pack else "ok    no model pack: lexical-only"
    except CitemarkError as error:
        model = f"FAIL  model: {error.message}"
    cache = SourceCache(settings.cache_dir / "sources.sqlite3")
    stats = cache.stats()
    cache.close()
    state = "ok   " if stats["available"] else "FAIL "
    return f"{model}\n{state} cache {stats['path']} ({stats['entries']} sources)"
