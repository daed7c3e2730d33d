"""A composite's shape turned into a module: its source generated from the node templates and
the parts' per-agent functions, written to a cache folder and compiled with numba's on-disk
cache (see :mod:`steering.composite`, which walks trees into shapes and runs them).

The records every generated module reads are here too: the agents' columns
(:class:`AgentCols`) and the combinators' records.

Why one file: the node templates, the loops and the bound record are one generated module's
text, each emitting names the others read (``chunk``'s parameters, a node's ``x{k}``, the shared
query's ``nk`` and a folded part's ``s{k}``), and its cache name is the digest of that text;
split, those names would be agreed across files.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np
from numba import config as numba_config
from numpy.typing import NDArray

from ._jit import compile_kernel
from .vec import FloatArray

__all__ = [
    "BOUND_EXTRA",
    "AgentCols",
    "FirstRecord",
    "ForceRecord",
    "HeldRecord",
    "Kernel",
    "LimitRecord",
    "MaskRecord",
    "NearRecord",
    "ScaleRecord",
    "Shape",
    "WeightsRecord",
    "cache_folder",
    "compiled",
    "compiled_shapes",
    "module_name",
    "source_of",
]

log = logging.getLogger(__name__)


class AgentCols(NamedTuple):
    """The agents' columns a per-agent function reads, one row per agent (see
    :class:`~steering.AgentGroup`). Under a :class:`~steering.Limited` node the limits are the
    node's."""

    pos: FloatArray
    """(N, 2) positions, px."""
    vel: FloatArray
    """(N, 2) velocities, px/s."""
    max_speed: FloatArray
    """(N,) speed limits, px/s."""
    max_force: FloatArray
    """(N,) limits on the steering force, px/s^2 x mass."""
    radius: FloatArray
    """(N,) bounding radii, px."""
    mass: FloatArray
    """(N,) masses."""
    heading: FloatArray
    """(N, 2) unit headings."""


class WeightsRecord(NamedTuple):
    """A running sum's weights, one per part."""

    weights: FloatArray


class FirstRecord(NamedTuple):
    """:class:`~steering.FirstNonZero`'s threshold and the part each agent took."""

    epsilon: float
    chosen: NDArray[np.int64]


class LimitRecord(NamedTuple):
    """:class:`~steering.Limited`'s limits, one per agent, and whether its force is capped."""

    max_speed: FloatArray
    max_force: FloatArray
    cap: bool


class MaskRecord(NamedTuple):
    """:class:`~steering.Masked`'s rows."""

    mask: NDArray[np.bool_]


class ScaleRecord(NamedTuple):
    """A part's weight per agent (:class:`~steering.Weighted` with an array of weights)."""

    weights: FloatArray


class HeldRecord(NamedTuple):
    """:class:`~steering.Staggered`'s rows updated this call and each agent's last force."""

    rows: NDArray[np.bool_]
    store: FloatArray


class NearRecord(NamedTuple):
    """The neighbour query that the parts searching their own group share: one per agent, at
    the largest of their distances, in place of one each (see :mod:`steering.composite`)."""

    grid_ints: NDArray[np.int64]
    """The grid searched (the sharing part's with the largest distance)."""
    grid_floats: FloatArray
    """The grid's floats."""
    reach: float
    """px: the largest of the sharing parts' distances (0: no part shares)."""
    shares: NDArray[np.int64]
    """1 for each part able to share (in the shape's order) that does, 0 for one that searches
    itself."""


class ForceRecord(NamedTuple):
    """An outside leaf's forces, computed before the loop (zero on rows it did not run for)."""

    force: FloatArray


#: A shape: one entry per node in preorder, ``(kind, children, part class or None)``.
Shape = tuple[tuple[str, int, Any], ...]


