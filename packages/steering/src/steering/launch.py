"""Launching a composite's compiled loop (:mod:`steering.composite`), and a tree's kept plan.

A composite's loop takes the agents' columns, then every record's fields. :func:`launch` passes
them one by one; :func:`launch_kept` passes one record of them all (``Kernel.make``) when a
call's fields are the very objects of the last call's (numba unboxes each array argument, some
0.07 us apiece; a game's tree has a hundred). A :class:`Plan` keeps a tree's last walk so that
a call on an unchanged tree skips walking its combinators (their settings are watched by
:class:`Node`: an assignment bumps :data:`EPOCH`).

Why one file: a plan's replay and its launch change together: what a replay keeps (the records,
the order, the shared query's grid, :func:`near_record`) is what the launch passes, in the bound
record it makes (:func:`make_bound`) to the loop it calls without numba's dispatch
(:func:`entry`); split, each change to one would be made in two files.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

import numba
import numpy as np
from numpy import count_nonzero

from ._jit import PARALLEL_MIN
from .agents import AgentGroup
from .checked import Checked
from .grid import BRUTE_MAX, BUF_COLS, Grid, brute_grid
from .records import PUTS
from .shapes import Kernel, NearRecord
from .vec import FloatArray

__all__ = [
    "EPOCH",
    "KEPT_NEVER",
    "SETTINGS",
    "Leaf",
    "Node",
    "Plan",
    "PlanSlot",
    "agent_cols",
    "entry",
    "kept_never",
    "kept_of",
    "launch",
    "launch_kept",
    "make_bound",
    "near_record",
    "renamed",
    "scratch",
    "walked",
]


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


#: Bumped by every assignment to a combinator's public setting (:class:`Node`).
EPOCH = [0]

#: Bumped by every assignment to a row part's public setting (a plan replayed under a caller's
#: stamp asks no kept part again while this is unchanged).
SETTINGS = [0]


def kept_never(self: Any, agents: AgentGroup, record: Any) -> bool:
    """The default of :meth:`~steering.composite.RowPart.kept`: a part that does not say is
    bound at every call."""
    return False


#: The default ``kept``, by identity.
KEPT_NEVER = kept_never


def kept_of(part: Any) -> Any:
    """``part``'s bound :meth:`~steering.composite.RowPart.kept`, or None when the part is to
    be bound at every call: it says nothing, or its class overrides ``bind`` below the class
    that says (a subclass's ``bind`` may do work at every call its parent's ``kept`` does not
    know of)."""
    kind = type(part)
    if kind.kept is KEPT_NEVER:
        return None
    owner: dict[str, type | None] = {"kept": None, "bind": None}
    for cls in kind.__mro__:
        for name in owner:
            if owner[name] is None and name in cls.__dict__:
                owner[name] = cls
    bind, kept = owner["bind"], owner["kept"]
    if bind is not None and kept is not None and bind is not kept and issubclass(bind, kept):
        return None
    return part.kept


class Leaf(NamedTuple):
    """A row part as a walk met it."""

    part: Any
    """The part."""
    dt: float
    """The step it is bound with (longer under a staggered node)."""
    inner: Any
    """Its innermost enclosing mask, or None."""
    at: int
    """Its record's index among the walk's records."""
    name: str
    """Its place in the tree, for messages (``WeightedSum.parts[0]``)."""


class Node(Checked):
    """Base of the combinators: assigning any public setting (a weight, a mask, a part) makes
    every tree's kept plan be walked again. Names in ``PER_CALL`` (a staggered node's turn)
    are assigned at every call and change no plan."""

    PER_CALL: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)  # checked (:class:`~steering.checked.Checked`)
        if name[0] != "_" and name not in self.PER_CALL:
            EPOCH[0] += 1


#: A plan's stamp before any replay under one (equal to no caller's stamp).
NO_STAMP = object()


def walked(node: Any, n: int, record: Any) -> None:
    """Keep ``node``'s last record for each number of agents it was bound for (a few; in one
    dict, changed in place, so that the node's fields compare equal to a copy of them): a
    part shared by trees of groups of other sizes keeps a stand-in for each, so that a walk
    skips it under an empty mask as a replay does."""
    last = node.__dict__.get("_walked")
    if last is None:
        node.__dict__["_walked"] = {n: record}
        return
    if n not in last and len(last) >= 8:
        last.clear()
    last[n] = record


def renamed(error: Exception, own: str, name: str) -> Exception:
    """``error`` with its leading ``Own.field`` renamed ``name.field`` (the part's place in
    the tree: ``WeightedSum.parts[0].target``)."""
    text = str(error)
    if name != own and text.startswith(own + "."):
        return type(error)(name + text[len(own) :])
    return error


#: Up to this many fields the loop takes them one by one: the record of them all costs about
#: 0.8 us to unbox, an array argument 0.07 us (measured here).
_FEW = 12


#: The grid of no order.
_NO_GRID = brute_grid(None)


def near_record(leaves: list[Leaf], records: list[Any], agents: AgentGroup) -> NearRecord:
    """The shared neighbour query of a tree whose row parts are ``leaves`` (their records in
    ``records``): the parts able to share one
    (:attr:`~steering.composite.RowPart.ROW_NEAR`) that search their own group at one
    distance for every agent share it, at the largest of their distances in the group's grid
    for it, when there are two of them or more; the others search themselves."""
    able = [leaf for leaf in leaves if type(leaf.part).ROW_NEAR is not None]
    reaches = [leaf.part.near_reach(records[leaf.at]) for leaf in able]
    shares = np.array([1 if r > 0.0 else 0 for r in reaches], dtype=np.int64)
    if int(shares.sum()) < 2:
        return NearRecord(_NO_GRID.ints, _NO_GRID.floats, 0.0, np.zeros(len(able), np.int64))
    reach = max(reaches)
    grid = agents.neighbour_grid(reach)
    return NearRecord(grid.ints, grid.floats, reach, shares)


class Plan:
    """A tree's last walk, replayed while the tree is the same: no combinator's setting was
    assigned (:class:`Node`), its lists of parts hold the same items, the agents' columns
    are the same objects and the step the same. A replay runs the nodes' per-call work, then
    binds each row part again (skipping those whose mask selects no agent, as the walk
    does), so that a part's own checks and kept records decide as in a walk; a part giving
    another record than last time has it put in its place (the shape is the same)."""

    __slots__ = (
        "agents",
        "always",
        "bound",
        "by_held",
        "checked",
        "checks",
        "cols",
        "columns",
        "dt",
        "entries",
        "epoch",
        "flat",
        "guards",
        "kernel",
        "leaves",
        "lists",
        "near",
        "order",
        "orders",
        "puts",
        "quiet",
        "records",
        "rows",
        "same",
        "settings",
        "simple",
        "stamp",
        "starts",
        "state",
        "state_names",
        "steps",
        "ticks",
        "tree",
        "world_size",
    )

    def __init__(self, tree: Any, agents: AgentGroup, dt: float, w: Any, kernel: Kernel) -> None:
        """Keep the walk ``w`` of ``tree`` (:mod:`steering.composite`) and its kernel."""
        self.tree = tree
        self.epoch = EPOCH[0]
        self.dt = dt
        self.cols = agent_cols(agents)
        self.agents = agents
        #: The group's state columns and the world's size when walked (a part's record may
        #: hold a state column). A path's changes are the business of the parts that follow
        #: one (their :meth:`~steering.composite.RowPart.kept` looks): a moving path does not
        #: make the tree be walked again.
        self.state = tuple(agents.state.values())
        #: Their names (a column renamed is another column to a part that reads it by name).
        self.state_names = tuple(agents.state)
        self.world_size = agents.world_size
        #: The group's :attr:`~steering.AgentGroup.columns_version` when walked.
        self.columns = agents.columns_version
        self.kernel = kernel
        self.flat: list[Any] = w.flat
        self.records: list[Any] = w.records
        self.order: Grid = w.order
        self.ticks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = w.ticks
        #: The checks made again at each replay of settings that may change in place (per-agent
        #: weights and limits); not under an unchanged stamp (see :meth:`replay_quiet`).
        self.checks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = w.checks
        #: Tests that the nodes' kept state is still the walk's (see :func:`add_guard`).
        self.guards: list[tuple[Callable[..., Any], tuple[Any, ...]]] = w.guards
        self.lists: list[tuple[Any, tuple[Any, ...]]] = w.lists
        starts = [0]
        for record in w.records:
            starts.append(starts[-1] + len(record))
        #: Where each record's fields start in :attr:`flat`.
        self.starts = starts
        self.leaves: list[Leaf] = w.leaves
        #: Whether the shape's root is a shared neighbour query (its record first).
        self.near = type(w.records[0]) is NearRecord if w.records else False
        #: The index of the row part whose grid the loop's order follows (-1: none): the first
        #: that searches its own group.
        self.orders = next(
            (
                k
                for k, leaf in enumerate(w.leaves)
                if leaf.part.ORDERS and getattr(w.records[leaf.at], "others", -1) < 0
            ),
            -1,
        )
        #: The most other agents a part searches (the scratch buffers' rows, at least N).
        self.rows: int = w.rows
        #: Each row part's work at a replay: [part, its bind, its
        #: :meth:`~steering.composite.RowPart.kept` (None: the part has none and is bound at
        #: every call), its innermost mask, its record's index, its step, its place in the
        #: tree, its settings' version when its record was made (-1: its record stands in,
        #: made by an older call, for another step, group or settings: bound at the first
        #: replay that selects an agent of it), its index among the leaves].
        self.steps: list[list[Any]] = [
            [
                leaf.part,
                leaf.part.bind,
                kept_of(leaf.part),
                leaf.inner,
                leaf.at,
                leaf.dt,
                leaf.name,
                -1
                if leaf.inner is not None and not count_nonzero(leaf.inner)
                else leaf.part.__dict__.get("_settings", 0),
                k,
            ]
            for k, leaf in enumerate(w.leaves)
        ]
        if self.near:
            # A part whose neighbours come from the shared query holds without its own grid.
            shares = iter(w.records[0].shares)
            for step in self.steps:
                part = step[0]
                if type(part).ROW_NEAR is not None and next(shares) and step[2] is not None:
                    step[2] = part.kept_shared
        #: The steps (by leaf index) asked at every call even when their record held: parts
        #: searching their own group's grid in a group large enough to have one, which their
        #: ``kept`` builds again for the step (a replay under an unchanged stamp asks them
        #: too; a part reading the shared query does not need its own).
        n = self.cols[0].shape[0]
        self.always = {
            step[8]
            for step in self.steps
            if step[0].ORDERS
            and n > BRUTE_MAX
            and step[2] is not None
            and getattr(step[2], "__func__", None) is not type(step[0]).kept_shared
        }
        #: Whether a replay may first just ask each part whether its record holds: no node
        #: has per-call work or checks, no part is masked or met twice, and every part says
        #: when its record holds.
        self.simple = (
            not self.ticks
            and not self.checks
            and all(step[2] is not None and step[3] is None for step in self.steps)
            and len({id(step[0]) for step in self.steps}) == len(self.steps)
        )
        #: The row part settings' count when every part's settings were last found those its
        #: record was made with (-1: not yet).
        self.checked = -1
        #: Whether every part's record holds by its settings and its ``Held`` alone
        #: (``KEPT_BY_HELD``), and :data:`~steering.records.PUTS` when all last held (-1:
        #: not yet).
        self.by_held = all(type(step[0]).KEPT_BY_HELD for step in self.steps) and (
            # a part searching its own group's grid has it built again at every step, but
            # for every pair measured or a query shared (built by the plan itself)
            self.cols[0].shape[0] <= BRUTE_MAX
            or all(
                step[2] is not None and step[2].__func__ is type(step[0]).kept_shared
                for step in self.steps
                if step[0].ORDERS
            )
        )
        self.puts = -1
        self.bound: Any = None
        #: The compiled functions the bound record is run by, without numba's dispatch (see
        #: :func:`entry`): forces only, and forces and move (None: not looked up yet).
        self.entries: list[Any] = [None, None]
        #: Whether the last call's fields were the same objects as the call's before (at
        #: first: the walk's are taken as kept, so that its call makes the bound record and
        #: the next call, a replay, is already the quick one).
        self.same = True
        #: The caller's stamp at the last full replay (:data:`NO_STAMP`: none), the row part
        #: settings' count then, and the steps that replay bound (the others' records held or
        #: their masks selected no agent): all a replay under the same stamp binds.
        self.stamp: Any = NO_STAMP
        self.settings = -1
        self.quiet: list[list[Any]] = []

    def holds(self, tree: Any, agents: AgentGroup, dt: float) -> bool:
        """Whether the plan may be replayed for this call."""
        if (
            self.tree is not tree
            or self.epoch != EPOCH[0]
            or dt != self.dt
            or agents is not self.agents
        ):
            return False
        fields = agents.__dict__
        if fields.get("_columns") != self.columns or fields["world_size"] != self.world_size:
            return False
        state = fields["state"]
        if (state or self.state) and (
            len(state) != len(self.state)
            or not all(map(operator.is_, state.values(), self.state))
            or not all(map(operator.eq, state, self.state_names))
        ):
            return False
        for items, was in self.lists:
            if len(items) != len(was) or not all(map(operator.is_, items, was)):
                return False
        for guard, args in self.guards:  # noqa: SIM110 (no generator made at every call)
            if not guard(*args):
                return False
        return True

    def holds_quiet(self, tree: Any, agents: AgentGroup, dt: float, stamp: Any) -> bool:
        """Whether the plan may be replayed under the caller's ``stamp`` (see
        :meth:`replay_quiet`): the same stamp as its last full replay, tree, group, step, no
        setting assigned since, and its nodes' kept state still the walk's."""
        if (
            stamp != self.stamp
            or self.tree is not tree
            or self.epoch != EPOCH[0]
            or self.settings != SETTINGS[0]
            or dt != self.dt
            or agents is not self.agents
            or agents.__dict__.get("_columns") != self.columns
        ):
            return False
        for guard, args in self.guards:  # noqa: SIM110 (no generator made at every call)
            if not guard(*args):
                return False
        return True

    def replay(self, agents: AgentGroup, stamp: Any = None) -> None:
        """The nodes' per-call work and checks, then each row part bound again, but for those
        whose mask selects no agent and those whose record holds (their settings unassigned
        since it was made, and their :meth:`~steering.composite.RowPart.kept` says so). With
        a ``stamp``, the parts it bound are kept as all that a replay under the same stamp
        binds."""
        if self.near:
            self._near(agents)
        if self.simple and stamp is None:
            # Every part says when its record holds: while all do, nothing is bound again.
            # (While no part's setting was assigned since the last such replay, every part's
            # settings are those its record was made with.)
            if self.puts == PUTS[0] and self.checked == SETTINGS[0]:
                # All held at the last replay, and nothing they read has changed since.
                self.same = True
                self.stamp = NO_STAMP
                return
            records = self.records
            if self.checked != SETTINGS[0]:
                for step in self.steps:
                    if step[0].__dict__.get("_settings", 0) != step[7]:
                        break
                else:
                    self.checked = SETTINGS[0]
            if self.checked == SETTINGS[0]:
                for step in self.steps:
                    if not step[2](agents, records[step[4]]):
                        break
                else:
                    self.same = True
                    self.stamp = NO_STAMP
                    if self.by_held:
                        self.puts = PUTS[0]
                    return
        for tick, args in self.ticks:
            tick(*args)
        if self.checks:
            for check, args in self.checks:
                check(*args)
        if self.stamp is not NO_STAMP:
            self.stamp = NO_STAMP  # until this replay ends well
        bound = self._rebind(agents, self.steps, True, stamp is not None)
        if stamp is not None:
            self.quiet = bound
            self.settings = SETTINGS[0]
            self.stamp = stamp

    def replay_quiet(self, agents: AgentGroup) -> None:
        """A replay under an unchanged stamp (:meth:`holds_quiet`): the caller's word that
        nothing the tree reads changed but the contents of the agents' columns and of arrays
        it keeps valid. So the checks of settings that may change in place are not made again
        (as when bound or assigned), and the parts whose records held at the last full replay,
        or whose masks selected no agent, are not asked again: only the nodes' per-call work
        and the parts bound then (their records made at every call) run."""
        for tick, args in self.ticks:
            tick(*args)
        if self.near:
            self._near(agents)
        # A part whose record held now holds while the stamp does: not asked again.
        self.quiet = self._rebind(agents, self.quiet, False, True)

    def _rebind(
        self, agents: AgentGroup, steps: list[list[Any]], masks: bool, collect: bool
    ) -> list[list[Any]]:
        """Bind ``steps`` again (testing their masks when ``masks``), putting new records in
        place; returns the steps bound (when ``collect``)."""
        same = True
        records = self.records
        bound = []
        made: dict[int, tuple[float, Any]] | None = None  # this call's records by part
        for step in steps:
            node, bind, kept, inner, at, dt, name, settings, k = step
            if masks and inner is not None and not count_nonzero(inner):
                continue
            version = node.__dict__.get("_settings", 0)
            again = None if made is None or kept is None else made.get(id(node))
            if again is not None and again[0] == dt:
                # A part met twice (separation before and after the goal) whose record says
                # when it holds: the same inputs give the same record, made once (or kept).
                record = again[1]
            elif kept is not None and version == settings and kept(agents, records[at]):
                if made is None:
                    made = {}
                made[id(node)] = (dt, records[at])
                if collect and k in self.always:
                    bound.append(step)
                continue
            else:
                try:
                    record = bind(agents, dt, False)
                except (TypeError, ValueError) as error:
                    raise renamed(error, type(node).__name__, name) from None
                if kept is not None:
                    if made is None:
                        made = {}
                    made[id(node)] = (dt, record)
            step[7] = version
            if collect:
                bound.append(step)
            if record is not records[at]:
                if same:  # the bound record no longer holds, even if a later bind raises
                    self.bound = None
                    self.same = False
                walked(node, self.cols[0].shape[0], record)
                records[at] = record
                self.flat[self.starts[at] : self.starts[at + 1]] = record
                others = getattr(record, "others", -1) if node.ORDERS else -1
                if others > self.rows:
                    self.rows = others
                elif (
                    k == self.orders
                    and others < 0
                    and not (self.near and self.records[0].reach > 0.0)
                ):  # (a shared query's grid, when there is one, gives the order)
                    self.order = Grid(record.grid_ints, record.grid_floats)
                same = False
        if not same:
            self.bound = None
        self.same = same
        return bound

    def _near(self, agents: AgentGroup) -> None:
        """The shared neighbour query's grid for this call (built here once a step when the
        group is large enough to have one; which parts share it and how far they reach
        change only with their settings, which make the tree be walked again)."""
        old = self.records[0]
        if not old.reach > 0.0 or self.cols[0].shape[0] <= BRUTE_MAX:
            return
        grid = agents.neighbour_grid(old.reach)
        if grid.ints is old.grid_ints and grid.floats is old.grid_floats:
            return
        new = old._replace(grid_ints=grid.ints, grid_floats=grid.floats)
        self.records[0] = new
        self.flat[0 : self.starts[1]] = new
        self.order = grid
        self.bound = None
        self.same = False

    def launch(self, agents: AgentGroup, out: FloatArray, move: int = 0, dt: float = 0.0) -> None:
        """Run the loop for the forces (with ``move``, then moving the agents as
        :func:`launch` does): from one record of all the fields when this call's fields are
        the last call's (see :func:`launch_kept`)."""
        kernel = self.kernel
        if not self.same or len(self.flat) <= _FEW:
            launch(kernel, agents, self.flat, out, self.order, move, dt, self.rows)
            self.same = True  # the next call with no change makes the record
            return
        bound = self.bound
        if bound is None:
            bound = self.bound = make_bound(kernel, agents, self.flat, self.order)
            self.entries = [None, None]
        n = out.shape[0]
        buf = scratch(max(n, self.rows)) if kernel.searches else out
        entries = self.entries
        if move:
            run = entries[1]
            if run is None:
                loop = (
                    kernel.bound_moving_parallel
                    if n >= PARALLEL_MIN
                    else kernel.bound_moving_serial
                )
                run = entries[1] = entry(loop, (bound, out, buf, move, dt))
            run(bound, out, buf, move, dt)
        else:
            run = entries[0]
            if run is None:
                loop = kernel.bound_parallel if n >= PARALLEL_MIN else kernel.bound_serial
                run = entries[0] = entry(loop, (bound, out, buf))
            run(bound, out, buf)


