"""Unaligned collision avoidance among a group's own agents (OpenSteer), over neighbour pairs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .vec import EPSILON, FloatArray, as_complex, as_rows, truncate_complex

__all__ = ["AvoidAgents"]

IntArray = NDArray[np.intp]
ComplexArray = NDArray[np.complex128]


@dataclass
class AvoidAgents:
    """Steer aside from the agent of the group one would collide with first (OpenSteer's
    unaligned collision avoidance), for every agent at once.

    Prediction: every pair closer than the reach (below) is extrapolated at constant
    velocity. With ``dp = p_j - p_i`` and ``dv = v_j - v_i`` the time of closest approach is
    ``t = -dp.dv / |dv|^2`` (0 when ``|dv|`` is about 0); the pair threatens when ``0 < t <=
    time_horizon`` and the distance then, ``|dp + dv t|``, is below ``r_i + r_j + margin``
    (the clearance). Each agent reacts to its most imminent threat only (smallest ``t``, ties
    to the lowest index).

    Reaction: OpenSteer's, a steer perpendicular to the agent's own heading, away from where
    the threat will be at ``t`` (seen from where the agent will be then). Its strength is the
    sideways speed that would move the threat out to the clearance by ``t`` (at most max
    speed), steered toward at ``gain``; with ``brake`` the agent also sheds speed in
    proportion to the urgency ``1 - t / time_horizon`` (``-velocity * brake * urgency *
    gain``), which gives the sidestep time. The sum is limited to max force.

    The side: away from the threat at closest approach when it is more than ``commit *
    clearance`` to one side; else away from where the threat is now, when that is clearly
    to one side (a threat converging from the side). When neither is clear (head on,
    overtaking) the agent keeps the side it remembers, or takes the shared convention: turn
    to the ``tie_break`` side of one's heading (left by default) for a threat in front, to
    the other for one behind. So two agents meeting head on both turn to their own left and
    pass, the one overtaking and the one overtaken part to opposite sides, and a crowd
    shifts as one instead of agents splitting both ways into each other.

    Memory (better than OpenSteer): the side is kept in the state column
    ``"avoidagents.side"`` (+1 left, -1 right, 0 none) while the agent sees any threat, and
    wins every ambiguous choice: in a crowd the most imminent neighbour changes from step to
    step, and re-deciding then makes agents jiggle left-right-left. It is reset to 0 when no
    threat is left. A threat clearly on the remembered side overrides it (keeping it would
    steer into that threat).

    Contact: a threat already inside the clearance is steered away from directly (along
    ``-dp``, at max speed) rather than sideways: two agents sidestepping each other at
    contact range circle round each other (measured) instead of parting.

    The reach: two agents can close at most ``2 * max(max_speed)`` px/s, so pairs further
    apart than ``2 * max(max_speed) * time_horizon + 2 * max(radius) + margin`` cannot
    threaten within the horizon; the reach is capped at ``max_reach`` so that a fast group in
    a dense crowd does not gather hundreds of pairs per agent (measured: 1,000 agents in a
    1,000 px square still give some 100,000 pairs at 300 px and about 10 ms a call; in a
    2,000 px square 30,000 pairs and 1-2 ms). One cached k-d tree pair query
    (:meth:`AgentGroup.pairs_within`) serves the whole group.

    Trade-offs and failures: prediction is linear, so agents on curved paths are
    mispredicted. Only the first threat is avoided, so in a dense crowd a sidestep can walk
    into a second agent: two single files of agents 40 px apart (bodies 16 px) cross head-on
    without contact (within a quarter pixel, measured), but blocks several agents deep still
    touch now and then (shallow contacts, a few px); add :class:`~steering.Separate`
    for agents already touching, which cuts those to a few shallow ones. Agents moving in
    step (``dv = 0``) never threaten each other, and a pair moving apart (``t <= 0``) is
    ignored even when overlapping. Threats beyond ``max_reach`` are seen late. The
    remembered side can send an agent the long way round.

    Attributes:
        time_horizon: seconds ahead that a collision counts.
        gain: 1/s, how fast the steer closes the gap to the sidestep velocity.
        margin: extra clearance, px, added to ``r_i + r_j``.
        brake: 0 (only sidestep) to 1: weight of the urgency-scaled braking.
        commit: fraction of the clearance within which a threat counts as dead ahead (and
            the remembered side or the convention decides).
        max_reach: the largest neighbour query distance, px.
        tie_break: the side on which a threat in front is passed when the geometry does not
            decide: "left" or "right" (all agents of a group should share it).
    """

    time_horizon: float = 1.5
    gain: float = DEFAULT_GAIN
    margin: float = 2.0
    brake: float = 0.5
    commit: float = 0.5
    max_reach: float = 300.0
    tie_break: Literal["left", "right"] = "left"

    def __post_init__(self) -> None:
        checks = {
            "time_horizon": self.time_horizon > 0,
            "gain": self.gain >= 0,
            "margin": self.margin >= 0,
            "brake": 0 <= self.brake <= 1,
            "commit": 0 <= self.commit <= 1,
            "max_reach": self.max_reach > 0,
        }
        for name, ok in checks.items():
            value = getattr(self, name)
            if not (ok and math.isfinite(value)):
                raise ValueError(f"{name}: invalid value {value!r}")
        if self.tie_break not in ("left", "right"):
            raise ValueError(f"tie_break: expected 'left' or 'right', got {self.tie_break!r}")

    def reach(self, agents: AgentGroup) -> float:
        """The neighbour query distance, px (see the class docstring)."""
        if agents.n < 2:
            return 0.0
        speed = max(float(agents.max_speed.max()), 0.0)
        radius = max(float(agents.radius.max()), 0.0)
        return min(2.0 * speed * self.time_horizon + 2.0 * radius + self.margin, self.max_reach)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) avoidance forces; zero for agents with no threat.

        Debug keys: ``avoidagents.threat`` (N,) index of the agent avoided (-1: none),
        ``avoidagents.point`` (N, 2) the agent's own position at closest approach (NaN:
        none), ``avoidagents.threat_point`` (N, 2) the threat's position then,
        ``avoidagents.time`` (N,) the time of closest approach (inf: none),
        ``avoidagents.side`` (N,) the side steered to (+1 left, -1 right, 0 none).
        """
        n = agents.n
        side_col = agents.column("avoidagents.side", fill=0.0)
        who, other, t, miss, clear = self._threats(agents)

        h = as_complex(agents.heading).take(who)
        hn = np.abs(h)
        h = np.divide(h, hn, out=np.ones_like(h), where=hn > EPSILON)  # (1, 0) if none
        # The threat at closest approach, seen from where the agent will be, in the agent's
        # frame: along its heading and to its left; and where it is now, to the left.
        local = miss * h.conj()
        lateral = local.imag
        ahead = local.real
        dp = as_complex(agents.pos)
        dp = dp.take(other) - dp.take(who)
        now = h.real * dp.imag - h.imag * dp.real
        # Away from the threat at closest approach; when that is (nearly) dead ahead or behind
        # (a threat converging from the side), away from where it is now.
        band = self.commit * clear
        natural = np.where(np.abs(lateral) > band, -np.sign(lateral), -np.sign(now))
        # Where neither says much (head on, overtaking): a convention every agent shares, so
        # that a crowd shifts one way: pass a threat ahead on the preferred side of the
        # agent's heading, a threat behind on the other (head on, both agents turn to their
        # own left, world directions opposite; overtaking, the one behind turns left, the
        # one ahead right).
        ambiguous = (np.abs(lateral) <= band) & (np.abs(now) <= band)
        prefer = 1.0 if self.tie_break == "left" else -1.0
        front = (dp.real * h.real + dp.imag * h.imag) >= 0.0
        convention = np.where(front, prefer, -prefer)
        remembered = side_col.take(who)
        remembered = np.where(np.isfinite(remembered), np.sign(remembered), 0.0)
        # The remembered side wins where the geometry does not clearly say otherwise.
        fallback = np.where(remembered != 0.0, remembered, convention)
        side = np.where(ambiguous, fallback, natural)
        side_col[:] = 0.0
        side_col[who] = side

        # The sideways speed that moves the threat out to `clear` by closest approach: its
        # lateral offset must end at -side * w, w the half chord of the clearance circle.
        speed_max = np.maximum(agents.max_speed.take(who), 0.0)
        w = np.sqrt(np.maximum(clear * clear - ahead * ahead, 0.0))
        # (t is positive; the floor only keeps a subnormal one from overflowing the quotient.)
        need = np.minimum((side * lateral + w) / np.maximum(t, EPSILON), speed_max)
        steer = (h * 1j) * (side * need * self.gain)
        # At contact range, straight away from the threat instead.
        gap = np.abs(dp)
        close = np.flatnonzero(gap < clear)
        if close.size:
            g = gap[close]
            apart = g > EPSILON * clear[close]
            away = (h[close] * 1j) * side[close]  # on top of each other: the chosen side
            np.divide(-dp[close], g, out=away, where=apart)
            steer[close] = away * (speed_max[close] * self.gain)
        if self.brake > 0.0:
            urgency = 1.0 - t / self.time_horizon
            steer = steer - as_complex(agents.vel).take(who) * (self.brake * urgency * self.gain)
        force = np.zeros(n, dtype=np.complex128)
        force[who] = truncate_complex(steer, agents.max_force.take(who))

        if debug is not None:
            pos = as_complex(agents.pos)
            vel = as_complex(agents.vel)
            threat = np.full(n, -1, dtype=np.intp)
            threat[who] = other
            own = pos.take(who) + vel.take(who) * t
            point = np.full(n, complex(np.nan, np.nan))
            point[who] = own
            other_point = np.full(n, complex(np.nan, np.nan))
            other_point[who] = own + miss
            when = np.full(n, np.inf)
            when[who] = t
            sides = np.zeros(n)
            sides[who] = side
            debug["avoidagents.threat"] = threat
            debug["avoidagents.point"] = as_rows(point).copy()
            debug["avoidagents.threat_point"] = as_rows(other_point).copy()
            debug["avoidagents.time"] = when
            debug["avoidagents.side"] = sides
        return as_rows(force)

    def _threats(
        self, agents: AgentGroup
    ) -> tuple[IntArray, IntArray, FloatArray, ComplexArray, FloatArray]:
        """Each threatened agent (ascending), its most imminent threat, the time to closest
        approach, the threat's offset from the agent then and the clearance they need."""
        empty = np.zeros(0, dtype=np.intp)
        none = (empty, empty, np.zeros(0), np.zeros(0, dtype=np.complex128), np.zeros(0))
        reach = self.reach(agents)
        if reach <= 0.0:
            return none
        pairs = agents.pairs_within(reach)
        i = np.ascontiguousarray(pairs[:, 0])
        j = np.ascontiguousarray(pairs[:, 1])
        pos = as_complex(agents.pos)
        vel = as_complex(agents.vel)
        dp = pos.take(j) - pos.take(i)
        dv = vel.take(j) - vel.take(i)
        closing = -(dp.real * dv.real + dp.imag * dv.imag)
        dv2 = dv.real * dv.real + dv.imag * dv.imag
        # t = closing / |dv|^2 in (0, horizon] without dividing by a tiny |dv|^2: closing > 0
        # and closing <= horizon * |dv|^2 (which also rules out |dv| = 0).
        soon = np.flatnonzero((closing > 0.0) & (closing <= self.time_horizon * dv2))
        i, j, dp, dv = i[soon], j[soon], dp[soon], dv[soon]
        t = closing[soon] / dv2[soon]
        miss = dp + dv * t
        radius = np.maximum(agents.radius, 0.0)
        clear = radius.take(i) + radius.take(j) + self.margin
        hit = np.flatnonzero(np.abs(miss) < clear)
        if hit.size == 0:
            return none
        # Both agents of a pair see the other: directed (receiver, threat) rows.
        who = np.concatenate((i[hit], j[hit]))
        other = np.concatenate((j[hit], i[hit]))
        t = np.concatenate((t[hit], t[hit]))
        miss = np.concatenate((miss[hit], -miss[hit]))
        clear = np.concatenate((clear[hit], clear[hit]))
        # Most imminent per receiver, ties to the lowest threat index: sort by receiver, then
        # time, then threat, and keep each receiver's first row.
        order = np.lexsort((other, t, who))
        first = order[np.concatenate(([True], who[order][1:] != who[order][:-1]))]
        return who[first], other[first], t[first], miss[first], clear[first]
