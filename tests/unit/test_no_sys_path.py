"""No Python file of the repository edits ``sys.path``: the game, the engine, the benchmarks, the
tools, the examples and the tests run as installed packages or as modules from the repository
root (``python -m benchmarks.figures``, ``python -m tools.make_levels``), never by putting a
folder on the path themselves."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("game", "packages", "benchmarks", "tools", "examples", "tests")
#: What changes a list in place (``sys.path.insert(0, ...)``, ``sys.path += [...]`` aside).
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "reverse", "sort"}


def _is_sys_path(node: ast.AST, sys_names: set[str], path_names: set[str]) -> bool:
    """Whether ``node`` is ``sys.path`` (under any name ``sys`` was imported as) or a name
    bound by ``from sys import path``."""
    if isinstance(node, ast.Attribute) and node.attr == "path":
        return isinstance(node.value, ast.Name) and node.value.id in sys_names
    return isinstance(node, ast.Name) and node.id in path_names


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def sys_path_edits(source: str) -> list[int]:
    """Line numbers where ``source`` assigns to ``sys.path`` (or an item or slice of it),
    extends it in place, or calls one of its mutating methods."""
    tree = ast.parse(source)
    sys_names: set[str] = set()
    path_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            sys_names |= {a.asname or a.name for a in node.names if a.name == "sys"}
        elif isinstance(node, ast.ImportFrom) and node.module == "sys":
            path_names |= {a.asname or a.name for a in node.names if a.name == "path"}
    found: list[int] = []
    for node in ast.walk(tree):
        for target in _targets(node):
            whole = target.value if isinstance(target, ast.Subscript) else target
            if _is_sys_path(whole, sys_names, path_names):
                found.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and _is_sys_path(node.func.value, sys_names, path_names)
        ):
            found.append(node.lineno)
    return sorted(found)


def test_the_check_sees_each_way_of_editing_the_path() -> None:
    # Given a module that edits sys.path in seven ways and reads it in two
    source = (
        "import sys\n"
        "import sys as system\n"
        "from sys import path as where\n"
        "sys.path.insert(0, 'a')\n"
        "system.path.append('b')\n"
        "where.extend(['c'])\n"
        "sys.path = ['d']\n"
        "sys.path[0] = 'e'\n"
        "sys.path += ['f']\n"
        "sys.path[:0] = ['g']\n"
        "print(sys.path[0], list(sys.path))\n"
    )
    # When its edits are listed
    found = sys_path_edits(source)
    # Then each edit is found by its line, and neither read is
    assert found == [4, 5, 6, 7, 8, 9, 10]


def test_no_python_file_edits_sys_path() -> None:
    # Given every Python file of the game, the engine, benchmarks, tools, examples and tests
    files = sorted(
        path
        for folder in FOLDERS
        for path in (ROOT / folder).rglob("*.py")
        if not {"build", ".venv"} & set(path.relative_to(ROOT).parts)
    )
    assert any(p.parts[-2:] == ("benchmarks", "figures.py") for p in files)
    # When the edits of sys.path in each are listed
    bad = [
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path in files
        for line in sys_path_edits(path.read_text(encoding="utf-8"))
    ]
    # Then there are none
    assert not bad, bad
