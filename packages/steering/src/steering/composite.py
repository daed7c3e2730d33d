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
  grid's order, so that neighbours are found in memory the previous agent just read. A part
  that searches another group's agents instead (``others``, :mod:`steering.others`) gives
  their count in its record's field ``others`` (-1: its own group): its grid is then not
  followed, and every scratch buffer gets a row for each of those agents.
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

Parts that search their own group's neighbours may share one query: a part that declares
``ROW_NEAR`` (its force from neighbours already found) and gives a distance for every agent
(``near_reach``) is, with another such part in the tree, read from one query per agent at the
largest of their distances, made by the loop in the group's grid for that distance (the shape's
root is then a ``near`` node whose record, :class:`~steering.shapes.NearRecord`, says which
parts share it); those under no mask that declare ``NEAR_FOLD`` take their sums in one pass
over the query's result. The group rules (Separate, Align, Cohere) share this way, as the
:class:`~steering.Flock` preset's one pass does.

A tree called again unchanged is not walked again: its last walk is kept
(:class:`~steering.launch.Plan`) while no combinator's setting was assigned, its lists of parts
hold the same items, the agents' columns are the same arrays and the step is the same; the
call then runs the nodes' per-call work (a staggered node's turn) and binds each row part again
(each keeps its record while nothing it was made from changed). A row part whose innermost mask
selects no agent is not bound at all, walked or replayed: nothing of it advances, as when a
behaviour is called on no rows.

Why one file: the walk and :func:`run` share the walk's fields (:class:`_Walk`), and the row
part protocol (:class:`RowPart`) is what the walk reads of each part: a change to one is a
change to the others.

Records reach the compiled code as plain tuples and are rebuilt as their NamedTuples inside it:
numba unboxes a tuple of arrays in about 0.1 us an array but a NamedTuple in 7 us (measured
here), so the fields are named in the source and positional only in the call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy import count_nonzero
from numpy.typing import NDArray

from ._checks import fast_points, time_step
from ._jit import compile_kernel
from .agents import AgentGroup
from .checked import Checked
from .debug import PriorityDebug, write
from .grid import Grid, brute_grid
from .launch import (
    EPOCH,
    SETTINGS,
    Leaf,
    Node,
    Plan,
    PlanSlot,
    agent_cols,
    kept_never,
    launch,
    launch_kept,
    near_record,
    renamed,
    walked,
)
from .shapes import (
    AgentCols,
    FirstRecord,
    ForceRecord,
    Kernel,
    LimitRecord,
    MaskRecord,
    Shape,
    WeightsRecord,
    compiled,
    compiled_shapes,
)
from .vec import FloatArray

__all__ = [
    "AgentCols",
    "FirstRecord",
    "ForceRecord",
    "LimitRecord",
    "MaskRecord",
    "Node",
    "RowPart",
    "WeightsRecord",
    "agent_cols",
    "compiled",
    "compiled_shapes",
    "compiles",
    "row_function",
    "run",
]


_ROW_OPTIONS: dict[str, Any] = {
    "cache": True,
    "error_model": "numpy",
    "nogil": True,
    "inline": "always",
}


def row_function(func: Callable[..., Any]) -> Any:
    """Compile a part's per-agent function ``row(i, a, p, buf) -> (fx, fy)``; numba inlines it
    into each composite that uses it. It must not allocate arrays."""
    return compile_kernel(func, _ROW_OPTIONS)


# -- the walk: shape and records in one pass ---------------------------------------------------

#: The grid of no order: agents in index order.
_NO_ORDER = brute_grid(None)


class _Walk:
    """What a walk of a tree collects: its shape, the records, the parts to report debug
    output and the grid whose order the loop follows; and for the tree's kept plan
    (:class:`_Plan`), its leaves, its nodes' per-call work and its lists of parts."""

    __slots__ = (
        "agents",
        "checks",
        "debug",
        "dt",
        "flat",
        "guards",
        "inner",
        "leaves",
        "lists",
        "n",
        "order",
        "records",
        "replayable",
        "reports",
        "rows",
        "shape",
        "ticks",
    )

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
        #: The innermost enclosing mask (see :func:`_walk`), None outside any.
        self.inner: NDArray[np.bool_] | None = None
        #: Each row part: (part, its step, its innermost mask, its record's index, its name).
        self.leaves: list[Leaf] = []
        #: What a node does at every call besides its record (a staggered node's turn).
        self.ticks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        #: Checks of settings that may change in place (see :func:`add_check`).
        self.checks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        #: Tests that a node's kept state is still what the walk found (see :func:`add_guard`).
        self.guards: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        #: Each list of parts met, with its items then (a list may change in place).
        self.lists: list[tuple[Any, tuple[Any, ...]]] = []
        #: False once an outside leaf is met: its rows are worked out by the walk.
        self.replayable = True
        #: The most other agents a part searches (0: none; the buffers have at least a row
        #: per agent).
        self.rows = 0


