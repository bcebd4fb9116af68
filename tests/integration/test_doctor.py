"""``citemark doctor`` in temporary homes: real manifests, the real host started as a browser starts it, real framing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citemark import __version__
from citemark.browsers import Layout
from citemark.doctor import Doctor
from citemark.install import EXTENSION_ID, GECKO_ID, Installer
from tests.conftest import Reply
from tests.support.registry import MemoryRegistry

OTHER_ID = "abcdefghijklmnopabcdefghijklmnop"


@pytest.fixture
def host(tmp_path) -> Path:
    """This checkout's ``citemark`` as a browser would start it (an absolute executable)."""
    launcher = tmp_path / "bin" / "citemark"
    launcher.parent.mkdir()
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m citemark.cli "$@"\n')
    launcher.chmod(0o755)
    return launcher


def script_host(tmp_path: Path, reply: dict | None) -> Path:
    """A stand-in executable that records how it was started and answers one frame (or nothing)."""
    path = tmp_path / "bin" / "other-host"
    path.parent.mkdir(exist_ok=True)
    answer = "" if reply is None else (
        f"data = json.dumps({reply!r}).encode()\nsys.stdout.buffer.write(struct.pack('=I', len(data)) + data)\n"
        "sys.stdout.buffer.flush()\nsys.stdin.buffer.read()\n")
    path.write_text(f"#!{sys.executable}\nimport json, os, struct, sys\n"
                    f"open({str(tmp_path / 'argv.json')!r}, 'w').write(json.dumps([sys.argv[1:], os.getcwd()]))\n"
                    f"sys.stdin.buffer.read(4)\n{answer}sys.exit(3)\n")
    path.chmod(0o755)
    return path


def setup(home: Path, host: Path, env: dict[str, str] | None = None) -> tuple[Installer, Doctor]:
    installer = Installer(platform="linux", home=home, executable=host, env=env or {}, record_dir=home / "data" / "citemark")  # where the host looks (XDG_DATA_HOME)
    return installer, Doctor(installer.layout, timeout=60)


def by_label(findings):
    return {f.label: f for f in findings}


def test_a_registered_profile_answers_hello_through_the_real_host(home, host):
    installer, doctor = setup(home, host)
    profile = home / "custom-profile"
    [finding] = doctor.check(["chromium"], user_data_dir=profile)
    assert finding.status == "fail" and "no manifest" in finding.problems[0]
    assert finding.fixes == [f"citemark install --browser chromium --user-data-dir {profile}"]
    installer.install(installer.targets(["chromium"], user_data_dir=profile))
    [finding] = doctor.check(["chromium"], user_data_dir=profile)
    assert finding.status == "ok", finding.problems
    assert finding.manifest == str(profile / "NativeMessagingHosts" / "org.citemark.host.json")
    assert finding.host["type"] == "hello" and finding.host["version"] == __version__


def test_the_ordinary_folder_does_not_serve_a_custom_profile(home, host):
    """The bug this fixes: ~/.config/chromium is registered, but Chromium --user-data-dir never reads it."""
    installer, doctor = setup(home, host)
    (home / ".config" / "chromium").mkdir(parents=True)
    installer.install(installer.targets(["chromium"]))
    assert by_label(doctor.check(["chromium"]))["chromium"].status == "ok"
    [profile] = doctor.check(["chromium"], user_data_dir=home / "p")
    assert profile.status == "fail"


def test_the_system_folder_is_read_when_the_user_folder_has_none(home, host, tmp_path):
    root = tmp_path / "root"
    installer = Installer(platform="linux", home=home, executable=host, env={}, scope="system", root=root,
                          record_dir=home / "data" / "citemark")  # where the host looks (XDG_DATA_HOME)
    installer.install(installer.targets(["chromium"]))
    doctor = Doctor(Layout("linux", home, {}, root), timeout=60)
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "ok" and finding.manifest.startswith(str(root / "etc" / "chromium"))
    edit(Path(finding.manifest), allowed_origins=[])
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and finding.fixes == ["sudo citemark install --system --browser chromium"]


def test_flatpak_and_snap_builds_are_checked_where_they_read(home, host):
    installer, doctor = setup(home, host)
    (home / ".var/app/org.chromium.Chromium").mkdir(parents=True)
    (home / "snap/firefox").mkdir(parents=True)
    found = by_label(doctor.check(["chromium", "firefox"]))
    assert found["chromium (flatpak)"].status == "fail"
    assert found["chromium (flatpak)"].fixes == ["citemark install --browser chromium"]
    assert found["firefox (snap)"].status == "fail"
    assert found["chromium"].status == found["chromium (snap)"].status == found["firefox"].status == "absent"
    installer.install(installer.targets(["chromium", "firefox"]))
    found = by_label(doctor.check(["chromium", "firefox"]))
    assert found["chromium (flatpak)"].status == "ok", found["chromium (flatpak)"].problems
    assert found["chromium (flatpak)"].manifest.startswith(str(home / ".var/app/org.chromium.Chromium/config/chromium"))
    assert found["firefox (snap)"].status == "ok", found["firefox (snap)"].problems
    assert found["firefox (snap)"].host["version"] == __version__


