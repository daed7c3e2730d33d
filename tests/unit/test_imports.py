"""No module in ``game/`` uses another module's underscore name: an underscore means "this file
only" (``from game.x import _name``, ``from ._x import _name``, or ``import game.x`` and then
``game.x._name``). Dunders are not private."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "game"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_of(path: Path) -> tuple[str, str]:
    """The dotted name of the module at ``path`` and of the package relative imports start
    from."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def _source_of(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module ``node`` imports from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _own_submodule(src: str, name: str, package: str) -> bool:
    """Whether ``from src import name`` takes a submodule of the importer's own package (a
    private module is its package's, as ``game/lab/scenes/_seed.py`` is the scenes')."""
    folder = ROOT.joinpath(*src.split("."))
    return src == package and ((folder / f"{name}.py").is_file() or (folder / name).is_dir())


def private_uses(source: str, path: Path) -> list[str]:
    """``module._name`` for each underscore name of another ``game`` module that the module
    at ``path`` imports or reads through an ``import game.x`` name."""
    tree = ast.parse(source)
    me, package = _module_of(path)
    found: list[str] = []
    # Names bound to a game module by ``import game.x [as y]``: what each refers to.
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = _source_of(node, package)
            if src != me and src.split(".")[0] == "game":
                found += [
                    f"{src}.{a.name}"
                    for a in node.names
                    if _private(a.name) and not _own_submodule(src, a.name, package)
                ]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "game":
                    bound = alias.asname or alias.name.split(".")[0]
                    modules[bound] = alias.name if alias.asname else bound
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        chain: list[str] = []
        value: ast.expr = node.value
        while isinstance(value, ast.Attribute):
            chain.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id in modules:
            owner = ".".join([modules[value.id], *reversed(chain)])
            if owner != me:
                found.append(f"{owner}.{node.attr}")
    return found


def test_the_check_sees_each_way_of_reaching_a_private_name() -> None:
    # Given a module of the Lab's scenes that reaches private names in three ways, and public
    # ones, dunders and its own package's private module
    path = GAME / "lab" / "scenes" / "example.py"
    source = (
        "import game.level.loader as loader\n"
        "import game.world.physics\n"
        "from game.level.loader import _Where, load_level, __all__\n"
        "from ..scene import _hidden_name\n"
        "from . import _seed, _not_a_module\n"
        "from ._seed import SeedScene\n"
        "x = loader._raw_class, loader.load_level, game.world.physics._hidden\n"
        "y = game.world.physics.__name__\n"
    )
    # When the private uses are listed
    found = private_uses(source, path)
    # Then each is named by its owner, and nothing else is
    assert sorted(found) == [
        "game.lab.scene._hidden_name",
        "game.lab.scenes._not_a_module",
        "game.level.loader._Where",
        "game.level.loader._raw_class",
        "game.world.physics._hidden",
    ]


def test_no_module_uses_another_modules_underscore_names() -> None:
    # Given every module of the game
    files = sorted(GAME.rglob("*.py"))
    assert files
    # When the underscore names each takes from another module are listed
    bad = []
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        for use in private_uses(path.read_text(encoding="utf-8"), path):
            bad.append(f"{name}: {use}")
    # Then there are none
    assert not bad, bad
