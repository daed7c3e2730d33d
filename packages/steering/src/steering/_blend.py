"""One compiled call for a whole weighted blend: the plan behind :class:`~steering.WeightedSum`.

At a handful of agents a behaviour's cost is its Python call, not its maths: a sum of four
behaviours made five compiled calls and as many output arrays, six times the cost of the
seeds' per-object loop at one agent. So a sum is run as a *plan*: a table with one row per
part (:data:`SPEC_COLS` floats: the part's code, weight, gain and parameters), read by one
kernel that walks every agent once and, for each row, does what that behaviour's own kernel
does for the agent, adding the weighted force. The table is a fixed shape, so one compiled
kernel serves every blend of any length and order (no compile per combination) and its cache
is kept on disk like the others.

Which parts go into the table: the behaviours whose per-agent maths needs nothing but the
agent's columns, a target point or the neighbour grid (:data:`FUSED` lists their classes,
matched by exact type, so a subclass that overrides ``__call__`` is called as itself). Any
other part (a path, a flow field, wander with its memory, a user's function, or any part when
debug output is wanted) is called as usual and its force enters the table as a ``FORCE`` row
that reads it, so the sum is still added in the parts' order, once, in one loop.

The group rules share one neighbour query per agent at the largest of their distances and
then each keeps the neighbours within its own, as :class:`~steering.Flock` does; the result
equals calling the parts one by one (to rounding: the neighbours may be visited in another
order).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _kern as kern
from ._checks import fast_points, finite, frozen, number
from ._jit import prange, rows_kernel
from .agents import AgentGroup
from .basic import Arrive, Flee, Seek, arrive, flee
from .grid import (
    BRUTE_MAX,
    BUF_COLS,
    F_H,
    F_MODE,
    F_W,
    MODE_BRUTE,
    agent_at,
    brute_grid,
    in_grid_order,
    near,
)
from .group import CHUNK, Align, Cohere, Separate
from .moving import move_row
from .neighbour_sums import (
    FovCache,
    align_force,
    alignment_sum,
    cohesion_sum,
    facing,
    flock_sums,
    separation_sum,
    toward,
)
from .vec import FloatArray

__all__ = ["FUSED", "SPEC_COLS", "Plan"]

#: Floats per row of the table: code, weight, gain, then up to five parameters (a group rule's
#: last one is :data:`SHARED`).
SPEC_COLS = 8
#: The column of a group rule's row that is 1 when its sum comes from the one pass over the
#: neighbours that the plan's first separation, alignment and cohesion share.
SHARED = 7

# Row codes. A target's third parameter is the row of its points in ``pts`` when every agent
# has its own (-1: the point is in the row itself).
FORCE, SEEK, FLEE, ARRIVE, SEPARATE, ALIGN, COHERE = range(7)
_GROUP = (SEPARATE, ALIGN, COHERE)

_NONE = np.zeros((1, 2))
_NOTHING: dict[type, Any] = {}
_BRUTE = brute_grid(None)

Row = tuple[float, ...]
#: A plan's items as :func:`_freeze` keeps them: the items, their ids, their and their
#: behaviours' field dicts, copies of those.
Frozen = tuple[list[Any], list[int], list[dict[str, Any]], list[dict[str, Any]]]


class Plan:
    """A blend's table, rebuilt only when a part's parameters change.

    Args:
        weighted: the class of a weighted item (:class:`~steering.Weighted`): its
            ``behaviour`` and ``weight`` are read; any other item is a behaviour of weight 1.
    """

    __slots__ = ("frozen", "key", "reach", "shared", "spec", "table", "weighted")

    def __init__(self, weighted: type) -> None:
        self.weighted: Any = weighted
        self.key: list[Row] | None = None
        self.spec = np.zeros((0, SPEC_COLS))
        self.table = np.zeros((1, SPEC_COLS))
        self.reach = 0.0
        #: The shared pass's separation, alignment and cohesion radii and fov cosine (radii
        #: 0: no shared pass).
        self.shared = np.zeros(4)
        #: The items of the last table and their fields when all of them are values that
        #: cannot change in place (see :meth:`_freeze`): while they are all still equal, the
        #: table holds and no part is read again.
        self.frozen: Frozen | None = None

    def run(
        self,
        name: str,
        items: Sequence[Any],
        agents: AgentGroup,
        dt: float,
        debug: Any,
        check: Callable[[str, int, Any, int], FloatArray],
        move: int = 0,
    ) -> FloatArray:
        """The weighted sum of ``items``' forces, limited to max force.

        A part the table cannot hold is called as ``b(agents, dt, debug)`` and its output
        checked by ``check(name, k, output, n)``. With ``move`` 1 the same compiled call then
        integrates the agents under the sum (:func:`~steering.integrate`), with 2 also turning
        their headings toward their velocities.
        """
        n = agents.pos.shape[0]
        if debug is None and self.frozen is not None and _unchanged(items, self.frozen):
            return self._launch(agents, n, _NONE, dt, move)
        rows: list[Row] = []
        inputs: list[FloatArray] = []  # per-agent targets and called parts' forces
        fused = FUSED if debug is None else _NOTHING
        weighted: Any = self.weighted
        for k, item in enumerate(items):
            if type(item) is weighted:
                b = item.behaviour
                w = item.weight
                if type(w) is not float or not math.isfinite(w):  # assigned after construction
                    w = finite(f"{name}[{k}].weight", w)
            else:
                b = item
                w = 1.0
            make = fused.get(type(b))
            row = None if make is None else make(name, k, b, w, n, inputs)
            if row is None:
                row = (FORCE, w, 0.0, len(inputs) * n, 0.0, 0.0, 0.0, 0.0)
                inputs.append(check(name, k, b(agents, dt, debug), n))
            rows.append(row)
        if rows != self.key:
            self._build(name, items, rows)
            self.frozen = None
        elif debug is None and not inputs:
            # the same table two calls running: worth keeping while nothing changes
            self.frozen = _freeze(items, self.weighted)
        if not inputs:
            stacked = _NONE
        elif len(inputs) == 1:
            stacked = np.ascontiguousarray(inputs[0])
        else:
            stacked = np.concatenate(inputs)
        return self._launch(agents, n, stacked, dt, move)

    def _launch(
        self, agents: AgentGroup, n: int, stacked: FloatArray, dt: float, move: int
    ) -> FloatArray:
        """The table's one compiled call over ``agents`` (``stacked``: the inputs its rows
        read)."""
        reach = self.reach
        world = agents.world_size
        if reach > 0.0 and n > BRUTE_MAX:
            grid = agents.neighbour_grid(reach)
        elif world is None:
            grid = _BRUTE
        else:
            grid = brute_grid(world)
        total = np.empty((n, 2))
        _blend_rows(n)(
            agents.pos,
            agents.vel,
            agents.heading,
            agents.max_speed,
            agents.max_force,
            agents.mass,
            agents.max_turn_rate,
            self.table,
            stacked,
            grid.ints,
            grid.floats,
            dt,
            move,
            agents.turns(),
            total,
        )
        return total

    def _build(self, name: str, items: Sequence[Any], rows: list[Row]) -> None:
        """The table of ``rows`` and the group rules' common reach; a parameter assigned a
        non-number after construction is refused by name."""
        try:
            spec = np.array(rows, dtype=np.float64).reshape(-1, SPEC_COLS)
        except (TypeError, ValueError):
            for k, item in enumerate(items):
                b = getattr(item, "behaviour", item)
                for field in ("gain", "distance", "panic_distance", "slowing_radius"):
                    if hasattr(b, field):
                        number(f"{name}[{k}].{field}", getattr(b, field))
            raise
        self.spec = spec
        self.reach = max(
            (r[3] for r in rows if r[0] in _GROUP and 0.0 < r[3] < math.inf), default=0.0
        )
        self.shared = _shared_pass(spec)
        pass_row = np.zeros((1, SPEC_COLS))
        pass_row[0, 0] = self.reach
        pass_row[0, 1:5] = self.shared
        #: What the kernel reads: the table, then the pass row (the group rules' reach, the
        #: shared pass's radii and fov cosine).
        self.table = np.concatenate([spec, pass_row])
        self.key = rows


#: Field values that cannot change without a new assignment (which :func:`_unchanged` sees).
_VALUES = (float, int, str, type(None))


def _value(v: Any) -> bool:
    return (
        isinstance(v, _VALUES)
        or (type(v) is tuple and all(isinstance(x, _VALUES) for x in v))
        or frozen(v)
    )


class _Same:
    """Equal only to the very object it holds. A frozen Weighted's behaviour is compared this
    way: an equal behaviour put in its place is another object, whose fields the plan does
    not watch (a dataclass's ``==`` would call the two the same)."""

    __slots__ = ("obj",)
    #: Compared with an array, NumPy defers to :meth:`__eq__` (else it would compare items).
    __array_ufunc__ = None

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return other is self.obj

    __hash__ = None  # type: ignore[assignment]


def _freeze(items: Sequence[Any], weighted: Any) -> Frozen | None:
    """What :func:`_unchanged` compares: the items (held, so that no other object can take
    one's id while the plan is frozen) and their ids, and the field dicts of the items and
    their behaviours with copies of them, when every field is a plain value (a number, a
    string, a tuple of them) or a behaviour's own fov or points cache; None when any field could
    change in place (an array the user gave), so the table must be read every call. A
    :func:`~steering._checks.frozen` array (a target given as a tuple or a list) is a value:
    it is compared by identity (an equal one assigned in its place is a new assignment).

    What it does not see: a behaviour whose ``__class__`` is reassigned, or whose
    ``__dict__`` is replaced by another dict, while it stays in the sum (Python allows both;
    no code here does either)."""
    live: list[dict[str, Any]] = []
    copies: list[dict[str, Any]] = []
    for item in items:
        if type(item) is weighted:
            b = item.behaviour
            if not isinstance(item.weight, _VALUES):
                return None
            live.append(item.__dict__)
            copies.append({**item.__dict__, "behaviour": _Same(b)})
        else:
            b = item
        fields = getattr(b, "__dict__", None)
        if fields is None:
            return None
        for name, v in fields.items():
            kept = name in (
                "_points",
                "_held",
                "_seen",
                "_walked",
                "_kept_plan",
            )  # caches, not settings
            if not (_value(v) or (name == "_cos" and type(v) is FovCache) or kept):
                return None
        live.append(fields)
        copies.append({k: _Same(v) if type(v) is np.ndarray else v for k, v in fields.items()})
    return list(items), list(map(id, items)), live, copies


#: The names of a part's caches (kept records, plans), which are not its settings.
_CACHES = frozenset(("_points", "_held", "_seen", "_walked", "_kept_plan"))


def _unchanged(items: Sequence[Any], frozen: Frozen) -> bool:
    """Whether ``items`` are the frozen ones with the same fields (the table then holds):
    two comparisons of lists, each one call into C."""
    _, ids, live, copies = frozen
    return list(map(id, items)) == ids and live == copies


def _shared_pass(spec: FloatArray) -> FloatArray:
    """Marks (column :data:`SHARED`) the first separation, alignment and cohesion rows of
    ``spec`` when at least two of them look with the same fov, and returns their radii and the
    fov's cosine: one pass over each agent's neighbours then gives all their sums
    (:func:`~steering.group._flock_sums`, the same sums as one pass each). Radii 0: none."""
    first: dict[int, int] = {}
    for p in range(spec.shape[0]):
        code = int(spec[p, 0])
        if code in _GROUP and code not in first:
            first[code] = p
    shared = np.zeros(4)
    if len(first) < 2 or len({float(spec[p, 4]) for p in first.values()}) != 1:
        return shared
    for code, p in first.items():
        r = float(spec[p, 3])
        shared[code - SEPARATE] = r if 0.0 < r < math.inf else 0.0
        spec[p, SHARED] = 1.0
    shared[3] = spec[next(iter(first.values())), 4]
    return shared


def _target(name: str, k: int, value: Any, n: int, pts: list[FloatArray]) -> Row:
    """Part ``k``'s target (not a pair of finite floats) as (x, y, -1) when shared, or
    (0, 0, row in ``pts``) with its points appended; the same checks as the behaviour's own
    call, naming the part."""
    arr = fast_points(f"{name}[{k}].target", value, n)
    if arr.shape[0] == 1:
        return float(arr[0, 0]), float(arr[0, 1]), -1.0
    start = len(pts) * n
    pts.append(arr)
    return 0.0, 0.0, float(start)


# Each maker reads a point target that is a frozen point (a tuple assigned, the common case)
# itself.


def _seek(name: str, k: int, b: Seek, w: float, n: int, pts: list[FloatArray]) -> Row:
    t = b.target
    if type(t) is np.ndarray and type(t.base) is bytes and t.shape == (2,):
        x, y = t.tolist()  # frozen: checked finite when assigned
        return (SEEK, w, b.gain, x, y, -1.0, 0.0, 0.0)
    return (SEEK, w, b.gain, *_target(name, k, t, n, pts), 0.0, 0.0)


def _flee(name: str, k: int, b: Flee, w: float, n: int, pts: list[FloatArray]) -> Row:
    t = b.target
    if type(t) is np.ndarray and type(t.base) is bytes and t.shape == (2,):
        x, y = t.tolist()  # frozen: checked finite when assigned
        return (FLEE, w, b.gain, x, y, -1.0, b.panic_distance, 0.0)
    return (FLEE, w, b.gain, *_target(name, k, t, n, pts), b.panic_distance, 0.0)


def _arrive(name: str, k: int, b: Arrive, w: float, n: int, pts: list[FloatArray]) -> Row:
    t = b.target
    extra = (b.slowing_radius, b.brake_fraction)
    if type(t) is np.ndarray and type(t.base) is bytes and t.shape == (2,):
        x, y = t.tolist()  # frozen: checked finite when assigned
        return (ARRIVE, w, b.gain, x, y, -1.0, *extra)
    return (ARRIVE, w, b.gain, *_target(name, k, t, n, pts), *extra)


def _group(code: int, what: str) -> Callable[..., Row | None]:
    fov_name = f"{what}.fov"

    def make(name: str, k: int, b: Any, w: float, n: int, pts: list[FloatArray]) -> Row | None:
        if b.per_agent or b.others is not None:  # a state column, another group: as itself
            return None
        cos_half = b._cos.of(fov_name, b.fov)
        match = 1.0 if code == ALIGN and b.match_speed else 0.0
        return (code, w, b.gain, b.distance, cos_half, match, 0.0, 0.0)

    return make


#: The behaviours a plan computes in its own loop, by exact class, and how each fills its row.
FUSED: dict[type, Callable[..., Row | None]] = {
    Seek: _seek,
    Flee: _flee,
    Arrive: _arrive,
    Separate: _group(SEPARATE, "Separate"),
    Align: _group(ALIGN, "Align"),
    Cohere: _group(COHERE, "Cohere"),
}


@rows_kernel
def _blend_rows(
    pos: FloatArray,
    vel: FloatArray,
    heading: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    mass: FloatArray,
    rate: FloatArray,
    spec: FloatArray,
    inputs: FloatArray,
    ints: Any,
    floats: FloatArray,
    dt: float,
    move: int,
    turns: FloatArray,
    total: FloatArray,
) -> None:
    """total = the rows' weighted forces added in order, limited to max force; then, with
    ``move``, every agent integrated under its total (and wrapped in the grid's world when it
    has one), its heading turned by its pending request in ``turns`` or, with ``move`` 2,
    toward its velocity. ``spec``: the plan's table, then its pass row (see :meth:`Plan._build`)."""
    n = pos.shape[0]
    parts = spec.shape[0] - 1
    reach = spec[parts, 0]
    rs = spec[parts, 1]
    ra = spec[parts, 2]
    rc = spec[parts, 3]
    fov_cos = spec[parts, 4]
    group = reach > 0.0
    # velocities in grid order (without a grid, or with no group rule, the order is the
    # agents' own: no copy)
    svel = in_grid_order(ints, floats, vel) if group and floats[F_MODE] != MODE_BRUTE else vel
    one_pass = group and (rs > 0.0 or ra > 0.0 or rc > 0.0)
    for c in prange((n + CHUNK - 1) // CHUNK):
        buf = np.empty((64, BUF_COLS))
        for s in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            i = agent_at(ints, floats, s)
            px = pos[i, 0]
            py = pos[i, 1]
            vx = vel[i, 0]
            vy = vel[i, 1]
            speed = max_speed[i]
            limit = max_force[i]
            k = 0
            sx = sy = ax = ay = cx = cy = 0.0
            ms = ma = mc = 0
            if group:
                k = near(ints, floats, pos, i, reach, buf)
                if k > buf.shape[0]:  # more than the buffer holds: grow it, ask again
                    buf = np.empty((2 * k, BUF_COLS))
                    k = near(ints, floats, pos, i, reach, buf)
                if one_pass:
                    ux, uy, blind = facing(heading, i, fov_cos)
                    sx, sy, ms, ax, ay, ma, cx, cy, mc = flock_sums(
                        i, svel, buf, k, rs, ra, rc, ux, uy, blind, fov_cos
                    )
            x = 0.0
            y = 0.0
            for p in range(parts):
                code = int(spec[p, 0])
                gain = spec[p, 2]
                fx = 0.0
                fy = 0.0
                if code == FORCE:
                    row = int(spec[p, 3]) + i
                    fx = inputs[row, 0]
                    fy = inputs[row, 1]
                elif code <= ARRIVE:
                    tx = spec[p, 3]
                    ty = spec[p, 4]
                    if spec[p, 5] >= 0.0:
                        row = int(spec[p, 5]) + i
                        tx = inputs[row, 0]
                        ty = inputs[row, 1]
                    if code == SEEK:
                        dx, dy = kern.set_length(tx - px, ty - py, speed)
                        fx, fy = kern.steer(dx, dy, vx, vy, gain, limit)
                    elif code == FLEE:
                        fx, fy = flee(
                            px,
                            py,
                            vx,
                            vy,
                            heading[i, 0],
                            heading[i, 1],
                            tx,
                            ty,
                            speed,
                            limit,
                            spec[p, 6],
                            gain,
                        )
                    else:
                        fx, fy = arrive(
                            px, py, vx, vy, tx, ty, speed, limit, spec[p, 6], gain, spec[p, 7]
                        )
                else:
                    r = spec[p, 3]
                    if not (r > 0.0 and r < math.inf):
                        r = 0.0
                    cos_half = spec[p, 4]
                    own = spec[p, SHARED] == 0.0  # not summed in the shared pass
                    if own:
                        ux, uy, blind = facing(heading, i, cos_half)
                    if code == SEPARATE:
                        if own:
                            tx, ty, m = separation_sum(i, buf, k, r, ux, uy, blind, cos_half)
                        else:
                            tx, ty, m = sx, sy, ms
                        fx, fy = toward(tx, ty, m, vx, vy, speed, gain, limit)
                    elif code == ALIGN:
                        if own:
                            tx, ty, m = alignment_sum(svel, buf, k, r, ux, uy, blind, cos_half)
                        else:
                            tx, ty, m = ax, ay, ma
                        fx, fy = align_force(
                            tx, ty, m, vx, vy, speed, gain, limit, spec[p, 5] > 0.0
                        )
                    else:
                        if own:
                            tx, ty, m = cohesion_sum(buf, k, r, ux, uy, blind, cos_half)
                        else:
                            tx, ty, m = cx, cy, mc
                        fx, fy = toward(tx, ty, m, vx, vy, speed, gain, limit)
                w = spec[p, 1]
                x += w * fx
                y += w * fy
            total[i, 0], total[i, 1] = kern.truncate(x, y, limit)
    if move > 0:
        face = move > 1
        width = floats[F_W]
        height = floats[F_H]
        for i in prange(n):
            move_row(
                pos, vel, heading, max_speed, mass, rate, total, dt, face, turns, width, height, i
            )