def test_xdg_config_home_is_where_install_and_doctor_look(home, host, tmp_path):
    config = tmp_path / "xdg"
    (config / "chromium").mkdir(parents=True)
    installer, doctor = setup(home, host, {"XDG_CONFIG_HOME": str(config)})
    installer.install(installer.targets(["chromium"]))
    finding = by_label(doctor.check(["chromium"]))["chromium"]
    assert finding.status == "ok" and finding.manifest == str(config / "chromium/NativeMessagingHosts/org.citemark.host.json")
    _, plain = setup(home, host)
    assert by_label(plain.check(["chromium"]))["chromium"].status == "absent"  # ~/.config/chromium does not exist


def registered(home: Path, host: Path, browser: str = "chromium") -> tuple[Doctor, Path]:
    installer, doctor = setup(home, host)
    profile = home / "profile"
    installer.install(installer.targets([browser], user_data_dir=profile) if browser != "firefox" else installer.targets([browser]))
    place = installer.layout.profile(browser, profile) if browser != "firefox" else installer.layout.user(browser)[0]
    return doctor, place.manifest


def edit(manifest: Path, **fields) -> None:
    data = json.loads(manifest.read_text())
    data.update(fields)
    manifest.write_text(json.dumps(data))


def test_a_manifest_naming_a_missing_executable(home, host):
    doctor, manifest = registered(home, host)
    edit(manifest, path=str(home / "gone" / "citemark"))
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and finding.host is None
    assert "does not exist" in finding.problems[0]
    assert finding.fixes == [f"citemark install --browser chromium --user-data-dir {home / 'profile'}"]


def test_a_manifest_naming_a_file_that_is_not_executable(home, host):
    doctor, manifest = registered(home, host)
    host.chmod(0o644)
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and "is not executable" in finding.problems[0]
    assert finding.fixes[0] == f"chmod +x {host}"


def test_a_manifest_that_is_not_json(home, host):
    doctor, manifest = registered(home, host)
    manifest.write_text("{ not json")
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and "not a readable JSON manifest" in finding.problems[0]


def test_a_wrong_extension_id(home, host):
    doctor, manifest = registered(home, host)
    edit(manifest, allowed_origins=[f"chrome-extension://{OTHER_ID}/"])
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and finding.problems == [f"it does not allow the extension chrome-extension://{EXTENSION_ID}/"]
    # the user's own build of the extension (another id): doctor says how to allow it
    other = Doctor(doctor.layout, extension_ids=["pppppppppppppppppppppppppppppppp", EXTENSION_ID], timeout=60)
    [finding] = other.check(["chromium"], user_data_dir=home / "profile")
    assert finding.fixes == [f"citemark install --browser chromium --user-data-dir {home / 'profile'}"
                             " --extension-id pppppppppppppppppppppppppppppppp"]
    edit(manifest, allowed_origins=["chrome-extension://pppppppppppppppppppppppppppppppp/"])
    [finding] = other.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "ok", finding.problems


def test_firefox_wrong_add_on_id(home, host):
    (home / ".mozilla").mkdir()
    doctor, manifest = registered(home, host, "firefox")
    assert by_label(doctor.check(["firefox"]))["firefox"].status == "ok"
    edit(manifest, allowed_extensions=["someone@else"])
    finding = by_label(doctor.check(["firefox"]))["firefox"]
    assert finding.status == "fail" and GECKO_ID in finding.problems[0]


def test_the_host_is_started_as_each_browser_starts_it(home, tmp_path):
    hello = {"v": 1, "id": "doctor", "type": "hello", "name": "org.citemark.host", "version": __version__}
    (home / ".mozilla").mkdir()
    executable = script_host(tmp_path, hello)
    doctor, _ = registered(home, executable)
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "ok"
    assert json.loads((tmp_path / "argv.json").read_text()) == [[f"chrome-extension://{EXTENSION_ID}/"], str(executable.parent)]
    doctor, manifest = registered(home, executable, "firefox")
    assert by_label(doctor.check(["firefox"]))["firefox"].status == "ok"
    assert json.loads((tmp_path / "argv.json").read_text())[0] == [str(manifest), GECKO_ID]


def test_a_host_of_another_version(home, tmp_path):
    executable = script_host(tmp_path, {"type": "hello", "name": "org.citemark.host", "version": "0.0.1"})
    doctor, _ = registered(home, executable)
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and f"it starts citemark 0.0.1, and this citemark (and its extension) is {__version__}" in finding.problems
    assert finding.fixes == [f"citemark install --browser chromium --user-data-dir {home / 'profile'}"]


def test_a_host_that_exits_without_answering(home, tmp_path):
    executable = script_host(tmp_path, None)
    doctor, _ = registered(home, executable)
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and "exited without answering hello" in finding.problems[0]