class Kernel(NamedTuple):
    """A shape's compiled loops: ``plain[serial?]`` returns forces, ``moving`` also moves."""

    searches: bool
    """Whether a part searches neighbours: the loop then takes the grid of its order and a
    scratch buffer (a loop without one visits agents in index order and takes neither)."""
    serial: Any
    parallel: Any
    moving_serial: Any
    moving_parallel: Any
    make: Any
    """Makes the shape's record of every argument that stays the same (``Bound``) from the
    agents' columns, the fields in order and :data:`BOUND_EXTRA`."""
    bound_serial: Any
    """``serial`` taking that record, the output and the scratch buffer."""
    bound_parallel: Any
    bound_moving_serial: Any
    """``moving_serial`` taking that record, the output, the scratch buffer, the move and the
    step."""
    bound_moving_parallel: Any


#: Each shape's compiled loops, in this process.
_KERNELS: dict[Shape, Kernel] = {}


def compiled_shapes() -> list[Shape]:
    """The shapes compiled (or loaded from the cache) in this process."""
    return list(_KERNELS)


class _Source:
    """The generated module's text: imports, lines before the loop, lines in it."""

    def __init__(self) -> None:
        self.imports: dict[str, str] = {}
        self.params: list[str] = [f"a_{f}" for f in AgentCols._fields]
        self.before: list[str] = []
        self.body: list[str] = []
        #: The shared neighbour query's record name (None: the shape has none) and how many
        #: parts able to share were emitted.
        self.near: str | None = None
        self.shared = 0
        #: The parts whose sums are taken in the shared query's one pass (see
        #: :func:`_folded`): their node index and their place among the parts able to share.
        self.folded: dict[int, int] = {}

    def record(self, p: str, kind: Any, name: str) -> None:
        """Take record ``p`` of class ``kind`` (imported as ``name``) field by field as
        parameters, and build it before the loop."""
        fields = [f"{p}_{f}" for f in kind._fields]
        self.params.extend(fields)
        self.before.append(f"    {p} = {name}({', '.join(fields)})")

    def name_of(self, obj: Any, alias: str) -> str:
        """A module-level name for ``obj`` (a function or class), imported from its module."""
        func = getattr(obj, "py_func", obj)
        if isinstance(obj, type):
            # A record class keeps its own name: numba's parallel lowering rebuilds a named
            # tuple in its outlined loop by the class's name (an alias is not found).
            line = f"from {func.__module__} import {func.__name__}"
            if self.imports.get(func.__name__, line) == line:
                self.imports[func.__name__] = line
                return str(func.__name__)
        self.imports[alias] = f"from {func.__module__} import {func.__name__} as {alias}"
        return alias


def _emit(
    src: _Source, shape: Shape, k: int, a: str, depth: int, names: dict[str, str]
) -> tuple[int, str, str]:
    """Emit node ``k`` of ``shape`` seen through agent columns ``a``; return the next node's
    index and the names holding this node's force."""
    kind, children, part = shape[k]
    pad = "    " * depth
    x, y = f"x{k}", f"y{k}"
    p = f"p{k}"
    body = src.body
    if kind == "row":
        rec = src.name_of(part.ROW_RECORD, f"R{k}")
        row = src.name_of(part.ROW, f"row{k}")
        src.record(p, part.ROW_RECORD, rec)
        q = src.near
        if q is None or part.ROW_NEAR is None:
            body.append(f"{pad}{x}, {y} = {row}(i, {a}, {p}, buf)")
            return k + 1, x, y
        if k in src.folded:
            finish = src.name_of(part.NEAR_FOLD[2], f"finish{k}")
            body.append(f"{pad}if {q}.shares[{src.shared}]:")
            body.append(f"{pad}    {x}, {y} = {finish}(i, {a}, {p}, s{k})")
            body.append(f"{pad}else:")
            body.append(f"{pad}    {x}, {y} = {row}(i, {a}, {p}, buf)")
            src.shared += 1
            return k + 1, x, y
        shared = src.name_of(part.ROW_NEAR, f"near{k}")
        body.append(f"{pad}if {q}.shares[{src.shared}]:")
        body.append(f"{pad}    if nk < 0:")
        body.append(
            f"{pad}        nk = near({q}.grid_ints, {q}.grid_floats, {a}.pos, i, {q}.reach, nbuf)"
        )
        body.append(f"{pad}    {x}, {y} = {shared}(i, {a}, {p}, nbuf, nk)")
        body.append(f"{pad}else:")
        body.append(f"{pad}    {x}, {y} = {row}(i, {a}, {p}, buf)")
        src.shared += 1
        return k + 1, x, y
    if kind == "near":
        src.record(p, NearRecord, "NearRecord")
        src.near = p
        body.append(f"{pad}nk = -1")
        src.folded = _folded(shape)
        if src.folded:
            # The parts not under a mask take their sums in one pass over the query's result.
            for f in src.folded:
                begin = src.name_of(shape[f][2].NEAR_FOLD[0], f"start{f}")
                body.append(f"{pad}s{f} = {begin}(i, {a}, p{f})")
            any_share = " or ".join(f"{p}.shares[{j}]" for j in src.folded.values())
            body.append(f"{pad}if {any_share}:")
            body.append(
                f"{pad}    nk = near({p}.grid_ints, {p}.grid_floats, {a}.pos, i, {p}.reach, nbuf)"
            )
            body.append(f"{pad}    for q in range(nk):")
            for f, j in src.folded.items():
                term = src.name_of(shape[f][2].NEAR_FOLD[1], f"term{f}")
                body.append(f"{pad}        if {p}.shares[{j}]:")
                body.append(f"{pad}            s{f} = {term}(i, {a}, p{f}, s{f}, nbuf, q)")
        nxt, cx, cy = _emit(src, shape, k + 1, a, depth, names)
        body.append(f"{pad}{x} = {cx}")
        body.append(f"{pad}{y} = {cy}")
        return nxt, x, y
    if kind == "outside":
        src.record(p, ForceRecord, "ForceRecord")
        body.append(f"{pad}{x} = {p}.force[i, 0]")
        body.append(f"{pad}{y} = {p}.force[i, 1]")
        return k + 1, x, y
    if kind == "mask":
        src.record(p, MaskRecord, "MaskRecord")
        body.append(f"{pad}{x} = 0.0")
        body.append(f"{pad}{y} = 0.0")
        body.append(f"{pad}if {p}.mask[i]:")
        nxt, cx, cy = _emit(src, shape, k + 1, a, depth + 1, names)
        body.append(f"{pad}    {x} = {cx}")
        body.append(f"{pad}    {y} = {cy}")
        return nxt, x, y
    if kind == "scale":
        src.record(p, ScaleRecord, "ScaleRecord")
        nxt, cx, cy = _emit(src, shape, k + 1, a, depth, names)
        body.append(f"{pad}{x} = {p}.weights[i] * {cx}")
        body.append(f"{pad}{y} = {p}.weights[i] * {cy}")
        return nxt, x, y
    if kind == "held":
        src.record(p, HeldRecord, "HeldRecord")
        body.append(f"{pad}if {p}.rows[i]:")
        nxt, cx, cy = _emit(src, shape, k + 1, a, depth + 1, names)
        body.append(f"{pad}    {p}.store[i, 0] = {cx}")
        body.append(f"{pad}    {p}.store[i, 1] = {cy}")
        body.append(f"{pad}{x} = {p}.store[i, 0]")
        body.append(f"{pad}{y} = {p}.store[i, 1]")
        return nxt, x, y
    if kind == "limit":
        src.record(p, LimitRecord, "LimitRecord")
        lim = f"a{k}"
        fields = ", ".join(
            f"{p}.{f}" if f in ("max_speed", "max_force") else f"{a}.{f}" for f in AgentCols._fields
        )
        src.before.append(f"    {lim} = AgentCols({fields})")
        nxt, cx, cy = _emit(src, shape, k + 1, lim, depth, names)
        body.append(f"{pad}{x} = {cx}")
        body.append(f"{pad}{y} = {cy}")
        body.append(f"{pad}if {p}.cap:")
        body.append(f"{pad}    {x}, {y} = truncate({x}, {y}, {p}.max_force[i])")
        return nxt, x, y
    if kind == "sum":
        src.record(p, WeightsRecord, "WeightsRecord")
        body.append(f"{pad}{x} = 0.0")
        body.append(f"{pad}{y} = 0.0")
        nxt = k + 1
        for j in range(children):
            nxt, cx, cy = _emit(src, shape, nxt, a, depth, names)
            body.append(f"{pad}{x} += {p}.weights[{j}] * {cx}")
            body.append(f"{pad}{y} += {p}.weights[{j}] * {cy}")
        body.append(f"{pad}{x}, {y} = truncate({x}, {y}, {a}.max_force[i])")
        return nxt, x, y
    if kind == "running":
        src.record(p, WeightsRecord, "WeightsRecord")
        body.append(f"{pad}{x} = 0.0")
        body.append(f"{pad}{y} = 0.0")
        nxt = k + 1
        for j in range(children):
            nxt, cx, cy = _emit(src, shape, nxt, a, depth, names)
            body.append(
                f"{pad}{x}, {y} = running_add({x}, {y}, {cx} * {p}.weights[{j}], "
                f"{cy} * {p}.weights[{j}], {a}.max_force[i])"
            )
        # No final truncate: running_add never adds past the remaining budget, so the total is
        # within max force to the last bit or two; a truncate here would rescale a total one
        # ulp over, and a nested sum re-added whole would then differ from the same sum written
        # flat (the world's crowd tree nests its urgent forces).
        return nxt, x, y
    if kind == "first":
        src.record(p, FirstRecord, "FirstRecord")
        c = f"c{k}"
        body.append(f"{pad}{x} = 0.0")
        body.append(f"{pad}{y} = 0.0")
        body.append(f"{pad}{c} = -1")
        nxt = k + 1
        for j in range(children):
            nxt, cx, cy = _emit(src, shape, nxt, a, depth, names)
            body.append(f"{pad}if {c} < 0 and hypot({cx}, {cy}) > {p}.epsilon:")
            body.append(f"{pad}    {x} = {cx}")
            body.append(f"{pad}    {y} = {cy}")
            body.append(f"{pad}    {c} = {j}")
        body.append(f"{pad}{x}, {y} = truncate({x}, {y}, {a}.max_force[i])")
        body.append(f"{pad}{p}.chosen[i] = {c}")
        return nxt, x, y
    raise ValueError(f"composite: unknown node kind {kind!r}")


