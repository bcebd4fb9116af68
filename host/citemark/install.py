"""Register the native host with browsers: ``citemark install | uninstall``.

``install`` writes the host manifest (``org.citemark.host.json``, naming the absolute
path of the ``citemark`` executable and the extension ids allowed to start it) into
every place the chosen browsers read (``citemark.browsers``): the ordinary per-user
folder, the Flatpak and Snap folders of the builds found on this machine, a custom
profile's folder (``--user-data-dir``), or the system folder (``--system``). On
Windows the manifest is a file anywhere plus a registry key naming it. It records
what it wrote, so ``uninstall`` (same flags) removes exactly that. The registry sits
behind a small interface so the Windows layout is tested on any OS.
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

from citemark.browsers import BROWSERS, EXTENSION_ID, GECKO_ID, HOST_NAME, Layout, Location
from citemark.errors import RegistrationError

__all__ = ["BROWSERS", "EXTENSION_ID", "GECKO_ID", "Installer", "Registry", "WindowsRegistry", "run"]


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
    """Install and uninstall host manifests for one OS layout (``platform``: linux, darwin, win32)."""

    platform: str = sys.platform
    home: Path = field(default_factory=Path.home)
    scope: str = "user"  # user | system
    executable: Path | None = None
    registry: Registry | None = None
    record_dir: Path | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    root: Path = Path("/")  # where the system folders are

    def __post_init__(self) -> None:
        self.layout = Layout(self.platform, self.home, self.env, self.root)
        self.platform = self.layout.platform
        if self.executable is None:
            self.executable = host_executable()
        if self.platform == "win32" and self.registry is None:
            self.registry = WindowsRegistry()
        if self.record_dir is None:
            self.record_dir = self.layout.data_root() / "citemark"

    # ------------------------------------------------------------ what to write

    def targets(self, browsers: list[str], user_data_dir: Path | None = None) -> list[Location]:
        """The places ``install`` writes for ``browsers``.

        A custom profile gets its own folder; ``--system`` the system folder; otherwise each
        browser's ordinary per-user folder, plus the Flatpak and Snap folders of builds found here.
        """
        if user_data_dir is not None:
            if self.scope == "system":
                raise RegistrationError("--user-data-dir and --system exclude each other: a profile belongs to one user")
            try:
                return [self.layout.profile(browser, user_data_dir) for browser in browsers]
            except ValueError as error:
                raise RegistrationError(str(error)) from None
        if self.scope == "system":
            return [self.layout.system(browser) for browser in browsers]
        places = []
        for browser in browsers:
            ordinary, *sandboxed = self.layout.user(browser)
            places.append(ordinary)
            places.extend(place for place in sandboxed if self.layout.found(place))
        return places

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
            data["allowed_origins"] = [f"chrome-extension://{i}/" for i in dict.fromkeys([EXTENSION_ID, *extension_ids])]
        return data

    # ------------------------------------------------------------ actions

    @property
    def record_path(self) -> Path:
        assert self.record_dir is not None
        return self.record_dir / f"installed-{self.scope}.json"

    def install(self, places: list[Location], extension_ids: list[str] | None = None) -> list[str]:
        """Write a manifest (and registry key) at every place; returns what was written. Idempotent.

        Every folder is checked for write access first, so a refused ``--system`` changes nothing.
        """
        for place in places:
            _check_writable(place.manifest.parent, self.scope)
        record = self._record()
        done = []
        for place in places:
            path = place.manifest
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.manifest(place.browser, extension_ids or []), indent=2) + "\n", encoding="utf-8")
            tmp.replace(path)
            if self.platform != "win32":
                path.chmod(0o644)
            if str(path) not in record["files"]:
                record["files"].append(str(path))
            key = place.registry_key
            if key:
                assert self.registry is not None
                self.registry.set_default(key[0], key[1], str(path))
                if list(key) not in record["registry"]:
                    record["registry"].append(list(key))
            done.append(f"{place.label}: {path}" + (f" (+ {key[0]}\\{key[1]})" if key else ""))
        self._save(record)
        return done

    def uninstall(self, places: list[Location] | None = None) -> list[str]:
        """Remove what ``install`` wrote: everything it recorded, or only at ``places``; returns what was removed.

        A file is removed only if it is citemark's own manifest (its name says so), so another
        program's host next to it is never touched.
        """
        record = self._record()
        if places is None:
            files = [Path(f) for f in record["files"]]
            keys = [tuple(k) for k in record["registry"]]
        else:
            files = [place.manifest for place in places]
            keys = [place.registry_key for place in places if place.registry_key]
        removed = []
        for path in files:
            if path.name == f"{HOST_NAME}.json" and path.is_file():
                path.unlink()
                removed.append(str(path))
            with contextlib.suppress(ValueError):
                record["files"].remove(str(path))
            for parent in (path.parent, path.parent.parent):  # our own folders on Windows
                if "citemark" in parent.parts and parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()
        for root, key in keys:
            assert self.registry is not None
            if self.registry.get_default(root, key) is not None:
                self.registry.delete(root, key)
                removed.append(f"{root}\\{key}")
            with contextlib.suppress(ValueError):
                record["registry"].remove([root, key])
        if record["files"] or record["registry"]:
            self._save(record)
        elif self.record_path.exists():
            self.record_path.unlink()
        return removed

    def _record(self) -> dict[str, list]:
        try:
            data = json.loads(self.record_path.read_text(encoding="utf-8"))
            return {"files": list(data.get("files", [])), "registry": [list(k) for k in data.get("registry", [])]}
        except (OSError, ValueError):
            return {"files": [], "registry": []}

    def _save(self, record: dict[str, list]) -> None:
        self.record_path.parent.mkdir(parents=True, exist_ok=True)
        self.record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def _check_writable(folder: Path, scope: str) -> None:
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not os.access(existing, os.W_OK):
        hint = " — run it as root: sudo citemark install --system" if scope == "system" else ""
        raise RegistrationError(f"cannot write {folder} ({existing} is not writable){hint}; nothing was changed")


def host_executable() -> Path:
    """The absolute path of the installed ``citemark`` command (what browsers will start)."""
    name = "citemark.exe" if sys.platform == "win32" else "citemark"
    beside_python = Path(sys.executable).parent / name
    if beside_python.exists():
        return beside_python.absolute()
    found = shutil.which("citemark")
    return Path(found).absolute() if found else beside_python


def chosen_browsers(layout: Layout, chosen: list[str] | None) -> list[str]:
    """``--browser`` values: names, ``all``, or ``auto`` (default: those on this machine; every one if none)."""
    chosen = chosen or ["auto"]
    if "all" in chosen:
        return list(BROWSERS)
    if "auto" in chosen:
        present = [b for b in BROWSERS if layout.used(b)]
        return present or list(BROWSERS)
    return list(dict.fromkeys(chosen))


def run(args: Any) -> int:
    """CLI entry for install / uninstall."""
    installer = Installer(scope="system" if getattr(args, "system", False) else "user")
    user_data_dir = getattr(args, "user_data_dir", None)
    chosen = getattr(args, "browser", None)
    if user_data_dir is not None and not chosen:
        chosen = ["chromium"]
    browsers = chosen_browsers(installer.layout, chosen)
    if args.install_command == "install":
        places = installer.targets(browsers, user_data_dir)
        for line in installer.install(places, getattr(args, "extension_id", None) or []):
            print(f"registered {HOST_NAME} for {line}")
        print("next: load the extension (README → Install), then run `citemark doctor` to prove the browser can start the host")
        return 0
    if not getattr(args, "browser", None) and user_data_dir is None:
        places = None  # everything install recorded
    elif user_data_dir is not None or installer.scope == "system":
        places = installer.targets(browsers, user_data_dir)
    else:  # every build of the named browsers, found here or not
        places = [place for browser in browsers for place in installer.layout.user(browser)]
    removed = installer.uninstall(places)
    print("\n".join(f"removed {r}" for r in removed) or "nothing to remove")
    return 0
