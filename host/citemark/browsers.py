"""Where each browser reads native-messaging host manifests: per OS, scope, packaging and profile.

A Chromium browser on Linux reads ``<config>/<vendor>/NativeMessagingHosts`` (``<config>``
is ``$XDG_CONFIG_HOME``, default ``~/.config``); started with ``--user-data-dir DIR``
it reads ``DIR/NativeMessagingHosts`` instead; then the system folder under ``/etc``.
Flatpak and Snap builds keep their own config folder (``~/.var/app/<app-id>/config``,
``~/snap/<name>/...``). Firefox reads ``~/.mozilla/native-messaging-hosts`` (which is
also where the sandbox portal of a Flatpak or Snap Firefox looks), the sandbox's own
``.mozilla`` folder, then ``/usr/lib/mozilla``. macOS uses ``~/Library/Application
Support/...`` and ``/Library/...``; Windows reads a registry key (HKCU, then HKLM) whose
default value names the manifest file, wherever it is.

Every browser looks at its user folder first and its system folder second, so a
``Route`` lists the manifests one browser build reads, in that order. This module
only answers "where"; ``install`` writes there and ``doctor`` checks what is there.

    python -m citemark.browsers      # every place this machine's browsers would look
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["BROWSERS", "EXTENSION_ID", "GECKO_ID", "HOST_NAME", "MANIFEST_NAME", "Layout", "Location", "Route"]

#: The native host's name: what the extension asks the browser to start, and what its manifest is called.
HOST_NAME = "org.citemark.host"
#: The extension's id in Chromium browsers (fixed by the "key" in extension/manifest.json).
EXTENSION_ID = "bhadmilphieoccdcfilkjpfmilnfkdop"
#: The extension's id in Firefox (browser_specific_settings.gecko.id).
GECKO_ID = "citemark@citemark.org"

BROWSERS = ("chrome", "chromium", "edge", "brave", "vivaldi", "firefox")
MANIFEST_NAME = f"{HOST_NAME}.json"

#: Linux: the browser's folder under $XDG_CONFIG_HOME (Chromium family) or $HOME (Firefox).
_LINUX_VENDOR = {
    "chrome": "google-chrome",
    "chromium": "chromium",
    "edge": "microsoft-edge",
    "brave": "BraveSoftware/Brave-Browser",
    "vivaldi": "vivaldi",
}
_LINUX_SYSTEM = {
    "chrome": "/etc/opt/chrome/native-messaging-hosts",
    "chromium": "/etc/chromium/native-messaging-hosts",
    "edge": "/etc/opt/edge/native-messaging-hosts",
    "brave": "/etc/opt/brave.com/brave/native-messaging-hosts",
    "vivaldi": "/etc/opt/vivaldi/native-messaging-hosts",
    "firefox": "/usr/lib/mozilla/native-messaging-hosts",
}
#: Flatpak application ids (their config lives in ~/.var/app/<id>/config).
_FLATPAK = {
    "chrome": "com.google.Chrome",
    "chromium": "org.chromium.Chromium",
    "edge": "com.microsoft.Edge",
    "brave": "com.brave.Browser",
    "vivaldi": "com.vivaldi.Vivaldi",
    "firefox": "org.mozilla.firefox",
}
#: Snap packages and the host folder inside their per-user data.
_SNAP = {
    "chromium": ("chromium", "common/chromium/NativeMessagingHosts"),
    "brave": ("brave", "current/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts"),
    "firefox": ("firefox", "common/.mozilla/native-messaging-hosts"),
}
#: Linux: the commands a distribution's package installs (a browser installed but never started has no
#: config folder yet, and is on this machine all the same).
_LINUX_COMMANDS = {
    "chrome": ("google-chrome", "google-chrome-stable"),
    "chromium": ("chromium", "chromium-browser"),
    "edge": ("microsoft-edge", "microsoft-edge-stable"),
    "brave": ("brave-browser", "brave"),
    "vivaldi": ("vivaldi", "vivaldi-stable"),
    "firefox": ("firefox", "firefox-esr"),
}
_MAC_APPS = {
    "chrome": "Google Chrome.app", "chromium": "Chromium.app", "edge": "Microsoft Edge.app",
    "brave": "Brave Browser.app", "vivaldi": "Vivaldi.app", "firefox": "Firefox.app",
}
_MAC_USER = {
    "chrome": "Library/Application Support/Google/Chrome",
    "chromium": "Library/Application Support/Chromium",
    "edge": "Library/Application Support/Microsoft Edge",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser",
    "vivaldi": "Library/Application Support/Vivaldi",
    "firefox": "Library/Application Support/Mozilla",
}
_MAC_SYSTEM = {
    "chrome": "/Library/Google/Chrome/NativeMessagingHosts",
    "chromium": "/Library/Application Support/Chromium/NativeMessagingHosts",
    "edge": "/Library/Microsoft/Edge/NativeMessagingHosts",
    "brave": "/Library/BraveSoftware/Brave-Browser/NativeMessagingHosts",
    "vivaldi": "/Library/Application Support/Vivaldi/NativeMessagingHosts",
    "firefox": "/Library/Application Support/Mozilla/NativeMessagingHosts",
}
#: Windows: the browser's profile folder under %LOCALAPPDATA% (Firefox: %APPDATA%), to tell whether it is used.
_WINDOWS_PROFILE = {
    "chrome": "Google/Chrome/User Data",
    "chromium": "Chromium/User Data",
    "edge": "Microsoft/Edge/User Data",
    "brave": "BraveSoftware/Brave-Browser/User Data",
    "vivaldi": "Vivaldi/User Data",
    "firefox": "Mozilla/Firefox",
}
_WINDOWS_KEYS = {
    "chrome": r"Software\Google\Chrome\NativeMessagingHosts",
    "chromium": r"Software\Chromium\NativeMessagingHosts",
    "edge": r"Software\Microsoft\Edge\NativeMessagingHosts",
    "brave": r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts",
    "vivaldi": r"Software\Vivaldi\NativeMessagingHosts",
    "firefox": r"Software\Mozilla\NativeMessagingHosts",
}


@dataclass(frozen=True)
class Location:
    """One place a browser reads the host manifest from."""

    browser: str
    variant: str  # "" (the distribution's package), "flatpak", "snap", "profile" (--user-data-dir), "system"
    manifest: Path  # the manifest file (on Windows: where citemark keeps it; the registry key names it)
    present: Path  # a folder whose existence says this browser build is used on this machine
    registry_key: tuple[str, str] | None = None  # Windows: (HKCU|HKLM, key) whose default value is the manifest path

    @property
    def label(self) -> str:
        return f"{self.browser} ({self.variant})" if self.variant else self.browser


@dataclass(frozen=True)
class Route:
    """The manifests one browser build reads, in the order it reads them (the first one found wins)."""

    browser: str
    variant: str
    locations: tuple[Location, ...]

    @property
    def label(self) -> str:
        return f"{self.browser} ({self.variant})" if self.variant else self.browser


@dataclass
class Layout:
    """The folders of one OS (``platform``: linux, darwin, win32) for one home and environment."""

    platform: str = sys.platform
    home: Path = field(default_factory=Path.home)
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    root: Path = Path("/")  # where the system folders are (a staging root in tests and packaging)

    def __post_init__(self) -> None:
        if self.platform.startswith("linux"):
            self.platform = "linux"
        if self.platform not in ("linux", "darwin", "win32"):
            raise ValueError(f"unsupported platform {self.platform!r}")

    # ------------------------------------------------------------ single places

    def user(self, browser: str) -> list[Location]:
        """The per-user places of ``browser``: its ordinary build first, then Flatpak and Snap builds (Linux)."""
        _check(browser)
        if self.platform == "win32":
            return [self._windows(browser, "HKCU", self.data_root() / "citemark" / "native-messaging" / browser)]
        if self.platform == "darwin":
            folder = self.home / _MAC_USER[browser]
            return [Location(browser, "", folder / "NativeMessagingHosts" / MANIFEST_NAME, folder)]
        if browser == "firefox":
            folder = self.home / ".mozilla"
            places = [Location(browser, "", folder / "native-messaging-hosts" / MANIFEST_NAME, folder)]
            app = self.home / ".var" / "app" / _FLATPAK[browser]
            places.append(Location(browser, "flatpak", app / ".mozilla" / "native-messaging-hosts" / MANIFEST_NAME, app))
        else:
            config = self.config_home() / _LINUX_VENDOR[browser]
            places = [Location(browser, "", config / "NativeMessagingHosts" / MANIFEST_NAME, config)]
            app = self.home / ".var" / "app" / _FLATPAK[browser]
            places.append(Location(browser, "flatpak",
                                   app / "config" / _LINUX_VENDOR[browser] / "NativeMessagingHosts" / MANIFEST_NAME, app))
        if browser in _SNAP:
            name, inside = _SNAP[browser]
            snap = self.home / "snap" / name
            places.append(Location(browser, "snap", snap / inside / MANIFEST_NAME, snap))
        return places

    def system(self, browser: str) -> Location:
        """The place ``browser`` reads for every user of the machine."""
        _check(browser)
        if self.platform == "win32":
            return self._windows(browser, "HKLM", Path(self.env.get("PROGRAMDATA", "C:/ProgramData")) / "citemark"
                                 / "native-messaging" / browser)
        folder = self.root / (_MAC_SYSTEM if self.platform == "darwin" else _LINUX_SYSTEM)[browser].lstrip("/")
        return Location(browser, "system", folder / MANIFEST_NAME, folder.parent)

    def profile(self, browser: str, user_data_dir: Path) -> Location:
        """A Chromium browser started with ``--user-data-dir DIR`` reads ``DIR/NativeMessagingHosts`` (Linux, macOS)."""
        _check(browser)
        if browser == "firefox":
            raise ValueError("--user-data-dir is a Chromium option: Firefox reads the same folder for every profile")
        if self.platform == "win32":
            raise ValueError("on Windows every profile reads the registry: install without --user-data-dir")
        folder = Path(user_data_dir).expanduser().absolute()
        return Location(browser, "profile", folder / "NativeMessagingHosts" / MANIFEST_NAME, folder)

    # ------------------------------------------------------------ what a browser reads

    def routes(self, browser: str, user_data_dir: Path | None = None) -> list[Route]:
        """Each build of ``browser`` with the manifests it reads, user place first, system place second.

        Sandboxed builds (Flatpak, Snap) cannot see the host's system folder, so they read only their own.
        """
        system = self.system(browser)
        if user_data_dir is not None:
            return [Route(browser, "profile", (self.profile(browser, user_data_dir), system))]
        routes = []
        for place in self.user(browser):
            sandboxed = place.variant in ("flatpak", "snap")
            if sandboxed and browser == "firefox":
                # the sandbox portal reads ~/.mozilla on the host; an older build reads its own folder
                ordinary = self.user(browser)[0]
                routes.append(Route(browser, place.variant, (place, ordinary)))
            else:
                routes.append(Route(browser, place.variant, (place,) if sandboxed else (place, system)))
        return routes

    def used(self, browser: str) -> list[Location]:
        """The user places of ``browser`` whose build is on this machine."""
        return [place for place in self.user(browser) if self.found(place)]

    def found(self, place: Location) -> bool:
        """Whether the browser build that reads ``place`` is on this machine: it has run here (its folder
        exists) or it is installed (its command, Flatpak, Snap or app bundle), started yet or not."""
        if place.present.is_dir():
            return True
        if self.platform == "darwin":
            app = _MAC_APPS[place.browser]
            return (self.root / "Applications" / app).is_dir() or (self.home / "Applications" / app).is_dir()
        if self.platform != "linux":
            return False
        if place.variant == "flatpak":
            app_id = _FLATPAK[place.browser]
            return any((base / app_id).is_dir() for base in (self.root / "var/lib/flatpak/app",
                                                              self.data_root() / "flatpak" / "app"))
        if place.variant == "snap":
            return place.browser in _SNAP and (self.root / "snap" / _SNAP[place.browser][0]).is_dir()
        search = self.env.get("PATH", "")
        return bool(search) and any(shutil.which(name, path=search) for name in _LINUX_COMMANDS[place.browser])

    # ------------------------------------------------------------ roots

    def config_home(self) -> Path:
        value = self.env.get("XDG_CONFIG_HOME", "")
        return Path(value) if value and Path(value).is_absolute() else self.home / ".config"

    def data_root(self) -> Path:
        """Where citemark keeps its own files for this user (its record of what it installed; Windows manifests)."""
        if self.platform == "win32":
            return Path(self.env.get("LOCALAPPDATA") or self.home / "AppData" / "Local")
        if self.platform == "darwin":
            return self.home / "Library" / "Application Support"
        value = self.env.get("XDG_DATA_HOME", "")
        return Path(value) if value and Path(value).is_absolute() else self.home / ".local" / "share"

    def _windows(self, browser: str, root: str, folder: Path) -> Location:
        key = _WINDOWS_KEYS[browser] + "\\" + MANIFEST_NAME.removesuffix(".json")
        if browser == "firefox":
            present = Path(self.env.get("APPDATA") or self.home / "AppData" / "Roaming") / _WINDOWS_PROFILE[browser]
        else:
            present = self.data_root() / _WINDOWS_PROFILE[browser]
        return Location(browser, "system" if root == "HKLM" else "", folder / MANIFEST_NAME, present, (root, key))


def _check(browser: str) -> None:
    if browser not in BROWSERS:
        raise ValueError(f"unknown browser {browser!r} (one of {', '.join(BROWSERS)})")


if __name__ == "__main__":
    layout = Layout()
    for name in BROWSERS:
        for route in layout.routes(name):
            print(f"{route.label:22} " + "  then  ".join(str(p.registry_key or p.manifest) for p in route.locations))
