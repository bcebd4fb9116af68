"""The Windows registry interface over a dict, standing in for winreg on any OS."""

from __future__ import annotations


class MemoryRegistry:
    """``citemark.install.Registry`` over a dict: {(root, key): default value}."""

    def __init__(self) -> None:
        self.keys: dict[tuple[str, str], str] = {}

    def set_default(self, root: str, key: str, value: str) -> None:
        self.keys[(root, key)] = value

    def get_default(self, root: str, key: str) -> str | None:
        return self.keys.get((root, key))

    def delete(self, root: str, key: str) -> None:
        self.keys.pop((root, key), None)