def test_a_host_that_refuses_the_origin(home, tmp_path):
    refusal = {"v": 1, "id": None, "type": "error", "code": "E404", "message": "caller not allowed"}
    doctor, _ = registered(home, script_host(tmp_path, refusal))
    [finding] = doctor.check(["chromium"], user_data_dir=home / "profile")
    assert finding.status == "fail" and "refused" in finding.problems[0] and "caller not allowed" in finding.problems[0]


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "citemark.cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd=cwd)


def test_cli_install_doctor_json_and_uninstall_with_the_same_flags(home):
    profile = home / "profile"
    before = cli("doctor", "--user-data-dir", str(profile), "--json", cwd=home)
    assert before.returncode == 1
    report = json.loads(before.stdout)
    assert report["ok"] is False and report["browsers"][0]["status"] == "fail"
    assert report["browsers"][0]["fixes"] == [f"citemark install --browser chromium --user-data-dir {profile}"]
    assert cli("install", "--user-data-dir", str(profile), cwd=home).returncode == 0
    after = cli("doctor", "--user-data-dir", str(profile), "--json", cwd=home)
    report = json.loads(after.stdout)
    assert after.returncode == 0, after.stdout
    assert report["ok"] is True and report["version"] == __version__
    assert report["browsers"][0]["host"]["version"] == __version__ and report["model"]["ok"]
    text = cli("doctor", "--user-data-dir", str(profile), cwd=home)
    assert text.returncode == 0 and "ok    chromium (profile)" in text.stdout and "answered hello" in text.stdout
    removed = cli("uninstall", "--user-data-dir", str(profile), cwd=home)
    assert removed.returncode == 0 and "org.citemark.host.json" in removed.stdout
    assert not (profile / "NativeMessagingHosts" / "org.citemark.host.json").exists()


def test_windows_reads_the_manifest_the_registry_key_names(home, host):
    registry = MemoryRegistry()
    env = {"LOCALAPPDATA": str(home / "AppData" / "Local")}
    (home / "AppData/Local/Google/Chrome/User Data").mkdir(parents=True)
    installer = Installer(platform="win32", home=home, executable=host, env=env, registry=registry, record_dir=home / "rec")
    doctor = Doctor(installer.layout, registry, timeout=60)
    installer.install(installer.targets(["chrome"]))
    [finding] = doctor.check(["chrome"])
    assert finding.status == "ok", finding.problems
    assert finding.manifest == str(home / "AppData/Local/citemark/native-messaging/chrome/org.citemark.host.json")
    registry.keys.clear()
    [finding] = doctor.check(["chrome"])
    assert finding.status == "fail"
    assert finding.problems == [r"no manifest: the browser looks for HKCU\Software\Google\Chrome\NativeMessagingHosts\org.citemark.host"]


def test_without_a_keyring_fetches_stay_quiet_and_doctor_says_it_once(home, server, tmp_path):
    server.routes["/page"] = Reply("<html><body><article><p>The Danube flows for 2,850 kilometres.</p><p>It empties into the Black Sea.</p></article>"
                                   "</body></html>")
    env = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "CITEMARK_ALLOW_PRIVATE_NETWORK": "1"}
    for quiet in ([], ["-q"]):
        run = cli("verify", "--claim", "The Danube flows for 2,850 kilometres.", "--source", server.url("/page"),
                  "--model", "none", *quiet, cwd=home, env=env)
        assert run.returncode == 0, run.stderr
        assert "keyring" not in run.stderr
    doctor = cli("doctor", "--json", cwd=home, env=env)
    credentials = json.loads(doctor.stdout)["credentials"]
    assert credentials["ok"] is False and "keyring is unavailable" in credentials["detail"]
    assert "keyring is unavailable" in cli("doctor", cwd=home, env=env).stdout


def test_installed_but_never_started_browsers_are_found_and_only_they_are_registered(home, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("chromium", "firefox-esr"):  # installed, never started: no config folder yet
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    installed = cli("install", cwd=home, env=env)
    assert installed.returncode == 0, installed.stderr
    registered = {line.split(" for ", 1)[1].split(":")[0] for line in installed.stdout.splitlines()
                  if line.startswith("registered")}
    assert {name.split()[0] for name in registered} == {"chromium", "firefox"}, installed.stdout
    doctor = cli("doctor", "--json", cwd=home, env=env)
    found = {b["label"]: b["status"] for b in json.loads(doctor.stdout)["browsers"]}
    assert found["chromium"] == "ok" and found["firefox"] == "ok"
    assert all(status == "absent" for label, status in found.items() if label.split()[0] in ("chrome", "edge", "brave",
                                                                                               "vivaldi"))
    text = cli("doctor", cwd=home, env=env).stdout
    not_used = next(line for line in text.splitlines() if "not used on this machine" in line).split(": ", 1)[1]
    assert {"chromium", "firefox"}.isdisjoint(not_used.split(", ")) and "chrome" in not_used.split(", ")