def _folded(shape: Shape) -> dict[int, int]:
    """The parts of ``shape`` whose sums the shared query's one pass takes: those able to share
    it that declare ``NEAR_FOLD`` and are under no mask (nor a staggered node: an agent those
    skip costs no search), by node index, with their place among the parts able to share."""
    folded: dict[int, int] = {}
    shared = 0

    def visit(k: int, guarded: bool) -> int:
        nonlocal shared
        kind, children, part = shape[k]
        if kind == "row":
            if part.ROW_NEAR is not None:
                if part.NEAR_FOLD is not None and not guarded:
                    folded[k] = shared
                shared += 1
            return k + 1
        if kind == "outside":
            return k + 1
        inner = guarded or kind in ("mask", "held")
        count = 1 if kind in ("mask", "limit", "scale", "held", "near") else children
        nxt = k + 1
        for _ in range(count):
            nxt = visit(nxt, inner)
        return nxt

    visit(0, False)
    return folded


def _chunk(params: list[str], src: _Source, x: str, y: str, *, searches: bool) -> list[str]:
    """The shape's loop over agents ``lo`` to ``hi`` with one scratch buffer ``buf``: what both
    loop functions call, the parallel one once per chunk of agents. (Inside numba's ``prange``
    a write through an array held in a tuple is lost, numba 0.68; in a function of its own,
    called from the parallel loop, it is not.)"""
    pick = "agent_at(order_ints, order_floats, s)" if searches else "s"
    extra = ["order_ints", "order_floats"] if searches else []
    bufs = "buf, nbuf" if src.near is not None else "buf"
    return [
        f"def chunk(lo, hi, {bufs}, {', '.join([*params, *extra])}):",
        *src.before,
        "    for s in range(lo, hi):",
        f"        i = {pick}",
        *[line[4:] for line in src.body],
        f"        out[i, 0] = {x}",
        f"        out[i, 1] = {y}",
    ]


