"""Which way the parts of the game may import each other (DESIGN's arrows), and no cycles.

Each package of ``game/``, and each module at its top (the future ``core/`` and ``cli/``),
states in :data:`ALLOWED` the other parts of the project it may import; every import counts,
module-level, function-local and ``TYPE_CHECKING`` alike. The stated arrows form no cycle, so
the packages cannot import each other in a circle. Inside one package (``game.views``,
``game.lab``, the engine, ...) the modules import each other with no cycle either: there the
imports that run count, module-level and function-local, and the typing-only ones
(``if TYPE_CHECKING:``) do not, since they never run (a system's ``world: World`` annotation
names its composer without importing it). A package's ``__main__`` is a command that nothing
imports: it stands apart from its package with imports of its own.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable, Mapping

from tests.helpers.sources import ENGINE as ENGINE_DIR
from tests.helpers.sources import (
    GAME,
    Module,
    imported,
    is_module,
    module_at,
    modules,
    owning_module,
    typing_only,
)

ENGINE = "steering"
#: The pure core: files, JSON, clocks, schemas, progress.
CORE = {"game.clock", "game.safe_io", "game.strict_json", "game.file_schema", "game.perf"}
#: What each part of the game may import besides itself (the engine is ``steering``).
ALLOWED: dict[str, set[str]] = {
    "game": set(),
    # core
    "game.clock": set(),
    "game.safe_io": set(),
    "game.perf": set(),
    "game.progress_bar": set(),
    "game.strict_json": {"game.safe_io"},
    "game.file_schema": {"game.strict_json"},
    "game.progress": {"game.file_schema", "game.safe_io", "game.strict_json"},
    # the layers, top to bottom in DESIGN
    "game.level": {"game.safe_io", "game.strict_json", ENGINE},
    "game.world": {*CORE - {"game.perf"}, "game.level", ENGINE},
    "game.recording": {*CORE - {"game.perf"}, "game.level", "game.world"},
    # the stage shows the run's time from game.clock's RunClock (a leaf: it imports nothing)
    "game.render": {"game.clock", "game.level", "game.world", ENGINE},
    "game.editor": {"game.level", "game.safe_io", ENGINE},
    "game.lab": {"game.clock", "game.render", ENGINE},
    # the environment drives the world; it draws through the stage and the game's window,
    # imported only when a render mode asks
    "game.env": {
        "game.clock",
        "game.level",
        "game.recording",
        "game.world",
        "game.render",
        "game.views",
        ENGINE,
    },
    "game.views": {
        "game.clock",
        "game.safe_io",
        "game.progress",
        "game.recording",
        "game.level",
        "game.world",
        "game.render",
        "game.editor",
        "game.lab",
    },
    # the benchmarks measure the game from outside (python -m game bench calls into them)
    "benchmarks": {
        *CORE,
        "game",
        "game.env",
        "game.progress",
        "game.recording",
        "game.progress_bar",
        "game.cli_common",
        "game.level",
        "game.world",
        "game.render",
        "game.views",
        ENGINE,
    },
    # commands
    "game.cli_common": {"game.level", "game.safe_io"},
    "game.cli_game": {
        "game.cli_common",
        "game.safe_io",
        "game.progress",
        "game.recording",
        "game.level",
        "game.render",
        "game.views",
    },
    "game.cli_lab": {
        "game.cli_common",
        "game.cli_game",
        "game.clock",
        "game.safe_io",
        "game.lab",
        "game.views",
    },
    "game.cli_replay": {"game.cli_game", "game.progress", "game.recording", "game.views"},
    "game.cli_simulate": {
        "game.cli_common",
        "game.safe_io",
        "game.progress_bar",
        "game.recording",
        "game.level",
        "game.world",
    },
    "game.curve": {"game.level", "game.world", "game.render"},
    "game.exploit": {"game.clock", "game.level", "game.recording", "game.world"},
    "game.cli_exploit": {
        "game.cli_common",
        "game.exploit",
        "game.level",
        "game.progress_bar",
        "game.safe_io",
    },
    "game.demo": {"game.clock", ENGINE},
    "game.tiled_roundtrip": {"game.level", "game.world"},
    "game.level.__main__": {"game.cli_common", "game.level"},
    "benchmarks.harness.__main__": {"game.__main__", "game.perf"},
    "game.__main__": {
        "game.cli_common",
        "game.cli_exploit",
        "game.cli_game",
        "game.cli_lab",
        "game.cli_replay",
        "game.cli_simulate",
        "game.demo",
        "game.perf",
        "game.safe_io",
        "game.level",
        "game.editor",
        "game.views",
        "benchmarks",
    },
}

#: Known imports against the arrows (``part -> part``) and import cycles between the modules of
#: one package (the cycle's modules, sorted, comma-separated), one a line, being fixed for
#: issue 41. The tests fail when an entry no longer holds, so the list only shrinks.
BEING_FIXED: list[str] = []


def part_of(module: Module) -> str:
    """The part of the project ``module`` belongs to: the engine, the package of ``game/`` it
    is in, or itself for a module at ``game/``'s top or a package's ``__main__``."""
    parts = module.name.split(".")
    if parts[0] == ENGINE:
        return ENGINE
    if len(parts) == 1 or (parts[-1] == "__main__" and len(parts) > 2):
        return module.name
    if parts[0] == "benchmarks":
        return "benchmarks"
    if module.path.parent.name == "game" and module.path.name != "__init__.py":
        return module.name  # a module at the top of game/
    return ".".join(parts[:2])


def _parts() -> dict[str, str]:
    """Every module of the game and the engine, by name: the part it belongs to."""
    return {m.name: part_of(m) for m in modules("game", ENGINE, "benchmarks")}


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The cycles of a directed graph: its strongly connected components of more than one
    node, each sorted (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    nodes = sorted({*edges, *(w for ws in edges.values() for w in ws)})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _imports(module: Module, *, typing: bool) -> list[str]:
    """The project modules ``module`` imports (with or without its typing-only imports)."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    skip = set() if typing else typing_only(tree)
    found = []
    for line, name in imported(tree, module):
        owner = owning_module(name)
        if line not in skip and owner is not None and owner != module.name:
            found.append(owner)
    return found


def test_cycles_are_found_and_named_by_their_members() -> None:
    # Given a graph with a three-node cycle, a two-node one and a tail
    edges = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["e"], "e": ["d"], "f": ["a"]}
    # Then each cycle is found once, and the tail is in none
    assert cycles(edges) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": ["b"], "b": []}) == []


def test_a_part_is_its_package_or_a_top_module() -> None:
    assert part_of(module_at(GAME / "world" / "think.py")) == "game.world"
    assert part_of(module_at(GAME / "lab" / "scenes" / "seek.py")) == "game.lab"
    assert part_of(module_at(GAME / "clock.py")) == "game.clock"
    assert part_of(module_at(GAME / "level" / "__main__.py")) == "game.level.__main__"
    assert part_of(module_at(ENGINE_DIR / "_jit.py")) == ENGINE


def test_every_part_of_the_game_states_what_it_may_import() -> None:
    parts = {p for p in _parts().values() if p != ENGINE}
    assert sorted(parts - set(ALLOWED)) == [], "state what these may import"
    assert sorted(set(ALLOWED) - parts) == [], "no such part"
    stated = {p for allowed in ALLOWED.values() for p in allowed}
    assert stated <= {*ALLOWED, ENGINE}


def test_the_stated_arrows_form_no_cycle() -> None:
    assert cycles(ALLOWED) == []


def test_a_part_imports_only_what_it_states() -> None:
    # Given every module of the game, with every import it makes wherever it stands
    parts = _parts()
    against: dict[str, list[str]] = defaultdict(list)
    for module in modules("game", "benchmarks"):
        mine = parts[module.name]
        for name in _imports(module, typing=True):
            theirs = parts[name]
            # When an import reaches a part the module's part does not state
            if theirs != mine and theirs not in ALLOWED[mine]:
                against[f"{mine} -> {theirs}"].append(module.shown)
    # Then it is one of the known ones
    known = [e for e in BEING_FIXED if " -> " in e]
    assert sorted(against) == sorted(known), dict(against)


def test_no_import_cycle_between_the_modules_of_a_package() -> None:
    # Given the imports that run between the modules of each package (its __init__ included)
    package = {
        m.name: m.package for m in modules("game", ENGINE) if not m.name.endswith("__main__")
    }
    edges: dict[str, list[str]] = {}
    for module in modules("game", ENGINE):
        if module.name in package:
            edges[module.name] = [
                name
                for name in _imports(module, typing=False)
                if package.get(name) == package[module.name]
            ]
    # When the cycles are listed
    found = [", ".join(c) for c in cycles(edges)]
    # Then there are none but the known ones
    known = [e for e in BEING_FIXED if " -> " not in e]
    assert found == sorted(known), found


def test_is_module_tells_modules_from_names() -> None:
    assert is_module("game.world.think") and is_module("game.world")
    assert not is_module("game.world.World")
