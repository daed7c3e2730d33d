"""Behaviours about other movers: hide from a hunter, interpose, offset pursuit and formations,
and velocity matching."""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug, steer_to_velocity
from .basic import Arrive, Evade
from .obstacles import Obstacles
from .vec import (
    EPSILON,
    FloatArray,
    as_complex,
    as_points,
    as_rows,
    length,
    safe_normalize,
    scale_rows,
    select_rows,
    truncate,
)

__all__ = ["Hide", "Interpose", "MatchVelocity", "OffsetPursuit", "formation_offsets"]

#: Agent x rock pairs handled at once by :class:`Hide`: bounds its (rows, M) temporaries to
#: 256 kB each whatever N and M are, and keeps them in cache.
_CHUNK = 1 << 15

_KINDS = ("circle", "column", "line", "wedge")


def _arrive_moving(
    agents: AgentGroup,
    dt: float,
    target: FloatArray,
    target_velocity: FloatArray,
    slowing_radius: float,
    gain: float,
) -> FloatArray:
    """:class:`Arrive` in the frame that moves with the target.

    In that frame the target stands still, so Arrive's guarantees (no overshoot, braking within
    max force) hold relative to it, and an agent on the target keeps the target's velocity
    instead of lagging behind it by Arrive's slowing distance.
    """
    moving = AgentGroup(
        pos=agents.pos,
        vel=agents.vel - target_velocity,
        max_speed=agents.max_speed,
        max_force=agents.max_force,
        radius=agents.radius,
        mass=agents.mass,
        heading=agents.heading,
        state=agents.state,
    )
    return Arrive(target, slowing_radius, gain)(moving, dt)


def _one_point(values: ArrayLike) -> bool:
    return np.ndim(values) == 1


