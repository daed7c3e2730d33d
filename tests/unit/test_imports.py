"""No module of ``game/`` or of the engine uses another module's underscore name: an underscore
means "this file only" (``from steering.group import _sums``, ``from ._x import _name``, or
``import game.x`` and then ``game.x._name``). A private module (``steering._jit``) belongs to its
package: the modules inside that package may import it, nothing outside may. Dunders are not
private."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.sources import ENGINE, GAME, Module, is_module, module_at, modules, source_of

#: Known uses, ``file: owner.name``, one a line. Empty since issue 41 was fixed: keep it so;
#: the test fails when an entry no longer holds, so the list can only shrink.
BEING_FIXED: list[str] = []


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _inside(me: Module, package: str) -> bool:
    """Whether the module ``me`` is part of ``package`` (the package itself or below it)."""
    return me.name == package or me.name.startswith(package + ".")


def _private_module_in(dotted: str, me: Module) -> str | None:
    """The first private module on the path ``dotted`` that ``me`` is outside the package of
    (``steering._jit`` read from the game), or None."""
    parts = dotted.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if _private(part) and not _inside(me, ".".join(parts[:i])):
            return ".".join(parts[: i + 1])
    return None


def private_uses(source: str, path: Path) -> list[str]:
    """``module._name`` for each underscore name of another project module that the module at
    ``path`` imports, or reads through a name bound to a module (``import game.x``,
    ``from . import _kern as kern``)."""
    tree = ast.parse(source)
    me = module_at(path)
    found: list[str] = []
    # Names bound to a project module, and the module each refers to.
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = source_of(node, me.package)
            if not is_module(src) or src == me.name:
                continue
            if (hidden := _private_module_in(src, me)) is not None:
                found.append(hidden)
                continue
            for a in node.names:
                full = f"{src}.{a.name}"
                if is_module(full):
                    bound[a.asname or a.name] = full
                    if _private(a.name) and not _inside(me, src):
                        found.append(full)
                elif _private(a.name):
                    found.append(full)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if not is_module(alias.name):
                    continue
                if (hidden := _private_module_in(alias.name, me)) is not None:
                    found.append(hidden)
                    continue
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        chain: list[str] = []
        value: ast.expr = node.value
        while isinstance(value, ast.Attribute):
            chain.append(value.attr)
            value = value.value
        if not (isinstance(value, ast.Name) and value.id in bound):
            continue
        owner = ".".join([bound[value.id], *reversed(chain)])
        if owner == me.name or not is_module(owner):
            continue
        if is_module(f"{owner}.{node.attr}") and _inside(me, owner):
            continue  # a private module of the reader's own package
        found.append(f"{owner}.{node.attr}")
    return found


def test_the_check_sees_each_way_of_reaching_a_private_name() -> None:
    # Given a module of the Lab's scenes that reaches private names in four ways, and public
    # ones, dunders and its own package's private module
    path = GAME / "lab" / "scenes" / "example.py"
    source = (
        "import game.level.loader as loader\n"
        "import game.world.physics\n"
        "import steering._jit as jit\n"
        "from game.level.loader import _Where, load_level, __all__\n"
        "from ..scene import _hidden_name\n"
        "from . import _seed, _not_a_module\n"
        "from ._seed import SeedScene\n"
        "x = loader._raw_class, loader.load_level, game.world.physics._hidden\n"
        "y = game.world.physics.__name__, _seed._its_own\n"
    )
    # When the private uses are listed
    found = private_uses(source, path)
    # Then each is named by its owner, and nothing else is
    assert sorted(found) == [
        "game.lab.scene._hidden_name",
        "game.lab.scenes._not_a_module",
        "game.lab.scenes._seed._its_own",
        "game.level.loader._Where",
        "game.level.loader._raw_class",
        "game.world.physics._hidden",
        "steering._jit",
    ]


def test_the_engines_private_modules_are_its_own() -> None:
    # Given an engine module that takes the engine's private modules and their public names,
    # and one name the underscore keeps to its file
    path = ENGINE / "example.py"
    source = (
        "from . import _kern as kern\n"
        "from ._jit import njit\n"
        "import steering._checks as checks\n"
        "from .group import _flock_sums\n"
        "x = kern.hypot, checks.finite, kern._inner\n"
    )
    # When the private uses are listed
    found = private_uses(source, path)
    # Then only the other modules' underscore names are
    assert sorted(found) == ["steering._kern._inner", "steering.group._flock_sums"]


def _uses() -> list[str]:
    return [
        f"{m.shown}: {use}"
        for m in modules("game", "steering")
        for use in private_uses(m.path.read_text(encoding="utf-8"), m.path)
    ]


def test_no_module_uses_another_modules_underscore_names() -> None:
    # Given every module of the game and of the engine
    # When the underscore names each takes from another module are listed
    bad = _uses()
    # Then there are none but the known ones, and every known one still holds
    known = BEING_FIXED
    assert sorted(bad) == sorted(known), {
        "new": sorted(set(bad) - set(known)),
        "fixed (remove from BEING_FIXED)": sorted(set(known) - set(bad)),
    }
