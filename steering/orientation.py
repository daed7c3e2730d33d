"""Orientation behaviours (gdx-ai's ``Face`` and ``LookWhereYouAreGoing``): they turn the
agents' heading, limited by ``max_turn_rate``, and leave the velocity alone."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .agents import AgentGroup
from .base import Debug
from .vec import FloatArray, as_points, length, safe_normalize, select_rows

__all__ = ["MOVING_SPEED", "Face", "LookWhereYouAreGoing"]

#: Speeds at or below this (px/s) have no direction to look along (as in
#: :meth:`AgentGroup.update_heading`).
MOVING_SPEED = 1e-6


def _apply(agents: AgentGroup, desired: FloatArray, dt: float, debug: Debug | None) -> FloatArray:
    """Turn the heading toward ``desired``; record it; return the zero force."""
    agents.turn_toward(desired, dt)
    if debug is not None:
        debug["orientation.desired"] = desired
    return np.zeros((agents.n, 2))


@dataclass
class LookWhereYouAreGoing:
    """Turn each agent's heading toward its velocity's direction, at most ``max_turn_rate``.

    An orientation behaviour: it steers the *heading*, not the velocity. Called as a behaviour
    (``look(agents, dt, debug)``) it turns ``agents.heading`` in place through
    :meth:`AgentGroup.turn_toward` and returns a zero (N, 2) force, so it fits in a
    :class:`~steering.WeightedSum` or :class:`~steering.PrioritizedSum` (which
    evaluate every part) without changing the sum. :meth:`heading` only reports the desired
    heading. Stopped agents keep their heading.

    Trade-offs: it is what :meth:`AgentGroup.update_heading` (and :func:`integrate`) already
    does after every step; use it where that is switched off (``integrate(...,
    face_velocity=False)``) and facing is chosen per step, e.g. by :class:`~steering.Priority`
    (which, like every sharp switch, may skip later parts and so their turn). Inside
    :class:`~steering.Masked` the behaviour turns a copy of the rows and the turn is lost:
    call it on the group, or a :meth:`AgentGroup.with_limits` view, instead.
    """

    def heading(self, agents: AgentGroup) -> FloatArray:
        """(N, 2) unit velocity directions; zero rows (keep the heading) for stopped agents."""
        moving = length(agents.vel) > MOVING_SPEED
        return select_rows(moving, safe_normalize(agents.vel), 0.0)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Turn the heading (in place) and return a zero (N, 2) force.

        Debug keys: ``orientation.desired`` (N, 2) the desired heading (zero: keep).
        """
        return _apply(agents, self.heading(agents), dt, debug)


@dataclass
class Face:
    """Turn each agent's heading toward ``target`` (one point for all, or one per agent).

    An orientation behaviour: it steers the *heading*, not the velocity, so an agent can watch
    the player while it drifts or patrols. Called as a behaviour (``face(agents, dt, debug)``)
    it turns ``agents.heading`` in place by at most ``max_turn_rate * dt``
    (:meth:`AgentGroup.turn_toward`) and returns a zero (N, 2) force; :meth:`heading` only
    reports the desired heading. An agent on the target keeps its heading.

    Trade-offs: :func:`integrate` (and the world after physics) turn moving agents' headings
    back toward their velocity every step: for a facing that stays apart from the velocity,
    integrate with ``face_velocity=False``. Inside :class:`~steering.Masked` the turn
    applies to a copy of the rows and is lost; sharp combinators such as
    :class:`~steering.Priority` may skip it.

    Attributes:
        target: an (x, y) point, or (N, 2) points, one per agent.
    """

    target: ArrayLike

    def heading(self, agents: AgentGroup) -> FloatArray:
        """(N, 2) unit directions to the target; zero rows (keep) on the target itself."""
        return safe_normalize(as_points(self.target, agents.n) - agents.pos)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Turn the heading (in place) and return a zero (N, 2) force.

        Debug keys: ``orientation.desired`` (N, 2) the desired heading (zero: keep).
        """
        return _apply(agents, self.heading(agents), dt, debug)
