"""One ``Settings`` value, built once: defaults ← config file ← environment ← flags.

Every limit that protects the host (sizes, times, concurrency) lives here with
its default, so a reader sees them all in one place::

    Settings(read_timeout=10.0, max_body_bytes=15_000_000)

``CITEMARK_ALLOW_PRIVATE_NETWORK=1`` is a **test-only** switch that lets the
fetcher reach loopback and private addresses (the test suite serves sources on
127.0.0.1). It is read from the environment only, never from the config file,
so a page or an agent cannot turn it on.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from citemark import __version__

__all__ = ["DEFAULT_THRESHOLD", "POLICIES", "Settings", "config_path"]

APP = "citemark"
#: The verdict policies (scoring/verdict.py): strict, the default, says "supported" only for a claim aligned with its passage.
POLICIES = ("strict", "balanced")


def config_path() -> Path:
    return Path(os.environ.get("CITEMARK_CONFIG") or Path(platformdirs.user_config_dir(APP)) / "config.toml")


#: ``verify`` passes only when at least this share of citations is supported (citesure's gate); ``batch``
#: counts an answer as passed by the same gate, so the two never disagree. Here, not in ``doors``, so the
#: CLI's argument parser (and the native host's ``hello``) need not import the verification pipeline.
DEFAULT_THRESHOLD = 0.8


@dataclass(frozen=True, kw_only=True)
class Settings:
    cache_dir: Path = field(default_factory=lambda: Path(platformdirs.user_cache_dir(APP)))
    state_dir: Path = field(default_factory=lambda: Path(platformdirs.user_state_dir(APP)))
    data_dir: Path = field(default_factory=lambda: Path(platformdirs.user_data_dir(APP)))
    cache_ttl: float = 7 * 24 * 3600.0  # seconds before a cached page is revalidated
    connect_timeout: float = 5.0
    read_timeout: float = 10.0
    source_deadline: float = 25.0  # all tries for one source, redirects included
    request_deadline: float = 90.0  # one whole verify request
    retries: int = 2
    backoff: float = 0.5  # seconds, doubled at each retry
    max_redirects: int = 5
    max_body_bytes: int = 15_000_000
    max_text_chars: int = 2_000_000  # extracted text kept per source
    max_pdf_pages: int = 400
    max_answer_chars: int = 1_000_000
    max_citations: int = 200
    per_host_concurrency: int = 2
    total_concurrency: int = 8
    user_agent: str = f"citemark/{__version__} (citation checker; +https://github.com/citemark/citemark)"
    respect_robots: bool = True
    allow_private_network: bool = False  # test-only; see module docstring
    model: str | None = None  # pack name or path; None = resolve the best installed
    policy: str = "strict"  # the verdict policy: strict (supported only when aligned) | balanced (verdict.POLICIES)
    evidence_windows: int = 2  # windows per claim sent to the model: 2, 3 and 5 give the same dev accuracy; 2 costs least
    local_file_dirs: tuple[Path, ...] = ()  # MCP may read files only under these
    ca_bundle: Path | None = None  # extra trusted CAs (a corporate proxy's, a test server's)
    html_extractor: str = "auto"  # auto (trafilatura, selectolax when it gets too little) | trafilatura | selectolax
    # Scholarly lookups (citemark/scholarly/): Crossref, arXiv and OpenAlex receive the reference
    # (DOI, arXiv id or title + first author + year), never the answer. ``scholarly_lookups = false`` turns them off.
    scholarly_lookups: bool = True
    scholarly_contact: str = ""  # an e-mail for the services' polite pools (User-Agent and mailto=)
    crossref_api: str = "https://api.crossref.org"  # the API bases: tests point them at 127.0.0.1
    arxiv_api: str = "https://export.arxiv.org/api/query"
    openalex_api: str = "https://api.openalex.org"
    crossref_interval: float = 0.2  # seconds between requests to one service (Crossref: 5/s public pool)
    arxiv_interval: float = 3.0  # arXiv's terms: one request every three seconds
    openalex_interval: float = 0.1  # OpenAlex: 10/s
    scholarly_max_wait: float = 30.0  # the longest Retry-After honoured before a service counts as unreachable
    scholarly_ttl: float = 30 * 24 * 3600.0  # cached records; a "not found" is kept one day

    @classmethod
    def load(cls, **overrides: Any) -> Settings:
        """Defaults, then the config file, then ``CITEMARK_*`` variables, then ``overrides``."""
        values: dict[str, Any] = {}
        path = config_path()
        if path.is_file():
            with open(path, "rb") as handle:
                values.update(_coerce(tomllib.load(handle), source=str(path)))
        values.update(_coerce(_from_environment(), source="environment"))
        values.pop("allow_private_network", None)  # environment-only switch, below
        values.update({k: v for k, v in overrides.items() if v is not None})
        if os.environ.get("CITEMARK_ALLOW_PRIVATE_NETWORK") == "1":
            values["allow_private_network"] = True
        if values.get("policy", "strict") not in POLICIES:
            raise ValueError(f"policy: {values['policy']!r} is not one of {', '.join(POLICIES)}")
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def _from_environment() -> dict[str, str]:
    names = {f.name for f in fields(Settings)}
    result = {}
    for key, value in os.environ.items():
        if key.startswith("CITEMARK_"):
            name = key[len("CITEMARK_") :].lower()
            if name in names:
                result[name] = value
    return result


def _coerce(raw: dict[str, Any], source: str) -> dict[str, Any]:
    """Convert config/environment values to the field types; reject unknown keys."""
    types = {f.name: f.type for f in fields(Settings)}
    result: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in types:
            raise ValueError(f"{source}: unknown setting {key!r}")
        kind = str(types[key])
        try:
            if kind in ("Path", "Path | None"):
                result[key] = Path(str(value)).expanduser()
            elif kind == "bool":
                result[key] = value if isinstance(value, bool) else str(value).lower() in {"1", "true", "yes", "on"}
            elif kind == "int":
                result[key] = int(value)
            elif kind == "float":
                result[key] = float(value)
            elif kind.startswith("tuple"):
                items = value if isinstance(value, list) else str(value).split(os.pathsep)
                result[key] = tuple(Path(str(item)).expanduser() for item in items if str(item))
            else:
                result[key] = str(value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{source}: setting {key!r}: {error}") from None
    return result