@dataclass
class Hide:
    """Buckland's hide: get a rock between yourself and a hunter, else evade it.

    Each rock's hiding spot lies on the far side from the hunter, ``distance_from_boundary``
    beyond its edge: ``centre + unit(centre - hunter) * (radius + distance_from_boundary)``.
    A spot is usable when the hunter is outside its rock, it is not inside another rock, and
    the hunter is no closer to it than the agent is (the hunter would get there first).
    Among usable spots an agent prefers those it reaches without passing closer to the hunter
    than it is now (by more than its radius), nearest first; only when there is none does it
    take the nearest usable spot. It arrives there (:class:`Arrive`), evades the hunter
    (:class:`Evade`) when no spot is usable or there is no rock, and does nothing while the
    hunter is farther than ``panic_distance``.

    ``hunter`` and ``hunter_velocity`` are one point for all or one per agent.

    Fails where the geometry lies: the straight path to a spot may cross a rock (combine with
    :class:`~steering.AvoidObstacles`), and a spot may be outside the level (combine with
    :class:`~steering.Contain`). Stateless, so an agent halfway between two equally near
    spots can switch between them as the hunter moves. Costs N x M (agent x rock) pairs, in
    chunks; per-agent hunters add a k-d tree query over one spot per distinct hunter and rock.

    Debug: ``"hide.spot"`` (N, 2) the chosen spot (NaN when evading or calm), ``"hide.spots"``
    (M, 2) every rock's spot for the hunter (the first agent's hunter when there are several;
    NaN where the hunter is inside the rock).
    """

    hunter: ArrayLike
    obstacles: Obstacles
    hunter_velocity: ArrayLike = (0.0, 0.0)
    distance_from_boundary: float = 30.0
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward each agent's hiding spot (or away from the hunter)."""
        n = agents.n
        hunter = as_points(self.hunter, n)
        hunter_vel = as_points(self.hunter_velocity, n)
        if _one_point(self.hunter):
            hunters = as_complex(as_points(self.hunter))  # one hunter even when n = 0
            which = np.zeros(n, dtype=np.intp)
        else:
            hunters, which = np.unique(as_complex(hunter), return_inverse=True)
            which = which.reshape(-1).astype(np.intp)
        with np.errstate(all="ignore"):  # huge coordinates overflow to inf: unusable, no warning
            spots, defined, usable = self._spots(hunters)
            spot, found = self._choose(agents, hunter, which, spots, usable)
        calm = length(agents.pos - hunter) > self.panic_distance
        hide = Arrive(select_rows(found, spot, agents.pos), self.slowing_radius, self.gain)(
            agents, dt
        )
        evade = Evade(hunter, hunter_vel, gain=self.gain)(agents, dt)
        force = select_rows(calm, 0.0, select_rows(found, hide, evade))
        if debug is not None:
            debug["hide.spot"] = np.where((found & ~calm)[:, None], spot, np.nan)
            first = int(which[0]) if n else 0
            debug["hide.spots"] = (
                np.where(defined[first][:, None], as_rows(spots[first].copy()), np.nan)
                if hunters.size
                else np.full((len(self.obstacles), 2), np.nan)
            )
        return force

    def _spots(
        self, hunters: NDArray[np.complex128]
    ) -> tuple[NDArray[np.complex128], NDArray[np.bool_], NDArray[np.bool_]]:
        """(H, M) hiding spots for H hunters and M rocks as ``x + iy``, where they exist (the
        hunter outside the rock), and which of those are usable whoever hides there (outside
        every other rock)."""
        obs = self.obstacles
        centres = as_complex(obs.centers)
        away = centres[None, :] - hunters[:, None]
        dist = np.abs(away)
        usable = (dist > obs.radii) & np.isfinite(dist)
        unit = np.where(usable, away, 0.0) / np.where(usable, dist, 1.0)
        spots = centres + unit * (obs.radii + self.distance_from_boundary)
        usable &= np.isfinite(spots)
        defined = usable.copy()
        if len(obs) > 1 and usable.any():
            flat = spots.reshape(-1)
            idx = np.flatnonzero(usable.reshape(-1))
            # Unbalanced, non-compact: builds twice as fast and queries as fast here.
            tree = cKDTree(as_rows(flat[idx].copy()), balanced_tree=False, compact_nodes=False)
            otree = obs.tree()
            assert otree is not None  # M > 1
            pairs = tree.sparse_distance_matrix(otree, obs.max_radius, output_type="ndarray")
            s, rock, d = pairs["i"], pairs["j"], pairs["v"]
            own = idx[s] % len(obs)
            inside = (d < obs.radii[rock]) & (rock != own)
            flat_usable = usable.reshape(-1)
            flat_usable[idx[s[inside]]] = False
        return spots, defined, usable

    def _choose(
        self,
        agents: AgentGroup,
        hunter: FloatArray,
        which: NDArray[np.intp],
        spots: NDArray[np.complex128],
        usable: NDArray[np.bool_],
    ) -> tuple[FloatArray, NDArray[np.bool_]]:
        """Each agent's spot (N, 2) and whether it has one, over (rows, M) chunks of agents.

        Squared lengths and dot products of real columns only: a third of the time of the
        same tests on complex numbers with ``abs`` here.
        """
        n = agents.n
        chosen = np.zeros((n, 2))
        found = np.zeros(n, dtype=np.bool_)
        single = spots.shape[0] == 1
        if single:  # one hunter: drop the unusable spots once, for every agent
            spots = spots[:, usable[0]]
        if n == 0 or spots.shape[1] == 0:
            return chosen, found
        m = spots.shape[1]
        q_all = hunter - agents.pos  # agent -> hunter
        qq_all = q_all[:, 0] * q_all[:, 0] + q_all[:, 1] * q_all[:, 1]
        near = np.maximum(np.sqrt(qq_all) - np.maximum(agents.radius, 1.0), 0.0)
        allow_all = qq_all - near * near
        rows = max(1, _CHUNK // m)
        for lo in range(0, n, rows):
            sl = slice(lo, min(n, lo + rows))
            s = spots if single else spots[which[sl]]  # (1 or rows, M)
            sx, sy = s.real, s.imag
            wx = sx - agents.pos[sl, 0:1]  # agent -> spot
            wy = sy - agents.pos[sl, 1:2]
            d2 = wx * wx + wy * wy
            wq = wx * q_all[sl, 0:1] + wy * q_all[sl, 1:2]
            qq = qq_all[sl, None]
            # The hunter is no nearer the spot than the agent: |w - q|^2 >= |w|^2.
            ok = (wq + wq <= qq) & (d2 < np.inf)
            if not single:
                ok &= usable[which[sl]]
            # Along a -> s the squared distance to the hunter bottoms out at
            # qq - tq * (2 wq - tq) / d2 with tq = clip(wq, 0, d2); it must stay above
            # (|q| - slack)^2, written without the division.
            tq = np.minimum(np.maximum(wq, 0.0), d2)
            safe = ok & (tq * (wq + wq - tq) <= allow_all[sl, None] * d2)
            best_any = np.argmin(np.where(ok, d2, np.inf), axis=1)
            best_safe = np.argmin(np.where(safe, d2, np.inf), axis=1)
            best = np.where(safe.any(axis=1), best_safe, best_any)[:, None]
            shape = wx.shape
            chosen[sl, 0] = np.take_along_axis(np.broadcast_to(sx, shape), best, axis=1)[:, 0]
            chosen[sl, 1] = np.take_along_axis(np.broadcast_to(sy, shape), best, axis=1)[:, 0]
            found[sl] = ok.any(axis=1)
        return chosen, found


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
    """

    a: ArrayLike
    b: ArrayLike
    a_velocity: ArrayLike = (0.0, 0.0)
    b_velocity: ArrayLike = (0.0, 0.0)
    ratio: float = 0.5
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the predicted point between ``a`` and ``b``."""
        n = agents.n
        a, b = as_points(self.a, n), as_points(self.b, n)
        va, vb = as_points(self.a_velocity, n), as_points(self.b_velocity, n)
        r = self.ratio
        now = a + (b - a) * r
        t = np.zeros(n)
        np.divide(
            length(now - agents.pos), agents.max_speed, out=t, where=agents.max_speed > EPSILON
        )
        pa = a + scale_rows(va, t)
        pb = b + scale_rows(vb, t)
        point = pa + (pb - pa) * r
        if debug is not None:
            debug["interpose.point"] = point
        point_vel = va + (vb - va) * r
        return _arrive_moving(agents, dt, point, point_vel, self.slowing_radius, self.gain)


@dataclass
class OffsetPursuit:
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
    """

    leader: ArrayLike
    leader_velocity: ArrayLike
    leader_heading: ArrayLike
    offset: ArrayLike
    gain: float = DEFAULT_GAIN
    #: Arrive's slowing radius; 50 px is about Buckland's "fast" deceleration.
    slowing_radius: float = 50.0

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces that bring each agent to its slot beside the leader."""
        n = agents.n
        leader = as_points(self.leader, n)
        lvel = as_points(self.leader_velocity, n)
        fallback = safe_normalize(lvel, np.array([1.0, 0.0]))
        heading = safe_normalize(as_points(self.leader_heading, n), fallback)
        # Turning a leader-frame offset to the world is a complex multiply by the heading.
        turned = as_complex(heading) * as_complex(as_points(self.offset, n))
        slot = leader + as_rows(turned)
        closing = agents.max_speed + length(lvel)
        t = np.zeros(n)
        np.divide(length(slot - agents.pos), closing, out=t, where=closing > EPSILON)
        ahead = slot + scale_rows(lvel, t)
        if debug is not None:
            debug["offset.slot"] = slot
        return _arrive_moving(agents, dt, ahead, lvel, self.slowing_radius, self.gain)


def formation_offsets(kind: str, n: int, spacing: float) -> FloatArray:
    """Slots for ``n`` followers in a leader's frame (x ahead, y left) for :class:`OffsetPursuit`.

    Args:
        kind: ``"line"`` side by side, centred, one ``spacing`` behind the leader, left to
            right; ``"column"`` one behind another, ``spacing`` apart; ``"wedge"`` a V behind
            the leader at 45 degrees, alternating left and right, each slot ``spacing`` from the
            one before it on its arm (the leader heads both arms); ``"circle"`` a ring around the
            leader, the first slot straight behind, counter-clockwise, neighbours ``spacing``
            apart, or farther for n < 6 so no slot is nearer than ``spacing`` to the leader.
        n: number of slots, >= 0.
        spacing: distance between neighbouring slots, finite and > 0.

    Returns:
        An (n, 2) float array.

    Raises:
        ValueError: on an unknown kind, a negative or non-integer ``n``, or a spacing that is
            not a finite number > 0.
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
    try:
        s = float(spacing)
    except (TypeError, ValueError):
        raise ValueError(f"formation spacing: expected a number > 0, got {spacing!r}") from None
    if not (np.isfinite(s) and s > 0.0):
        raise ValueError(f"formation spacing: expected a finite number > 0, got {s!r}")
    i = np.arange(count, dtype=np.float64)
    if kind == "line":
        return np.stack((np.full(count, -s), ((count - 1) / 2.0 - i) * s), axis=1)
    if kind == "column":
        return np.stack((-(i + 1.0) * s, np.zeros(count)), axis=1)
    if kind == "wedge":
        rank = np.floor(i / 2.0) + 1.0
        side = np.where(i % 2 == 0, 1.0, -1.0)
        step = s / np.sqrt(2.0)
        return np.stack((-rank * step, side * rank * step), axis=1)
    radius = s if count < 6 else s / (2.0 * np.sin(np.pi / count))
    angle = 2.0 * np.pi * i / max(count, 1)  # from straight behind: -(cos, sin) is exact there
    return np.stack((-radius * np.cos(angle), -radius * np.sin(angle)), axis=1)


@dataclass
class MatchVelocity:
    """gdx-ai's MatchVelocity: steer toward a target velocity (one for all or one per agent).

    The target is first truncated to the agent's max speed, then the force is ``(target -
    velocity) * gain`` limited to max force (gdx-ai's ``1 / timeToTarget`` is the gain). For
    convoys, escorts and the velocity part of flocking. Fails at keeping position: it matches
    velocity only, so any offset from a leader drifts; use :class:`OffsetPursuit` for that.

    Debug: ``"match.velocity"`` (N, 2) the truncated target velocity.
    """

    target_velocity: ArrayLike
    gain: float = DEFAULT_GAIN

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the target velocity."""
        desired = truncate(as_points(self.target_velocity, agents.n), agents.max_speed)
        if debug is not None:
            debug["match.velocity"] = desired
        return steer_to_velocity(agents, desired, self.gain)
