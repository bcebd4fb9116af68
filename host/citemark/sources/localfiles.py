"""Which local files a request may read: the one rule every door applies before touching the disk.

Each door picks its policy: a path the user typed on the command line
(``--source ./x``) is read as given; a path cited *inside an answer* is read
only under the answer file's folder or a folder the user named
(``--allow-dir``), so an answer cannot walk out with ``../secret.txt``; MCP
reads under its configured allow-list; the browser host reads none. Paths are
compared after ``realpath``, so ``..`` and symbolic links cannot escape.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from citemark.errors import LocalFileRefused

__all__ = ["LocalFilePolicy"]

_REFUSED = "local files are not allowed here; cite a public http(s) URL"
#: An agent cannot pass ``--allow-dir``: its refusal names the setting its user can change.
_AGENT_REFUSED = ("local files are read only under the folders the user lists in CITEMARK_LOCAL_FILE_DIRS "
                  "(local_file_dirs in citemark's config file), and this one is not under them")


@dataclass(frozen=True, slots=True)
class LocalFilePolicy:
    """Which local paths a request may read. The default reads none."""

    allow_any: bool = False
    directories: tuple[Path, ...] = ()
    refusal: str = ""  # what a refused path is told, where the door's own words differ from the CLI's

    @classmethod
    def cli(cls) -> LocalFilePolicy:
        """Paths the user typed: read wherever they point."""
        return cls(allow_any=True)

    @classmethod
    def under(cls, *directories: Path | str) -> LocalFilePolicy:
        """Paths an answer cites: only inside these folders (the answer's own, ``--allow-dir``)."""
        return cls(directories=tuple(Path(d) for d in directories))

    @classmethod
    def agent(cls, directories: tuple[Path, ...]) -> LocalFilePolicy:
        """Paths an agent names: only inside the folders the user configured."""
        return cls(directories=directories, refusal=_AGENT_REFUSED)

    def check(self, path: str) -> Path:
        """The real path to read; LocalFileRefused (same message whether or not it exists)."""
        real = Path(os.path.realpath(os.path.expanduser(path)))
        if self.allow_any:
            return real
        for directory in self.directories:
            root = Path(os.path.realpath(os.path.expanduser(directory)))
            if real == root or root in real.parents:
                return real
        if self.refusal:
            raise LocalFileRefused(self.refusal)
        if self.directories:
            raise LocalFileRefused("the answer cites a file outside its folder and the folders allowed with --allow-dir")
        raise LocalFileRefused(_REFUSED)
