"""No function of ``game/`` or of the engine takes more than :data:`MAX_PARAMETERS`
parameters (issue 41): a kernel with dozens of positional arguments restates each one at every
call; pass a typed record (a NamedTuple of arrays and scalars works compiled and with
``NUMBA_DISABLE_JIT=1``) or a small dataclass instead.

Every ``def`` counts, nested ones and methods included, and every parameter of it: positional,
``*args``, keyword-only and ``**kwargs``; ``self`` and ``cls`` do not."""

from __future__ import annotations

import ast

from tests.helpers.sources import modules

MAX_PARAMETERS = 16

#: Known functions, ``file: qualified.name``, one a line. Empty since issue 41 was fixed: keep
#: it so; the test fails when an entry no longer holds, so the list can only shrink.
BEING_FIXED: list[str] = []

Function = ast.FunctionDef | ast.AsyncFunctionDef


def parameters(node: Function) -> list[str]:
    """The names of ``node``'s parameters that count (all but ``self`` and ``cls``)."""
    a = node.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    return [n for n in names if n not in ("self", "cls")]


def functions(source: str) -> list[tuple[str, int]]:
    """Each ``def`` in ``source``, by its dotted name inside the module (``Class.method``,
    ``outer.inner``), with how many parameters it takes."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Function):
                name = f"{prefix}{child.name}"
                found.append((name, len(parameters(child))))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_every_kind_of_parameter_and_def_is_counted() -> None:
    # Given a method, a nested function and a function whose parameters are of every kind
    source = (
        "class A:\n"
        "    def m(self, a, /, b, *c, d, **e):\n"
        "        def inner(cls, x, y=1): ...\n"
        "    @classmethod\n"
        "    def k(cls): ...\n"
        "async def f(*, z): ...\n"
    )
    # When they are counted
    found = functions(source)
    # Then each is named by where it stands, and self and cls are not counted
    assert found == [("A.m", 5), ("A.m.inner", 2), ("A.k", 0), ("f", 1)]


def test_no_function_takes_more_than_the_limit() -> None:
    # Given every module of the game and the engine
    # When the functions with too many parameters are listed
    many = {
        f"{m.shown}: {name}": n
        for m in modules("game", "steering")
        for name, n in functions(m.path.read_text(encoding="utf-8"))
        if n > MAX_PARAMETERS
    }
    # Then there are none but the known ones, and every known one still holds
    assert sorted(many) == sorted(BEING_FIXED), {
        "new": {k: v for k, v in many.items() if k not in BEING_FIXED},
        "fixed (remove from BEING_FIXED)": sorted(set(BEING_FIXED) - set(many)),
    }
