"""The pure layers import no arcade, pymunk or pyglet: not at import time (checked in a fresh
interpreter) and not inside any function either (checked on the source)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "packages" / "steering" / "src" / "steering"
PURE = [
    "steering",
    "game.level",
    "game.recording",
    "game.strict_json",
    "game.file_schema",
    "game.progress",
]
GRAPHICS_OR_PHYSICS = ("arcade", "pymunk", "pyglet")
#: The engine's adapters: the one place each may import its engine (only when used).
ADAPTERS = {ENGINE / "arcade.py", ENGINE / "pymunk.py"}
#: The adapters by module name (a pure module importing one imports its engine too).
ADAPTER_MODULES = {"steering.arcade", "steering.pymunk"}


@pytest.mark.parametrize("module", PURE)
def test_module_imports_no_graphics_or_physics(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in ('arcade', 'pymunk', 'pyglet') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _pure_sources() -> list[Path]:
    files = sorted(ENGINE.glob("*.py"))
    files += sorted((ROOT / "game" / "level").rglob("*.py"))
    files += [
        ROOT / "game" / name
        for name in ("recording.py", "strict_json.py", "file_schema.py", "progress.py")
    ]
    return [f for f in files if f not in ADAPTERS]


def _package_of(path: Path) -> list[str]:
    """The dotted package that holds ``path`` (``game/world/think.py``: game, world)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1]  # a package's __init__ and its modules alike


def _imported(tree: ast.AST, path: Path) -> list[tuple[int, str]]:
    """Every module an ``import``, a ``from ... import`` (relative ones resolved against
    ``path``'s package, each imported name also taken as a possible module) or an
    ``importlib.import_module``/``__import__`` of a literal names, wherever it stands:
    function-local and ``TYPE_CHECKING`` imports included."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(path)
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and _called_name(node.func) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def _called_name(func: ast.expr) -> str:
    """The last name of a call's target (``importlib.import_module``: ``import_module``)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def test_imports_are_read_wherever_they_stand() -> None:
    # Given a module of the world layer with the imports a check could miss
    path = ROOT / "game" / "world" / "example.py"
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from ..views import level\n"
        "def f():\n"
        "    from ..editor.changes import Change\n"
        "    from . import think\n"
        "    import importlib\n"
        "    importlib.import_module('game.render.scene')\n"
        "    return __import__('arcade')\n"
    )
    # When its imports are listed
    names = {name for _, name in _imported(ast.parse(source), path)}
    # Then the relative ones are resolved and the dynamic ones found
    assert {"game.views", "game.editor.changes", "game.world", "game.world.think"} <= names
    assert {"game.render.scene", "arcade"} <= names


def test_no_pure_module_imports_graphics_or_physics_anywhere() -> None:
    # Given every source file of the pure layers (the engine's adapters aside)
    bad = []
    for path in _pure_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        # When every import in it is listed, function-local ones included
        for line, name in _imported(tree, path):
            if name.split(".")[0] in GRAPHICS_OR_PHYSICS or name in ADAPTER_MODULES:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    # Then none is arcade, pymunk or pyglet, nor an adapter that imports them
    assert not bad, bad


def test_the_engine_imports_nothing_from_the_game() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        game = [
            f"{path.name}:{ln}"
            for ln, name in _imported(tree, path)
            if name.split(".")[0] == "game"
        ]
        assert not game, game