def _function(
    name: str, params: list[str], parallel: bool, *, searches: bool, moves: bool, near: bool
) -> list[str]:
    """One loop function of a shape's module: serial (one scratch buffer) or across cores
    (a chunk of agents an iteration, a buffer per thread; numba's thread id in a cached serial
    function crashes the process that loads it, the threading layer not being started); with
    ``moves``, integrating the agents after the forces. With ``near`` (a shared neighbour
    query) each thread has a second buffer for its result, from the second half of the
    scratch buffers."""
    args = [*params, "order_ints", "order_floats"] if searches else params
    outer = [*args, "scratch"] if searches else args
    if moves:
        outer = [*outer, "move", "dt", "rate", "turns", "width", "height"]
    buf = "scratch[numba.get_thread_id()]" if parallel else "scratch[0]"
    if near:
        half = "scratch.shape[0] // 2"
        second = f"scratch[{half} + numba.get_thread_id()]" if parallel else f"scratch[{half}]"
        buf = f"{buf}, {second}"
    if not searches:
        buf = "out"  # no part searches neighbours: ``out`` stands for the unused buffer
    lines = [f"def {name}({', '.join(outer)}):", "    n = a_pos.shape[0]"]
    if parallel:
        lines += [
            "    for c in prange((n + CHUNK - 1) // CHUNK):",
            f"        chunk(c * CHUNK, min(n, (c + 1) * CHUNK), {buf}, {', '.join(args)})",
        ]
    else:
        lines.append(f"    chunk(0, n, {buf}, {', '.join(args)})")
    if moves:
        lines += [
            f"    for i in {'prange' if parallel else 'range'}(n):",
            "        move_row(a_pos, a_vel, a_heading, a_max_speed, a_mass, rate, out, dt,",
            "                 move > 1, turns, width, height, i)",
        ]
    return lines


def source_of(shape: Shape) -> str:
    """The Python source of ``shape``'s loops over agents: ``run`` takes the agents' columns
    and every record's fields in the shape's order, then the output (then, when a part searches
    neighbours, the grid whose order it follows and the scratch buffers); ``run_moving`` also
    the move's arguments; ``*_parallel`` the same across cores."""
    src = _Source()
    src.before.append(f"    a = AgentCols({', '.join(src.params)})")
    _, x, y = _emit(src, shape, 0, "a", 3, {})
    params = [*src.params, "out"]
    searches = _searches(shape)
    near = src.near is not None
    lines = [
        f'"""Generated by steering.composite for the shape {_describe(shape)}."""',
        "import numba",
        "from steering._jit import prange",
        "from steering.moving import move_row",
        "from steering.shapes import (",
        "    AgentCols, FirstRecord, ForceRecord, HeldRecord, LimitRecord, MaskRecord,",
        "    NearRecord, ScaleRecord, WeightsRecord,",
        ")",
        "from steering.grid import agent_at, near",
        "from steering.kernels import hypot, running_add, truncate",
        *sorted(src.imports.values()),
        "",
        "CHUNK = 256",
        "",
        "",
        *_chunk(params, src, x, y, searches=searches),
        "",
        "",
        *_function("run", params, False, searches=searches, moves=False, near=near),
        "",
        "",
        *_function("run_parallel", params, True, searches=searches, moves=False, near=near),
        "",
        "",
        *_function("run_moving", params, False, searches=searches, moves=True, near=near),
        "",
        "",
        *_function("run_moving_parallel", params, True, searches=searches, moves=True, near=near),
        "",
        "",
        *_bound(src.params, searches=searches),
    ]
    return "\n".join(lines)


#: What a shape's record of every field holds besides the records' fields: the agents'
#: columns first, then the grid whose order the loop follows (unused by a loop that searches
#: no neighbours) and the move's columns and world size.
BOUND_EXTRA = ("order_ints", "order_floats", "rate", "turns", "width", "height")


