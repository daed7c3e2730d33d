"""Buckland's hide: get a rock between yourself and a hunter, else evade it.

The behaviour (:class:`Hide`), a row part: its record (:class:`HideRecord`, with the spots of
each distinct hunter worked out when it is bound, and, when one hunter faces many rocks and
agents, each agent's spot searched in a grid of them) and its per-agent function
(:func:`hide_row`), which weighs the spots (:mod:`steering.hiding_spots`), then arrives with
:func:`steering.basic.arrive` or evades with :func:`steering.basic.evade`, the kernels of
:class:`~steering.Arrive` and :class:`~steering.Evade`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kern as kern
from ._checks import finite, non_negative, point_array, size
from ._jit import njit_leaf
from ._kern import hypot
from .agents import AgentGroup
from .base import ARRIVE_BRAKE, DEFAULT_GAIN, Debug
from .basic import arrive, evade
from .checked import ArraySettings, checks
from .composite import AgentCols, RowPart, row_function
from .debug import HideDebug, write
from .grid import build_grid
from .hiding_spots import (
    SpotGrid,
    grid_picks,
    hunter_offset,
    rock_spot,
    spot_cell,
    spots_rows,
    weigh_every,
    weigh_own,
)
from .obstacle_set import Obstacles
from .records import settings
from .vec import FloatArray, as_complex, as_rows

__all__ = ["Hide", "HideRecord", "hide_row"]

#: Evade's prediction limit (the default of :class:`~steering.Evade`).
_EVADE_PREDICTION = 1.5
#: Per-agent hunters are first reduced to the distinct ones when computing every agent's own
#: spots would cost more than this many (hunter, rock, rock) tests; up to it, each agent works
#: out its own hunter's spots in the loop (an agent its mask leaves out costs nothing).
_DEDUP_WORK = 1 << 16
#: From how many rocks and agents (one hunter for all) the spots go into a grid that each agent
#: searches outward from itself instead of weighing every spot: measured at 10,000 agents and
#: 200 rocks (steering.bench's scene), 5.6 ms a call against 2.7-3.0 ms; a scan of a few dozen
#: spots costs about what building the grid does.
_GRID_SPOTS = 32
_GRID_AGENTS = 64

IntArray = NDArray[np.intp]

#: The fields of a record with no spots worked out, no grid or no debug buffer.
_NO_SPOTS = np.zeros((0, 0, 2))
_NO_USABLE = np.zeros((0, 0), dtype=np.bool_)
_NO_INDEX = np.zeros(0, dtype=np.intp)
_NO_POINTS = np.zeros((0, 2))


def obstacle_set(name: str, value: Any) -> Obstacles:
    """A :class:`~steering.Obstacles`; TypeError otherwise."""
    if not isinstance(value, Obstacles):
        raise TypeError(
            f"{name}: expected steering.Obstacles, got {type(value).__name__} {value!r:.40}"
        )
    return value


class HideRecord(NamedTuple):
    """:class:`Hide`'s parameters and its hunters' spots for one call."""

    hunter: FloatArray
    """(1, 2) one hunter for every agent, or (N, 2) one per agent (read at the call)."""
    hunter_step: int
    """0 for one hunter, 1 for one per agent (agent ``i``'s is row ``i * hunter_step``)."""
    hunter_velocity: FloatArray
    """(1, 2) or (N, 2) its velocity, px/s."""
    velocity_step: int
    """0 for one velocity, 1 for one per agent."""
    centers: FloatArray
    """(M, 2) the rocks' centres."""
    radii: FloatArray
    """(M,) their radii."""
    distance: float
    """How far beyond a rock's rim its spot is, px."""
    spots: NDArray[np.float64]
    """(H, M, 2) each distinct hunter's spot behind every rock; (0, 0, 2): none worked out,
    each agent makes its own hunter's as it weighs them."""
    usable: NDArray[np.bool_]
    """(H, M) whether each spot is usable (it exists and is outside every other rock)."""
    which: IntArray
    """(N,) each agent's hunter among the H; (0,): the first for every agent."""
    picks: IntArray
    """(N,) each agent's spot (-1: none), searched in a grid of the one hunter's spots when
    bound; (0,): no grid, each agent weighs the spots in the loop."""
    panic_distance: float
    """px; inf: always."""
    gain: float
    """1/s."""
    slowing_radius: float
    """Arrive's slowing radius, px."""
    debug_spot: FloatArray
    """(N, 2) each agent's chosen spot when debug output is asked (NaN when it evades or is
    calm), else (0, 2)."""


@njit_leaf
def shadow_arrive(
    px: float,
    py: float,
    vx: float,
    vy: float,
    sx: float,
    sy: float,
    hx: float,
    hy: float,
    max_speed: float,
    max_force: float,
    slowing_radius: float,
    gain: float,
) -> tuple[float, float]:
    """The force of an agent at (px, py) moving (vx, vy) to the spot (sx, sy) in the shadow of
    the hunter at (hx, hy): it arrives there, or, already deeper in the shadow than the spot,
    at the point of the shadow's axis level with it."""
    # The shadow goes on past the spot: an agent already deeper in it (pushed there by a
    # crowd at the same rock) keeps its depth and only closes in on the axis.
    ux, uy, _ = kern.unit(sx - hx, sy - hy)
    depth = max((px - sx) * ux + (py - sy) * uy, 0.0)
    return arrive(
        px,
        py,
        vx,
        vy,
        sx + ux * depth,
        sy + uy * depth,
        max_speed,
        max_force,
        slowing_radius,
        gain,
        ARRIVE_BRAKE,
    )


@row_function
def hide_row(i: int, a: AgentCols, p: HideRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s hiding force: nothing while its hunter is beyond the panic distance, else
    arrive at its spot (the nearest safe, else the nearest usable), else evade the hunter."""
    grid = p.picks.shape[0] > 0
    # A grid holds the spots of the first hunter (all the agents' hunters are one point).
    t = 0 if grid else i * p.hunter_step
    px, py = a.pos[i, 0], a.pos[i, 1]
    hx, hy = p.hunter[t, 0], p.hunter[t, 1]
    if hypot(px - hx, py - hy) > p.panic_distance:
        return 0.0, 0.0
    own = p.spots.shape[0] == 0
    h = 0
    if grid:
        pick = p.picks[i]
    else:
        qx, qy, qq, allow = hunter_offset(a.pos, a.radius, p.hunter, i, t)
        if own:
            best_any, best_safe = weigh_own(
                p.centers, p.radii, p.distance, hx, hy, px, py, qx, qy, qq, allow
            )
        else:
            if p.which.shape[0] > 0:
                h = p.which[i]
            best_any, best_safe = weigh_every(p.spots, p.usable, h, px, py, qx, qy, qq, allow)
        pick = best_safe if best_safe >= 0 else best_any
    if pick >= 0:
        if own:
            sx, sy, _ = rock_spot(
                p.centers[pick, 0], p.centers[pick, 1], p.radii[pick], p.distance, hx, hy
            )
        else:
            sx, sy = p.spots[h, pick, 0], p.spots[h, pick, 1]
        if p.debug_spot.shape[0] > 0:
            p.debug_spot[i, 0] = sx
            p.debug_spot[i, 1] = sy
        return shadow_arrive(
            px,
            py,
            a.vel[i, 0],
            a.vel[i, 1],
            sx,
            sy,
            hx,
            hy,
            a.max_speed[i],
            a.max_force[i],
            p.slowing_radius,
            p.gain,
        )
    # No usable spot, or no rock: evade the hunter.
    t = i * p.hunter_step
    v = i * p.velocity_step
    fx, fy, _, _ = evade(
        px,
        py,
        a.vel[i, 0],
        a.vel[i, 1],
        a.heading[i, 0],
        a.heading[i, 1],
        p.hunter[t, 0],
        p.hunter[t, 1],
        p.hunter_velocity[v, 0],
        p.hunter_velocity[v, 1],
        a.max_speed[i],
        a.max_force[i],
        _EVADE_PREDICTION,
        math.inf,
        p.gain,
    )
    return fx, fy


@dataclass(eq=False)
class Hide(RowPart, ArraySettings):
    """Buckland's hide: get a rock between yourself and a hunter, else evade it.

    Each rock's hiding spot lies on the far side from the hunter, ``distance_from_boundary``
    beyond its edge: ``center + unit(center - hunter) * (radius + distance_from_boundary)``.
    A spot is usable when the hunter is outside its rock, it is not inside another rock, and
    the hunter is no closer to it than the agent is (the hunter would get there first).
    Among usable spots an agent prefers those it reaches without passing closer to the hunter
    than it is now (by more than its radius), nearest first; only when there is none does it
    take the nearest usable spot. It arrives there (:class:`Arrive`), or, once deeper in the
    rock's shadow than the spot (a crowd hiding at one rock pushes some further back), at the
    point of the shadow's axis level with it: better than the seed, whose crowded hiders are
    pushed sideways out of the shadow. It evades the hunter
    (:class:`Evade`) when no spot is usable or there is no rock, and does nothing while the
    hunter is farther than ``panic_distance``.

    ``hunter`` and ``hunter_velocity`` are one point for all or one per agent.

    Fails where the geometry lies: the straight path to a spot may cross a rock (combine with
    :class:`~steering.AvoidObstacles`), and a spot may be outside the level (combine with
    :class:`~steering.Contain`). Stateless, so an agent halfway between two equally near
    spots can switch between them as the hunter moves. A row part: in a composite it is one
    per-agent function of the loop, and under a :class:`~steering.Masked` node an agent left
    out costs a test. Costs M x M (rock x rock) tests per distinct hunter for the spots, then
    N x M (agent x spot) for the choice: with one hunter for all, or per-agent hunters whose
    spots would cost more than some 65,000 tests, the spots of each distinct hunter are worked
    out before the loop; with fewer, each agent works out its own hunter's in the loop. With
    one hunter for all and some dozens of rocks or more, the spots go into a grid that each
    agent searches outward from itself until the nearest safe spot is known (the same choice,
    some 2x faster at 10,000 agents and 200 rocks; every agent's, before the loop). Fine for
    tens to a few hundred rocks (a few thousand would want a grid over the rocks for the spots,
    too).

    Debug: ``"hide.spot"`` (N, 2) the chosen spot (NaN when evading or calm), ``"hide.spots"``
    (M, 2) every rock's spot for the hunter (the first agent's hunter when there are several;
    NaN where the hunter is inside the rock).

    Raises:
        TypeError: for ``obstacles`` that are not :class:`~steering.Obstacles`, or (at the
            call) a hunter that is not points.
        ValueError: for a NaN or negative distance, panic distance or slowing radius, or (at
            the call) a hunter or velocity that is not finite points of the right shape.
    """

    ROW = hide_row
    ROW_RECORD = HideRecord
    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            hunter: ArrayLike,
            obstacles: Obstacles,
            hunter_velocity: ArrayLike = ...,
            distance_from_boundary: float = ...,
            panic_distance: float = ...,
            gain: float = ...,
            slowing_radius: float = ...,
        ) -> None: ...

        @property
        def hunter(self) -> FloatArray: ...
        @hunter.setter
        def hunter(self, value: ArrayLike) -> None: ...

        @property
        def hunter_velocity(self) -> FloatArray: ...
        @hunter_velocity.setter
        def hunter_velocity(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        hunter: ArrayLike
    obstacles: Obstacles
    if not TYPE_CHECKING:
        hunter_velocity: ArrayLike = (0.0, 0.0)
    distance_from_boundary: float = 30.0
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    CHECKS = checks(
        "Hide",
        hunter=point_array,
        hunter_velocity=point_array,
        obstacles=obstacle_set,
        distance_from_boundary=finite,
        panic_distance=size,
        gain=finite,
        slowing_radius=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> HideRecord:
        """This call's record: with one hunter for all, or per-agent hunters too many to work
        out each agent's own spots in the loop, the spots of each distinct hunter (and, for one
        hunter facing many rocks and agents, each agent's spot, searched in a grid of them).

        Raises:
            TypeError, ValueError: for a hunter or velocity that is not finite points of the
                right shape.
        """
        n = agents.n
        hunter = self.points("Hide.hunter", self.hunter, n)
        hunter_vel = self.points("Hide.hunter_velocity", self.hunter_velocity, n)
        obs = self.obstacles
        m = len(obs)
        debug_spot = np.full((n, 2), np.nan) if debug else _NO_POINTS
        if hunter.shape[0] != 1 and n * m * m <= _DEDUP_WORK:
            # Each agent works out its own hunter's spots in the loop: the record holds only
            # the call's arrays, kept while they are the same objects (read at each call).
            if debug:
                return self._record(
                    hunter, hunter_vel, _NO_SPOTS, _NO_USABLE, _NO_INDEX, debug_spot
                )
            key = (hunter, hunter_vel, obs.centers, obs.radii, *settings(self))
            return self._held(
                key,
                lambda: self._record(
                    hunter, hunter_vel, _NO_SPOTS, _NO_USABLE, _NO_INDEX, _NO_POINTS
                ),
            )
        if hunter.shape[0] == 1:
            hunters = hunter
            which = _NO_INDEX
        else:
            unique, inverse = np.unique(as_complex(hunter), return_inverse=True)
            hunters = as_rows(unique)
            which = inverse.reshape(-1).astype(np.intp)
        h = hunters.shape[0]
        spots, defined, usable = self._spots(h, m)
        spots_rows(h)(
            hunters, obs.centers, obs.radii, self.distance_from_boundary, spots, defined, usable
        )
        order = np.flatnonzero(usable[0]) if h == 1 else _NO_INDEX
        if m >= _GRID_SPOTS and n >= _GRID_AGENTS and order.size:
            points = np.ascontiguousarray(spots[0, order])
            grid = build_grid(points, spot_cell(points), None)
            picks = np.empty(n, dtype=np.intp)
            grid_picks(n)(
                agents.pos, agents.radius, hunter, spots, usable,
                SpotGrid(order, grid.ints, grid.floats, points), float(self.panic_distance), picks,
            )  # fmt: skip
            return self._record(hunter, hunter_vel, spots, usable, which, debug_spot, picks)
        if debug or h != 1:
            return self._record(hunter, hunter_vel, spots, usable, which, debug_spot)
        # One hunter for all: its spots are worked out again into the same arrays at every
        # call, so the record is kept while the call's arrays are the same objects.
        key = (hunter, hunter_vel, obs.centers, obs.radii, spots, *settings(self))
        return self._held(
            key, lambda: self._record(hunter, hunter_vel, spots, usable, _NO_INDEX, _NO_POINTS)
        )

    def report(self, agents: AgentGroup, record: HideRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.HideDebug`: the spots chosen, and every rock's spot
        for the first agent's hunter (NaN where there is none)."""
        m = record.centers.shape[0]
        every = np.full((m, 2), np.nan)
        if record.hunter.shape[0]:
            spots = np.empty((1, m, 2))
            defined = np.empty((1, m), dtype=np.bool_)
            usable = np.empty((1, m), dtype=np.bool_)
            spots_rows(1)(
                record.hunter[:1], record.centers, record.radii, record.distance, spots,
                defined, usable,
            )  # fmt: skip
            every = np.where(defined[0][:, None], spots[0], np.nan)
        write(HideDebug(record.debug_spot, every), debug)

    def _spots(
        self, h: int, m: int
    ) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
        """Arrays for ``h`` hunters' spots behind ``m`` rocks: one hunter's are the last
        call's when they have that shape (worked out again in place)."""
        if h == 1:
            kept = self.__dict__.get("_spot_arrays")
            if kept is not None and kept[0].shape[1] == m:
                return kept
        made = (
            np.empty((h, m, 2)),
            np.empty((h, m), dtype=np.bool_),
            np.empty((h, m), dtype=np.bool_),
        )
        if h == 1:
            self.__dict__["_spot_arrays"] = made
        return made

    def _held(self, key: tuple[Any, ...], make: Any) -> HideRecord:
        """The last record kept while it was made from the objects of ``key``, else ``make()``
        (kept)."""
        held = self.__dict__.get("_held_record")
        if (
            held is not None
            and len(held[0]) == len(key)
            and all(a is b for a, b in zip(held[0], key, strict=True))
        ):
            return held[1]
        record = make()
        self.__dict__["_held_record"] = (key, record)
        return record

    def _record(
        self,
        hunter: FloatArray,
        hunter_vel: FloatArray,
        spots: NDArray[np.float64],
        usable: NDArray[np.bool_],
        which: IntArray,
        debug_spot: FloatArray,
        picks: IntArray = _NO_INDEX,
    ) -> HideRecord:
        """A record of this behaviour's settings, the call's hunters, spots and picks."""
        obs = self.obstacles
        return HideRecord(
            hunter=hunter,
            hunter_step=0 if hunter.shape[0] == 1 else 1,
            hunter_velocity=hunter_vel,
            velocity_step=0 if hunter_vel.shape[0] == 1 else 1,
            centers=obs.centers,
            radii=obs.radii,
            distance=float(self.distance_from_boundary),
            spots=spots,
            usable=usable,
            which=which,
            picks=picks,
            panic_distance=float(self.panic_distance),
            gain=float(self.gain),
            slowing_radius=float(self.slowing_radius),
            debug_spot=debug_spot,
        )
