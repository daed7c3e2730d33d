"""Buckland's three-feeler wall avoidance, vectorised over the agent-wall pairs that
:class:`~steering.Walls`' spatial index finds."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .vec import EPSILON, FloatArray, as_complex, as_rows, clamp, truncate_complex
from .walls import Walls

__all__ = ["AvoidWalls"]

IntArray = NDArray[np.intp]
ComplexArray = NDArray[np.complex128]


def _cross(a: ComplexArray, b: ComplexArray) -> FloatArray:
    """2-D cross product ``a.x * b.y - a.y * b.x`` of complex numbers (broadcasting)."""
    return np.asarray(a.real * b.imag - a.imag * b.real)


@dataclass
class AvoidWalls:
    """Steer away from walls ahead: Buckland's three feelers, vectorised over agent-wall pairs.

    Each agent casts three feelers from its centre: one straight along its heading,
    ``feeler_length * (1 + speed / max_speed)`` long (so twice as long at full speed), and two
    at ``+-feeler_angle`` degrees of half that length. For each feeler the closest crossing
    with any wall counts; its force is the wall's normal on the side the agent's centre is on
    times the feeler's overshoot past the wall (the part of the feeler beyond the crossing,
    px) times ``gain ** 2``: a desired velocity of ``overshoot * gain`` away from the wall,
    steered toward at ``gain`` (the library's usual gain, 8/s, gives 64/s^2 per px). A side
    feeler's force is further weighted by ``|cos|`` of the angle between the wall and the
    heading: full for a wall alongside, nothing for a wall that faces the agent. Feelers are
    summed, so in a corner the two walls' normals add up to the way out.

    A skin: an agent whose centre comes within ``radius + margin`` of a wall is pushed
    straight out (along the line from the wall's closest point to its centre), by a force
    that grows linearly from 0 at the skin's edge to max force at contact and stays at max
    force while the disc overlaps the wall. The sum of feelers and skin is limited to max
    force. A centre exactly on a wall's line counts as on the side its heading faces away
    from (left if the heading runs along the wall).

    Better than the book (each change measured in a failing run first):

    * Buckland assigns the force inside the feeler loop, so the last feeler that hits wins
      and the other wall of a corner is forgotten; here the feelers add up.
    * His feelers have a fixed length, which a fast agent with a weak max force outruns
      (300 px/s at 300 px/s^2 went through a wall); here the front feeler is never shorter
      than the distance the agent needs to stop at max force plus its radius, the margin and
      the overshoot at which the force saturates (but at most ``4 * feeler_length``).
    * With the plain normal on the side feelers, the jambs of a door (walls facing the
      agent) braked it to a stop in the doorway; the ``|cos|`` weight leaves walls ahead to
      the front feeler. (Pushing across the heading instead is unstable: the feeler nearer a
      jamb wins and turns the agent further off centre.)
    * Without the skin an agent whose goal lies behind a wall creeps into it: once its
      velocity turns away from the wall its feelers point away too, the goal pulls it back,
      and it chatters against the wall a step at a time.

    Trade-offs and failures: the normal force has no lateral preference, so an agent that
    meets a long wall square on with its goal straight behind it stops in front of the wall
    and stays there (the local minimum of every force-field avoidance: plan a path round);
    only the along-wall part of the goal force slides it to an end, and an agent whose line
    of travel hits a door's jamb stops there too. Never crossing a wall relies on the
    avoidance getting the whole of max force when it needs it: list it first in a
    :class:`~steering.PrioritizedSum` (a :class:`~steering.WeightedSum` lets a
    strong goal push through). An agent rounding the end of a wall at speed can graze it
    (the skin pushes it off; its centre does not cross). "The side the centre is on" is
    decided afresh each step, so an agent pushed through a wall by physics is then kept on
    the wrong side. Walls are static (build a new :class:`Walls` to change them).

    Attributes:
        walls: the shared wall set.
        feeler_length: front feeler length at rest, px; doubled at max speed. 0 disables
            the feelers (the skin stays).
        feeler_angle: angle of the two side feelers from the heading, degrees.
        gain: 1/s; the force per px of feeler overshoot is ``gain ** 2``.
        margin: thickness of the skin beyond the agent's radius, px; 0 pushes only when
            the disc overlaps a wall.
    """

    walls: Walls
    feeler_length: float = 60.0
    feeler_angle: float = 35.0
    gain: float = DEFAULT_GAIN
    margin: float = 4.0

    def __post_init__(self) -> None:
        checks = {
            "feeler_length": self.feeler_length >= 0,
            "feeler_angle": 0 <= self.feeler_angle <= 180,
            "gain": self.gain >= 0,
            "margin": self.margin >= 0,
        }
        for name, ok in checks.items():
            value = getattr(self, name)
            if not (ok and math.isfinite(value)):
                raise ValueError(f"{name}: invalid value {value!r}")

    def feeler_lengths(self, agents: AgentGroup) -> FloatArray:
        """(N,) front feeler lengths: ``feeler_length * (1 + speed / max_speed)``, raised to
        the stopping distance at max force plus radius, margin and the overshoot that
        saturates the force, and at most ``4 * feeler_length``."""
        ms, mf = agents.max_speed, agents.max_force
        speed = agents.speed()
        ratio = np.zeros(agents.n)
        np.divide(speed, ms, out=ratio, where=ms > EPSILON)
        base = self.feeler_length * (1.0 + clamp(ratio, 0.0, 1.0))
        cap = 4.0 * self.feeler_length
        stop = np.full(agents.n, cap)
        fast = np.minimum(speed, 1e150)  # no overflow in the square (a finite, absurd speed)
        np.divide(fast * fast, 2.0 * mf, out=stop, where=mf > EPSILON)
        saturate = np.full(agents.n, cap)
        if self.gain > 0.0:
            saturate = np.maximum(mf, 0.0) / self.gain**2
        floor = stop + np.maximum(agents.radius, 0.0) + self.margin + saturate
        return np.asarray(np.maximum(base, np.minimum(floor, cap)))

    def feelers(self, agents: AgentGroup) -> ComplexArray:
        """(N, 3) feeler vectors from each agent's centre (complex ``x + iy``): ahead, left,
        right."""
        h = as_complex(agents.heading)
        hn = np.abs(h)
        h = np.divide(h, hn, out=np.ones_like(h), where=hn > EPSILON)  # (1, 0) if none
        turn = np.exp(1j * math.radians(self.feeler_angle))
        rot = np.array([1.0, 0.5 * turn, 0.5 * turn.conjugate()])
        return np.asarray((h * self.feeler_lengths(agents))[:, None] * rot[None, :])

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) wall avoidance forces; zero for agents with no wall in reach.

        Debug keys: ``walls.feelers`` (N, 3, 2) feeler tips (ahead, left, right),
        ``walls.hit`` (N, 2) the crossing of the feeler that overshoots most (NaN: none),
        ``walls.wall`` (N,) the wall it crosses (-1: none).
        """
        n = agents.n
        walls = self.walls
        feel = self.feelers(agents)
        radius = np.maximum(agents.radius, 0.0)
        skin = radius + self.margin
        force = np.zeros(n, dtype=np.complex128)
        hit_point = np.full(n, complex(np.nan, np.nan))
        hit_wall = np.full(n, -1, dtype=np.intp)

        # Every feeler lies within the front one's length of the centre.
        ai, wj = walls.candidates(agents, np.maximum(np.abs(feel[:, 0]), skin))
        if ai.size:
            pos = as_complex(agents.pos)
            a = as_complex(walls.start).take(wj)
            u = as_complex(walls.direction).take(wj)
            wlen = walls.length.take(wj)
            rel = pos.take(ai) - a
            # The side of the wall the centre is on: +1 left, -1 right; on the line, the
            # side facing away from the heading (left when the heading runs along it).
            side = np.sign(_cross(u, rel))
            on_line = np.flatnonzero(side == 0.0)
            if on_line.size:
                h = as_complex(agents.heading).take(ai[on_line])
                facing = -np.sign(_cross(u[on_line], h))
                side[on_line] = np.where(facing == 0.0, 1.0, facing)
            normal = u * 1j * side
            record = debug is not None
            hits = self._feeler_forces(ai, wj, rel, u, wlen, normal, feel, pos, force, record)
            self._skin_forces(ai, rel, u, wlen, normal, skin, agents.max_force, force)
            if hits is not None:
                who, wall, point = hits
                hit_wall[who] = wall
                hit_point[who] = point

        force = truncate_complex(force, agents.max_force)
        if debug is not None:
            tips = agents.pos[:, None, :] + feel.view(np.float64).reshape(n, 3, 2)
            debug["walls.feelers"] = tips
            debug["walls.hit"] = as_rows(hit_point).copy()
            debug["walls.wall"] = hit_wall
        return as_rows(force)

    def _skin_forces(
        self,
        ai: IntArray,
        rel: ComplexArray,
        u: ComplexArray,
        wlen: FloatArray,
        normal: ComplexArray,
        skin: FloatArray,
        max_force: FloatArray,
        force: ComplexArray,
    ) -> None:
        """Add the push out of each wall an agent's skin overlaps into ``force``."""
        along = clamp((rel * u.conj()).real, 0.0, wlen)
        away = rel - u * along  # from the wall's closest point to the centre
        dist = np.abs(away)
        s = skin.take(ai)
        over = np.flatnonzero(dist < s)
        if over.size == 0:
            return
        d = dist[over]
        # Straight out from the closest point; along the side normal when the centre is on
        # the wall (no direction to the closest point).
        ok = d > EPSILON * np.maximum(s[over], 1.0)
        unit = np.where(ok, away[over] / np.where(ok, d, 1.0), normal[over])
        depth = s[over] - d
        # Full force once the disc touches; with no margin, as soon as it is inside the skin.
        ramp = np.minimum(depth / max(self.margin, EPSILON), 1.0)
        owner = ai[over]
        push = unit * (ramp * np.maximum(max_force.take(owner), 0.0))
        n = force.size
        force.real += np.bincount(owner, weights=push.real, minlength=n)
        force.imag += np.bincount(owner, weights=push.imag, minlength=n)

    def _feeler_forces(
        self,
        ai: IntArray,
        wj: IntArray,
        rel: ComplexArray,
        u: ComplexArray,
        wlen: FloatArray,
        normal: ComplexArray,
        feel: ComplexArray,
        pos: ComplexArray,
        force: ComplexArray,
        record: bool,
    ) -> tuple[IntArray, IntArray, ComplexArray] | None:
        """Add each feeler's force (closest crossing per agent and feeler) into ``force``.

        Returns, with ``record``, the agents with a crossing, the wall and the point of the
        crossing of each that overshoots most; else None.
        """
        n = force.size
        d = feel.take(ai, axis=0)  # (P, 3) feeler vectors
        e = (u * wlen)[:, None]  # (P, 1) wall vectors
        ap = -rel[:, None]  # from the centre to the wall's start
        # Feeler p + t d meets wall a + s e where t = (ap x e) / (d x e), s = (ap x d) / (d x e).
        denom = _cross(d, e)
        tnum = np.broadcast_to(_cross(ap, e), denom.shape)
        snum = _cross(ap, d)
        # Without a division: 0 <= t <= 1 and 0 <= s <= 1 read as num and denom - num having
        # the denominator's sign. Parallel feelers (denom 0) never cross; the skin covers
        # an agent sliding along a wall.
        sgn = np.sign(denom)
        crosses = (
            (sgn != 0.0)
            & (tnum * sgn >= 0.0)
            & ((denom - tnum) * sgn >= 0.0)
            & (snum * sgn >= 0.0)
            & ((denom - snum) * sgn >= 0.0)
        )
        pair, k = np.nonzero(crosses)
        if pair.size == 0:
            return None
        t = clamp(tnum[pair, k] / denom[pair, k], 0.0, 1.0)
        flen = np.abs(d[pair, k])
        ahead = t * flen  # px from the centre to the crossing
        slot = ai[pair] * 3 + k
        # Closest crossing per (agent, feeler); ties (a feeler through a corner shared by two
        # walls) go to the lowest wall index.
        best = np.full(3 * n, np.inf)
        np.minimum.at(best, slot, ahead)
        cand = np.flatnonzero(ahead == best[slot])
        low = np.full(3 * n, np.iinfo(np.intp).max, dtype=np.intp)
        np.minimum.at(low, slot[cand], wj[pair[cand]])
        pick = cand[wj[pair[cand]] == low[slot[cand]]]
        overshoot = flen[pick] - ahead[pick]
        owner = ai[pair[pick]]
        push = normal[pair[pick]]
        # Side feelers watch the flanks: weighted by |cos| of the wall-heading angle (see the
        # class docstring for why not the plain normal).
        side = np.flatnonzero(k[pick] > 0)
        if side.size:
            front = feel[owner[side], 0]
            h = front / np.abs(front)  # a crossing feeler has a length
            w = u[pair[pick[side]]]
            push[side] *= np.abs(w.real * h.real + w.imag * h.imag)
        push = push * (overshoot * self.gain**2)
        force.real += np.bincount(owner, weights=push.real, minlength=n)
        force.imag += np.bincount(owner, weights=push.imag, minlength=n)
        if not record:
            return None
        # Debug: the feeler that overshoots most per agent (ties: the lowest wall index).
        deepest = np.full(n, -np.inf)
        np.maximum.at(deepest, owner, overshoot)
        top = np.flatnonzero(overshoot == deepest[owner])
        top = top[np.unique(owner[top], return_index=True)[1]]
        who = owner[top]
        chosen = pick[top]
        return who, wj[pair[chosen]], pos.take(who) + feel[who, k[chosen]] * t[chosen]
