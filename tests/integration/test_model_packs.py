"""Model packs: loading and validation errors, the runtime on a real (tiny) ONNX graph, import, and pull over loopback."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

from citemark.errors import ModelDownloadError, ModelNotFound, ModelPackInvalid
from citemark.models import registry
from citemark.models.pack import load_pack, verify_checksums
from citemark.models.pull import pull
from citemark.models.runtime import PackScorer
from tests.conftest import LoopbackServer, Reply
from tests.support.tinymodel import onnx_bytes, tokenizer_json, write_pack


@pytest.fixture
def pack_dir(tmp_path):
    return write_pack(tmp_path / "tiny")


def edit_manifest(folder, **changes):
    manifest = json.loads((folder / "citemark-model.json").read_text())
    manifest.update(changes)
    (folder / "citemark-model.json").write_text(json.dumps(manifest))


def test_a_valid_pack_scores_pairs(pack_dir):
    scorer = PackScorer(load_pack(pack_dir))
    yes, no, other = scorer.score([("yes the sky", "is blue"), ("no", "the sky is blue"), ("grass", "green")])
    assert yes.entailment > 0.7 and no.contradiction > 0.7 and other.neutral > 0.4
    assert abs(yes.entailment + yes.neutral + yes.contradiction - 1.0) < 1e-5


def test_batched_scores_equal_one_by_one(pack_dir):
    scorer = PackScorer(load_pack(pack_dir))
    pairs = [("yes " * n, "sky is blue") for n in range(1, 20)] + [("no grass", "green")]
    batched = scorer.score(pairs)
    for pair, together in zip(pairs, batched):
        (alone,) = scorer.score([pair])
        assert abs(alone.entailment - together.entailment) < 1e-5


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: (d / "citemark-model.json").unlink(), "has no citemark-model.json"),
        (lambda d: (d / "citemark-model.json").write_text("{not json"), "not valid JSON"),
        (lambda d: edit_manifest(d, format="other/9"), "format must be"),
        (lambda d: edit_manifest(d, task="summarise"), "unknown task"),
        (lambda d: edit_manifest(d, parts={}), "needs parts"),
        (lambda d: (d / "tokenizer.json").unlink(), "tokenizer: .*missing"),
        (lambda d: edit_manifest(d, parts={"nli": {"onnx": "../../etc/passwd", "tokenizer": "tokenizer.json",
                                                   "labels": ["entailment", "neutral", "contradiction"]}}), "inside the pack"),
        (lambda d: edit_manifest(d, parts={"nli": {"onnx": "model.onnx", "tokenizer": "tokenizer.json",
                                                   "labels": ["yes", "no"]}}), "labels must be"),
        (lambda d: edit_manifest(d, combiner={"features": ["entailment"], "weights": []}), "combiner is malformed"),
        # a combiner fitted on a feature citemark no longer computes would silently lose that weight
        (lambda d: edit_manifest(d, combiner={"features": ["entailment", "unstated_in_evidence"], "weights": [1.0, -1.0],
                                              "bias": 0.0}), "does not compute: unstated_in_evidence"),
    ],
)
def test_broken_packs_are_clear_errors(pack_dir, damage, message):
    damage(pack_dir)
    with pytest.raises(ModelPackInvalid, match=message):
        load_pack(pack_dir)


def test_a_corrupt_onnx_file_fails_at_load_with_its_path(pack_dir):
    (pack_dir / "model.onnx").write_bytes(b"\x00garbage" * 100)
    with pytest.raises(ModelPackInvalid, match="cannot load ONNX model"):
        PackScorer(load_pack(pack_dir)).score([("a", "b")])


def test_import_copies_validates_and_resolves_by_name(pack_dir, settings):
    imported = registry.import_pack(settings, pack_dir)
    assert imported.root == registry.models_dir(settings) / "tiny-nli"
    assert registry.resolve(settings, "tiny-nli").name == "tiny-nli"
    assert registry.resolve(settings, "none") is None
    with pytest.raises(ModelNotFound, match="no model pack named"):
        registry.resolve(settings, "missing-model")


def test_checksums_in_the_manifest_are_verified(pack_dir):
    edit_manifest(pack_dir, sha256={"model.onnx": "0" * 64})
    with pytest.raises(ModelPackInvalid, match="does not match"):
        verify_checksums(load_pack(pack_dir))


class Hub:
    """A Hugging Face-style file layout on 127.0.0.1 with SHA-256 ETags and Range support."""

    def __init__(self, server: LoopbackServer, name: str = "acme/tiny-nli") -> None:
        self.server, self.name = server, name
        self.files = {
            "onnx/model.onnx": onnx_bytes(),
            "tokenizer.json": tokenizer_json().encode(),
            "config.json": json.dumps({"id2label": {"0": "ENTAILMENT", "1": "NEUTRAL", "2": "CONTRADICTION"},
                                       "max_position_embeddings": 64}).encode(),
        }
        self.drop_first_download = False
        self.lie_about = None
        for path, body in self.files.items():
            server.routes[f"/{name}/resolve/main/{path}"] = self._handler(path, body)

    def _handler(self, path, body):
        def handle(request):
            digest = hashlib.sha256(body).hexdigest() if path != self.lie_about else "f" * 64
            headers = {"Content-Type": "application/octet-stream", "X-Linked-Etag": f'"{digest}"'}
            wanted = request.headers.get("Range")
            if request.command == "HEAD":
                return Reply(b"", headers=headers)
            if wanted:
                start = int(wanted.split("=")[1].split("-")[0])
                return Reply(body[start:], status=206, headers={**headers, "Content-Range": f"bytes {start}-{len(body) - 1}/{len(body)}"})
            if self.drop_first_download and path == "onnx/model.onnx":
                self.drop_first_download = False
                return Reply(body[: len(body) // 2], headers={**headers, "Content-Length": str(len(body)), "Connection": "close"})
            return Reply(body, headers=headers)

        return handle

    @property
    def url(self):
        return self.server.url("")


@pytest.fixture
def hub(server):
    return Hub(server)


def test_pull_installs_a_verified_pack_atomically(hub, settings):
    pack = pull(settings, hub.name, hub=hub.url)
    assert pack.root == registry.models_dir(settings) / "acme--tiny-nli"
    assert pack.parts["nli"].labels == ("entailment", "neutral", "contradiction")
    verify_checksums(pack)
    assert PackScorer(pack).score([("yes", "sky")])[0].entailment > 0.5
    assert not (registry.models_dir(settings) / ".partial" / "acme--tiny-nli").exists()


def test_an_interrupted_pull_resumes(hub, settings):
    hub.drop_first_download = True
    with pytest.raises(ModelDownloadError, match="resume"):
        pull(settings, hub.name, hub=hub.url)
    assert not (registry.models_dir(settings) / "acme--tiny-nli").exists()
    pack = pull(settings, hub.name, hub=hub.url)
    ranges = [headers.get("Range") for path, headers in hub.server.requests if path.endswith("model.onnx")]
    assert any(r and r != "bytes=0-" for r in ranges)
    verify_checksums(pack)


def test_a_checksum_mismatch_installs_nothing(hub, settings):
    hub.lie_about = "onnx/model.onnx"
    with pytest.raises(ModelDownloadError, match="SHA-256"):
        pull(settings, hub.name, hub=hub.url)
    assert not (registry.models_dir(settings) / "acme--tiny-nli").exists()


def test_cli_pull_failure_exits_2_and_never_falls_back(hub, home):
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    result = subprocess.run([sys.executable, "-m", "citemark.cli", "model", "pull", "acme/absent", "--hub", hub.url],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 2 and "E303" in result.stderr
    ok = subprocess.run([sys.executable, "-m", "citemark.cli", "model", "pull", hub.name, "--hub", hub.url],
                        capture_output=True, text=True, env=env, timeout=60)
    assert ok.returncode == 0, ok.stderr
    listing = subprocess.run([sys.executable, "-m", "citemark.cli", "model", "list"], capture_output=True, text=True,
                             env=env, timeout=60)
    assert "acme--tiny-nli" in listing.stdout
    bad = subprocess.run([sys.executable, "-m", "citemark.cli", "verify", "--claim", "x", "--source-text", "y z",
                          "--model", "nonexistent"], capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "no model pack named" in bad.stderr