class RowPart(Checked):
    """Base of the behaviours compiled into composites: calling one runs it as a composite of
    one part. A subclass declares ``ROW`` and ``ROW_RECORD`` and implements ``bind`` and
    ``report`` (see the module's docstring); a subclass that overrides ``__call__`` is called
    as itself, as an outside leaf. Its settings are checked whenever assigned
    (:class:`~steering.checked.Checked`)."""

    ROW: Any = None
    ROW_RECORD: Any = None
    #: Whether the record holds a neighbour grid (``grid_ints``, ``grid_floats``) whose order
    #: the loop may follow.
    ORDERS = False
    #: Whether :meth:`kept` reads nothing but the part's settings, the group's columns and
    #: state columns, and whether the part's :class:`~steering.records.Held` still holds
    #: ``record`` (and so does :meth:`kept_shared`): while no setting was assigned and no
    #: ``Held`` anywhere took another record, a kept plan of such parts, all kept at its last
    #: replay, is replayed without asking them again.
    KEPT_BY_HELD = False
    #: For a part that searches its own group's neighbours (``ORDERS``): its per-agent
    #: function given them already found, ``row_near(i, a, p, buf, k) -> (fx, fy)``, where the
    #: first ``k`` rows of ``buf`` hold every agent within :meth:`near_reach` of agent ``i``
    #: (and maybe more): two such parts in one tree share one query per agent (None: the part
    #: always searches itself).
    ROW_NEAR: Any = None
    #: Optionally, the same force as :attr:`ROW_NEAR` taken one neighbour at a time, so that
    #: the parts sharing a query sum over its result in one pass: ``(start, term, finish)``,
    #: ``start(i, a, p) -> s`` (a tuple, reading of ``a`` only positions, velocities and
    #: headings, the same in every view of the agents), ``term(i, a, p, s, buf, q) -> s``
    #: adding row ``q`` of ``buf``, and ``finish(i, a, p, s) -> (fx, fy)``, which alone may
    #: write the record's arrays. None: the part reads the query's result itself.
    NEAR_FOLD: Any = None

    def kept_shared(self, agents: AgentGroup, record: Any) -> bool:
        """:meth:`kept` for a replayed call in which the part's neighbours come from a query
        it shares (:attr:`ROW_NEAR`; its record's own grid is then not read)."""
        return self.kept(agents, record)

    def near_reach(self, record: Any) -> float:
        """The distance (px) within which ``record``'s row reads neighbours, for every agent,
        when its neighbours may come from a query shared with other parts (see
        :attr:`ROW_NEAR`); 0 when it searches itself (another group, a distance per agent)."""
        return 0.0

    def __call__(self, agents: AgentGroup, dt: float, debug: Any = None) -> FloatArray:
        """Return the (N, 2) forces, from the part's own loop over agents (the composite of
        this one part; the walk of :func:`run` is skipped, its result being known).

        Raises:
            TypeError, ValueError: for a ``dt`` that is not a finite number >= 0 (naming the
                behaviour and dt), and for settings the behaviour refuses.
        """
        if not (type(dt) is float and 0.0 <= dt < _INF):
            dt = time_step(type(self).__name__, dt)
        record: Any = self.bind(agents, dt, debug is not None)
        kernel = _BY_CLASS.get(type(self))
        if kernel is None:
            kernel = compiled((("row", 0, type(self)),))
            _BY_CLASS[type(self)] = kernel
        out = np.empty((agents.n, 2))
        order = _NO_ORDER
        rows = 0
        if self.ORDERS:
            others = getattr(record, "others", -1)
            if others < 0:
                order = Grid(record.grid_ints, record.grid_floats)
            else:
                rows = others
        launch(kernel, agents, record, out, order, 0, 0.0, rows)
        if debug is not None:
            self.report(agents, record, debug)
        return out

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> tuple[Any, ...]:
        """The record of this call (checked values, per-agent arrays, debug buffers)."""
        raise NotImplementedError

    #: ``kept(agents, record) -> bool``: whether ``record``, this part's last, still holds for
    #: a call that a kept plan replays (see :mod:`steering.launch`: the part's settings, the
    #: group's columns and state columns, the paths and the step are then the same), doing
    #: any work a call needs; False makes the replay bind the part. A part without one is
    #: bound at every call.
    kept = kept_never

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)  # checked, the kept record dropped
        if name[0] != "_":  # a setting: a kept plan binds the part again at its next replay
            d = self.__dict__
            d["_settings"] = d.get("_settings", 0) + 1
            SETTINGS[0] += 1
            if self.ORDERS and "_walked" in d:  # a plan's order may follow its grid: walk again
                EPOCH[0] += 1

    def points(self, name: str, value: Any, n: int) -> FloatArray:
        """``value`` as (1, 2) or (n, 2) finite points (:func:`~steering._checks.fast_points`);
        a tuple or a :func:`~steering._checks.frozen` array, which cannot change, is
        converted once and kept (one point for all)."""
        if type(value) is np.ndarray and type(value.base) is bytes and value.shape == (2,):
            # frozen (checked finite when made, and it cannot change): no check again
            memo = self.__dict__.get("_points")
            if memo is None:
                memo = self.__dict__["_points"] = {}
            kept = memo.get(name)
            if kept is not None and kept[0] is value:
                return kept[1]
            rows = value.reshape(1, 2).copy()  # writable: numba types a read-only array apart
            memo[name] = (value, rows)
            return rows
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


