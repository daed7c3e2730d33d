"""Buckland's offset pursuit: hold a slot fixed in a leader's frame, and the formations'
slot layouts. The behaviour (:class:`OffsetPursuit`), its per-agent maths
(:func:`offset_pursuit`, public for fused loops: :mod:`steering.kernels`), its loop over agents
and :func:`formation_offsets`."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import fast_points, finite, non_negative, point_array, time_step
from ._jit import njit_inline, njit_leaf, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import ARRIVE_BRAKE, DEFAULT_GAIN, Debug
from .basic import arrive
from .checked import ArraySettings, Checked, checks
from .debug import OffsetDebug, write
from .vec import EPSILON, FloatArray

__all__ = ["MAX_SLOTS", "OffsetPursuit", "formation_offsets", "offset_pursuit"]

_KINDS = ("circle", "column", "line", "wedge")


@dataclass(eq=False)
class OffsetPursuit(Checked, ArraySettings):
    """Buckland's offset pursuit: hold a slot fixed in a leader's frame (formations, escorts).

    ``offset`` is in the leader's frame, x ahead along ``leader_heading`` and y to its left;
    the slot in the world is ``leader + R(heading) @ offset``. The agent looks ahead
    ``t = |slot - pos| / (max_speed + |leader_velocity|)`` and arrives at ``slot +
    leader_velocity * t``, in the frame that moves with the leader, so once on its slot it
    keeps the leader's velocity instead of trailing by Arrive's slowing distance. A zero
    heading falls back to the leader's velocity direction, then to +x. Every argument is one
    value for all or one per agent (followers of several leaders); see
    :func:`formation_offsets` for slot layouts.

    Fails when the leader is faster than the follower, and while the leader turns: a slot
    away from the leader then moves faster (outside the turn) or slower than the leader, and
    the follower lags by about that difference times ``slowing_radius / max_speed``. Slots are
    not checked against rocks or each other: combine with separation and obstacle avoidance.

    Debug: ``"offset.slot"`` (N, 2) each slot in the world.

    Raises:
        TypeError, ValueError: for a NaN gain or a negative slowing radius, or (at the call)
            a leader, velocity, heading or offset that is not finite points of the right shape.
    """

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(
            self,
            leader: ArrayLike,
            leader_velocity: ArrayLike,
            leader_heading: ArrayLike,
            offset: ArrayLike,
            gain: float = ...,
            slowing_radius: float = ...,
        ) -> None: ...

        @property
        def leader(self) -> FloatArray: ...
        @leader.setter
        def leader(self, value: ArrayLike) -> None: ...

        @property
        def leader_velocity(self) -> FloatArray: ...
        @leader_velocity.setter
        def leader_velocity(self, value: ArrayLike) -> None: ...

        @property
        def leader_heading(self) -> FloatArray: ...
        @leader_heading.setter
        def leader_heading(self, value: ArrayLike) -> None: ...

        @property
        def offset(self) -> FloatArray: ...
        @offset.setter
        def offset(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        leader: ArrayLike
    if not TYPE_CHECKING:
        leader_velocity: ArrayLike
    if not TYPE_CHECKING:
        leader_heading: ArrayLike
    if not TYPE_CHECKING:
        offset: ArrayLike
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    CHECKS = checks(
        "OffsetPursuit",
        leader=point_array,
        leader_velocity=point_array,
        leader_heading=point_array,
        offset=point_array,
        gain=finite,
        slowing_radius=non_negative,
    )

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces that bring each agent to its slot beside the leader."""
        time_step("OffsetPursuit", dt)
        n = agents.n
        leader = fast_points("OffsetPursuit.leader", self.leader, n)
        lvel = fast_points("OffsetPursuit.leader_velocity", self.leader_velocity, n)
        heading = fast_points("OffsetPursuit.leader_heading", self.leader_heading, n)
        offset = fast_points("OffsetPursuit.offset", self.offset, n)
        slot = np.empty((n, 2))
        out = np.empty((n, 2))
        _offset_rows(n)(
            agents.pos,
            agents.vel,
            agents.max_speed,
            agents.max_force,
            leader,
            lvel,
            heading,
            offset,
            self.gain,
            self.slowing_radius,
            slot,
            out,
        )
        if debug is not None:
            write(OffsetDebug(slot), debug)
        return out


@rows_kernel
def _offset_rows(
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    leader: FloatArray,
    leader_vel: FloatArray,
    leader_heading: FloatArray,
    offset: FloatArray,
    gain: float,
    slowing_radius: float,
    slot: FloatArray,
    out: FloatArray,
) -> None:
    sl = 0 if leader.shape[0] == 1 else 1
    sv = 0 if leader_vel.shape[0] == 1 else 1
    sh = 0 if leader_heading.shape[0] == 1 else 1
    so = 0 if offset.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        il, iv, ih, io = i * sl, i * sv, i * sh, i * so
        out[i, 0], out[i, 1], slot[i, 0], slot[i, 1] = offset_pursuit(
            pos[i, 0],
            pos[i, 1],
            vel[i, 0],
            vel[i, 1],
            leader[il, 0],
            leader[il, 1],
            leader_vel[iv, 0],
            leader_vel[iv, 1],
            leader_heading[ih, 0],
            leader_heading[ih, 1],
            offset[io, 0],
            offset[io, 1],
            max_speed[i],
            max_force[i],
            gain,
            slowing_radius,
        )


