"""Composites compiled from their parts' per-agent functions: one loop over agents for a whole
tree of combinators, whatever its shape.

A behaviour that can be compiled into a composite (a *row part*) declares three things, as
gdx-ai's behaviours declare ``calculateSteering``:

* ``ROW``: its per-agent function ``row(i, a, p, buf) -> (fx, fy)``, agent ``i``'s force from
  the agents' columns ``a`` (:class:`AgentCols`) and the part's record ``p``, compiled with
  :func:`row_function`; ``buf`` is a scratch buffer of neighbour rows with a row for every
  agent (``(N, BUF_COLS)``, see :func:`~steering.grid.near`), one per thread. It may write
  row ``i`` of the arrays its record holds (memory, debug) and nothing else, so the loop may
  run across cores, and it must not allocate: the loop is compiled without numba's reference
  counting (an array read from a record inside a loop with it costs an atomic increment and
  decrement, measured 2-3x the whole of Separate's maths at 1,000 agents).
* ``bind(agents, dt, debug) -> record``: the part's parameters for this call, a NamedTuple of
  arrays and numbers. A part that searches neighbours sets ``ORDERS = True`` and names its
  grid's fields ``grid_ints`` and ``grid_floats``: the loop visits agents in the first such
  grid's order, so that neighbours are found in memory the previous agent just read.
* ``report(agents, record, debug)``: write the part's debug record from the arrays the rows
  filled.

The combinators (:class:`~steering.WeightedSum`, :class:`~steering.TruncatedRunningSum`,
:class:`~steering.FirstNonZero`, :class:`~steering.Limited`, :class:`~steering.Masked`) are the
nodes of a tree whose leaves are parts. :func:`run` walks the tree once per call, collecting
each node's record in preorder and the tree's *shape* (which node or part class stands where).
Each distinct shape is compiled once: its source is generated from the node templates below and
the parts' ``ROW`` functions (one loop over agents; a mask is a test per row, a limit a
different column of limits), written to a cache folder and compiled with numba's on-disk cache,
so later runs load it (:func:`compiled`). Any other behaviour (a user's function, or one not
compiled this way yet) is an *outside* leaf: it is called before the loop, on its masked rows
only, and the loop reads its force row by row.

Records reach the compiled code as plain tuples and are rebuilt as their NamedTuples inside it:
numba unboxes a tuple of arrays in about 0.1 us an array but a NamedTuple in 7 us (measured
here), so the fields are named in the source and positional only in the call.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

from ._checks import fast_points
from ._jit import PARALLEL_MIN
from .agents import AgentGroup
from .debug import PriorityDebug, write
from .grid import BUF_COLS, Grid, brute_grid
from .vec import FloatArray

__all__ = [
    "AgentCols",
    "FirstRecord",
    "ForceRecord",
    "LimitRecord",
    "MaskRecord",
    "RowPart",
    "WeightsRecord",
    "agent_cols",
    "compiled",
    "compiled_shapes",
    "compiles",
    "row_function",
    "run",
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
    """(N,) steering limits, px/s^2."""
    radius: FloatArray
    """(N,) bounding radii, px."""
    mass: FloatArray
    """(N,) masses."""
    heading: FloatArray
    """(N, 2) unit headings."""


def agent_cols(agents: AgentGroup) -> tuple[FloatArray, ...]:
    """The group's :class:`AgentCols` as the plain tuple the compiled code takes."""
    return (
        agents.pos,
        agents.vel,
        agents.max_speed,
        agents.max_force,
        agents.radius,
        agents.mass,
        agents.heading,
    )


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


class ForceRecord(NamedTuple):
    """An outside leaf's forces, computed before the loop (zero on rows it did not run for)."""

    force: FloatArray


_ROW_OPTIONS: dict[str, Any] = {
    "cache": True,
    "error_model": "numpy",
    "nogil": True,
    "inline": "always",
}


def row_function(func: Callable[..., Any]) -> Any:
    """Compile a part's per-agent function ``row(i, a, p, buf) -> (fx, fy)``; numba inlines it
    into each composite that uses it. It must not allocate arrays."""
    return numba.njit(**_ROW_OPTIONS)(func)


# -- the walk: shape and records in one pass ---------------------------------------------------

#: A shape: one entry per node in preorder, ``(kind, children, part class or None)``.
Shape = tuple[tuple[str, int, Any], ...]


#: The grid of no order: agents in index order.
_NO_ORDER = brute_grid(None)