_INF = float("inf")

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
        inner = w.inner
        last = node.__dict__.get("_walked")
        stand = None if inner is None or last is None else last.get(w.n)
        if stand is not None and inner is not None and not count_nonzero(inner):
            # No agent of its mask: the part is not bound (nothing of it advances, as when
            # called on no rows); its last record for this many agents stands in, read by no
            # row.
            record = stand
        else:
            try:
                record = node.bind(w.agents, w.dt, debug)
            except (TypeError, ValueError) as error:
                raise renamed(error, type(node).__name__, name) from None
            walked(node, w.n, record)
            if debug:
                w.reports.append((node, record))
        if node.ORDERS:
            others = getattr(record, "others", -1)  # (-1: the part's own group)
            if others < 0:
                if w.order is _NO_ORDER:
                    w.order = Grid(record.grid_ints, record.grid_floats)
            elif others > w.rows:
                w.rows = others
        w.leaves.append(Leaf(node, w.dt, inner, len(w.records), name))
        w.shape.append(_ROW_ENTRIES.get(type(node)) or _row_entry(type(node)))
        w.records.append(record)
        w.flat += record
        return
    w.replayable = False
    w.shape.append(("outside", 0, None))
    force = outside_force(node, view, rows, w.dt, w.debug, name)
    w.records.append((force,))
    w.flat.append(force)


#: Each row part class's shape entry, made once (so that shapes compare by identity first).
_ROW_ENTRIES: dict[type, tuple[str, int, Any]] = {}


def _row_entry(kind: type) -> tuple[str, int, Any]:
    entry = _ROW_ENTRIES[kind] = ("row", 0, kind)
    return entry


def walk_child(
    w: _Walk, node: Any, view: AgentGroup, rows: NDArray[np.bool_] | None, name: str
) -> None:
    """For a node's ``composite_node``: add a child node to the walk."""
    _walk(w, node, view, rows, name)


def walk_masked(
    w: _Walk,
    node: Any,
    view: AgentGroup,
    rows: NDArray[np.bool_] | None,
    mask: NDArray[np.bool_],
    name: str,
) -> None:
    """For a mask's ``composite_node``: add its child, seen through ``mask`` (its row parts
    are not bound while ``mask`` selects no agent)."""
    outer = w.inner
    w.inner = mask
    try:
        _walk(w, node, view, mask if rows is None else rows & mask, name)
    finally:
        w.inner = outer


def add_tick(w: _Walk, tick: Callable[..., Any], *args: Any) -> None:
    """For a node's ``composite_node``: what the node does at every call besides its record,
    ``tick(*args)`` (called again when the tree's kept plan is replayed)."""
    w.ticks.append((tick, args))


def add_check(w: _Walk, check: Callable[..., Any], *args: Any) -> None:
    """For a node's ``composite_node``: ``check(*args)`` checks a setting that may change in
    place (a per-agent weight array), again at each replay of the tree's kept plan but not
    under a caller's unchanged stamp (:func:`run`)."""
    w.checks.append((check, args))


def add_guard(w: _Walk, guard: Callable[..., bool], *args: Any) -> None:
    """For a node's ``composite_node``: ``guard(*args)`` tells whether what the node keeps
    between calls is still what this walk put in its record (a node shared with a tree of
    another group may have made it anew): the kept plan is walked again when it is not."""
    w.guards.append((guard, args))


def add_copy(w: _Walk) -> None:
    """For a node's ``composite_node``: its record holds a checked copy of a setting (a list
    made an array), which a kept plan would not see change: the tree is walked at every call."""
    w.replayable = False


def add_parts(w: _Walk, items: Any) -> None:
    """For a node's ``composite_node``: the node's list of parts as it is now (a kept plan
    holds while its items are the same objects)."""
    w.lists.append((items, tuple(items)))


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


