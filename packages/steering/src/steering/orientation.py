"""Orientation behaviours (gdx-ai's ``Face`` and ``LookWhereYouAreGoing``): they steer the
agents' heading, limited by ``max_turn_rate``, and leave the velocity alone.

Their angular output is applied once. Calling one returns a zero force and leaves a request
on the group (:meth:`~steering.AgentGroup.request_turn`): the desired heading of each agent.
The step's heading update applies it: :func:`~steering.integrate` and
:func:`~steering.step` turn each heading toward its request (in place of facing the velocity)
by at most ``max_turn_rate * dt``, and clear it; a program that moves its agents another way
(a physics engine) calls :meth:`~steering.AgentGroup.update_heading`, which does the same.
However the step is written, the heading turns once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import fast_points, point_array, time_step
from ._jit import prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .base import Debug
from .checked import ArraySettings, Checked, checks
from .debug import OrientationDebug, write
from .vec import FloatArray

__all__ = ["MOVING_SPEED", "Face", "LookWhereYouAreGoing"]

#: Speeds at or below this (px/s) have no direction to look along (as in
#: :meth:`AgentGroup.update_heading`).
MOVING_SPEED = 1e-6


def _or_keep(desired: FloatArray, heading: FloatArray) -> FloatArray:
    """The turn requests of ``desired`` headings, a row with no direction (zero) asking to
    keep the heading: a request for the heading itself, so the step does not face the
    velocity instead."""
    keep = (desired[:, 0] == 0.0) & (desired[:, 1] == 0.0)
    if not keep.any():
        return desired
    return np.where(keep[:, None], heading, desired)


@dataclass
class LookWhereYouAreGoing:
    """Turn each agent's heading toward its velocity's direction, at most ``max_turn_rate``.

    An orientation behaviour: it steers the *heading*, not the velocity. Called as a behaviour
    (``look(agents, dt, debug)``) it returns a zero (N, 2) force, so it fits in a
    :class:`~steering.WeightedSum` or :class:`~steering.TruncatedRunningSum` (which evaluate
    every part) without changing the sum, and asks for the turn: the step's
    :func:`~steering.integrate` (or :meth:`~steering.AgentGroup.update_heading`) applies it
    once, by at most ``max_turn_rate * dt`` (see the module docstring). :meth:`heading` only
    reports the desired heading. Stopped agents keep their heading.

    Trade-offs: it is what :func:`integrate` with ``face_velocity=True`` already does after
    every step (there toward the new velocity, here toward the velocity before the step, and a
    stopped agent keeps its heading for the step even if the force starts it moving); use it
    where facing is part of a blend, e.g. inside :class:`~steering.FirstNonZero` (which
    evaluates every part, so the request stands whichever part's force is taken).
    """

    def heading(self, agents: AgentGroup) -> FloatArray:
        """(N, 2) unit velocity directions; zero rows (keep the heading) for stopped agents."""
        out = np.empty((agents.n, 2))
        _look_rows(agents.n)(agents.vel, out)
        return out

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Ask for the turn (applied once by the step's heading update) and return a zero
        (N, 2) force.

        Debug keys: ``orientation.desired`` (N, 2) the desired heading (zero: keep).

        Raises:
            ValueError: if ``dt`` is negative or not finite.
        """
        time_step("LookWhereYouAreGoing", dt)
        desired = self.heading(agents)
        agents.request_turn(_or_keep(desired, agents.heading))
        if debug is not None:
            write(OrientationDebug(desired), debug)
        return np.zeros((agents.n, 2))


@rows_kernel
def _look_rows(vel: FloatArray, desired: FloatArray) -> None:
    for i in prange(vel.shape[0]):
        vx, vy = vel[i, 0], vel[i, 1]
        wx, wy = 0.0, 0.0
        if hypot(vx, vy) > MOVING_SPEED:
            wx, wy, _ = kern.unit(vx, vy)
        desired[i, 0] = wx
        desired[i, 1] = wy


@dataclass(eq=False)
class Face(Checked, ArraySettings):
    """Turn each agent's heading toward ``target`` (one point for all, or one per agent).

    An orientation behaviour: it steers the *heading*, not the velocity, so an agent can watch
    the player while it drifts or patrols. Called as a behaviour (``face(agents, dt, debug)``)
    it returns a zero (N, 2) force and asks for the turn: the step's :func:`~steering.integrate`
    (or :meth:`~steering.AgentGroup.update_heading`) applies it once, by at most
    ``max_turn_rate * dt``, in place of facing the velocity (see the module docstring).
    :meth:`heading` only reports the desired heading. An agent on the target keeps its
    heading.

    Trade-offs: the combinators evaluate every part, so the request stands inside
    :class:`~steering.FirstNonZero` whichever part's force is taken. Inside
    :class:`~steering.Masked` the request is made on the masked rows and comes back with their
    state.

    Attributes:
        target: an (x, y) point, or (N, 2) points, one per agent.

    Raises:
        TypeError, ValueError: (at the call) for a target that is not finite points of the
            right shape, or a bad ``dt``.
    """

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(self, target: ArrayLike) -> None: ...

        @property
        def target(self) -> FloatArray: ...
        @target.setter
        def target(self, value: ArrayLike) -> None: ...

    if not TYPE_CHECKING:
        target: ArrayLike

    CHECKS = checks("Face", target=point_array)

    def heading(self, agents: AgentGroup) -> FloatArray:
        """(N, 2) unit directions to the target; zero rows (keep) on the target itself."""
        n = agents.n
        tgt = fast_points("Face.target", self.target, n)
        out = np.empty((n, 2))
        _face_rows(n)(agents.pos, tgt, out)
        return out

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Ask for the turn (applied once by the step's heading update) and return a zero
        (N, 2) force.

        Debug keys: ``orientation.desired`` (N, 2) the desired heading (zero: keep).
        """
        time_step("Face", dt)
        desired = self.heading(agents)
        agents.request_turn(_or_keep(desired, agents.heading))
        if debug is not None:
            write(OrientationDebug(desired), debug)
        return np.zeros((agents.n, 2))


@rows_kernel
def _face_rows(pos: FloatArray, target: FloatArray, desired: FloatArray) -> None:
    ts = 0 if target.shape[0] == 1 else 1
    for i in prange(pos.shape[0]):
        t = i * ts
        wx, wy, _ = kern.unit(target[t, 0] - pos[i, 0], target[t, 1] - pos[i, 1])
        desired[i, 0] = wx
        desired[i, 1] = wy
