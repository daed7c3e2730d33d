"""The project's own source modules as the architecture tests read them: each file of ``game/``
and of the engine (``packages/steering/src/steering/``) with its dotted name, and every module
an ``import`` in it names, wherever the import stands."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "game"
ENGINE_SRC = ROOT / "packages" / "steering" / "src"
ENGINE = ENGINE_SRC / "steering"
#: Where each top-level package's dotted names start from.
SOURCE_ROOTS = {"game": ROOT, "steering": ENGINE_SRC, "benchmarks": ROOT}


@dataclass(frozen=True)
class Module:
    """One source file of the project.

    Attributes:
        path: the file.
        name: its dotted module name (``game.world.think``; a package's ``__init__`` is the
            package, ``game.world``).
        package: the package relative imports start from (the module's own package, or the
            package itself for an ``__init__``).
    """

    path: Path
    name: str
    package: str

    @property
    def shown(self) -> str:
        """The file's path from the repository root, as the tests' messages name it."""
        return self.path.relative_to(ROOT).as_posix()


def module_at(path: Path) -> Module:
    """The :class:`Module` of a file under ``game/`` or the engine (the file need not exist)."""
    for top, base in SOURCE_ROOTS.items():
        if path.is_relative_to(base / top):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
                return Module(path, ".".join(parts), ".".join(parts))
            return Module(path, ".".join(parts), ".".join(parts[:-1]))
    raise ValueError(f"{path} is in neither game/ nor the engine")


def modules(*tops: str) -> list[Module]:
    """Every source module of the named top-level packages (``"game"``, ``"steering"``)."""
    found: list[Module] = []
    for top in tops:
        found += [
            module_at(p)
            for p in sorted((SOURCE_ROOTS[top] / top).rglob("*.py"))
            if "__pycache__" not in p.parts  # generated composites (steering.composite)
        ]
    return found


def folder_of(dotted: str) -> Path | None:
    """The folder a dotted package name lives in, if it is one of the project's."""
    top = dotted.split(".")[0]
    if top not in SOURCE_ROOTS:
        return None
    return SOURCE_ROOTS[top].joinpath(*dotted.split("."))


def is_module(dotted: str) -> bool:
    """Whether ``dotted`` names one of the project's modules or packages."""
    folder = folder_of(dotted)
    if folder is None:
        return False
    return folder.with_suffix(".py").is_file() or (folder / "__init__.py").is_file()


def source_of(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imported(tree: ast.AST, module: Module) -> list[tuple[int, str]]:
    """Every project module an import in ``tree`` names, with its line: ``import a.b``,
    ``from a import b`` (``a.b`` when that is a module, else ``a``), relative imports resolved,
    module-level, function-local and ``TYPE_CHECKING`` imports alike."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            src = source_of(node, module.package)
            subs = [f"{src}.{a.name}" for a in node.names if is_module(f"{src}.{a.name}")]
            if len(subs) < len(node.names):  # some name is read from the module itself
                found.append((node.lineno, src))
            found += [(node.lineno, sub) for sub in subs]
    return [(line, name) for line, name in found if name.split(".")[0] in SOURCE_ROOTS]


def typing_only(tree: ast.AST) -> set[int]:
    """The lines of the imports under ``if TYPE_CHECKING:`` (never run: types only)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines |= {
                    n.lineno for n in ast.walk(inner) if isinstance(n, ast.Import | ast.ImportFrom)
                }
    return lines


def owning_module(dotted: str) -> str | None:
    """The project module ``dotted`` is or is in (``game.world.World``: ``game.world``)."""
    while dotted and not is_module(dotted):
        dotted = dotted.rpartition(".")[0]
    return dotted or None
