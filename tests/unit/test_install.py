"""Host manifests for every browser and OS layout, in a temporary HOME; the registry behind its interface."""

from __future__ import annotations

import json

import pytest

from citemark.install import BROWSERS, EXTENSION_ID, GECKO_ID, Installer


class MemoryRegistry:
    """The Registry interface over a dict, standing in for winreg on non-Windows machines."""

    def __init__(self) -> None:
        self.keys: dict[tuple[str, str], str] = {}

    def set_default(self, root, key, value):
        self.keys[(root, key)] = value

    def get_default(self, root, key):
        return self.keys.get((root, key))

    def delete(self, root, key):
        self.keys.pop((root, key), None)


def files_under(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.fixture
def executable(tmp_path):
    path = tmp_path / "bin" / "citemark"
    path.parent.mkdir()
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


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
def test_user_manifest_locations(tmp_path, executable, platform, browser, expected):
    installer = Installer(platform=platform, home=tmp_path / "home", executable=executable, record_dir=tmp_path / "rec")
    assert installer.manifest_path(browser) == tmp_path / "home" / expected


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_install_every_browser_then_uninstall_leaves_nothing(tmp_path, executable, monkeypatch, platform):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("LOCALAPPDATA", str(home / "AppData" / "Local"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    registry = MemoryRegistry()
    installer = Installer(platform=platform, home=home, executable=executable, registry=registry,
                          record_dir=tmp_path / "record")
    written = installer.install(list(BROWSERS), ["abcdefghijklmnopabcdefghijklmnop"])
    assert len(written) == len(BROWSERS)
    for browser in BROWSERS:
        manifest = json.loads(installer.manifest_path(browser).read_text())
        assert manifest["name"] == "org.citemark.host" and manifest["type"] == "stdio"
        assert manifest["path"] == str(executable)
        if browser == "firefox":
            assert manifest["allowed_extensions"] == [GECKO_ID]
        else:
            assert manifest["allowed_origins"] == [f"chrome-extension://{EXTENSION_ID}/",
                                                   "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]
    if platform == "win32":
        assert len(registry.keys) == len(BROWSERS)
        assert registry.keys[("HKCU", r"Software\Google\Chrome\NativeMessagingHosts\org.citemark.host")] == str(
            installer.manifest_path("chrome"))
    else:
        assert not registry.keys
    ok, report = installer.doctor(list(BROWSERS))
    assert ok, report
    before = files_under(home)
    installer.install(list(BROWSERS))  # idempotent
    assert files_under(home) == before
    installer.uninstall()
    assert files_under(home) == [] and not registry.keys
    assert not (tmp_path / "record").exists() or files_under(tmp_path / "record") == []


def test_system_scope_on_windows_uses_hklm(tmp_path, executable, monkeypatch):
    monkeypatch.setenv("PROGRAMDATA", str(tmp_path / "ProgramData"))
    registry = MemoryRegistry()
    installer = Installer(platform="win32", home=tmp_path, scope="system", executable=executable, registry=registry,
                          record_dir=tmp_path / "rec")
    installer.install(["edge"])
    assert list(registry.keys) == [("HKLM", r"Software\Microsoft\Edge\NativeMessagingHosts\org.citemark.host")]


def test_uninstall_removes_only_what_install_wrote(tmp_path, executable):
    home = tmp_path / "home"
    installer = Installer(platform="linux", home=home, executable=executable, record_dir=tmp_path / "rec")
    installer.install(["chromium"])
    other = installer.manifest_path("chromium").parent / "com.other.host.json"
    other.write_text("{}")
    installer.uninstall()
    assert other.exists() and not installer.manifest_path("chromium").exists()


def test_doctor_says_what_to_fix(tmp_path, executable):
    installer = Installer(platform="linux", home=tmp_path, executable=executable, record_dir=tmp_path / "rec")
    ok, lines = installer.doctor(["chromium"])
    assert not ok and any("citemark install" in line for line in lines)
    installer.install(["chromium"])
    path = installer.manifest_path("chromium")
    data = json.loads(path.read_text())
    data["allowed_origins"] = ["chrome-extension://someoneelse/"]
    path.write_text(json.dumps(data))
    ok, lines = installer.doctor(["chromium"])
    assert not ok and any("is not allowed" in line for line in lines)
    executable.unlink()
    ok, lines = installer.doctor(["chromium"])
    assert any("executable" in line and "FAIL" in line for line in lines)
