"""The single-target behaviours: seek, flee, arrive, pursue and evade (wander and containment,
which have files of their own, are re-exported here).

Each behaviour's maths is written once, per agent, as a compiled kernel over
plain floats; ``__call__`` checks its arguments, allocates the output and runs the kernel.

Why one file: the five share their per-agent maths (Evade flees, Pursue and Evade predict with
:func:`prediction_time`) and their record helpers, and the composites' generated loops name
their rows by this module; some 80 of its lines are the typing-only declarations that read
each target back as an array (``if TYPE_CHECKING``). Splitting Pursue and Evade out is the
next step if it grows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import finite, non_negative, point_array, size
from ._jit import njit, njit_inline
from ._kern import hypot
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .checked import ArraySettings, checks
from .composite import AgentCols, RowPart, row_function
from .contain import Contain
from .debug import ArriveDebug, EvadeDebug, PursueDebug, SeekDebug, write
from .records import Held
from .vec import FloatArray
from .wander import Wander

__all__ = ["Arrive", "Contain", "Evade", "Flee", "Pursue", "Seek", "Wander"]


class SeekRecord(NamedTuple):
    """:class:`Seek`'s parameters for one call."""

    target: FloatArray
    """(1, 2) one point for every agent, or (N, 2) one per agent."""
    target_step: int
    """0 for one point, 1 for a point per agent (the target's row is ``i * target_step``)."""
    gain: float
    """1/s."""
    debug_target: FloatArray
    """(N, 2) each agent's target when debug output is asked, else (0, 2)."""


