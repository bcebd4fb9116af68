"""The engine's floors hold: every import in ``host/citemark`` goes down a floor or stays on its own, and none
goes round in a circle. Imports inside functions count (a late import is still a dependency); imports under
``if TYPE_CHECKING:`` do not, since they never run. docs/architecture.md draws the same floors.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "citemark"

#: Top to bottom. A module may import from its own floor and from any floor below it, never above.
#: Each entry is a module or a package (every module inside it).
FLOORS: tuple[tuple[str, frozenset[str]], ...] = (
    ("doors", frozenset({
        "cli", "cli_auth", "mcpserver", "native", "origins", "install", "browsers", "doctor", "report",
        "batch", "batch_cli", "batch_processes", "batch_ray", "batch_results",
    })),
    ("what the doors share", frozenset({"doors"})),
    ("the engine", frozenset({"engine", "collect", "reuse"})),
    ("answers and models", frozenset({"answer", "models"})),
    ("scoring and papers", frozenset({"scoring", "scholarly"})),
    ("sources", frozenset({"sources", "credentials"})),
    ("shared values", frozenset({"", "types", "errors", "settings", "identifiers", "asks"})),
)
#: No source file is longer than this: a longer one holds more than one concept.
MAX_LINES = 700


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def floor_of(module: str) -> int:
    top = module.split(".")[0]
    for number, (_, members) in enumerate(FLOORS):
        if module in members or top in members:
            return number
    raise AssertionError(f"citemark.{module} is on no floor: add it to FLOORS (and to docs/architecture.md)")


def _runs(node: ast.AST) -> list[ast.AST]:
    """The statements under ``node`` that can run: everything but the body of ``if TYPE_CHECKING:``."""
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and isinstance(child.test, ast.Name | ast.Attribute) and \
                ast.unparse(child.test).endswith("TYPE_CHECKING"):
            found += [*child.orelse, *(n for o in child.orelse for n in _runs(o))]
            continue
        found.append(child)
        found += _runs(child)
    return found


def imports_of(module: str) -> set[str]:
    """The citemark modules ``module`` imports (``""`` is ``citemark`` itself); ``from citemark.x import name``
    counts as citemark.x.name where that is a module, else as citemark.x."""
    path = MODULES[module]
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in _runs(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(["citemark", *package[: len(package) - node.level + 1], *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}".removeprefix("citemark.") in MODULES
                       else base for alias in node.names]
        else:
            continue
        for target in targets:
            if target == "citemark" or target.startswith("citemark."):
                inner = target.removeprefix("citemark").removeprefix(".")
                while inner not in MODULES:  # citemark.x.y where y is a name: the module is citemark.x
                    inner = inner.rpartition(".")[0]
                if inner != module:
                    found.add(inner)
    return found


IMPORTS = {module: imports_of(module) for module in MODULES}


def test_every_module_is_on_a_floor():
    for module in MODULES:
        floor_of(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_runs_up_a_floor(module):
    upward = [f"citemark.{target} ({FLOORS[floor_of(target)][0]})" for target in sorted(IMPORTS[module])
              if floor_of(target) < floor_of(module)]
    assert not upward, f"citemark.{module} ({FLOORS[floor_of(module)][0]}) imports from a floor above: {upward}"


def test_no_import_circle():
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(IMPORTS[module]):
            if state.get(target) == 1:
                circle = path[path.index(target):] + [target]
                raise AssertionError("import circle: " + " → ".join(f"citemark.{m}".rstrip(".") for m in circle))
            if target not in state:
                walk(target)
        path.pop()
        state[module] = 2

    for module in sorted(MODULES):
        if module not in state:
            walk(module)


def test_the_walker_sees_late_imports_and_skips_type_checking_ones():
    assert "engine" in IMPORTS["doors"]  # EngineSlot.get imports the engine inside a method
    assert "engine" not in IMPORTS["collect"]  # only for the type checker
    assert "scoring.verdict" in IMPORTS["scoring.judge"]


def test_no_source_file_is_over_the_line_limit():
    long = {module: count for module, path in MODULES.items()
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"
