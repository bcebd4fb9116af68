"""Model packs: a folder with ONNX file(s), ``tokenizer.json`` and a ``citemark-model.json`` manifest.

The manifest says everything the runtime must not guess::

    {
      "format": "citemark-model/1",
      "name": "citemark-grounding-minilm",
      "version": "1.0",
      "licence": "Apache-2.0",
      "origin": "trained by train/ from sentence-transformers/all-MiniLM-L6-v2",
      "task": "nli3",                      # or "contradiction+addresses" (combined pack)
      "parts": {
        "nli": {
          "onnx": "model.onnx",            # relative to the pack, or "pkg:module/file"
          "tokenizer": "tokenizer.json",
          "input_order": "claim_evidence", # or "evidence_claim"
          "token_type_ids": true,
          "max_length": 256,
          "fixed_length": null,            # set when the graph has a fixed sequence length
          "batch_size": 1,                 # pairs per run (default 16); 1 = scores independent of batch-mates
          "labels": ["entailment", "neutral", "contradiction"],
          "token_states_layer": 4          # optional, informative: the layer the graph's second output
        }                                  # "token_states" holds (paraphrase matches; train/token_states.py)
      },
      "sha256": {"model.onnx": "..."},
      "combiner": {...}                    # optional: calibrated weights, see scoring/calibrate.py
    }

A combined pack names its parts: ``contradiction`` (labels ``other``,
``contradiction``) and ``addresses`` (labels ``unrelated``, ``addresses``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citemark.errors import ModelPackInvalid
from citemark.scoring.calibrate import FEATURES_MODEL, Combiner

__all__ = ["MANIFEST", "ModelPack", "PartSpec", "file_sha256", "load_pack"]

MANIFEST = "citemark-model.json"
FORMAT = "citemark-model/1"
TASKS = {
    "nli3": {"nli": {"entailment", "neutral", "contradiction"}},
    "contradiction+addresses": {
        "contradiction": {"other", "contradiction"},
        "addresses": {"unrelated", "addresses"},
    },
}


@dataclass(frozen=True, slots=True)
class PartSpec:
    """One ONNX classifier of a pack, with everything needed to feed it."""

    role: str
    onnx: Path
    tokenizer: Path
    labels: tuple[str, ...]
    input_order: str = "claim_evidence"
    token_type_ids: bool = True
    max_length: int = 256
    fixed_length: int | None = None
    batch_size: int = 16  # pairs per run; 1 keeps an int8 model's scores independent of batch-mates


@dataclass(frozen=True, slots=True)
class ModelPack:
    name: str
    task: str
    parts: dict[str, PartSpec]
    root: Path | None
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def licence(self) -> str:
        return str(self.manifest.get("licence", "unknown"))

    @property
    def combiner(self) -> dict[str, Any] | None:
        return self.manifest.get("combiner")

    def describe(self) -> dict[str, Any]:
        keys = ("name", "version", "description", "licence", "origin", "task", "metrics")
        info = {k: self.manifest[k] for k in keys if k in self.manifest}
        info["path"] = str(self.root) if self.root else None
        info["parts"] = {role: {"onnx": str(p.onnx), "max_length": p.max_length} for role, p in self.parts.items()}
        return info


def load_pack(path: Path | str, manifest: dict[str, Any] | None = None) -> ModelPack:
    """Read and validate a pack (``manifest`` given: a built-in pack with no folder)."""
    root = Path(path) if path else None
    if manifest is None:
        assert root is not None
        manifest_path = root / MANIFEST
        if not root.is_dir():
            raise ModelPackInvalid(f"{root} is not a folder")
        if not manifest_path.is_file():
            raise ModelPackInvalid(f"{root} has no {MANIFEST}")
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as error:
            raise ModelPackInvalid(f"{manifest_path}: not valid JSON ({error})") from None
    if not isinstance(manifest, dict):
        raise ModelPackInvalid("manifest must be a JSON object")
    if manifest.get("format") != FORMAT:
        raise ModelPackInvalid(f"manifest format must be {FORMAT!r}, not {manifest.get('format')!r}")
    name, task = manifest.get("name"), manifest.get("task")
    if not isinstance(name, str) or not name:
        raise ModelPackInvalid("manifest has no name")
    if task not in TASKS:
        raise ModelPackInvalid(f"unknown task {task!r}; expected one of {sorted(TASKS)}")
    raw_parts = manifest.get("parts")
    if not isinstance(raw_parts, dict) or set(raw_parts) != set(TASKS[task]):
        raise ModelPackInvalid(f"task {task!r} needs parts {sorted(TASKS[task])}")
    parts = {role: _part(role, raw, root, TASKS[task][role]) for role, raw in raw_parts.items()}
    _check_combiner(manifest.get("combiner"))
    return ModelPack(name=name, task=task, parts=parts, root=root, manifest=manifest)


def _check_combiner(raw: Any) -> None:
    """A combiner naming a feature citemark no longer computes would silently lose that
    weight (missing features count as 0): refuse the pack instead."""
    if raw is None:
        return
    try:
        combiner = Combiner.from_dict(raw)
    except (TypeError, ValueError, KeyError) as error:
        raise ModelPackInvalid(f"combiner is malformed ({error})") from None
    unknown = sorted(set(combiner.features) - set(FEATURES_MODEL))
    if unknown:
        raise ModelPackInvalid(
            f"combiner uses features this citemark does not compute: {', '.join(unknown)} "
            "(refit it with train/fit_combiner.py)"
        )


def _part(role: str, raw: Any, root: Path | None, expected_labels: set[str]) -> PartSpec:
    if not isinstance(raw, dict):
        raise ModelPackInvalid(f"part {role!r} must be an object")
    labels = raw.get("labels")
    if not isinstance(labels, list) or set(labels) != expected_labels:
        raise ModelPackInvalid(f"part {role!r}: labels must be {sorted(expected_labels)}, got {labels!r}")
    order = raw.get("input_order", "claim_evidence")
    if order not in {"claim_evidence", "evidence_claim"}:
        raise ModelPackInvalid(f"part {role!r}: input_order must be claim_evidence or evidence_claim")
    onnx = _locate(raw.get("onnx"), root, f"part {role!r} onnx")
    tokenizer = _locate(raw.get("tokenizer"), root, f"part {role!r} tokenizer")
    try:
        batch_size = int(raw.get("batch_size", 16))
        max_length = int(raw.get("max_length", 256))
        fixed = raw.get("fixed_length")
        fixed_length = int(fixed) if fixed is not None else None
    except (TypeError, ValueError):
        raise ModelPackInvalid(f"part {role!r}: max_length and fixed_length must be integers") from None
    if not 8 <= max_length <= 4096:
        raise ModelPackInvalid(f"part {role!r}: max_length {max_length} out of range")
    if not 1 <= batch_size <= 256:
        raise ModelPackInvalid(f"part {role!r}: batch_size {batch_size} out of range")
    return PartSpec(
        role=role, onnx=onnx, tokenizer=tokenizer, labels=tuple(labels), input_order=order,
        token_type_ids=bool(raw.get("token_type_ids", True)), max_length=max_length,
        fixed_length=fixed_length, batch_size=batch_size,
    )


def _locate(reference: Any, root: Path | None, what: str) -> Path:
    """A file of the pack, or ``pkg:module/relative`` inside an installed package."""
    if not isinstance(reference, str) or not reference:
        raise ModelPackInvalid(f"{what}: no file given")
    if reference.startswith("pkg:"):
        module, _, relative = reference[4:].partition("/")
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise ModelPackInvalid(f"{what}: package {module!r} is not installed")
        path = Path(next(iter(spec.submodule_search_locations))) / relative
    else:
        if root is None or Path(reference).is_absolute() or ".." in Path(reference).parts:
            raise ModelPackInvalid(f"{what}: {reference!r} must be a path inside the pack")
        path = root / reference
    if not path.is_file():
        raise ModelPackInvalid(f"{what}: {path} is missing")
    return path


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_checksums(pack: ModelPack) -> None:
    """Compare every file the manifest lists a SHA-256 for; raise on any difference."""
    for relative, expected in (pack.manifest.get("sha256") or {}).items():
        if pack.root is None:
            continue
        path = pack.root / relative
        if not path.is_file():
            raise ModelPackInvalid(f"{relative} listed in the manifest is missing")
        actual = file_sha256(path)
        if actual != expected:
            raise ModelPackInvalid(f"{relative}: SHA-256 {actual[:12]}… does not match the manifest")