@row_function
def seek_row(i: int, a: AgentCols, p: SeekRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s seek force: full speed toward its target."""
    t = i * p.target_step
    tx = p.target[t, 0]
    ty = p.target[t, 1]
    if p.debug_target.shape[0] > 0:
        p.debug_target[i, 0] = tx
        p.debug_target[i, 1] = ty
    dx, dy = kern.set_length(tx - a.pos[i, 0], ty - a.pos[i, 1], a.max_speed[i])
    return kern.steer(dx, dy, a.vel[i, 0], a.vel[i, 1], p.gain, a.max_force[i])


@dataclass(eq=False)
class Seek(RowPart, ArraySettings):
    """Steer at full speed toward a target point (one point for all, or one per agent).

    Overshoots and circles a target it reaches; use :class:`Arrive` to stop on it.

    Attributes:
        target: a point ``(x, y)`` for every agent, or (N, 2) points, one per agent.
        gain: how fast the steer closes the gap to the desired velocity (1/s).
    """

    ROW = seek_row
    ROW_RECORD = SeekRecord
    KEPT_BY_HELD = True

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(self, target: ArrayLike, gain: float = ...) -> None: ...

        @property
        def target(self) -> FloatArray: ...
        @target.setter
        def target(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        target: ArrayLike
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "Seek",
        target=point_array,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> SeekRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for a target that is not finite points of the right shape.
        """
        n = agents.n
        tgt = self.points("Seek.target", self.target, n)
        if debug:
            gain = _real("Seek.gain", self.gain)
            return SeekRecord(tgt, _step_of(tgt), gain, _debug_points(n, debug))
        # Kept while the target's array and the gain are the same objects.
        held = self.__dict__.get("_held")
        if held is None:
            held = self.__dict__["_held"] = Held()
        stamp = (tgt, self.gain)
        record = held.get(stamp, 0.0)
        if record is None:
            gain = _real("Seek.gain", self.gain)
            record = held.put(stamp, 0.0, SeekRecord(tgt, _step_of(tgt), gain, _NO_POINTS))
        return record

    def kept(self, agents: AgentGroup, record: SeekRecord) -> bool:
        """The record holds while it is the one kept and the target cannot change in place
        (a point or points given as numbers: frozen when assigned); a target array the caller
        owns is checked again at every call."""
        t = self.target
        if type(t) is not np.ndarray or type(t.base) is not bytes:
            return False
        held = self.__dict__.get("_held")
        return held is not None and held.record is record

    def report(self, agents: AgentGroup, record: SeekRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.SeekDebug`."""
        write(SeekDebug(record.debug_target), debug)


def _real(name: str, value: Any) -> float:
    """A number field at the call: as it is when a finite float (checked cheaply, as it may
    have been assigned since construction), else checked by name."""
    if type(value) is float and math.isfinite(value):
        return value
    return finite(name, value)


def _size(name: str, value: Any) -> float:
    """A field that must be a number >= 0 (inf allowed), checked as :func:`_real`."""
    if type(value) is float and value >= 0.0:
        return value
    return non_negative(name, value, allow_inf=True)


def _step_of(points: FloatArray) -> int:
    """0 for one point shared by every agent, 1 for a point per agent."""
    return 0 if points.shape[0] == 1 else 1


_NO_POINTS = np.zeros((0, 2))


def _debug_points(n: int, debug: bool) -> FloatArray:
    """An (n, 2) debug buffer of NaN (rows an agent skips stay NaN), or none."""
    return np.full((n, 2), np.nan) if debug else _NO_POINTS


# -- per-agent maths shared by the kernels (and by steering.targets) -------------------------


@njit
def flee(
    px: float,
    py: float,
    vx: float,
    vy: float,
    hx: float,
    hy: float,
    tx: float,
    ty: float,
    max_speed: float,
    max_force: float,
    panic: float,
    gain: float,
) -> tuple[float, float]:
    """Flee from (tx, ty) at max speed within ``panic`` of it (zero beyond); an agent on the
    point flees along its heading (hx, hy)."""
    ax = px - tx
    ay = py - ty
    if not hypot(ax, ay) < panic:
        return 0.0, 0.0
    ux, uy, ok = kern.unit(ax, ay)
    if not ok:
        ux, uy = hx, hy
    return kern.steer(ux * max_speed, uy * max_speed, vx, vy, gain, max_force)


@njit
def arrive(
    px: float,
    py: float,
    vx: float,
    vy: float,
    tx: float,
    ty: float,
    max_speed: float,
    max_force: float,
    slowing_radius: float,
    gain: float,
    brake_fraction: float,
) -> tuple[float, float]:
    """:class:`Arrive`'s force for one agent at (px, py) moving (vx, vy) toward (tx, ty)."""
    dx = tx - px
    dy = ty - py
    dist = hypot(dx, dy)
    slow = max(slowing_radius, 1e-6)
    speed = min(max_speed, max_speed * dist / slow)
    speed = min(speed, math.sqrt(2.0 * brake_fraction * max_force * dist))
    wx, wy = kern.set_length(dx, dy, speed)
    return kern.steer(wx, wy, vx, vy, max(gain, 4.0 * max_speed / slow), max_force)


@njit
def prediction_time(dist: float, max_speed: float, target_speed: float, max_time: float) -> float:
    """How far ahead to predict a mover ``dist`` away: dist / (own max speed + its speed),
    at most ``max_time``; 0 when neither moves."""
    closing = max_speed + target_speed
    t = dist / closing if closing > 1e-9 else 0.0
    return min(t, max_time)


class FleeRecord(NamedTuple):
    """:class:`Flee`'s parameters for one call."""

    target: FloatArray
    """(1, 2) or (N, 2) points to flee from."""
    target_step: int
    """0 for one point, 1 for a point per agent."""
    panic_distance: float
    """px; inf: always."""
    gain: float
    """1/s."""


@row_function
def flee_row(i: int, a: AgentCols, p: FleeRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s flee force (see :func:`flee`)."""
    t = i * p.target_step
    return flee(
        a.pos[i, 0],
        a.pos[i, 1],
        a.vel[i, 0],
        a.vel[i, 1],
        a.heading[i, 0],
        a.heading[i, 1],
        p.target[t, 0],
        p.target[t, 1],
        a.max_speed[i],
        a.max_force[i],
        p.panic_distance,
        p.gain,
    )


@dataclass(eq=False)
class Flee(RowPart, ArraySettings):
    """Steer at full speed away from a point, only within ``panic_distance`` (inf: always).

    An agent exactly on the point has no away direction and flees along its heading.
    """

    ROW = flee_row
    ROW_RECORD = FleeRecord

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            target: ArrayLike,
            panic_distance: float = ...,
            gain: float = ...,
        ) -> None: ...

        @property
        def target(self) -> FloatArray: ...
        @target.setter
        def target(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        target: ArrayLike
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "Flee",
        target=point_array,
        panic_distance=size,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> FleeRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for a target that is not finite points of the right shape.
        """
        tgt = self.points("Flee.target", self.target, agents.n)
        panic = _size("Flee.panic_distance", self.panic_distance)
        return FleeRecord(tgt, _step_of(tgt), panic, _real("Flee.gain", self.gain))


class ArriveRecord(NamedTuple):
    """:class:`Arrive`'s parameters for one call."""

    target: FloatArray
    """(1, 2) or (N, 2) points to stop on."""
    target_step: int
    """0 for one point, 1 for a point per agent."""
    slowing_radius: float
    """px."""
    gain: float
    """1/s."""
    brake_fraction: float
    """Fraction of max force budgeted for braking."""
    debug_target: FloatArray
    """(N, 2) each agent's target when debug output is asked, else (0, 2)."""


@row_function
def arrive_row(i: int, a: AgentCols, p: ArriveRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s arrive force (see :func:`arrive`)."""
    t = i * p.target_step
    tx = p.target[t, 0]
    ty = p.target[t, 1]
    if p.debug_target.shape[0] > 0:
        p.debug_target[i, 0] = tx
        p.debug_target[i, 1] = ty
    return arrive(
        a.pos[i, 0],
        a.pos[i, 1],
        a.vel[i, 0],
        a.vel[i, 1],
        tx,
        ty,
        a.max_speed[i],
        a.max_force[i],
        p.slowing_radius,
        p.gain,
        p.brake_fraction,
    )


@dataclass(eq=False)
class Arrive(RowPart, ArraySettings):
    """Seek that slows inside ``slowing_radius`` and stops on the target without overshoot.

    Better than the textbook arrive: the desired speed is also capped by what max force can
    brake (``sqrt(2 * a * d)``), and the gain is raised to critical damping of the linear
    approach (``4 * max_speed / slowing_radius``), so there is no overshoot or oscillation
    whatever the limits. Fails only when the target moves faster than the agent.
    """

    ROW = arrive_row
    ROW_RECORD = ArriveRecord

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            target: ArrayLike,
            slowing_radius: float = ...,
            gain: float = ...,
            brake_fraction: float = ...,
        ) -> None: ...

        @property
        def target(self) -> FloatArray: ...
        @target.setter
        def target(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        target: ArrayLike
    slowing_radius: float = 100.0
    gain: float = DEFAULT_GAIN
    #: Fraction of max force budgeted for braking.
    brake_fraction: float = 0.8

    CHECKS = checks(
        "Arrive",
        target=point_array,
        slowing_radius=non_negative,
        gain=finite,
        brake_fraction=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> ArriveRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for a target that is not finite points of the right shape.
        """
        n = agents.n
        tgt = self.points("Arrive.target", self.target, n)
        return ArriveRecord(
            tgt,
            _step_of(tgt),
            _size("Arrive.slowing_radius", self.slowing_radius),
            _real("Arrive.gain", self.gain),
            _size("Arrive.brake_fraction", self.brake_fraction),
            _debug_points(n, debug),
        )

    def report(self, agents: AgentGroup, record: ArriveRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.ArriveDebug`."""
        write(ArriveDebug(record.debug_target), debug)


class PursueRecord(NamedTuple):
    """:class:`Pursue`'s (and :class:`Evade`'s) parameters for one call."""

    target: FloatArray
    """(1, 2) or (N, 2) positions of the target."""
    target_step: int
    """0 for one target, 1 for one per agent."""
    target_velocity: FloatArray
    """(1, 2) or (N, 2) its velocity, px/s."""
    velocity_step: int
    """0 for one velocity, 1 for one per agent."""
    max_prediction: float
    """s."""
    panic_distance: float
    """px (Evade only; inf for Pursue)."""
    gain: float
    """1/s."""
    debug_predicted: FloatArray
    """(N, 2) the predicted positions when debug output is asked, else (0, 2)."""


@row_function
def pursue_row(i: int, a: AgentCols, p: PursueRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s pursuit force (see :func:`pursue`)."""
    t = i * p.target_step
    v = i * p.velocity_step
    fx, fy, qx, qy = pursue(
        a.pos[i, 0],
        a.pos[i, 1],
        a.vel[i, 0],
        a.vel[i, 1],
        p.target[t, 0],
        p.target[t, 1],
        p.target_velocity[v, 0],
        p.target_velocity[v, 1],
        a.max_speed[i],
        a.max_force[i],
        p.max_prediction,
        p.gain,
    )
    if p.debug_predicted.shape[0] > 0:
        p.debug_predicted[i, 0] = qx
        p.debug_predicted[i, 1] = qy
    return fx, fy


def _pursuit(b: Any, name: str, agents: AgentGroup, panic: float, debug: bool) -> PursueRecord:
    """The record of :class:`Pursue` or :class:`Evade` (``b``, named ``name``) for one call."""
    n = agents.n
    tgt = b.points(f"{name}.target", b.target, n)
    tvel = b.points(f"{name}.target_velocity", b.target_velocity, n)
    return PursueRecord(
        tgt,
        _step_of(tgt),
        tvel,
        _step_of(tvel),
        _size(f"{name}.max_prediction", b.max_prediction),
        panic,
        _real(f"{name}.gain", b.gain),
        _debug_points(n, debug),
    )


@dataclass(eq=False)
class Pursue(RowPart, ArraySettings):
    """Seek where a moving target will be: its position plus velocity times a prediction time.

    The prediction time is distance / (own max speed + target speed), capped at
    ``max_prediction`` so a far target is not led by absurd amounts.
    """

    ROW = pursue_row
    ROW_RECORD = PursueRecord

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            target: ArrayLike,
            target_velocity: ArrayLike = ...,
            max_prediction: float = ...,
            gain: float = ...,
        ) -> None: ...

        @property
        def target(self) -> FloatArray: ...
        @target.setter
        def target(self, value: ArrayLike) -> None: ...

        @property
        def target_velocity(self) -> FloatArray: ...
        @target_velocity.setter
        def target_velocity(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        target: ArrayLike
    if not TYPE_CHECKING:
        target_velocity: ArrayLike = (0.0, 0.0)
    max_prediction: float = 1.5
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "Pursue",
        target=point_array,
        target_velocity=point_array,
        max_prediction=non_negative,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> PursueRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for a target or velocity that is not finite points of the
                right shape.
        """
        return _pursuit(self, "Pursue", agents, math.inf, debug)

    def report(self, agents: AgentGroup, record: PursueRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.PursueDebug`."""
        write(PursueDebug(record.debug_predicted), debug)


@njit_inline
def pursue(
    px: float,
    py: float,
    vx: float,
    vy: float,
    tx: float,
    ty: float,
    tvx: float,
    tvy: float,
    max_speed: float,
    max_force: float,
    max_prediction: float,
    gain: float,
) -> tuple[float, float, float, float]:
    """:class:`Pursue`'s force for one agent, and the point it heads for: (fx, fy, x, y)."""
    ahead = prediction_time(hypot(tx - px, ty - py), max_speed, hypot(tvx, tvy), max_prediction)
    qx = tx + tvx * ahead
    qy = ty + tvy * ahead
    dx, dy = kern.set_length(qx - px, qy - py, max_speed)
    fx, fy = kern.steer(dx, dy, vx, vy, gain, max_force)
    return fx, fy, qx, qy


@row_function
def evade_row(i: int, a: AgentCols, p: PursueRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s evasion force (see :func:`evade`)."""
    t = i * p.target_step
    v = i * p.velocity_step
    fx, fy, qx, qy = evade(
        a.pos[i, 0],
        a.pos[i, 1],
        a.vel[i, 0],
        a.vel[i, 1],
        a.heading[i, 0],
        a.heading[i, 1],
        p.target[t, 0],
        p.target[t, 1],
        p.target_velocity[v, 0],
        p.target_velocity[v, 1],
        a.max_speed[i],
        a.max_force[i],
        p.max_prediction,
        p.panic_distance,
        p.gain,
    )
    if p.debug_predicted.shape[0] > 0:
        p.debug_predicted[i, 0] = qx
        p.debug_predicted[i, 1] = qy
    return fx, fy


@dataclass(eq=False)
class Evade(RowPart, ArraySettings):
    """Flee from where a moving threat will be; only within ``panic_distance``."""

    ROW = evade_row
    ROW_RECORD = PursueRecord

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            target: ArrayLike,
            target_velocity: ArrayLike = ...,
            max_prediction: float = ...,
            panic_distance: float = ...,
            gain: float = ...,
        ) -> None: ...

        @property
        def target(self) -> FloatArray: ...
        @target.setter
        def target(self, value: ArrayLike) -> None: ...

        @property
        def target_velocity(self) -> FloatArray: ...
        @target_velocity.setter
        def target_velocity(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        target: ArrayLike
    if not TYPE_CHECKING:
        target_velocity: ArrayLike = (0.0, 0.0)
    max_prediction: float = 1.5
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "Evade",
        target=point_array,
        target_velocity=point_array,
        max_prediction=non_negative,
        panic_distance=size,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> PursueRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for a target or velocity that is not finite points of the
                right shape.
        """
        return _pursuit(
            self, "Evade", agents, _size("Evade.panic_distance", self.panic_distance), debug
        )

    def report(self, agents: AgentGroup, record: PursueRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.EvadeDebug`."""
        write(EvadeDebug(record.debug_predicted), debug)


@njit
def evade(
    px: float,
    py: float,
    vx: float,
    vy: float,
    hx: float,
    hy: float,
    tx: float,
    ty: float,
    tvx: float,
    tvy: float,
    max_speed: float,
    max_force: float,
    max_prediction: float,
    panic: float,
    gain: float,
) -> tuple[float, float, float, float]:
    """:class:`Evade` for one agent: the force, then the threat's predicted position."""
    ahead = prediction_time(hypot(tx - px, ty - py), max_speed, hypot(tvx, tvy), max_prediction)
    qx = tx + tvx * ahead
    qy = ty + tvy * ahead
    fx, fy = flee(px, py, vx, vy, hx, hy, qx, qy, max_speed, max_force, panic, gain)
    return fx, fy, qx, qy