class _Walk:
    """What a walk of a tree collects: its shape, the records, the parts to report debug
    output and the grid whose order the loop follows."""

    __slots__ = ("agents", "debug", "dt", "flat", "n", "order", "records", "reports", "shape")

    def __init__(self, agents: AgentGroup, dt: float, debug: Any) -> None:
        self.agents = agents
        self.dt = dt
        self.debug = debug
        self.n = agents.pos.shape[0]
        self.shape: list[tuple[str, int, Any]] = []
        self.records: list[tuple[Any, ...]] = []
        #: Every record's fields in order: the compiled loop's arguments after the columns.
        self.flat: list[Any] = []
        self.reports: list[tuple[Any, Any]] = []
        self.order: Grid = _NO_ORDER


class RowPart:
    """Base of the behaviours compiled into composites: calling one runs it as a composite of
    one part. A subclass declares ``ROW`` and ``ROW_RECORD`` and implements ``bind`` and
    ``report`` (see the module's docstring); a subclass that overrides ``__call__`` is called
    as itself, as an outside leaf."""

    ROW: Any = None
    ROW_RECORD: Any = None
    #: Whether the record holds a neighbour grid (``grid_ints``, ``grid_floats``) whose order
    #: the loop may follow.
    ORDERS = False

    def __call__(self, agents: AgentGroup, dt: float, debug: Any = None) -> FloatArray:
        """Return the (N, 2) forces, from the part's own loop over agents (the composite of
        this one part; the walk of :func:`run` is skipped, its result being known)."""
        record: Any = self.bind(agents, dt, debug is not None)
        kernel = _KERNELS.get(type(self))
        if kernel is None:
            kernel = compiled((("row", 0, type(self)),))
            _KERNELS[type(self)] = kernel
        out = np.empty((agents.n, 2))
        order = Grid(record.grid_ints, record.grid_floats) if self.ORDERS else _NO_ORDER
        _launch(kernel, agents, record, out, order, 0, 0.0)
        if debug is not None:
            self.report(agents, record, debug)
        return out

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> tuple[Any, ...]:
        """The record of this call (checked values, per-agent arrays, debug buffers)."""
        raise NotImplementedError

    def points(self, name: str, value: Any, n: int) -> FloatArray:
        """``value`` as (1, 2) or (n, 2) finite points (:func:`~steering._checks.fast_points`);
        a tuple, which cannot change, is converted once and kept."""
        if type(value) is tuple:
            memo = self.__dict__.get("_points")
            if memo is None:
                memo = self.__dict__["_points"] = {}
            kept = memo.get(name)
            if kept is not None and kept[0] is value:
                return kept[1]
            rows = fast_points(name, value, n)
            if rows.shape[0] == 1:  # one point for all, whatever the number of agents
                memo[name] = (value, rows)
            return rows
        return fast_points(name, value, n)

    def report(self, agents: AgentGroup, record: Any, debug: Any) -> None:
        """Write the debug record from ``record``'s buffers (called when debug is asked)."""


def compiles(node: Any) -> bool:
    """Whether ``node`` runs as a composite (a combinator or a row part), so that
    :func:`run` can also move the agents in the same call."""
    return getattr(type(node), "composite_node", None) is not None or _is_row_part(node)


def _is_row_part(node: Any) -> bool:
    kind = type(node)
    return (
        kind.ROW is not None and kind.__call__ is RowPart.__call__
        if issubclass(kind, RowPart)
        else False
    )


_NODE, _ROW, _OUTSIDE = 0, 1, 2
#: Each class met in a walk: a combinator node, a row part or an outside behaviour.
_KINDS: dict[type, int] = {}


def _kind_of(node: Any) -> int:
    if getattr(type(node), "composite_node", None) is not None:
        return _NODE
    return _ROW if _is_row_part(node) else _OUTSIDE