def _bound(params: list[str], *, searches: bool) -> list[str]:
    """The shape's record of every argument that stays the same from call to call (a numba
    structref, ``Bound``): the agents' columns, every record's fields, the grid of the loop's
    order and the move's columns, made once by ``make`` while a tree's records stay the same
    objects, and the loops that take it: the record, the output, the scratch buffer (the output
    again when no part searches) and, to move, the move and the step, instead of some hundred
    arguments (numba unboxes each array argument, about 0.05 us apiece)."""
    cols = [f"a_{f}" for f in AgentCols._fields]
    fields = [p for p in params if p not in cols]
    search = ["b.order_ints", "b.order_floats", "scratch"] if searches else []
    call = ", ".join(f"b.{f}" for f in [*cols, *fields])
    names = [*cols, *fields, *BOUND_EXTRA]
    lines = [
        "from numba.core import types as _types",
        "from numba.experimental import structref as _structref",
        "",
        "",
        "@_structref.register",
        "class BoundType(_types.StructRef):",
        "    def preprocess_fields(self, fields):",
        "        return tuple((name, _types.unliteral(t)) for name, t in fields)",
        "",
        "",
        "class Bound(_structref.StructRefProxy):",
        "    pass",
        "",
        "",
        f"FIELDS = {tuple(names)!r}",
        "_structref.define_proxy(Bound, BoundType, list(FIELDS))",
        "",
        "",
        f"def make({', '.join(names)}):",
        f"    return Bound({', '.join(names)})",
    ]
    moving = ["move", "dt", "b.rate", "b.turns", "b.width", "b.height"]
    for name, inner, extra in (
        ("run_bound", "run", []),
        ("run_bound_parallel", "run_parallel", []),
        ("run_bound_moving", "run_moving", moving),
        ("run_bound_moving_parallel", "run_moving_parallel", moving),
    ):
        head = "b, out, scratch, move, dt" if extra else "b, out, scratch"
        args = ", ".join([call, "out", *search, *extra])
        lines += ["", "", f"def {name}({head}):", f"    {inner}({args})"]
    return lines


def _describe(shape: Shape) -> str:
    """A shape in one line: ``running(row Seek, mask(outside))``."""

    def one(k: int) -> tuple[int, str]:
        kind, children, part = shape[k]
        if kind == "row":
            return k + 1, part.__name__
        if kind == "outside":
            return k + 1, "outside"
        count = 1 if kind in ("mask", "limit", "scale", "held", "near") else children
        items = []
        nxt = k + 1
        for _ in range(count):
            nxt, text = one(nxt)
            items.append(text)
        return nxt, f"{kind}({', '.join(items)})"

    return one(0)[1]


#: The digest of the engine's sources (see :func:`_engine_digest`).
_ENGINE_DIGEST: list[str] = []


def _engine_digest() -> str:
    """A digest of the engine's sources, computed once a process."""
    if not _ENGINE_DIGEST:
        h = hashlib.sha256()
        for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
        _ENGINE_DIGEST.append(h.hexdigest())
    return _ENGINE_DIGEST[0]


def module_name(shape: Shape) -> str:
    """The name of ``shape``'s generated module: ``steering_composite_<engine>_<shape>``, where
    ``<engine>`` changes with any of the engine's sources and ``<shape>`` with the shape's
    source and the modules of its parts defined outside the engine (a kernel that inlines a
    changed function must not load from the cache)."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(source_of(shape).encode())
    for _, _, part in shape:
        if part is None:
            continue
        module = sys.modules.get(part.__module__)
        file = getattr(module, "__file__", None)
        if file and Path(file).resolve().parent != here:
            h.update(Path(file).read_bytes())
    return f"{_PREFIX}{_engine_digest()[:10]}_{h.hexdigest()[:16]}"


_PREFIX = "steering_composite_"
#: Folders already rid of the composites of other engine versions in this process.
_PRUNED: set[Path] = set()


def _prune(folder: Path) -> None:
    """Delete the composites (and their numba caches) made by other versions of the engine."""
    if folder in _PRUNED:
        return
    _PRUNED.add(folder)
    keep = f"{_PREFIX}{_engine_digest()[:10]}_"
    for path in [*folder.glob(f"{_PREFIX}*"), *folder.glob(f"__pycache__/{_PREFIX}*")]:
        if not path.name.startswith(keep):
            try:
                path.unlink(missing_ok=True)
            except OSError:  # a read-only folder, warmed before it became so
                return


def cache_folder() -> Path | None:
    """Where generated composites are written: ``__pycache__/composites`` beside the engine,
    else under ``NUMBA_CACHE_DIR`` or the user's cache folder; None when none is writable."""
    for folder in _candidates():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = folder / f".probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
            return folder
        except OSError:
            continue
    return None


