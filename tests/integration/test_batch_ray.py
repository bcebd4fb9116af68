"""The Ray path on a local 2-CPU cluster started in the test: the same records as the local run; and
``citemark batch --ray local`` keeps its cluster on 127.0.0.1 and leaves nothing behind.

Skipped where Ray is not installed, except in CI (``CI=1``), which installs the ``ray``
extra and must run it.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from citemark import batch_ray
from citemark.batch import run_batch
from tests.conftest import Reply
from tests.support.batch import PAGES, answers, mixed_batch, write_jsonl

if os.environ.get("CI"):
    import ray  # CI installs the ray extra: a missing Ray fails here instead of skipping
else:
    ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_cluster():
    """One cluster for the module: Ray does not start a second one reliably in the same process."""
    with batch_ray.local_cluster(num_cpus=2):
        yield


def records(path):
    return {json.dumps(record["id"]): record for record in map(json.loads, path.read_text().splitlines())}


@pytest.mark.parametrize("model", ["none", pytest.param("citemark-grounding-minilm", marks=pytest.mark.model)])
def test_a_ray_run_gives_the_records_of_the_local_run(server, settings, tmp_path, local_cluster, model):
    settings = settings.with_(model=model)
    source = mixed_batch(server, tmp_path / "in.jsonl")
    local = run_batch(source, tmp_path / "local.jsonl", settings=settings, cache=None)
    on_ray = run_batch(source, tmp_path / "ray.jsonl", settings=settings, cache=None, remote=batch_ray.on_ray("local", actors=2))
    assert records(tmp_path / "ray.jsonl") == records(tmp_path / "local.jsonl")
    assert (on_ray.answers, on_ray.errors) == (local.answers, local.errors) == (24, 2)
    assert on_ray.verdicts == local.verdicts


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the sockets from Linux's /proc")
def test_a_local_cluster_listens_on_loopback_only_and_leaves_nothing_behind(server, tmp_path, confined):
    """The whole door in a child process; every socket its descendants (Ray's servers, raylet,
    workers, the actor) listen on is read from /proc while it runs."""
    server.routes.update(PAGES)
    source = write_jsonl(tmp_path / "in.jsonl", answers(server))
    process = confined.batch(source, tmp_path / "out.jsonl")
    listening: dict[str, str] = {}  # address:port → the process listening there
    deadline = time.monotonic() + 150
    while process.poll() is None and time.monotonic() < deadline:
        listening.update(listening_sockets(process.pid))
        time.sleep(0.2)
    process.kill()
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr.decode(errors="replace")[-2000:]
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == len(answers(server))
    assert any("raylet" in name for name in listening.values()), listening  # the poll saw the cluster
    assert any(name.startswith("ray::") for name in listening.values()), listening  # and a worker
    exposed = {address: name for address, name in listening.items() if not is_loopback(address)}
    assert not exposed
    assert confined.left_behind() == []


def test_a_terminated_ray_run_stops_like_ctrl_c_and_leaves_nothing_behind(server, tmp_path, confined):
    """Ray's ray.init takes SIGTERM for a handler that ends the process on the spot; citemark's is put back."""
    server.routes.update({f"/slow{i}": Reply(PAGES["/library"].body, delay=0.2) for i in range(48)})
    items = [{"id": f"a{i}", "claims": [{"claim": "The library holds 260,000 volumes.", "url": server.url(f"/slow{i}")}]}
             for i in range(48)]
    out = tmp_path / "out.jsonl"
    process = confined.batch(write_jsonl(tmp_path / "in.jsonl", items), out, "--concurrency", "2")
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and process.poll() is None and (not out.exists() or not out.read_bytes()):
        time.sleep(0.1)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode(errors="replace")[-2000:]
    assert 1 <= len(out.read_text().splitlines()) < 48
    assert confined.left_behind() == []


class Confined:
    """``citemark batch --ray local`` in a child process whose HOME and TMPDIR are empty folders."""

    def __init__(self, home: Path, temp: Path, cache: Path) -> None:
        self.home, self.temp = home, temp
        # citemark's own cache folder (its scholarly record cache opens it even under --no-cache) is kept
        # out of HOME, so that HOME shows what Ray writes.
        self.environment = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "RAY_"))}
        self.environment.update(HOME=str(home), TMPDIR=str(temp), XDG_CACHE_HOME=str(cache),
                                CITEMARK_ALLOW_PRIVATE_NETWORK="1")

    def batch(self, source: Path, out: Path, *options: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "citemark.cli", "batch", str(source), "--out", str(out),
                                 "--model", "none", "--no-cache", "--ray", "local", "--ray-actors", "1", *options],
                                env=self.environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def left_behind(self) -> list[Path]:
        """What is in HOME (Ray would write ~/.ray/auth_token) or TMPDIR (Ray's session folder) now."""
        return sorted([*self.home.rglob("*"), *self.temp.rglob("*")])


@pytest.fixture
def confined(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    temp = Path(tempfile.mkdtemp(prefix="cm-", dir="/tmp"))  # short: Ray's socket paths must fit in 107 bytes
    try:
        yield Confined(home, temp, tmp_path / "cache")
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def listening_sockets(root: int) -> dict[str, str]:
    """``address:port`` → process name for every TCP socket listening in ``root`` or its descendants."""
    inodes = {}
    for pid in [root, *descendants(root)]:
        try:
            name = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = name
        except OSError:  # the process or descriptor is gone
            continue
    found = {}
    for table in ("tcp", "tcp6"):
        for row in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = row.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found[kernel_address(fields[1])] = inodes[fields[9]]
    return found


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def kernel_address(field: str) -> str:
    """``/proc/net/tcp*``'s ``0100007F:1F90`` (32-bit words in host order, little-endian here) as ``127.0.0.1:8080``."""
    hexed, port = field.split(":")
    raw = b"".join(bytes.fromhex(hexed[i:i + 8])[::-1] for i in range(0, len(hexed), 8))
    return f"{ipaddress.ip_address(raw)}:{int(port, 16)}"


def is_loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address.rsplit(":", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


@pytest.mark.parametrize(("field", "address"), [
    ("0100007F:1F90", "127.0.0.1:8080"),
    ("00000000:1F90", "0.0.0.0:8080"),
    ("0000000000000000FFFF00000100007F:A277", "::ffff:7f00:1:41591"),
    ("00000000000000000000000001000000:0050", "::1:80"),
])
def test_kernel_addresses_are_read_as_the_kernel_writes_them(field, address):
    assert kernel_address(field) == address


def test_only_loopback_addresses_count_as_loopback():
    assert is_loopback("127.0.0.1:80") and is_loopback("::ffff:7f00:1:41591") and is_loopback("::1:80")
    assert not is_loopback("0.0.0.0:80") and not is_loopback(":::80") and not is_loopback("192.0.2.2:6379")
