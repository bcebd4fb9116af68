"""Host manifests for every browser, OS, packaging and profile, written into temporary homes; the registry behind its interface."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citemark.browsers import BROWSERS, Layout
from citemark.errors import RegistrationError
from citemark.install import EXTENSION_ID, GECKO_ID, Installer
from tests.support.registry import MemoryRegistry

OTHER_ID = "abcdefghijklmnopabcdefghijklmnop"


def files_under(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.fixture
def executable(tmp_path):
    path = tmp_path / "bin" / "citemark"
    path.parent.mkdir()
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def installer_for(tmp_path, executable, platform="linux", **kw) -> Installer:
    kw.setdefault("env", {})
    return Installer(platform=platform, home=tmp_path / "home", executable=executable, record_dir=tmp_path / "rec", **kw)


@pytest.mark.parametrize(
    ("platform", "browser", "expected"),
    [
        ("linux", "chrome", ".config/google-chrome/NativeMessagingHosts/org.citemark.host.json"),
        ("linux", "chromium", ".config/chromium/NativeMessagingHosts/org.citemark.host.json"),
        ("linux", "brave", ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts/org.citemark.host.json"),
        ("linux", "firefox", ".mozilla/native-messaging-hosts/org.citemark.host.json"),
        ("darwin", "chrome", "Library/Application Support/Google/Chrome/NativeMessagingHosts/org.citemark.host.json"),
        ("darwin", "edge", "Library/Application Support/Microsoft Edge/NativeMessagingHosts/org.citemark.host.json"),
        ("darwin", "firefox", "Library/Application Support/Mozilla/NativeMessagingHosts/org.citemark.host.json"),
    ],
)
def test_user_manifest_locations(tmp_path, platform, browser, expected):
    layout = Layout(platform, tmp_path, {})
    assert layout.user(browser)[0].manifest == tmp_path / expected


@pytest.mark.parametrize(
    ("browser", "variant", "expected"),
    [
        ("chromium", "flatpak", ".var/app/org.chromium.Chromium/config/chromium/NativeMessagingHosts"),
        ("chrome", "flatpak", ".var/app/com.google.Chrome/config/google-chrome/NativeMessagingHosts"),
        ("brave", "flatpak", ".var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser/NativeMessagingHosts"),
        ("firefox", "flatpak", ".var/app/org.mozilla.firefox/.mozilla/native-messaging-hosts"),
        ("chromium", "snap", "snap/chromium/common/chromium/NativeMessagingHosts"),
        ("firefox", "snap", "snap/firefox/common/.mozilla/native-messaging-hosts"),
    ],
)
def test_flatpak_and_snap_locations(tmp_path, browser, variant, expected):
    places = {p.variant: p for p in Layout("linux", tmp_path, {}).user(browser)}
    assert places[variant].manifest == tmp_path / expected / "org.citemark.host.json"


def test_xdg_config_home_moves_the_chromium_folders_but_not_firefox(tmp_path, executable):
    config = tmp_path / "elsewhere"
    installer = installer_for(tmp_path, executable, env={"XDG_CONFIG_HOME": str(config)})
    installer.install(installer.targets(["chromium", "firefox"]))
    assert files_under(config) == ["chromium/NativeMessagingHosts/org.citemark.host.json"]
    assert (tmp_path / "home" / ".mozilla/native-messaging-hosts/org.citemark.host.json").is_file()
    assert not (tmp_path / "home" / ".config").exists()


def test_a_relative_xdg_config_home_is_ignored_as_the_spec_says(tmp_path):
    assert Layout("linux", tmp_path, {"XDG_CONFIG_HOME": "relative/dir"}).config_home() == tmp_path / ".config"


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_install_every_browser_then_uninstall_leaves_nothing(tmp_path, executable, platform):
    home = tmp_path / "home"
    home.mkdir()
    registry = MemoryRegistry()
    installer = installer_for(tmp_path, executable, platform, registry=registry,
                              env={"LOCALAPPDATA": str(home / "AppData" / "Local")})
    places = installer.targets(list(BROWSERS))
    written = installer.install(places, [OTHER_ID])
    assert len(written) == len(BROWSERS) == len(places)
    for place in places:
        manifest = json.loads(place.manifest.read_text())
        assert manifest["name"] == "org.citemark.host" and manifest["type"] == "stdio"
        assert manifest["path"] == str(executable)
        if place.browser == "firefox":
            assert manifest["allowed_extensions"] == [GECKO_ID]
        else:
            assert manifest["allowed_origins"] == [f"chrome-extension://{EXTENSION_ID}/", f"chrome-extension://{OTHER_ID}/"]
    if platform == "win32":
        assert len(registry.keys) == len(BROWSERS)
        chrome = next(p for p in places if p.browser == "chrome")
        assert registry.keys[("HKCU", r"Software\Google\Chrome\NativeMessagingHosts\org.citemark.host")] == str(chrome.manifest)
    else:
        assert not registry.keys
    before = files_under(home)
    installer.install(places)  # idempotent
    assert files_under(home) == before
    removed = installer.uninstall()
    assert len(removed) == len(places) * (2 if platform == "win32" else 1)
    assert files_under(home) == [] and not registry.keys
    assert not installer.record_path.exists()


def test_flatpak_and_snap_builds_found_here_get_their_own_manifest(tmp_path, executable):
    home = tmp_path / "home"
    (home / ".var/app/org.chromium.Chromium").mkdir(parents=True)
    (home / "snap/chromium").mkdir(parents=True)
    installer = installer_for(tmp_path, executable)
    places = installer.targets(["chromium", "edge"])
    assert [p.label for p in places] == ["chromium", "chromium (flatpak)", "chromium (snap)", "edge"]
    installer.install(places)
    assert len(files_under(home)) == 4
    # uninstall --browser chromium: every chromium build, edge stays
    installer.uninstall([p for p in installer.layout.user("chromium")])
    assert files_under(home) == [".config/microsoft-edge/NativeMessagingHosts/org.citemark.host.json"]
    assert json.loads(installer.record_path.read_text())["files"] == [str(places[-1].manifest)]


def test_user_data_dir_gets_the_manifest_in_the_profile_and_uninstall_takes_the_same_flag(tmp_path, executable):
    profile = tmp_path / "profile"
    installer = installer_for(tmp_path, executable)
    installer.install(installer.targets(["chromium"]))
    installer.install(installer.targets(["chromium"], user_data_dir=profile))
    assert files_under(profile) == ["NativeMessagingHosts/org.citemark.host.json"]
    installer.uninstall(installer.targets(["chromium"], user_data_dir=profile))
    assert files_under(profile) == []
    assert installer.layout.user("chromium")[0].manifest.is_file()  # the ordinary profile keeps its registration


@pytest.mark.parametrize(("browser", "platform", "flags"), [("firefox", "linux", {}), ("chrome", "win32", {}),
                                                            ("chrome", "linux", {"scope": "system"})])
def test_user_data_dir_is_refused_where_it_means_nothing(tmp_path, executable, browser, platform, flags):
    installer = installer_for(tmp_path, executable, platform, registry=MemoryRegistry(), **flags)
    with pytest.raises(RegistrationError):
        installer.targets([browser], user_data_dir=tmp_path / "profile")


def test_system_scope_writes_the_system_folders_under_a_staging_root(tmp_path, executable):
    root = tmp_path / "root"
    installer = installer_for(tmp_path, executable, scope="system", root=root)
    installer.install(installer.targets(["chromium", "firefox"]))
    assert files_under(root) == ["etc/chromium/native-messaging-hosts/org.citemark.host.json",
                                 "usr/lib/mozilla/native-messaging-hosts/org.citemark.host.json"]
    installer.uninstall()
    assert files_under(root) == []


def test_system_scope_on_windows_uses_hklm(tmp_path, executable):
    registry = MemoryRegistry()
    installer = installer_for(tmp_path, executable, "win32", scope="system", registry=registry,
                              env={"PROGRAMDATA": str(tmp_path / "ProgramData")})
    installer.install(installer.targets(["edge"]))
    assert list(registry.keys) == [("HKLM", r"Software\Microsoft\Edge\NativeMessagingHosts\org.citemark.host")]
    assert (tmp_path / "ProgramData/citemark/native-messaging/edge/org.citemark.host.json").is_file()


def test_uninstall_removes_only_what_install_wrote(tmp_path, executable):
    installer = installer_for(tmp_path, executable)
    installer.install(installer.targets(["chromium"]))
    other = installer.layout.user("chromium")[0].manifest.parent / "com.other.host.json"
    other.write_text("{}")
    installer.uninstall()
    assert other.exists() and not installer.layout.user("chromium")[0].manifest.exists()


@pytest.mark.skipif(not Path("/proc/1").is_dir(), reason="needs Linux procfs: /proc/1 is a folder no user may write, root included")
def test_a_system_folder_that_cannot_be_written_is_refused_before_anything_is_written(tmp_path, executable):
    installer = installer_for(tmp_path, executable, scope="system", root=Path("/proc/1"))
    with pytest.raises(RegistrationError, match="sudo citemark install --system"):
        installer.install(installer.targets(["chromium"]) + [Layout("linux", tmp_path, {}).user("chromium")[0]])
    assert not (tmp_path / ".config").exists() and not installer.record_path.exists()


def test_the_cli_reports_a_refused_registration_without_a_traceback(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "share")}
    result = subprocess.run([sys.executable, "-m", "citemark.cli", "install", "--browser", "firefox", "--user-data-dir",
                             str(tmp_path / "profile")], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2
    assert "E190" in result.stderr and "Firefox" in result.stderr and "Traceback" not in result.stderr
    assert files_under(tmp_path) == []