@njit_inline
def offset_pursuit(
    px: float,
    py: float,
    vx: float,
    vy: float,
    lx: float,
    ly: float,
    lvx: float,
    lvy: float,
    lhx: float,
    lhy: float,
    ox: float,
    oy: float,
    max_speed: float,
    max_force: float,
    gain: float,
    slowing_radius: float,
) -> tuple[float, float, float, float]:
    """:class:`OffsetPursuit`'s force for one agent, and its slot now: (fx, fy, x, y)."""
    fx, fy, moving = kern.unit(lvx, lvy)
    if not moving:
        fx, fy = 1.0, 0.0
    hx, hy, ok = kern.unit(lhx, lhy)
    if not ok:
        hx, hy = fx, fy
    # The offset turned from the leader's frame into the world.
    sx = lx + (hx * ox - hy * oy)
    sy = ly + (hx * oy + hy * ox)
    closing = max_speed + hypot(lvx, lvy)
    t = hypot(sx - px, sy - py) / closing if closing > EPSILON else 0.0
    # Arrive where the slot will be, in the frame that moves with the leader.
    gx, gy = arrive(
        px,
        py,
        vx - lvx,
        vy - lvy,
        sx + lvx * t,
        sy + lvy * t,
        max_speed,
        max_force,
        slowing_radius,
        gain,
        ARRIVE_BRAKE,
    )
    return gx, gy, sx, sy


#: The most slots :func:`formation_offsets` makes: ten million (160 MB of (x, y) floats). A
#: count above it is refused before anything is allocated.
MAX_SLOTS = 10_000_000


def formation_offsets(kind: str, n: int, spacing: float) -> FloatArray:
    """Slots for ``n`` followers in a leader's frame (x ahead, y left) for :class:`OffsetPursuit`.

    Args:
        kind: ``"line"`` side by side, centerd, one ``spacing`` behind the leader, left to
            right; ``"column"`` one behind another, ``spacing`` apart; ``"wedge"`` a V behind
            the leader at 45 degrees, alternating left and right, each slot ``spacing`` from the
            one before it on its arm (the leader heads both arms); ``"circle"`` a ring around the
            leader, the first slot straight behind, counter-clockwise, neighbours ``spacing``
            apart, or farther for n < 6 so no slot is nearer than ``spacing`` to the leader.
        n: number of slots, >= 0 and at most :data:`MAX_SLOTS` (ten million: 160 MB of
            slots; a larger count is a mistake, not a formation).
        spacing: distance between neighbouring slots, finite and > 0.

    Returns:
        An (n, 2) float array.

    Raises:
        ValueError: on an unknown kind, a negative or non-integer ``n``, an ``n`` above
            :data:`MAX_SLOTS`, or a spacing that is not a finite number > 0.
    """
    if not isinstance(kind, str) or kind not in _KINDS:
        raise ValueError(f"formation kind: expected one of {', '.join(_KINDS)}, got {kind!r}")
    try:
        if isinstance(n, bool):
            raise TypeError
        count = operator.index(n)
    except TypeError:
        raise ValueError(f"formation n: expected a whole number >= 0, got {n!r}") from None
    if count < 0:
        raise ValueError(f"formation n: expected a whole number >= 0, got {count}")
    if count > MAX_SLOTS:
        raise ValueError(
            f"formation n: at most {MAX_SLOTS:,} slots (MAX_SLOTS), got {count:,}; "
            "make a formation per group instead"
        )
    try:
        s = float(spacing)
    except (TypeError, ValueError):
        raise ValueError(f"formation spacing: expected a number > 0, got {spacing!r}") from None
    if not (math.isfinite(s) and s > 0.0):
        raise ValueError(f"formation spacing: expected a finite number > 0, got {s!r}")
    out = np.empty((count, 2))
    _formation(_KINDS.index(kind), s, out)
    return out


@njit_leaf
def _formation(kind: int, s: float, out: FloatArray) -> None:
    """Slots of formation ``_KINDS[kind]`` with spacing ``s``, one per row of ``out``."""
    count = out.shape[0]
    half = (count - 1) / 2.0
    step = s / math.sqrt(2.0)
    radius = s if count < 6 else s / (2.0 * math.sin(math.pi / count))
    for i in range(count):
        if kind == 2:  # line
            out[i, 0] = -s
            out[i, 1] = (half - i) * s
        elif kind == 1:  # column
            out[i, 0] = -(i + 1.0) * s
            out[i, 1] = 0.0
        elif kind == 3:  # wedge
            rank = i // 2 + 1.0
            side = 1.0 if i % 2 == 0 else -1.0
            out[i, 0] = -rank * step
            out[i, 1] = side * rank * step
        else:  # circle, from straight behind: -(cos, sin) is exact there
            angle = 2.0 * math.pi * i / count
            out[i, 0] = -radius * math.cos(angle)
            out[i, 1] = -radius * math.sin(angle)