def _walk(w: _Walk, node: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str) -> None:
    """Add ``node`` (seen as ``name`` in messages) to the walk: ``view`` is the group it sees
    (limits replaced by enclosing :class:`~steering.Limited` nodes), ``rows`` the rows the
    enclosing masks select (None: all)."""
    kind = _KINDS.get(type(node))
    if kind is None:
        kind = _KINDS[type(node)] = _kind_of(node)
    if kind == _NODE:
        node.composite_node(w, view, rows, name)
        return
    if kind == _ROW:
        debug = w.debug is not None
        try:
            record = node.bind(w.agents, w.dt, debug)
        except (TypeError, ValueError) as error:
            raise _renamed(error, type(node).__name__, name) from None
        if node.ORDERS and w.order is _NO_ORDER:
            w.order = Grid(record.grid_ints, record.grid_floats)
        w.shape.append(_ROW_ENTRIES.get(type(node)) or _row_entry(type(node)))
        w.records.append(record)
        w.flat += record
        if debug:
            w.reports.append((node, record))
        return
    w.shape.append(("outside", 0, None))
    force = outside_force(node, view, rows, w.dt, w.debug, name)
    w.records.append((force,))
    w.flat.append(force)


#: Each row part class's shape entry, made once (so that shapes compare by identity first).
_ROW_ENTRIES: dict[type, tuple[str, int, Any]] = {}


def _row_entry(kind: type) -> tuple[str, int, Any]:
    entry = _ROW_ENTRIES[kind] = ("row", 0, kind)
    return entry


def _renamed(error: Exception, own: str, name: str) -> Exception:
    """``error`` with its leading ``Own.field`` renamed ``name.field`` (the part's place in
    the tree: ``WeightedSum.parts[0].target``)."""
    text = str(error)
    if name != own and text.startswith(own + "."):
        return type(error)(name + text[len(own) :])
    return error


def walk_child(
    w: _Walk, node: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
) -> None:
    """For a node's ``composite_node``: add a child node to the walk."""
    _walk(w, node, view, rows, name)


def add_node(w: _Walk, kind: str, children: int, record: tuple[Any, ...]) -> None:
    """For a node's ``composite_node``: add the node itself (before its children)."""
    w.shape.append((kind, children, None))
    w.records.append(record)
    w.flat.extend(record)


def outside_force(
    node: Any,
    view: AgentGroup,
    rows: NDArray[np.bool_] | None,
    dt: float,
    debug: Any,
    name: str,
) -> FloatArray:
    """An outside leaf's forces: the behaviour called on the selected rows only (as a group of
    its own, whose state is written back), zero elsewhere."""
    n = view.n
    if rows is None or rows.all():
        return checked_force(name, node(view, dt, debug), n)
    out = np.zeros((n, 2))
    idx = np.flatnonzero(rows)
    if idx.size == 0:
        return out
    sub = view.take(idx)
    sub_debug: Any = {} if debug is not None else None
    out[idx] = checked_force(name, node(sub, dt, sub_debug), idx.size)
    view.put_state(idx, sub)
    if debug is not None and sub_debug is not None:
        for key, arr in sub_debug.items():
            debug[key] = scatter_debug(debug.get(key), arr, idx, n)
    return out


