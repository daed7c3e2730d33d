"""The agent group: every agent's kinematic state as NumPy arrays, one row per agent.

Why one file: :class:`AgentGroup` is one class whose columns, their checks on assignment, the
state columns behaviours keep per agent, and ``add``/``remove`` that must keep all of them in
step are read together; how agents move is in :mod:`steering.moving`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .grid import Grid, GridCache, directed_pairs
from .moving import face_rows, integrate, turn_rows, wrap_rows
from .vec import (
    FloatArray,
    length,
    safe_normalize,
    take_rows,
)

__all__ = ["UNSET", "AgentGroup", "integrate", "is_unset"]

#: The fill of a state column whose value a behaviour computes on first use (wander angle,
#: path progress): declare it once with ``agents.column(name, fill=UNSET)`` and test rows
#: with :func:`is_unset`.
UNSET = math.nan


def is_unset(values: ArrayLike) -> NDArray[np.bool_]:
    """Rows of a column declared with ``fill=UNSET`` that hold no value yet (any non-finite
    value counts as none)."""
    return ~np.isfinite(values)


class _SubState(dict[str, FloatArray]):
    """The state columns of a sub-group (:meth:`AgentGroup.take`): each is gathered from the
    parent's column on first use, so a behaviour that touches two columns of a crowd that has
    ten copies two (a tenth of a 10,000-agent step was spent copying unused columns).
    Iterating yields only the columns used or created so far, which is what
    :meth:`AgentGroup.put_state` writes back."""

    def __init__(self, parent: dict[str, FloatArray], idx: NDArray[np.intp]) -> None:
        super().__init__()
        self._parent = parent
        self._idx = idx

    def __missing__(self, key: str) -> FloatArray:
        col = take_rows(self._parent[key], self._idx)  # KeyError when the parent has none
        self[key] = col
        return col

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self._parent

    def get(self, key: str, default: FloatArray | None = None) -> FloatArray | None:  # type: ignore[override]
        try:
            return self[key]
        except KeyError:
            return default


def _real(values: ArrayLike, name: str, want: str) -> None:
    """Refuse text and complex numbers, which NumPy would turn into floats (``"3"`` read as 3,
    a complex number's imaginary part dropped with only a warning)."""
    try:
        kind = np.asarray(values).dtype.kind if not isinstance(values, (str, bytes)) else "U"
    except (TypeError, ValueError):  # ragged: the caller's conversion says so
        return
    if kind in "cUSO" and not (kind == "O" and _all_real(values)):
        raise TypeError(f"{name}: expected {want}, got {values!r:.40}")


def _all_real(values: Any) -> bool:
    """Whether an object array holds real numbers only."""
    flat = np.asarray(values, dtype=object).ravel()
    return all(isinstance(v, (int, float, np.integer, np.floating)) for v in flat)


def _points(values: ArrayLike, n: int | None, name: str) -> FloatArray:
    """``values`` as a finite (N, 2) copy; errors name the argument."""
    _real(values, name, "(N, 2) numbers")
    try:
        arr = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected (N, 2) numbers, got {values!r:.40}") from None
    if arr.shape == (2,):  # one point: the only one, or shared by every agent
        arr = arr.reshape(1, 2) if n is None else np.repeat(arr.reshape(1, 2), n, axis=0)
    if arr.ndim != 2 or arr.shape[1] != 2 or (n is not None and arr.shape[0] != n):
        want = "(N, 2) values" if n is None else f"{n} rows of (x, y), one per agent"
        raise ValueError(f"{name}: expected {want}, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: values must be finite")
    return arr


_VECTORS = ("pos", "vel", "heading")
_SCALARS = ("max_speed", "max_force", "radius", "mass", "max_turn_rate")
_COLUMNS = frozenset(_VECTORS + _SCALARS)


def _column_of(name: str, value: Any, n: int | None) -> FloatArray:
    """A column as the kernels need it: float64, (n, 2) or (n,) rows, the vectors writeable
    (integrate moves them in place). A float64 array of the right shape is kept as it is (a
    view stays a view); a scalar fills a per-agent column.

    Raises:
        TypeError: for values that are not numbers.
        ValueError: for the wrong number of rows or a read-only position, velocity or heading.
    """
    vector = name in _VECTORS
    if not (isinstance(value, np.ndarray) and value.dtype == np.float64):
        if isinstance(value, (str, bytes)) or (
            isinstance(value, np.ndarray) and value.dtype.kind not in "biuf"
        ):
            raise TypeError(f"{name}: expected numbers, got {value!r:.40}")
        try:
            value = np.array(value, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name}: expected numbers, got {value!r:.40}") from None
    if not vector and value.ndim == 0 and n is not None:
        return np.full(n, float(value))
    want = (n if n is not None else value.shape[0] if value.ndim else 0, 2) if vector else (n,)
    if value.shape != want:
        rows = "(N, 2)" if vector and n is None else str(want)
        raise ValueError(f"{name}: expected {rows} values, one row per agent, got {value.shape}")
    if vector and not value.flags.writeable:
        raise ValueError(f"{name}: must be a writeable array (integrate moves it in place)")
    return value


def _limit(values: ArrayLike, n: int, name: str) -> FloatArray:
    """A limit for :meth:`AgentGroup.with_limits`: a float64 (n,) array is used as it is (so
    a change made to it in place is seen, as a view), anything else is made a column; either
    way negative, non-finite or misshapen values are refused by name."""
    if isinstance(values, np.ndarray) and values.dtype == np.float64 and values.shape == (n,):
        if not (np.isfinite(values).all() and (values >= 0.0).all()):
            raise ValueError(f"{name}: values must be finite and >= 0")
        return values
    return _column(values, n, name, minimum=0.0)


def _world_size(size: tuple[float, float] | None) -> tuple[float, float] | None:
    if size is None:
        return None
    try:
        w, h = (float(x) for x in size)
    except (TypeError, ValueError):
        raise TypeError(f"world_size: expected (width, height), got {size!r:.40}") from None
    if not (0.0 < w < math.inf and 0.0 < h < math.inf):
        raise ValueError(f"world_size: width and height must be finite and > 0, got {size}")
    return w, h


def _wrapped(p: FloatArray, size: tuple[float, float]) -> FloatArray:
    out = p.copy()
    wrap_rows(p.shape[0])(out, size[0], size[1])
    return out


def _column(
    values: ArrayLike, n: int, name: str, *, minimum: float = -math.inf, strict: bool = False
) -> FloatArray:
    _real(values, name, f"a number or {n} numbers")
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a number or {n} numbers, got {values!r:.40}") from None
    arr = np.broadcast_to(arr, (n,)).copy() if arr.ndim == 0 else arr.astype(np.float64, copy=True)
    if arr.shape != (n,):
        raise ValueError(f"{name}: expected {n} values, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: values must be finite")
    low = (arr <= minimum) if strict else (arr < minimum)
    if low.any():
        sign = ">" if strict else ">="
        raise ValueError(f"{name}: values must be {sign} {minimum:g}, got {arr[low][0]:g}")
    return arr


def _turn_rate_column(values: ArrayLike, n: int) -> FloatArray:
    """Like :func:`_column`, but +inf (no limit) is allowed; NaN and negatives are not."""
    arr = np.asarray(values, dtype=np.float64)
    arr = np.broadcast_to(arr, (n,)).copy() if arr.ndim == 0 else arr.astype(np.float64, copy=True)
    if arr.shape != (n,):
        raise ValueError(f"max_turn_rate: expected {n} values, got shape {arr.shape}")
    if not (arr >= 0.0).all():  # NaN compares false
        raise ValueError("max_turn_rate: values must be >= 0 (rad/s; inf for no limit)")
    return arr


#: The state column of pending orientation requests (:meth:`AgentGroup.request_turn`).
TURN_COLUMN = "orientation.turn"
_NO_TURNS = np.zeros((0, 2))


@dataclass(eq=False)
class AgentGroup:
    """Position, velocity and limits of N agents as structure-of-arrays.

    Units: px, px/s, s. Behaviours read a group and return an (N, 2) steering force, in
    px/s^2 x mass and never longer than ``max_force``; :func:`integrate` (and pymunk, through
    :mod:`steering.pymunk`) divides it by ``mass``, so with the default mass of 1 it is the
    acceleration itself, and an agent of mass 3 turns three times slower. Per-agent behaviour
    memory (path progress, wander angle, chosen avoidance side) lives in :attr:`state` columns,
    so shared data such as a path never holds it.

    Attributes:
        pos: (N, 2) positions.
        vel: (N, 2) velocities.
        max_speed: (N,) speed limits.
        max_force: (N,) limits on the length of the steering force (px/s^2 x mass): an agent
            accelerates by at most ``max_force / mass``.
        radius: (N,) bounding radii.
        mass: (N,) masses.
        heading: (N, 2) unit facing; follows the velocity, keeps the last one when stopped
            (see :meth:`update_heading`), or turned by orientation behaviours
            (:mod:`~steering.orientation`), whose :meth:`request_turn` the step's heading
            update applies once.
        state: named (N,) or (N, k) per-agent columns owned by behaviours.
        max_turn_rate: (N,) how fast each heading may turn, rad/s; inf (the default) turns
            at once.
        world_size: ``(width, height)`` of a wrap-around world (a torus over
            ``[0, width) x [0, height)``), or None for an open plane. :func:`integrate` wraps
            positions into it and neighbour search measures across its edges.

    A state column declares its fill value once, where it is made (:meth:`column`); agents
    that have not written a column yet (new agents from :meth:`add`, agents outside a
    sub-group in :meth:`put_state`) hold that fill. A column put straight into :attr:`state`
    without :meth:`column` has fill 0.0. :data:`UNSET` (NaN) is the fill of columns a
    behaviour computes on first use; read them with :func:`is_unset`.

    Arrays are updated in place where the agent count stays (:func:`integrate`,
    :meth:`update_heading`), so views of them stay live. :meth:`add` and :meth:`remove`
    change the count and so make new arrays: views of ``pos``, ``vel``, the limits,
    ``heading`` or a state column taken before them are stale (groups from :meth:`take`
    and :meth:`with_limits` included).
    """

    pos: FloatArray
    vel: FloatArray
    max_speed: FloatArray
    max_force: FloatArray
    radius: FloatArray
    mass: FloatArray
    heading: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))
    state: dict[str, FloatArray] = field(default_factory=dict)
    max_turn_rate: FloatArray = field(default_factory=lambda: np.zeros(0))
    world_size: tuple[float, float] | None = None
    _grids: GridCache = field(default_factory=GridCache, init=False, repr=False)
    _fills: dict[str, float] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def create(
        cls,
        pos: ArrayLike,
        vel: ArrayLike | None = None,
        *,
        max_speed: ArrayLike = 120.0,
        max_force: ArrayLike = 360.0,
        radius: ArrayLike = 8.0,
        mass: ArrayLike = 1.0,
        max_turn_rate: ArrayLike = math.inf,
        world_size: tuple[float, float] | None = None,
    ) -> AgentGroup:
        """Build a group from positions; every other argument is a scalar or one value per agent.

        ``max_turn_rate`` is in rad/s and may be inf (no limit, the default). ``world_size``
        makes the world a torus (see the class docstring); positions are wrapped into it.

        Raises:
            ValueError: on a shape mismatch, a non-finite value, a negative speed, force,
                radius or turn rate, a mass that is not positive, or a bad world size. Each
                message names the argument.
            TypeError: for values that are not numbers.
        """
        p = _points(pos, None, "pos")
        n = p.shape[0]
        v = np.zeros_like(p) if vel is None else _points(vel, n, "vel")
        size = _world_size(world_size)
        if size is not None:
            p = _wrapped(p, size)
        return cls(
            pos=p,
            vel=v,
            max_speed=_column(max_speed, n, "max_speed", minimum=0.0),
            max_force=_column(max_force, n, "max_force", minimum=0.0),
            radius=_column(radius, n, "radius", minimum=0.0),
            mass=_column(mass, n, "mass", minimum=0.0, strict=True),
            max_turn_rate=_turn_rate_column(max_turn_rate, n),
            world_size=size,
        )

    def __post_init__(self) -> None:
        self.pos = _column_of("pos", self.pos, None)
        n = self.pos.shape[0]
        self.vel = _column_of("vel", self.vel, n)
        if np.shape(self.heading) != (n, 2):
            self.heading = safe_normalize(self.vel, np.array([1.0, 0.0]))
        self.heading = _column_of("heading", self.heading, n)
        if np.shape(self.max_turn_rate) == (0,) and n:  # the field's default: no limit
            object.__setattr__(self, "max_turn_rate", np.full(n, math.inf))
        for name in _SCALARS:
            object.__setattr__(self, name, _column_of(name, getattr(self, name), n))
        object.__setattr__(self, "_ready", True)
        object.__setattr__(self, "_columns", 0)

    @property
    def columns_version(self) -> int:
        """Counts the assignments of a column (``pos``, ``vel``, ...) and the calls of ``add``
        and ``remove``: while it is the same, every column is the same array object (a compiled
        caller may keep what it made from them)."""
        return int(self.__dict__["_columns"])

    def __setattr__(self, name: str, value: Any) -> None:
        # A column assigned later is checked as at construction: the kernels index every
        # column by the rows of pos without bounds checks, so a short one would be read (and,
        # by integrate, written) past its end.
        # pos too: a longer pos would make every other column short. add and remove change
        # the count, setting every column at once (_set_rows).
        if name in _COLUMNS and self.__dict__.get("_ready"):
            value = _column_of(name, value, self.pos.shape[0])
            self.__dict__["_columns"] += 1
        object.__setattr__(self, name, value)

    def _set_rows(self, columns: dict[str, FloatArray]) -> None:
        """Set every column at once to arrays of a new common row count (add, remove)."""
        for name, col in columns.items():
            object.__setattr__(self, name, col)
        self.__dict__["_columns"] += 1

    def __len__(self) -> int:
        return int(self.pos.shape[0])

    @property
    def n(self) -> int:
        """Number of agents."""
        return int(self.pos.shape[0])

    def speed(self) -> FloatArray:
        """(N,) current speeds."""
        return length(self.vel)

    def update_heading(self, dt: float | None = None) -> None:
        """Point :attr:`heading` along the velocity where the agent moves; keep it where not.
        An agent with a pending orientation request (:meth:`request_turn`, made by
        :class:`~steering.Face` and :class:`~steering.LookWhereYouAreGoing`) turns toward
        that instead, once, and the request is cleared.

        With every :attr:`max_turn_rate` inf the heading snaps to the velocity's direction
        (``dt`` is not needed); with finite rates it turns toward it by at most
        ``max_turn_rate * dt`` (:meth:`turn_toward`). In place, so groups that share the rows
        (the world's crowd) see it too.

        Raises:
            ValueError: if some rate is finite and ``dt`` is None.
        """
        if self.n and dt is None and self.max_turn_rate.min() < math.inf:
            raise ValueError("update_heading: a finite max_turn_rate needs dt")
        face_rows(self.n)(
            self.vel, self.heading, self.max_turn_rate, 0.0 if dt is None else dt, self.turns()
        )

    def request_turn(self, desired_heading: FloatArray) -> None:
        """Ask that each agent's heading turn toward ``desired_heading`` (N, 2) at the next
        heading update: :func:`integrate`, :func:`~steering.step` or :meth:`update_heading`
        turns it by at most ``max_turn_rate * dt`` in place of facing the velocity, then
        clears the request, so the turn is applied once however the step is written. A zero
        row asks nothing (the update then faces the velocity, if asked to), as does a row that
        is not finite; to hold the heading still, ask for the heading itself. The orientation
        behaviours' angular output (gdx-ai's ``SteeringAcceleration.angular``); the requests
        live in the state column :data:`TURN_COLUMN`, so a sub-group's requests come back with
        its state.

        Raises:
            ValueError, TypeError: for ``desired_heading`` that is not (N, 2) numbers.
        """
        n = self.n
        try:
            want = np.asarray(desired_heading, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"request_turn: desired_heading must be ({n}, 2) numbers, got "
                f"{desired_heading!r:.40}"
            ) from None
        if want.shape != (n, 2):
            raise ValueError(
                f"request_turn: desired_heading must have shape ({n}, 2), got {want.shape}"
            )
        col = self.column(TURN_COLUMN, 0.0, 2)
        np.copyto(col, want)
        col[~np.isfinite(col).all(axis=1)] = 0.0

    def turns(self) -> FloatArray:
        """The pending orientation requests (:meth:`request_turn`): the (N, 2) column, or an
        empty (0, 2) array when no agent of the group ever had one (kernels read either)."""
        col = self.state.get(TURN_COLUMN)
        if col is None or col.shape != (self.n, 2):
            return _NO_TURNS
        return col

    def turn_toward(self, desired_heading: FloatArray, dt: float) -> None:
        """Rotate :attr:`heading` toward ``desired_heading`` by at most ``max_turn_rate * dt``.

        In place (views of the rows see it). Each agent turns the short way round; one whose
        desired heading is within reach lands on it exactly, so an inf rate snaps. A zero (or
        non-finite) desired row keeps that agent's heading; an agent whose heading has no
        direction (zero, non-finite) takes the desired one at once.

        Args:
            desired_heading: (N, 2) directions; only their direction counts.
            dt: the step in seconds (finite, >= 0).

        Raises:
            ValueError: if ``dt`` is negative or not finite, or the shape is wrong.
        """
        if not (math.isfinite(dt) and dt >= 0.0):
            raise ValueError(f"turn_toward: dt must be finite and >= 0, got {dt}")
        n = self.n
        want = np.asarray(desired_heading, dtype=np.float64)
        if want.shape != (n, 2):
            raise ValueError(f"turn_toward: expected ({n}, 2) headings, got shape {want.shape}")
        if n == 0:
            return
        turn_rows(n)(self.heading, want, self.max_turn_rate, float(dt))

    def column(self, name: str, fill: float = 0.0, width: int = 0) -> FloatArray:
        """The per-agent state column ``name``, created filled with ``fill`` on first use.

        The fill is recorded as the column's own (the first call that names the column
        declares it): agents added later (:meth:`add`) start with it.

        Args:
            name: a behaviour-specific key such as ``"path.progress"``.
            fill: initial value for every agent (:data:`UNSET` for "not computed yet").
            width: 0 for an (N,) column, k for an (N, k) one.
        """
        col = self.state.get(name)
        shape = (self.n,) if width == 0 else (self.n, width)
        if col is None or col.shape != shape:
            col = np.full(shape, fill, dtype=np.float64)
            self.state[name] = col
            self._fills[name] = fill
        elif name not in self._fills:
            self._fills[name] = fill
        return col

    @property
    def fills(self) -> dict[str, float]:
        """Every state column's declared fill, by name (the group's own dict: a column put
        into :attr:`state` from outside declares its fill here)."""
        return self._fills

    def fill_of(self, name: str) -> float:
        """The fill value of state column ``name``: the one :meth:`column` declared, else 0.0."""
        return self._fills.get(name, 0.0)

    # -- adding and removing agents ------------------------------------------------------------

    def add(
        self,
        pos: ArrayLike,
        vel: ArrayLike | None = None,
        *,
        max_speed: ArrayLike = 120.0,
        max_force: ArrayLike = 360.0,
        radius: ArrayLike = 8.0,
        mass: ArrayLike = 1.0,
        max_turn_rate: ArrayLike = math.inf,
    ) -> NDArray[np.intp]:
        """Append agents (arguments as :meth:`create`) and return their row indices.

        Existing agents keep every value and their order. New agents face along their
        velocity (+x when still) and hold each state column's fill (:meth:`fill_of`). Makes
        new arrays: views taken before are stale. The neighbour index is rebuilt on next use.

        Raises:
            ValueError: on a shape mismatch or a non-finite value (the group is unchanged).
        """
        new = AgentGroup.create(
            pos,
            vel,
            max_speed=max_speed,
            max_force=max_force,
            radius=radius,
            mass=mass,
            max_turn_rate=max_turn_rate,
            world_size=self.world_size,
        )
        n, m = self.n, new.n
        self._own_state()
        self._set_rows({c: np.concatenate((getattr(self, c), getattr(new, c))) for c in _COLUMNS})
        for name, col in list(self.state.items()):
            extra = np.full((m, *col.shape[1:]), self.fill_of(name), dtype=col.dtype)
            self.state[name] = np.concatenate((col, extra))
        self._forget_neighbours()
        return np.arange(n, n + m, dtype=np.intp)

    def remove(self, rows: ArrayLike) -> None:
        """Remove agents ``rows`` (indices, or a boolean mask over the rows).

        The agents that stay keep every value (state columns included) and their order.
        Makes new arrays: views taken before are stale. The neighbour index is rebuilt on
        next use.

        Raises:
            IndexError: for an index out of range (negative ones included: they do not count
                from the end) or a mask of the wrong length; the group is unchanged.
            TypeError: for rows that are neither integers nor booleans.
        """
        r = np.asarray(rows)
        keep = np.ones(self.n, dtype=bool)
        if r.dtype == np.bool_:
            if r.shape != (self.n,):
                raise IndexError(f"rows: expected a mask of {self.n} booleans, got {r.shape}")
            keep = ~r
        elif r.size == 0:
            return
        elif np.issubdtype(r.dtype, np.integer):
            flat = r.reshape(-1)
            bad = flat[(flat < 0) | (flat >= self.n)]
            if bad.size:
                raise IndexError(f"rows: indices must be in [0, {self.n}), got {bad[0]}")
            keep[flat] = False
        else:
            raise TypeError(f"rows: expected indices or a boolean mask, got {r.dtype}")
        self._own_state()
        self._set_rows({c: getattr(self, c)[keep] for c in _COLUMNS})
        for name, col in list(self.state.items()):
            self.state[name] = col[keep]
        self._forget_neighbours()

    def _own_state(self) -> None:
        """Gather every parent column into a sub-group's lazy state, so add/remove see all."""
        if isinstance(self.state, _SubState):
            for name in list(self.state._parent):
                self.state.get(name)  # gathers it from the parent

    def _forget_neighbours(self) -> None:
        self._grids.clear()

    def with_limits(
        self,
        max_speed: ArrayLike | None = None,
        max_force: ArrayLike | None = None,
        max_turn_rate: ArrayLike | None = None,
    ) -> AgentGroup:
        """A group that shares this one's rows and state but has other limits (a value for
        all, or one per agent; None keeps this group's). For :class:`~steering.Limited`.

        Raises:
            ValueError, TypeError: for a limit that is negative, not finite, not numbers or
                of the wrong length (named).
        """
        n = self.n
        group = AgentGroup(
            pos=self.pos,
            vel=self.vel,
            max_speed=self.max_speed if max_speed is None else _limit(max_speed, n, "max_speed"),
            max_force=self.max_force if max_force is None else _limit(max_force, n, "max_force"),
            radius=self.radius,
            mass=self.mass,
            heading=self.heading,
            state=self.state,
            max_turn_rate=self.max_turn_rate
            if max_turn_rate is None
            else _turn_rate_column(max_turn_rate, n),
        )
        group._grids = self._grids
        group._fills = self._fills
        group.world_size = self.world_size
        return group

    # -- neighbour index, shared by every behaviour in a step -------------------------------

    def neighbour_grid(self, cell: float) -> Grid:
        """The neighbour grid over the current positions with cells of at least ``cell`` px
        (:mod:`~steering.grid`), built once per step per cell size and shared by every group
        behaviour; the brute-force marker for small crowds or a cell that is not positive.
        The next step's grid may be built into the same arrays: read it within the step."""
        return self._grids.get(self.pos, self.world_size, cell)

    def pairs_within(self, r: float) -> NDArray[np.intp]:
        """(P, 2) index pairs ``i < j`` of agents closer than ``r`` (minimal image in a
        wrap-around world), sorted; from the neighbour grid."""
        if self.n < 2 or not (0.0 < r < math.inf):
            return np.zeros((0, 2), dtype=np.intp)
        grid = self.neighbour_grid(float(r))
        i, j = directed_pairs(grid, self.pos, np.full(self.n, float(r)))
        keep = i < j
        i, j = i[keep], j[keep]
        order = np.lexsort((j, i))
        return np.column_stack((i[order], j[order])).astype(np.intp)

    # -- subsets -------------------------------------------------------------------------------

    def take(self, idx: NDArray[np.intp]) -> AgentGroup:
        """A new group with copies of rows ``idx`` (state columns included).

        Args:
            idx: row indices, or a boolean mask over the rows.

        State columns are copied when the sub-group first reads them: use the sub-group
        before changing the parent's state.
        """
        if idx.dtype == np.bool_:
            idx = np.flatnonzero(idx)
        sub = AgentGroup(
            pos=take_rows(self.pos, idx),
            vel=take_rows(self.vel, idx),
            max_speed=self.max_speed.take(idx),
            max_force=self.max_force.take(idx),
            radius=self.radius.take(idx),
            mass=self.mass.take(idx),
            heading=take_rows(self.heading, idx),
            max_turn_rate=self.max_turn_rate.take(idx),
        )
        sub.state = _SubState(self.state, idx)
        sub._fills = dict(self._fills)
        sub.world_size = self.world_size
        return sub

    def put_state(self, idx: NDArray[np.intp], sub: AgentGroup) -> None:
        """Write the state columns of ``sub`` (made by :meth:`take`) back into rows ``idx``.

        A column the sub-group made is made here too, with the fill the sub-group declared
        for it, so the agents outside ``idx`` read as fresh.
        """
        for key, col in sub.state.items():
            if key not in self.state:
                width = 0 if col.ndim == 1 else col.shape[1]
                self.column(key, fill=sub.fill_of(key), width=width)
            self.state[key][idx] = col
