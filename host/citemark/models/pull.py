"""``citemark model pull NAME``: download a pack from a Hugging Face–style hub, verified and atomically installed.

A hub repository holds ``onnx/model.onnx`` (or ``model.onnx``), ``tokenizer.json``
and ``config.json`` (whose ``id2label`` says what the outputs mean), served at
``{hub}/{name}/resolve/{revision}/{file}``. Each file is streamed to a
``.part`` file with progress on stderr, resumed with an HTTP Range request if a
previous pull was interrupted, and checked against its SHA-256 (the repository's
``citemark-model.json`` when it has one, else the hub's ``X-Linked-ETag``/``ETag``
header). The pack is assembled in a staging folder, loaded once to prove it
runs, and only then renamed into place. A failure leaves the installed packs
as they were and exits 2 with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import TextIO

import httpx

from citemark.errors import ModelDownloadError, ModelPackInvalid
from citemark.models.pack import FORMAT, MANIFEST, ModelPack, file_sha256, load_pack
from citemark.models.registry import models_dir
from citemark.settings import Settings

__all__ = ["DEFAULT_HUB", "pull"]

DEFAULT_HUB = "https://huggingface.co"
_SHA256 = re.compile(r'^(?:W/)?"?([0-9a-f]{64})"?$')
_NLI = {"entailment", "neutral", "contradiction"}


def pull(
    settings: Settings,
    name: str,
    *,
    hub: str | None = None,
    revision: str = "main",
    labels: list[str] | None = None,
    input_order: str = "evidence_claim",
    progress: TextIO | None = None,
    transport: httpx.BaseTransport | None = None,
) -> ModelPack:
    if not re.fullmatch(r"[\w.-]+(?:/[\w.-]+)?", name):
        raise ModelDownloadError(f"{name!r} is not a repository name like owner/model")
    base = (hub or os.environ.get("CITEMARK_HUB") or DEFAULT_HUB).rstrip("/")
    root = models_dir(settings)
    partial = root / ".partial" / name.replace("/", "--")
    partial.mkdir(parents=True, exist_ok=True)
    with httpx.Client(transport=transport, follow_redirects=True, timeout=httpx.Timeout(30.0, connect=10.0),
                      headers={"User-Agent": settings.user_agent}) as client:
        url = f"{base}/{name}/resolve/{revision}/"
        manifest = _optional_json(client, url + MANIFEST)
        config = _optional_json(client, url + "config.json")
        onnx_file = _first_present(client, url, ["onnx/model.onnx", "model.onnx"])
        expected = (manifest or {}).get("sha256", {})
        files = {onnx_file: "model.onnx", "tokenizer.json": "tokenizer.json"}
        for remote, local in files.items():
            _download(client, url + remote, partial / local, expected.get(local) or expected.get(remote), progress)
    if manifest is None:
        manifest = _manifest_from_config(name, revision, base, config, labels, input_order)
    manifest["sha256"] = {local: file_sha256(partial / local) for local in files.values()}
    manifest.setdefault("origin", f"{base}/{name} @ {revision}")
    (partial / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    pack = load_pack(partial)
    _prove_it_runs(pack)
    target = root / name.replace("/", "--")
    staging = Path(tempfile.mkdtemp(prefix=".install-", dir=root))
    try:
        shutil.move(str(partial), staging / "pack")
        old = target.with_name(target.name + ".old")
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
        (staging / "pack").rename(target)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return load_pack(target)


def _optional_json(client: httpx.Client, url: str) -> dict | None:
    try:
        response = client.get(url)
    except httpx.HTTPError as error:
        raise ModelDownloadError(f"cannot reach the hub: {error}") from None
    if response.status_code == 404:
        return None
    if response.status_code >= 400:
        raise ModelDownloadError(f"{url}: HTTP {response.status_code}")
    try:
        data = response.json()
    except ValueError:
        raise ModelDownloadError(f"{url} is not valid JSON") from None
    return data if isinstance(data, dict) else None


def _first_present(client: httpx.Client, url: str, candidates: list[str]) -> str:
    for candidate in candidates:
        try:
            response = client.head(url + candidate)
        except httpx.HTTPError as error:
            raise ModelDownloadError(f"cannot reach the hub: {error}") from None
        if response.status_code < 400:
            return candidate
    raise ModelDownloadError(f"the repository has no ONNX model ({' or '.join(candidates)})")


def _download(client: httpx.Client, url: str, target: Path, expected: str | None, progress: TextIO | None) -> None:
    """Stream ``url`` into ``target`` (resuming a ``.part``), then check its SHA-256."""
    part = target.with_name(target.name + ".part")
    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    try:
        with client.stream("GET", url, headers=headers) as response:
            if response.status_code == 416:  # the .part is already complete
                pass
            elif response.status_code >= 400:
                raise ModelDownloadError(f"{url}: HTTP {response.status_code}")
            else:
                if response.status_code != 206:
                    have = 0  # the server ignored the range: start over
                expected = expected or _hash_from_headers(response.headers)
                total = have + int(response.headers.get("content-length", "0") or 0)
                with open(part, "ab" if have else "wb") as handle:
                    done = have
                    for chunk in response.iter_bytes(1 << 20):
                        handle.write(chunk)
                        done += len(chunk)
                        if progress:
                            progress.write(f"\rdownloading {target.name}: {done / 1e6:.1f}/{total / 1e6:.1f} MB")
                            progress.flush()
                if progress:
                    progress.write("\n")
    except httpx.HTTPError as error:
        raise ModelDownloadError(f"download of {target.name} interrupted ({error}); run the same pull again to resume") from None
    actual = file_sha256(part)
    if expected and actual != expected:
        part.unlink()
        raise ModelDownloadError(f"{target.name}: SHA-256 {actual[:12]}… does not match the expected {expected[:12]}…")
    part.replace(target)


def _hash_from_headers(headers: httpx.Headers) -> str | None:
    for name in ("x-linked-etag", "etag"):
        match = _SHA256.match(headers.get(name, ""))
        if match:
            return match.group(1)
    return None


def _manifest_from_config(
    name: str, revision: str, hub: str, config: dict | None, labels: list[str] | None, input_order: str
) -> dict:
    if labels is None:
        id2label = (config or {}).get("id2label") or {}
        try:
            labels = [str(id2label[key]).lower() for key in sorted(id2label, key=int)]
        except (ValueError, KeyError):
            labels = []
    if set(labels) != _NLI:
        raise ModelPackInvalid(
            f"{name}: outputs {labels or 'unknown'} are not entailment/neutral/contradiction; "
            "give --labels in output order if the model is a 3-way NLI classifier"
        )
    max_length = min(int((config or {}).get("max_position_embeddings", 512) or 512), 512)
    return {
        "format": FORMAT,
        "name": name.replace("/", "--"),
        "version": revision,
        "description": f"{name} pulled from {hub}",
        "licence": (config or {}).get("license", "see the model's repository"),
        "origin": f"{hub}/{name} @ {revision}",
        "task": "nli3",
        "parts": {"nli": {"onnx": "model.onnx", "tokenizer": "tokenizer.json", "input_order": input_order,
                          "token_type_ids": True, "max_length": max_length, "labels": labels}},
    }


def _prove_it_runs(pack: ModelPack) -> None:
    from citemark.models.runtime import PackScorer

    try:
        PackScorer(pack, threads=1).score([("The sky is blue.", "The sky is blue.")])
    except Exception as error:  # any failure here means the pack is not usable
        raise ModelPackInvalid(f"the downloaded model does not run: {error}") from None