class PlanSlot:
    """Where a tree keeps its plan (in its own ``__dict__``, so that the plan goes with the
    tree); a copy of the tree starts with none (the plan holds the group it was made for)."""

    __slots__ = ("plan",)

    def __init__(self, plan: Plan | None) -> None:
        self.plan = plan

    def __copy__(self) -> PlanSlot:
        return PlanSlot(None)

    def __deepcopy__(self, memo: dict[int, Any]) -> PlanSlot:
        return PlanSlot(None)

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlanSlot, (None,))


def launch(
    kernel: Kernel,
    agents: AgentGroup,
    fields: Any,
    out: FloatArray,
    order: Grid,
    move: int,
    dt: float,
    rows: int = 0,
) -> None:
    """Run a shape's loop: serial below :data:`~steering._jit.PARALLEL_MIN` agents; each
    scratch buffer has a row per agent, or ``rows`` when more (the most other agents a part
    searches). Only what the loop reads is passed: numba unboxes each argument (some 0.1 us
    apiece)."""
    n = out.shape[0]
    parallel = n >= PARALLEL_MIN
    cols = agent_cols(agents)
    search = (order.ints, order.floats, scratch(max(n, rows))) if kernel.searches else ()
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


#: Each tree's last fields, its kernel and the record of them all made from those fields (None
#: until two calls in a row give the same objects).
_KEPT: dict[int, tuple[list[Any], Any, Kernel]] = {}


