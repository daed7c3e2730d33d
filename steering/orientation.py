"""Orientation behaviours (gdx-ai's ``Face`` and ``LookWhereYouAreGoing``): they turn the
agents' heading, limited by ``max_turn_rate``, and leave the velocity alone.

Their angular output is applied once, by the behaviour itself: calling one turns
``agents.heading`` in place (by at most ``max_turn_rate * dt``) and returns a zero force. The
heading is then the behaviour's: step the agents with ``integrate(..., face_velocity=False)``
(and do not call :meth:`~steering.AgentGroup.update_heading`), or the heading turns a second
time in the same step, toward the velocity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import fast_points
from ._jit import prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup, _reach, _turn
from .base import Debug
from .debug import OrientationDebug, write
from .vec import FloatArray

__all__ = ["MOVING_SPEED", "Face", "LookWhereYouAreGoing"]

#: Speeds at or below this (px/s) have no direction to look along (as in
#: :meth:`AgentGroup.update_heading`).
MOVING_SPEED = 1e-6


def _dt(name: str, dt: float) -> float:
    if not (math.isfinite(dt) and dt >= 0.0):
        raise ValueError(f"{name}: dt must be finite and >= 0, got {dt}")
    return float(dt)


@dataclass
class LookWhereYouAreGoing:
    """Turn each agent's heading toward its velocity's direction, at most ``max_turn_rate``.

    An orientation behaviour: it steers the *heading*, not the velocity. Called as a behaviour
    (``look(agents, dt, debug)``) it turns ``agents.heading`` in place, once, by at most
    ``max_turn_rate * dt`` (as :meth:`AgentGroup.turn_toward`) and returns a zero (N, 2)
    force, so it fits in a :class:`~steering.WeightedSum` or :class:`~steering.TruncatedRunningSum`
    (which evaluate every part) without changing the sum. :meth:`heading` only reports the
    desired heading. Stopped agents keep their heading.

    How to use it: the call is the step's one turn of the heading, so integrate with
    ``integrate(agents, force, dt, face_velocity=False)``. With the default
    ``face_velocity=True`` :func:`~steering.integrate` turns the heading toward the velocity
    too and the heading turns twice as fast as ``max_turn_rate`` allows.

    Trade-offs: it is what :func:`integrate` with ``face_velocity=True`` already does after
    every step (there toward the new velocity, here toward the velocity before the step);
    use it where facing is chosen per step, e.g. by :class:`~steering.FirstNonZero` (which, like
    every sharp switch, may skip later parts and so their turn). Inside
    :class:`~steering.Masked` the behaviour turns a copy of the rows and the turn is lost:
    call it on the group, or a :meth:`AgentGroup.with_limits` view, instead.
    """

    def heading(self, agents: AgentGroup) -> FloatArray:
        """(N, 2) unit velocity directions; zero rows (keep the heading) for stopped agents."""
        n = agents.n
        out = np.empty((n, 2))
        _look_rows(n)(agents.vel, agents.heading, agents.max_turn_rate, 0.0, False, out)
        return out

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Turn the heading (in place, once) and return a zero (N, 2) force.

        Debug keys: ``orientation.desired`` (N, 2) the desired heading (zero: keep).

        Raises:
            ValueError: if ``dt`` is negative or not finite.
        """
        step = _dt("LookWhereYouAreGoing", dt)
        n = agents.n
        desired = np.empty((n, 2))
        _look_rows(n)(agents.vel, agents.heading, agents.max_turn_rate, step, True, desired)
        if debug is not None:
            write(OrientationDebug(desired), debug)
        return np.zeros((n, 2))


@rows_kernel
def _look_rows(
    vel: FloatArray,
    heading: FloatArray,
    rate: FloatArray,
    dt: float,
    turn: bool,
    desired: FloatArray,
) -> None:
    for i in prange(vel.shape[0]):
        vx, vy = vel[i, 0], vel[i, 1]
        wx, wy = 0.0, 0.0
        if hypot(vx, vy) > MOVING_SPEED:
            wx, wy, _ = kern.unit(vx, vy)
        desired[i, 0] = wx
        desired[i, 1] = wy
        if turn:
            heading[i, 0], heading[i, 1] = _turn(
                heading[i, 0], heading[i, 1], wx, wy, _reach(rate[i], dt)
            )


@dataclass
class Face:
    """Turn each agent's heading toward ``target`` (one point for all, or one per agent).

    An orientation behaviour: it steers the *heading*, not the velocity, so an agent can watch
    the player while it drifts or patrols. Called as a behaviour (``face(agents, dt, debug)``)
    it turns ``agents.heading`` in place, once, by at most ``max_turn_rate * dt`` (as
    :meth:`AgentGroup.turn_toward`) and returns a zero (N, 2) force; :meth:`heading` only
    reports the desired heading. An agent on the target keeps its heading.

    How to use it: the call is the step's one turn of the heading, so integrate with
    ``integrate(agents, force, dt, face_velocity=False)``. With the default
    ``face_velocity=True`` :func:`~steering.integrate` (and the world after physics) turns
    moving agents' headings back toward their velocity in the same step.

    Trade-offs: inside :class:`~steering.Masked` the turn applies to a copy of the rows and
    is lost; sharp combinators such as :class:`~steering.FirstNonZero` may skip it. Behaviours
    evaluated after it in the same sum (wander, for one) see the turned heading.

    Attributes:
        target: an (x, y) point, or (N, 2) points, one per agent.

    Raises:
        TypeError, ValueError: (at the call) for a target that is not finite points of the
            right shape, or a bad ``dt``.
    """

    target: ArrayLike

    def heading(self, agents: AgentGroup) -> FloatArray:
        """(N, 2) unit directions to the target; zero rows (keep) on the target itself."""
        n = agents.n
        tgt = fast_points("Face.target", self.target, n)
        out = np.empty((n, 2))
        _face_rows(n)(agents.pos, agents.heading, agents.max_turn_rate, tgt, 0.0, False, out)
        return out

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Turn the heading (in place, once) and return a zero (N, 2) force.

        Debug keys: ``orientation.desired`` (N, 2) the desired heading (zero: keep).
        """
        step = _dt("Face", dt)
        n = agents.n
        tgt = fast_points("Face.target", self.target, n)
        desired = np.empty((n, 2))
        _face_rows(n)(agents.pos, agents.heading, agents.max_turn_rate, tgt, step, True, desired)
        if debug is not None:
            write(OrientationDebug(desired), debug)
        return np.zeros((n, 2))


@rows_kernel
def _face_rows(
    pos: FloatArray,
    heading: FloatArray,
    rate: FloatArray,
    target: FloatArray,
    dt: float,
    turn: bool,
    desired: FloatArray,
) -> None:
    ts = 0 if target.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        t = i * ts
        wx, wy, _ = kern.unit(target[t, 0] - pos[i, 0], target[t, 1] - pos[i, 1])
        desired[i, 0] = wx
        desired[i, 1] = wy
        if turn:
            heading[i, 0], heading[i, 1] = _turn(
                heading[i, 0], heading[i, 1], wx, wy, _reach(rate[i], dt)
            )
