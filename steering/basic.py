"""The single-target behaviours: seek, flee, arrive, pursue, evade, wander and containment."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import finite, points
from ._jit import prange, rows_kernel
from .agents import UNSET, AgentGroup, is_unset
from .base import DEFAULT_GAIN, Debug, desired_toward, steer_to_velocity
from .vec import (
    FloatArray,
    as_complex,
    as_points,
    as_rows,
    length,
    safe_normalize,
    scale_rows,
    select_rows,
    set_length,
    truncate,
)

__all__ = ["Arrive", "Contain", "Evade", "Flee", "Pursue", "Seek", "Wander"]


def _targets(target: ArrayLike, n: int) -> FloatArray:
    return as_points(target, n)


@dataclass
class Seek:
    """Steer at full speed toward a target point (one point for all, or one per agent).

    Overshoots and circles a target it reaches; use :class:`Arrive` to stop on it.

    Attributes:
        target: a point ``(x, y)`` for every agent, or (N, 2) points, one per agent.
        gain: how fast the steer closes the gap to the desired velocity (1/s).
    """

    target: ArrayLike
    gain: float = DEFAULT_GAIN

    def __post_init__(self) -> None:
        self.gain = finite("Seek.gain", self.gain)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the target.

        Raises:
            TypeError, ValueError: for a target that is not finite points of the right shape.
        """
        n = agents.n
        tgt = points("Seek.target", self.target, n)
        out = np.empty((n, 2))
        _seek_rows(n)(
            agents.pos, agents.vel, agents.max_speed, agents.max_force, tgt, self.gain, out
        )
        if debug is not None:
            debug["seek.target"] = np.broadcast_to(tgt, (n, 2)).copy()
        return out


@rows_kernel
def _seek_rows(
    pos: FloatArray,
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    target: FloatArray,
    gain: float,
    out: FloatArray,
) -> None:
    step = kern.row_step(target)
    for i in prange(pos.shape[0]):
        t = i * step
        dx, dy = kern.set_length(target[t, 0] - pos[i, 0], target[t, 1] - pos[i, 1], max_speed[i])
        out[i, 0], out[i, 1] = kern.steer(dx, dy, vel[i, 0], vel[i, 1], gain, max_force[i])


@dataclass
class Flee:
    """Steer at full speed away from a point, only within ``panic_distance`` (inf: always).

    An agent exactly on the point has no away direction and flees along its heading.
    """

    target: ArrayLike
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces away from the target; zero outside the panic distance."""
        tgt = _targets(self.target, agents.n)
        away = agents.pos - tgt
        direction = safe_normalize(away, fallback=agents.heading)
        force = steer_to_velocity(agents, scale_rows(direction, agents.max_speed), self.gain)
        near = length(away) < self.panic_distance
        return select_rows(near, force, 0.0)


@dataclass
class Arrive:
    """Seek that slows inside ``slowing_radius`` and stops on the target without overshoot.

    Better than the textbook arrive: the desired speed is also capped by what max force can
    brake (``sqrt(2 * a * d)``), and the gain is raised to critical damping of the linear
    approach (``4 * max_speed / slowing_radius``), so there is no overshoot or oscillation
    whatever the limits. Fails only when the target moves faster than the agent.
    """

    target: ArrayLike
    slowing_radius: float = 100.0
    gain: float = DEFAULT_GAIN
    #: Fraction of max force budgeted for braking.
    brake_fraction: float = 0.8

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces that bring each agent to rest on the target."""
        tgt = _targets(self.target, agents.n)
        to_target = tgt - agents.pos
        dist = length(to_target)
        slow = max(self.slowing_radius, 1e-6)
        speed = np.minimum(agents.max_speed, agents.max_speed * dist / slow)
        speed = np.minimum(speed, np.sqrt(2.0 * self.brake_fraction * agents.max_force * dist))
        desired = set_length(to_target, speed)
        gain = np.maximum(self.gain, 4.0 * agents.max_speed / slow)
        if debug is not None:
            debug["arrive.target"] = tgt
        return truncate(scale_rows(desired - agents.vel, gain), agents.max_force)


def _prediction_time(
    agents: AgentGroup, to_target: FloatArray, target_vel: FloatArray, max_time: float
) -> FloatArray:
    closing = agents.max_speed + length(target_vel)
    t = np.zeros(agents.n)
    np.divide(length(to_target), closing, out=t, where=closing > 1e-9)
    return np.minimum(t, max_time)


