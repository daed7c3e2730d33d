"""Buckland's interpose: get between two movers, at the point their predicted positions
will hold. The behaviour (:class:`Interpose`), its per-agent maths (:func:`interpose`, public
for fused loops: :mod:`steering.kernels`) and its loop over agents."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._checks import fast_points, finite, non_negative
from ._jit import njit_inline, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import ARRIVE_BRAKE, DEFAULT_GAIN, Debug
from .basic import arrive
from .debug import InterposeDebug, write
from .vec import EPSILON, FloatArray

__all__ = ["Interpose", "interpose"]


@dataclass
class Interpose:
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

    a: ArrayLike
    b: ArrayLike
    a_velocity: ArrayLike = (0.0, 0.0)
    b_velocity: ArrayLike = (0.0, 0.0)
    ratio: float = 0.5
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __post_init__(self) -> None:
        self.ratio = finite("Interpose.ratio", self.ratio)
        self.gain = finite("Interpose.gain", self.gain)
        self.slowing_radius = non_negative("Interpose.slowing_radius", self.slowing_radius)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the predicted point between ``a`` and ``b``."""
        n = agents.n
        a = fast_points("Interpose.a", self.a, n)
        b = fast_points("Interpose.b", self.b, n)
        va = fast_points("Interpose.a_velocity", self.a_velocity, n)
        vb = fast_points("Interpose.b_velocity", self.b_velocity, n)
        point = np.empty((n, 2))
        out = np.empty((n, 2))
        _interpose_rows(n)(
            agents.pos,
            agents.vel,
            agents.max_speed,
            agents.max_force,
            a,
            b,
            va,
            vb,
            self.ratio,
            self.gain,
            self.slowing_radius,
            point,
            out,
        )
        if debug is not None:
            write(InterposeDebug(point), debug)
        return out


@rows_kernel
def _interpose_rows(
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    a: FloatArray,
    b: FloatArray,
    a_vel: FloatArray,
    b_vel: FloatArray,
    r: float,
    gain: float,
    slowing_radius: float,
    point: FloatArray,
    out: FloatArray,
) -> None:
    sa = 0 if a.shape[0] == 1 else 1
    sb = 0 if b.shape[0] == 1 else 1
    sva = 0 if a_vel.shape[0] == 1 else 1
    svb = 0 if b_vel.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        ia, ib, iva, ivb = i * sa, i * sb, i * sva, i * svb
        out[i, 0], out[i, 1], point[i, 0], point[i, 1] = interpose(
            pos[i, 0],
            pos[i, 1],
            vel[i, 0],
            vel[i, 1],
            a[ia, 0],
            a[ia, 1],
            b[ib, 0],
            b[ib, 1],
            a_vel[iva, 0],
            a_vel[iva, 1],
            b_vel[ivb, 0],
            b_vel[ivb, 1],
            r,
            max_speed[i],
            max_force[i],
            gain,
            slowing_radius,
        )


@njit_inline
def interpose(
    px: float,
    py: float,
    vx: float,
    vy: float,
    ax: float,
    ay: float,
    bx: float,
    by: float,
    vax: float,
    vay: float,
    vbx: float,
    vby: float,
    r: float,
    speed: float,
    max_force: float,
    gain: float,
    slowing_radius: float,
) -> tuple[float, float, float, float]:
    """:class:`Interpose`'s force for one agent, and the point it heads for: (fx, fy, x, y)."""
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
