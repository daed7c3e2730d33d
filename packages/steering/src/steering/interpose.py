"""Buckland's interpose: get between two movers, at the point their predicted positions
will hold. The behaviour (:class:`Interpose`), its per-agent maths (:func:`interpose`, public
for fused loops: :mod:`steering.kernels`), its record and its per-agent function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._checks import finite, non_negative, point_array
from ._jit import njit_inline
from ._kern import hypot
from .agents import AgentGroup
from .base import ARRIVE_BRAKE, DEFAULT_GAIN, Debug
from .basic import arrive
from .checked import ArraySettings, checks
from .composite import AgentCols, RowPart, row_function
from .debug import InterposeDebug, write
from .vec import EPSILON, FloatArray

__all__ = ["Interpose", "InterposeRecord", "interpose", "interpose_agent", "interpose_row"]


class InterposeRecord(NamedTuple):
    """:class:`Interpose`'s movers and parameters for one call. Each point array is (1, 2),
    one for every agent, or (N, 2), one per agent; its step is 0 or 1 (agent ``i`` reads row
    ``i * step``)."""

    a: FloatArray
    """The first mover's position."""
    a_step: int
    b: FloatArray
    """The second mover's position."""
    b_step: int
    a_velocity: FloatArray
    """The first mover's velocity, px/s."""
    a_velocity_step: int
    b_velocity: FloatArray
    """The second mover's velocity, px/s."""
    b_velocity_step: int
    ratio: float
    """Where between them: 0 at ``a``, 1 at ``b``."""
    gain: float
    """1/s."""
    slowing_radius: float
    """Arrive's slowing radius, px."""
    debug: FloatArray
    """(N, 2) the point each agent arrives at when debug output is asked, else (0, 2)."""


@row_function
def interpose_agent(i: int, a: AgentCols, p: InterposeRecord) -> tuple[float, float]:
    """Agent ``i``'s interpose force (see :func:`interpose`); its debug row when asked."""
    ia, ib = i * p.a_step, i * p.b_step
    iva, ivb = i * p.a_velocity_step, i * p.b_velocity_step
    fx, fy, tx, ty = interpose(
        a.pos[i, 0],
        a.pos[i, 1],
        a.vel[i, 0],
        a.vel[i, 1],
        (p.a[ia, 0], p.a[ia, 1], p.a_velocity[iva, 0], p.a_velocity[iva, 1]),
        (p.b[ib, 0], p.b[ib, 1], p.b_velocity[ivb, 0], p.b_velocity[ivb, 1]),
        p.ratio,
        a.max_speed[i],
        a.max_force[i],
        p.gain,
        p.slowing_radius,
    )
    if p.debug.shape[0] > 0:
        p.debug[i, 0] = tx
        p.debug[i, 1] = ty
    return fx, fy