def run(
    tree: Any,
    agents: AgentGroup,
    dt: float,
    debug: Any = None,
    move: int = 0,
    stamp: Any = None,
) -> FloatArray:
    """The (N, 2) forces of ``tree`` (a combinator or a row part) in one compiled loop; with
    ``move`` 1 the same call then integrates the agents under them
    (:func:`~steering.integrate`), with 2 also turning their headings toward their velocities.

    ``stamp`` is for a caller that owns everything the tree reads (a game's world): a value
    (compared with ``==``: an int or a tuple of them) it changes whenever anything its parts
    read may have changed other than the contents of the agents' columns and of arrays it
    keeps valid: the objects the parts hold (obstacles moved, paths or fields replaced), which
    of its masks select no agent, the group's state columns, its lists of parts. While the
    stamp is the same and no setting was assigned, a call skips what a replay of the tree's
    kept plan checks again: per-agent weights and limits changed in place are not checked
    (they were when given or assigned), and the parts whose records held are not asked.

    Raises:
        TypeError, ValueError: for a ``dt`` that is not a finite number >= 0 (naming the tree's
            class and dt), and whatever a part refuses.
    """
    if not (type(dt) is float and 0.0 <= dt < _INF):
        dt = time_step(type(tree).__name__, dt)
    out = np.empty((agents.pos.shape[0], 2))
    own = getattr(tree, "__dict__", None)
    slot: PlanSlot | None = None if own is None else own.get("_kept_plan")
    plan = None if slot is None else slot.plan
    if debug is None and slot is not None and plan is not None:
        quiet = stamp is not None and plan.holds_quiet(tree, agents, dt, stamp)
        if quiet or plan.holds(tree, agents, dt):
            try:
                if quiet:
                    plan.replay_quiet(agents)
                else:
                    plan.replay(agents, stamp)
            except BaseException:
                # A part refused its settings: the plan may hold some new records and not
                # others; the next call walks afresh.
                slot.plan = None
                raise
            plan.launch(agents, out, move, dt)
            return out
    w = _Walk(agents, dt, debug)
    _walk(w, tree, agents, None, type(tree).__name__)
    # Two different parts at least: one part met twice (the world's separation before and after
    # its goal, under masks that split the crowd) gains nothing from a shared query, and the
    # shared loop costs the large crowds 7-9 % (measured on Swarm and Sandbox).
    near = {id(part) for kind, _, part in w.shape if kind == "row" and part.ROW_NEAR is not None}
    if len(near) > 1:
        _share(w)
    # The last shape of this tree, compared as a list (cheaper than hashing it again).
    last = _LAST.get(id(tree))
    if last is not None and last[0] == w.shape:
        shape, kernel = last[1], last[2]
    else:
        shape = tuple(w.shape)
        kernel = compiled(shape)
        if len(_LAST) > 4096:
            _LAST.clear()
        _LAST[id(tree)] = (w.shape, shape, kernel)
    if debug is None and w.replayable and own is not None:
        plan = Plan(tree, agents, dt, w, kernel)
        if slot is None:
            own["_kept_plan"] = PlanSlot(plan)
        else:
            slot.plan = plan
        plan.launch(agents, out, move, dt)
        return out
    if slot is not None:
        slot.plan = None
    if move == 0:
        launch_kept(tree, kernel, agents, w.flat, out, w.order, w.rows)
    else:
        launch(kernel, agents, w.flat, out, w.order, move, dt, w.rows)
    for node, record in w.reports:
        node.report(agents, record, debug)
    if debug is not None:
        # Innermost first, so that the outermost choice is the one the dict keeps (as when
        # each combinator wrote its own after its parts).
        for k in range(len(shape) - 1, -1, -1):
            if shape[k][0] == "first":
                write(PriorityDebug(w.records[k][1].copy()), debug)
    return out


def _share(w: _Walk) -> None:
    """Put a shared neighbour query at the root of the walk's shape (more than one of its
    parts are able to share one): its record, before all others, says which parts share it
    (:func:`near_record`)."""
    leaves = [leaf._replace(at=leaf.at + 1) for leaf in w.leaves]
    record = near_record(leaves, [None, *w.records], w.agents)
    w.shape.insert(0, ("near", 1, None))
    w.records.insert(0, record)
    w.flat[0:0] = record
    w.leaves = leaves
    if record.reach > 0.0:
        w.order = Grid(record.grid_ints, record.grid_floats)


def kept_plan(tree: Any) -> Plan | None:
    """``tree``'s kept plan (None: its next call walks it)."""
    slot = getattr(tree, "__dict__", {}).get("_kept_plan")
    return None if slot is None else slot.plan


#: Each row part class's own loop (the shape of that part alone).
_BY_CLASS: dict[type, Kernel] = {}

#: Each tree's last shape, by the tree's id (compared whole, so a new tree given an old id
#: finds another shape and looks its kernel up).
_LAST: dict[int, tuple[list[tuple[str, int, Any]], Shape, Any]] = {}


# -- generating and compiling a shape ------------------------------------------------------------