@dataclass
class Pursue:
    """Seek where a moving target will be: its position plus velocity times a prediction time.

    The prediction time is distance / (own max speed + target speed), capped at
    ``max_prediction`` so a far target is not led by absurd amounts.
    """

    target: ArrayLike
    target_velocity: ArrayLike = (0.0, 0.0)
    max_prediction: float = 1.5
    gain: float = DEFAULT_GAIN

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the target's predicted position."""
        tgt = _targets(self.target, agents.n)
        tvel = _targets(self.target_velocity, agents.n)
        t = _prediction_time(agents, tgt - agents.pos, tvel, self.max_prediction)
        predicted = tgt + tvel * t[:, None]
        if debug is not None:
            debug["pursue.predicted"] = predicted
        return steer_to_velocity(agents, desired_toward(agents, predicted - agents.pos), self.gain)


@dataclass
class Evade:
    """Flee from where a moving threat will be; only within ``panic_distance``."""

    target: ArrayLike
    target_velocity: ArrayLike = (0.0, 0.0)
    max_prediction: float = 1.5
    panic_distance: float = float("inf")
    gain: float = DEFAULT_GAIN

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces away from the threat's predicted position."""
        tgt = _targets(self.target, agents.n)
        tvel = _targets(self.target_velocity, agents.n)
        t = _prediction_time(agents, tgt - agents.pos, tvel, self.max_prediction)
        predicted = tgt + tvel * t[:, None]
        if debug is not None:
            debug["evade.predicted"] = predicted
        return Flee(predicted, self.panic_distance, self.gain)(agents, dt)


@dataclass
class Wander:
    """Reynolds' wander: seek a point on a circle ahead whose angle drifts randomly.

    The angle is per agent (state column ``wander.angle``) and its random walk is scaled by
    ``sqrt(dt)``, so the motion looks the same at any step size. Seeded: give a
    ``numpy.random.Generator`` for reproducible runs.
    """

    rng: np.random.Generator
    circle_distance: float = 40.0
    circle_radius: float = 20.0
    #: Standard deviation of the angle change per square-root second (rad / sqrt(s)).
    jitter: float = 3.0
    gain: float = DEFAULT_GAIN

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) wandering forces; advances each agent's wander angle by ``dt``."""
        n = agents.n
        angle = agents.column("wander.angle", fill=UNSET)
        fresh = is_unset(angle)
        if fresh.any():
            angle[fresh] = self.rng.uniform(-np.pi, np.pi, int(fresh.sum()))
        angle += self.rng.normal(0.0, self.jitter * np.sqrt(max(dt, 0.0)), n)
        # With the heading as a complex number h, the point at angle a on the circle is
        # h * (distance + radius * e^(ia)) from the agent: the turn by a is a multiply.
        h = as_complex(agents.heading)
        ahead = as_rows(h * (self.circle_distance + self.circle_radius * np.exp(1j * angle)))
        if debug is not None:
            debug["wander.target"] = agents.pos + ahead
            debug["wander.centre"] = agents.pos + agents.heading * self.circle_distance
        return steer_to_velocity(agents, desired_toward(agents, ahead), self.gain)


@dataclass
class Contain:
    """Stay inside an axis-aligned rectangle: steer back before the predicted position leaves.

    The prediction looks ``lookahead`` seconds ahead, plus the agent's radius and ``margin``;
    past an edge the desired velocity points straight back in at max speed. Zero force well
    inside, so it combines with anything.
    """

    left: float
    bottom: float
    right: float
    top: float
    margin: float = 16.0
    lookahead: float = 0.5
    gain: float = DEFAULT_GAIN

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces that keep agents inside the rectangle."""
        # Per coordinate of the predicted position: +1 below the low wall, -1 above the high
        # one. Columns of a complex view: no (N, 2) temporaries (reductions over an axis of
        # two are slow in NumPy).
        future = as_complex(agents.pos) + as_complex(agents.vel) * self.lookahead
        x, y = future.real, future.imag
        pad = agents.radius + self.margin
        push_x = (x < self.left + pad).view(np.int8) - (x > self.right - pad).view(np.int8)
        push_y = (y < self.bottom + pad).view(np.int8) - (y > self.top - pad).view(np.int8)
        force = np.zeros((agents.n, 2))
        idx = np.flatnonzero(push_x | push_y)
        if idx.size == 0:
            return force
        # Keep the tangential part of the velocity: turn along the wall, not stop at it.
        p = np.stack((push_x[idx], push_y[idx]), axis=1).astype(np.float64)
        vmax = agents.max_speed[idx]
        desired = set_length(np.where(p != 0, p * vmax[:, None], agents.vel[idx]), vmax)
        force[idx] = truncate((desired - agents.vel[idx]) * self.gain, agents.max_force[idx])
        return force