def entry(loop: Any, args: tuple[Any, ...]) -> Any:
    """``loop``'s compiled function for the types of ``args`` (compiled, or loaded from the
    cache, when it is not yet), to be called without numba's dispatch: the dispatcher types
    every argument again at each call (some 0.4 us for a bound record, measured here), while a
    kept plan's arguments keep their types (a record made again gets its function again). The
    loop itself when the JIT is off."""
    overloads = getattr(loop, "overloads", None)
    typeof = getattr(loop, "typeof_pyval", None)
    if overloads is None or typeof is None:
        return loop
    # The other arguments' types are the loop's own (the output, the scratch buffer, the move
    # and the step): the record's type tells the function.
    key = (loop, getattr(args[0], "_numba_type_", None))
    known = _ENTRIES.get(key) if key[1] is not None else None
    if known is not None:
        return known
    sig = tuple(typeof(a) for a in args)
    found = overloads.get(sig)
    if found is None:
        loop.compile(sig)
        found = overloads.get(sig)
    if found is None:
        return loop
    if key[1] is not None:
        if len(_ENTRIES) > 4096:
            _ENTRIES.clear()
        _ENTRIES[key] = found.entry_point
    return found.entry_point


#: Each bound loop's compiled function by the type of its record (see :func:`entry`).
_ENTRIES: dict[tuple[Any, Any], Any] = {}