@row_function
def interpose_row(i: int, a: AgentCols, p: InterposeRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s interpose force in a composite."""
    return interpose_agent(i, a, p)


@dataclass(eq=False)
class Interpose(RowPart, ArraySettings):
    """Buckland's interpose: get between two movers, ``ratio`` of the way from ``a`` to ``b``.

    The time to reach the point between them now at max speed, ``t = |point - pos| /
    max_speed``, predicts where each will be; the agent arrives at the point ``ratio`` of the
    way between the predictions. It arrives in the frame that moves with that point (whose
    velocity is the same blend of ``a_velocity`` and ``b_velocity``), so between two movers
    going the same way it keeps up with the point instead of trailing it. Each of ``a``, ``b``
    and their velocities is one point for all or one per agent; ``ratio`` outside [0, 1]
    extrapolates beyond them.

    Fails when the point moves faster than the agent (it falls behind), and a straight
    prediction misleads when the movers turn sharply. An agent with no max speed predicts
    nothing (``t = 0``).

    Debug: ``"interpose.point"`` (N, 2) the point it arrives at.

    Raises:
        TypeError, ValueError: for a NaN ratio, gain or slowing radius (a negative one), or
            (at the call) movers or velocities that are not finite points of the right shape.
    """

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            a: ArrayLike,
            b: ArrayLike,
            a_velocity: ArrayLike = ...,
            b_velocity: ArrayLike = ...,
            ratio: float = ...,
            gain: float = ...,
            slowing_radius: float = ...,
        ) -> None: ...

        @property
        def a(self) -> FloatArray: ...
        @a.setter
        def a(self, value: ArrayLike) -> None: ...

        @property
        def b(self) -> FloatArray: ...
        @b.setter
        def b(self, value: ArrayLike) -> None: ...

        @property
        def a_velocity(self) -> FloatArray: ...
        @a_velocity.setter
        def a_velocity(self, value: ArrayLike) -> None: ...

        @property
        def b_velocity(self) -> FloatArray: ...
        @b_velocity.setter
        def b_velocity(self, value: ArrayLike) -> None: ...

    ROW = interpose_row
    ROW_RECORD = InterposeRecord

    if not TYPE_CHECKING:
        a: ArrayLike
    if not TYPE_CHECKING:
        b: ArrayLike
    if not TYPE_CHECKING:
        a_velocity: ArrayLike = (0.0, 0.0)
    if not TYPE_CHECKING:
        b_velocity: ArrayLike = (0.0, 0.0)
    ratio: float = 0.5
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    CHECKS = checks(
        "Interpose",
        a=point_array,
        b=point_array,
        a_velocity=point_array,
        b_velocity=point_array,
        ratio=finite,
        gain=finite,
        slowing_radius=non_negative,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> InterposeRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for movers or velocities that are not finite points of the
                right shape.
        """
        n = agents.n
        a = self.points("Interpose.a", self.a, n)
        b = self.points("Interpose.b", self.b, n)
        va = self.points("Interpose.a_velocity", self.a_velocity, n)
        vb = self.points("Interpose.b_velocity", self.b_velocity, n)
        return InterposeRecord(
            a,
            _step(a),
            b,
            _step(b),
            va,
            _step(va),
            vb,
            _step(vb),
            self.ratio,
            self.gain,
            self.slowing_radius,
            np.full((n, 2), np.nan) if debug else _NO_DEBUG,
        )

    def report(self, agents: AgentGroup, record: InterposeRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.InterposeDebug`."""
        write(InterposeDebug(record.debug), debug)


def _step(points: FloatArray) -> int:
    """0 for one point shared by every agent, 1 for a point per agent."""
    return 0 if points.shape[0] == 1 else 1


_NO_DEBUG = np.zeros((0, 2))


@njit_inline
def interpose(
    px: float,
    py: float,
    vx: float,
    vy: float,
    a: tuple[float, float, float, float],
    b: tuple[float, float, float, float],
    r: float,
    speed: float,
    max_force: float,
    gain: float,
    slowing_radius: float,
) -> tuple[float, float, float, float]:
    """:class:`Interpose`'s force for one agent, and the point it heads for: (fx, fy, x, y).
    ``a`` and ``b`` are the two ends, each (x, y, vx, vy); ``r`` the ratio from ``a``."""
    ax, ay, vax, vay = a
    bx, by, vbx, vby = b
    nowx = ax + (bx - ax) * r
    nowy = ay + (by - ay) * r
    t = hypot(nowx - px, nowy - py) / speed if speed > EPSILON else 0.0
    pax = ax + vax * t
    pay = ay + vay * t
    pbx = bx + vbx * t
    pby = by + vby * t
    tx = pax + (pbx - pax) * r
    ty = pay + (pby - pay) * r
    # Arrive in the frame that moves with the point.
    tvx = vax + (vbx - vax) * r
    tvy = vay + (vby - vay) * r
    fx, fy = arrive(
        px, py, vx - tvx, vy - tvy, tx, ty, speed, max_force, slowing_radius, gain, ARRIVE_BRAKE
    )
    return fx, fy, tx, ty