def checked_force(who: str, force: Any, n: int) -> FloatArray:
    """A part's output as an (n, 2) float array; TypeError or ValueError naming ``who``."""
    if type(force) is np.ndarray and force.dtype == np.float64 and force.shape == (n, 2):
        return force
    try:
        arr = np.asarray(force, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{who}: returned {force!r:.40}, expected ({n}, 2) forces") from None
    if arr.shape != (n, 2):
        raise ValueError(f"{who}: returned shape {arr.shape}, expected ({n}, 2) forces")
    return arr


def scatter_debug(
    existing: NDArray[np.generic] | None, sub: NDArray[np.generic], idx: NDArray[np.intp], n: int
) -> NDArray[np.generic]:
    """Place per-agent debug rows of a sub-group into a full-size array (merging with others;
    rows not in ``idx`` are NaN, False or -1)."""
    if sub.ndim == 0 or sub.shape[0] != idx.size:
        return sub  # not per-agent (a scalar or a pair list): keep as is
    if existing is not None and existing.shape[1:] == sub.shape[1:] and existing.shape[0] == n:
        full = existing.copy()
    elif sub.dtype == np.bool_:
        full = np.zeros((n, *sub.shape[1:]), dtype=bool)
    elif np.issubdtype(sub.dtype, np.integer):
        full = np.full((n, *sub.shape[1:]), -1, dtype=sub.dtype)
    else:
        full = np.full((n, *sub.shape[1:]), np.nan)
    full[idx] = sub
    return full


# -- running a tree ------------------------------------------------------------------------------


def run(tree: Any, agents: AgentGroup, dt: float, debug: Any = None, move: int = 0) -> FloatArray:
    """The (N, 2) forces of ``tree`` (a combinator or a row part) in one compiled loop; with
    ``move`` 1 the same call then integrates the agents under them
    (:func:`~steering.integrate`), with 2 also turning their headings toward their velocities.
    """
    w = _Walk(agents, dt, debug)
    _walk(w, tree, agents, None, type(tree).__name__)
    out = np.empty((w.n, 2))
    # The last shape of this tree, compared as a list (cheaper than hashing it again).
    last = _LAST.get(id(tree))
    if last is not None and last[0] == w.shape:
        shape, kernel = last[1], last[2]
    else:
        shape = tuple(w.shape)
        kernel = _KERNELS.get(shape) or compiled(shape)
        if len(_LAST) > 4096:
            _LAST.clear()
        _LAST[id(tree)] = (w.shape, shape, kernel)
    _launch(kernel, agents, w.flat, out, w.order, move, dt)
    for node, record in w.reports:
        node.report(agents, record, debug)
    if debug is not None:
        for k, (kind, _, _) in enumerate(shape):
            if kind == "first":
                write(PriorityDebug(w.records[k][1]), debug)
    return out


#: Each tree's last shape, by the tree's id (compared whole, so a new tree given an old id
#: finds another shape and looks its kernel up).
_LAST: dict[int, tuple[list[tuple[str, int, Any]], Shape, Any]] = {}


class Kernel(NamedTuple):
    """A shape's compiled loops: ``plain[serial?]`` returns forces, ``moving`` also moves."""

    searches: bool
    """Whether a part searches neighbours: the loop then takes the grid of its order and a
    scratch buffer (a loop without one visits agents in index order and takes neither)."""
    serial: Any
    parallel: Any
    moving_serial: Any
    moving_parallel: Any


def _launch(
    kernel: Kernel,
    agents: AgentGroup,
    fields: Any,
    out: FloatArray,
    order: Grid,
    move: int,
    dt: float,
) -> None:
    """Run a shape's loop: serial below :data:`~steering._jit.PARALLEL_MIN` agents. Only what
    the loop reads is passed: numba unboxes each argument (some 0.1 us apiece)."""
    n = out.shape[0]
    parallel = n >= PARALLEL_MIN
    cols = (
        agents.pos,
        agents.vel,
        agents.max_speed,
        agents.max_force,
        agents.radius,
        agents.mass,
        agents.heading,
    )
    search = (order.ints, order.floats, _scratch(n)) if kernel.searches else ()
    if not move:
        run = kernel.parallel if parallel else kernel.serial
        run(*cols, *fields, out, *search)
        return
    world = agents.world_size
    run = kernel.moving_parallel if parallel else kernel.moving_serial
    run(
        *cols,
        *fields,
        out,
        *search,
        move,
        dt,
        agents.max_turn_rate,
        agents.turns(),
        0.0 if world is None else world[0],
        0.0 if world is None else world[1],
    )


_NO_TURNS = np.zeros((0, 2))
_LOCAL = threading.local()


def _scratch(n: int) -> FloatArray:
    """Neighbour buffers for a loop over ``n`` agents: one per thread, each with a row per
    agent (a search never finds more), kept between calls by each Python thread."""
    buf = getattr(_LOCAL, "scratch", None)
    if buf is None or buf.shape[1] < n:
        threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
        buf = np.empty((threads, max(n, 64), BUF_COLS))
        _LOCAL.scratch = buf
    return buf


# -- generating and compiling a shape ------------------------------------------------------------

#: Each shape's compiled loops (serial, parallel), in this process; a row part's class stands
#: for the shape of that part alone.
_KERNELS: dict[Any, Kernel] = {}


def compiled_shapes() -> list[Shape]:
    """The shapes compiled (or loaded from the cache) in this process."""
    return [shape for shape in _KERNELS if isinstance(shape, tuple)]


class _Source:
    """The generated module's text: imports, lines before the loop, lines in it."""

    def __init__(self) -> None:
        self.imports: dict[str, str] = {}
        self.params: list[str] = [f"a_{f}" for f in AgentCols._fields]
        self.before: list[str] = []
        self.body: list[str] = []

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
        body.append(f"{pad}{x}, {y} = {row}(i, {a}, {p}, buf)")
        return k + 1, x, y
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
        body.append(f"{pad}{x}, {y} = truncate({x}, {y}, {a}.max_force[i])")
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


def _chunk(params: list[str], src: _Source, x: str, y: str, *, searches: bool) -> list[str]:
    """The shape's loop over agents ``lo`` to ``hi`` with one scratch buffer ``buf``: what both
    loop functions call, the parallel one once per chunk of agents. (Inside numba's ``prange``
    a write through an array held in a tuple is lost, numba 0.68; in a function of its own,
    called from the parallel loop, it is not.)"""
    pick = "agent_at(order_ints, order_floats, s)" if searches else "s"
    extra = ["order_ints", "order_floats"] if searches else []
    return [
        f"def chunk(lo, hi, buf, {', '.join([*params, *extra])}):",
        *src.before,
        "    for s in range(lo, hi):",
        f"        i = {pick}",
        *[line[4:] for line in src.body],
        f"        out[i, 0] = {x}",
        f"        out[i, 1] = {y}",
    ]


def _function(
    name: str, params: list[str], parallel: bool, *, searches: bool, moves: bool
) -> list[str]:
    """One loop function of a shape's module: serial (one scratch buffer) or across cores
    (a chunk of agents an iteration, a buffer per thread; numba's thread id in a cached serial
    function crashes the process that loads it, the threading layer not being started); with
    ``moves``, integrating the agents after the forces."""
    args = [*params, "order_ints", "order_floats"] if searches else params
    outer = [*args, "scratch"] if searches else args
    if moves:
        outer = [*outer, "move", "dt", "rate", "turns", "width", "height"]
    buf = "scratch[numba.get_thread_id()]" if parallel else "scratch[0]"
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
    lines = [
        f'"""Generated by steering.composite for the shape {_describe(shape)}."""',
        "import numba",
        "from steering._jit import prange",
        "from steering.agents import move_row",
        "from steering.composite import (",
        "    AgentCols, FirstRecord, ForceRecord, LimitRecord, MaskRecord, WeightsRecord,",
        ")",
        "from steering.grid import agent_at",
        "from steering.kernels import hypot, running_add, truncate",
        *sorted(src.imports.values()),
        "",
        "CHUNK = 256",
        "",
        "",
        *_chunk(params, src, x, y, searches=searches),
        "",
        "",
        *_function("run", params, False, searches=searches, moves=False),
        "",
        "",
        *_function("run_parallel", params, True, searches=searches, moves=False),
        "",
        "",
        *_function("run_moving", params, False, searches=searches, moves=True),
        "",
        "",
        *_function("run_moving_parallel", params, True, searches=searches, moves=True),
        "",
    ]
    return "\n".join(lines)


def _describe(shape: Shape) -> str:
    """A shape in one line: ``running(row Seek, mask(outside))``."""

    def one(k: int) -> tuple[int, str]:
        kind, children, part = shape[k]
        if kind == "row":
            return k + 1, part.__name__
        if kind == "outside":
            return k + 1, "outside"
        count = 1 if kind in ("mask", "limit") else children
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
            path.unlink(missing_ok=True)


def cache_folder() -> Path | None:
    """Where generated composites are written: ``__pycache__/composites`` beside the engine,
    else under ``NUMBA_CACHE_DIR`` or the user's cache folder; None when none is writable."""
    candidates = [Path(__file__).resolve().parent / "__pycache__" / "composites"]
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(Path(os.environ["NUMBA_CACHE_DIR"]) / "steering-composites")
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates.append(Path(xdg) / "reynolds-steering" / "composites")
    for folder in candidates:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = folder / f".probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
            return folder
        except OSError:
            continue
    return None


def compiled(shape: Shape) -> Kernel:
    """The loops of ``shape`` (serial and parallel, with and without the move): generated,
    written to the cache folder and compiled with numba's on-disk cache (compiled uncached
    when no folder is writable)."""
    kernel = _KERNELS.get(shape)
    if kernel is not None:
        return kernel
    text = source_of(shape)
    name = module_name(shape)
    folder = cache_folder()
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
    namespace["chunk"] = numba.njit(**options)(namespace["chunk"])
    kernel = Kernel(
        _searches(shape),
        numba.njit(**options)(namespace["run"]),
        numba.njit(parallel=True, **options)(namespace["run_parallel"]),
        numba.njit(**options)(namespace["run_moving"]),
        numba.njit(parallel=True, **options)(namespace["run_moving_parallel"]),
    )
    _KERNELS[shape] = kernel
    return kernel


def _searches(shape: Shape) -> bool:
    return any(kind == "row" and part.ORDERS for kind, _, part in shape)