def make_bound(kernel: Kernel, agents: AgentGroup, fields: Any, order: Grid) -> Any:
    """The record of every argument of ``kernel``'s loops that stays the same from call to
    call while ``fields`` do (``Kernel.make``): the agents' columns, the fields, the grid of
    the loop's order and the move's columns and world size."""
    world = agents.world_size
    return kernel.make(
        *agent_cols(agents),
        *fields,
        order.ints,
        order.floats,
        agents.max_turn_rate,
        agents.turns(),
        0.0 if world is None else float(world[0]),
        0.0 if world is None else float(world[1]),
    )


def launch_kept(
    tree: Any,
    kernel: Kernel,
    agents: AgentGroup,
    fields: list[Any],
    out: FloatArray,
    order: Grid,
    rows: int = 0,
) -> None:
    """Run a shape's loop for its forces. When a call's fields, agents' columns and order
    are the very objects of the last call's (parts that keep their records, arrays changed in
    place), the loop takes one record of them all (:func:`make_bound`, made once) instead of
    every argument: numba unboxes each array argument (some 0.05 us apiece; a game's tree has
    a hundred)."""
    key = id(tree)
    kept = _KEPT.get(key)
    args = [*agent_cols(agents), *fields, order.ints, order.floats]
    if (
        kept is None
        or kept[2] is not kernel
        or len(kept[0]) != len(args)
        or not all(map(operator.is_, args, kept[0]))
    ):
        if len(_KEPT) > 4096:
            _KEPT.clear()
        _KEPT[key] = (args, None, kernel)
        launch(kernel, agents, fields, out, order, 0, 0.0, rows)
        return
    bound = kept[1]
    if bound is None:
        bound = make_bound(kernel, agents, fields, order)
        _KEPT[key] = (args, bound, kernel)
    n = out.shape[0]
    run = kernel.bound_parallel if n >= PARALLEL_MIN else kernel.bound_serial
    run(bound, out, scratch(max(n, rows)) if kernel.searches else out)


_LOCAL = threading.local()


def scratch(n: int) -> FloatArray:
    """Neighbour buffers for a loop over ``n`` agents: two per thread (the second for a query
    shared by several parts), each with a row per agent (a search never finds more), kept
    between calls by each Python thread."""
    buf = getattr(_LOCAL, "scratch", None)
    if buf is None or buf.shape[1] < n:
        threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
        # Two per thread: the second holds a shared neighbour query's result.
        buf = np.empty((2 * threads, max(n, 64), BUF_COLS))
        _LOCAL.scratch = buf
    return buf
