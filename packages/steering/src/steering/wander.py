"""Reynolds' wander (:class:`Wander`): its record, its per-agent function and its place in
composites. The step's random numbers are drawn when the behaviour is bound, before the loop."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _kern as kern
from ._checks import finite, generator, non_negative
from ._jit import njit_leaf
from .agents import UNSET, AgentGroup, is_unset
from .base import DEFAULT_GAIN, Debug
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .debug import WanderDebug, write
from .records import Held, settings
from .vec import FloatArray

__all__ = ["Wander", "WanderRecord", "wander_agent", "wander_row"]


class WanderRecord(NamedTuple):
    """:class:`Wander`'s memory, random draws and parameters for one call."""

    angle: FloatArray
    """(N,) memory: each agent's angle on its wander circle, rad (state ``wander.angle``)."""
    noise: FloatArray
    """(N,) this step's standard normal draws, one per agent."""
    sigma: float
    """The angle's step per unit of noise: ``jitter * sqrt(dt)``, rad."""
    distance: float
    """The circle's distance ahead, px."""
    radius: float
    """Its radius, px."""
    gain: float
    """1/s."""
    debug: FloatArray
    """(N, 4) each agent's target and circle center when debug output is asked, else (0, 4)."""


@row_function
def wander_agent(i: int, a: AgentCols, p: WanderRecord) -> tuple[float, float, float, float]:
    """Agent ``i``'s wander: its angle advanced by its draw (written back), then the force
    toward the point at that angle on the circle ahead, and that point from the agent:
    (fx, fy, ax, ay)."""
    angle = p.angle[i] + p.sigma * p.noise[i]
    p.angle[i] = angle
    # The point at the angle on the circle, turned into the heading's frame.
    cx = p.distance + p.radius * math.cos(angle)
    cy = p.radius * math.sin(angle)
    hx, hy = a.heading[i, 0], a.heading[i, 1]
    ax = hx * cx - hy * cy
    ay = hx * cy + hy * cx
    dx, dy = kern.set_length(ax, ay, a.max_speed[i])
    fx, fy = kern.steer(dx, dy, a.vel[i, 0], a.vel[i, 1], p.gain, a.max_force[i])
    return fx, fy, ax, ay


@row_function
def wander_row(i: int, a: AgentCols, p: WanderRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s wander force in a composite, and its debug row when asked."""
    fx, fy, ax, ay = wander_agent(i, a, p)
    if p.debug.shape[0] > 0:
        px, py = a.pos[i, 0], a.pos[i, 1]
        p.debug[i, 0] = px + ax
        p.debug[i, 1] = py + ay
        p.debug[i, 2] = px + a.heading[i, 0] * p.distance
        p.debug[i, 3] = py + a.heading[i, 1] * p.distance
    return fx, fy


@dataclass
class Wander(RowPart):
    """Reynolds' wander: seek a point on a circle ahead whose angle drifts randomly.

    The angle is per agent (state column ``wander.angle``) and its random walk is scaled by
    ``sqrt(dt)``, so the motion looks the same at any step size. Seeded: give a
    ``numpy.random.Generator`` for reproducible runs. Each call draws one number per agent
    (agents a :class:`~steering.Masked` node skips draw too, and keep their angle).

    Raises:
        TypeError: when ``rng`` is not a ``numpy.random.Generator`` (``Wander(0)``: use
            ``Wander(np.random.default_rng(0))``).
    """

    ROW = wander_row
    ROW_RECORD = WanderRecord

    rng: np.random.Generator
    circle_distance: float = 40.0
    circle_radius: float = 20.0
    #: Standard deviation of the angle change per square-root second (rad / sqrt(s)).
    jitter: float = 3.0
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "Wander",
        rng=generator,
        circle_distance=finite,
        circle_radius=finite,
        jitter=non_negative,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> WanderRecord:
        """This call's record: draws the step's random numbers (one per agent) and advances
        nothing yet (the loop advances the angles).

        Raises:
            ValueError: for a ``dt`` that is not finite (a negative one counts as 0).
        """
        if debug:
            angle, noise, sigma = self._draw(agents, dt)
            out = np.full((agents.n, 4), np.nan)
            return WanderRecord(
                angle, noise, sigma, self.circle_distance, self.circle_radius, self.gain, out
            )
        # Without debug output the draws go into an array kept from call to call (the same
        # numbers: the generator fills it as it would a new one), and the record is kept while
        # the angles' column, the step and the settings are the same.
        n = agents.n
        kept: FloatArray | None = self.__dict__.get("_noise")
        if kept is None or kept.shape[0] != n:
            kept = self.__dict__["_noise"] = np.empty(n)
        noise = kept
        angle, _, sigma = self._draw(agents, dt, noise)
        held = self.__dict__.get("_held")
        if held is None:
            held = self.__dict__["_held"] = Held()
        stamp = (angle, noise, *settings(self))
        record = held.get(stamp, dt)
        if record is None:
            record = WanderRecord(
                angle, noise, sigma, self.circle_distance, self.circle_radius, self.gain, _NO_DEBUG
            )
            held.put(stamp, dt, record)
        return record

    def report(self, agents: AgentGroup, record: WanderRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.WanderDebug`."""
        rows = record.debug
        write(WanderDebug(rows[:, 0:2].copy(), rows[:, 2:4].copy()), debug)

    def _draw(
        self, agents: AgentGroup, dt: float, into: FloatArray | None = None
    ) -> tuple[FloatArray, FloatArray, float]:
        """The agents' angles (a random start for agents new to wander), this step's normal
        draws (into ``into`` when given) and the angle's step per unit of draw."""
        if not math.isfinite(dt):
            raise ValueError(f"Wander: dt must be finite, got {dt}")
        n = agents.n
        angle = agents.state.get("wander.angle")
        if angle is None or angle.shape != (n,):
            angle = agents.column("wander.angle", fill=UNSET)
        if _any_unset(angle):
            fresh = is_unset(angle)
            angle[fresh] = self.rng.uniform(-np.pi, np.pi, int(fresh.sum()))
        # rng.normal(0, s, n) is s * standard_normal(n), draw for draw.
        if into is None:
            noise = self.rng.standard_normal(n)
        else:
            noise = into
            self.rng.standard_normal(out=noise)
        return angle, noise, self.jitter * math.sqrt(max(dt, 0.0))


_NO_DEBUG = np.zeros((0, 4))


@njit_leaf
def _any_unset(values: FloatArray) -> bool:
    for i in range(values.shape[0]):  # noqa: SIM110 (numba compiles no generator)
        if not math.isfinite(values[i]):
            return True
    return False
