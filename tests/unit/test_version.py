"""One version number: the package, ``citemark --version``, the build metadata and the extension agree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import citemark

ROOT = Path(__file__).resolve().parents[2]


def test_the_extension_has_the_package_version():
    assert json.loads((ROOT / "extension" / "manifest.json").read_text())["version"] == citemark.__version__


def test_the_build_reads_the_version_from_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "citemark.__version__"}


def test_citemark_version_prints_it():
    result = subprocess.run([sys.executable, "-m", "citemark.cli", "--version"], capture_output=True, text=True,
                            timeout=60, env=dict(os.environ))
    assert result.returncode == 0 and result.stdout.strip() == f"citemark {citemark.__version__}"