def _candidates() -> list[Path]:
    candidates = [Path(__file__).resolve().parent / "__pycache__" / "composites"]
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(Path(os.environ["NUMBA_CACHE_DIR"]) / "steering-composites")
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates.append(Path(xdg) / "reynolds-steering" / "composites")
    return candidates


def _warmed_folder(name: str) -> Path | None:
    """A read-only folder that holds composite ``name`` already (warmed before it became
    read-only), whose numba caches :class:`~steering._jit.EngineCache` can read."""
    return next((f for f in _candidates() if (f / f"{name}.py").is_file()), None)


def compiled(shape: Shape) -> Kernel:
    """The loops of ``shape`` (serial and parallel, with and without the move): generated,
    written to the cache folder and compiled with numba's on-disk cache (compiled uncached
    when no folder is writable)."""
    kernel = _KERNELS.get(shape)
    if kernel is not None:
        return kernel
    text = source_of(shape)
    name = module_name(shape)
    folder = cache_folder() or _warmed_folder(name)
    cache = folder is not None
    namespace: dict[str, Any]
    if folder is not None:
        _prune(folder)
        path = folder / f"{name}.py"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            # Written whole under another name first: another process may be importing it.
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        namespace = module.__dict__
    else:
        log.info("steering: no writable cache folder; compiling a composite uncached")
        namespace = {"__name__": name}
        exec(compile(text, f"<{name}>", "exec"), namespace)
    # No reference counting: the loop allocates nothing (see the module's docstring). Each
    # loop compiles on its first call only.
    options: dict[str, Any] = {
        "cache": cache,
        "error_model": "numpy",
        "nogil": True,
        "_nrt": False,
    }
    # The chunk is compiled as its own function (not inlined into the parallel loop).
    namespace["chunk"] = compile_kernel(namespace["chunk"], options)
    parallel = {"parallel": True, **options}
    # The loops that take the record of every field call the four loops by name.
    serial_loop = namespace["run"] = compile_kernel(namespace["run"], options)
    parallel_loop = namespace["run_parallel"] = compile_kernel(namespace["run_parallel"], parallel)
    moving_loop = namespace["run_moving"] = compile_kernel(namespace["run_moving"], options)
    moving_parallel = namespace["run_moving_parallel"] = compile_kernel(
        namespace["run_moving_parallel"], parallel
    )
    kernel = Kernel(
        _searches(shape),
        serial_loop,
        parallel_loop,
        moving_loop,
        moving_parallel,
        *_bound_loops(namespace, cache),
    )
    _KERNELS[shape] = kernel
    return kernel


_BOUND_LOOPS = ("run_bound", "run_bound_parallel", "run_bound_moving", "run_bound_moving_parallel")


def _bound_loops(namespace: dict[str, Any], cache: bool) -> tuple[Any, ...]:
    """``make`` and the four loops taking its record, compiled (with reference counting: they
    read the record's fields). With the JIT off a structref cannot be made (numba issue
    7117): the record is then a plain object with the same fields."""
    if numba_config.DISABLE_JIT:  # type: ignore[attr-defined]
        names = namespace["FIELDS"]

        def make(*fields: Any) -> Any:
            return SimpleNamespace(**dict(zip(names, fields, strict=True)))

        return (make, *(namespace[name] for name in _BOUND_LOOPS))
    options: dict[str, Any] = {"cache": cache, "error_model": "numpy", "nogil": True}
    return (
        compile_kernel(namespace["make"], options),
        *(compile_kernel(namespace[name], options) for name in _BOUND_LOOPS),
    )


def _searches(shape: Shape) -> bool:
    return any(kind == "row" and part.ORDERS for kind, _, part in shape)
