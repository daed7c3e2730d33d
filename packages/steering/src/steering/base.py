"""What every behaviour shares: the call signature, debug output and the seek-style steer."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from .agents import AgentGroup
from .vec import FloatArray, set_length, truncate

__all__ = [
    "ARRIVE_BRAKE",
    "DEFAULT_GAIN",
    "Behaviour",
    "Debug",
    "desired_toward",
    "steer_to_velocity",
]

#: Debug output: behaviour-prefixed keys ("path.future", "avoid.box", ...) to per-agent arrays.
Debug = dict[str, NDArray[np.generic]]

#: How fast a steering force closes the gap to the desired velocity (1/s).
#: The seeds write ``steer = desired - velocity`` in px/frame; in px/s that is
#: ``(desired - velocity) * gain`` with gain = 1/frame time. 8/s closes the gap in ~1/8 s
#: whenever max force allows, which is what the seeds look like at 60 frames a second.
DEFAULT_GAIN = 8.0

#: The brake fraction the behaviours that arrive somewhere use (:class:`~steering.Hide`,
#: :class:`~steering.Interpose`, :class:`~steering.OffsetPursuit`): the default of
#: :class:`~steering.Arrive`, which brakes at this share of max force.
ARRIVE_BRAKE = 0.8


@runtime_checkable
class Behaviour(Protocol):
    """A steering behaviour: a small parameter object that returns forces for all agents.

    ``__call__(agents, dt, debug)`` returns an (N, 2) steering force in px/s^2 x mass (the
    acceleration for a mass of 1; :func:`~steering.integrate` divides by mass), each row finite
    and no longer than ``agents.max_force``. ``dt`` is the step in seconds (behaviours
    with time, such as wander or a changing field, use it). When ``debug`` is a dict the behaviour
    writes what the seeds draw into it, keyed ``"<behaviour>.<item>"``.
    """

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return the (N, 2) steering forces."""
        ...


def steer_to_velocity(
    agents: AgentGroup, desired: FloatArray, gain: float = DEFAULT_GAIN
) -> FloatArray:
    """Reynolds' steer: ``(desired - velocity) * gain`` limited to max force."""
    return truncate((desired - agents.vel) * gain, agents.max_force)


def desired_toward(agents: AgentGroup, direction: FloatArray) -> FloatArray:
    """Desired velocity at max speed along ``direction`` (zero where the direction is zero)."""
    return set_length(direction, agents.max_speed)
