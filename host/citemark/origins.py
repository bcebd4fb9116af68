"""Which callers the native host serves: the extensions its host manifests name, and no one else.

A browser starts the host with the caller's origin: ``chrome-extension://ID/`` from
Chromium-family browsers, or the host manifest's path and the add-on id from
Firefox. The browser already refuses extensions its manifest does not list; the
host checks again, so a host started by another extension (a manifest edited, a
second browser profile) serves nothing. The ids allowed are citemark's own and
those ``citemark install --extension-id`` wrote into the manifests it recorded.
A host started by hand (no origin: a terminal, ``citemark doctor``, the tests)
is the user's own and is served.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from citemark.browsers import EXTENSION_ID, GECKO_ID

__all__ = ["allowed_origin"]

log = logging.getLogger(__name__)


def allowed_origin(origin: str | None, extra: list[str] | None = None) -> bool:
    """True when the browser says the caller is an extension the host may serve."""
    if not origin:
        return True
    if origin.startswith("chrome-extension://"):
        extension_id = origin.removeprefix("chrome-extension://").rstrip("/")
        return extension_id == EXTENSION_ID or f"chrome-extension://{extension_id}/" in _recorded("allowed_origins")
    if origin.endswith(".json") and extra:
        addon = extra[0]
        return addon == GECKO_ID or addon in _manifest_list(Path(origin), "allowed_extensions")
    return False


def _recorded(key: str) -> set[str]:
    """``key`` entries of every host manifest ``citemark install`` recorded, user and system."""
    from citemark.install import Installer

    found: set[str] = set()
    for scope in ("user", "system"):
        try:
            installer = Installer(platform=sys.platform, scope=scope, executable=Path(sys.executable))
            record = json.loads(installer.record_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for file in record.get("files", []) if isinstance(record, dict) else []:
            found.update(_manifest_list(Path(str(file)), key))
    return found


def _manifest_list(path: Path, key: str) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    values = data.get(key) if isinstance(data, dict) else None
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []
