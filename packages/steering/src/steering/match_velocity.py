"""gdx-ai's MatchVelocity: steer toward a target velocity. The behaviour and its loop over
agents."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import fast_points, finite
from ._jit import prange, rows_kernel
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .debug import MatchDebug, write
from .vec import FloatArray

__all__ = ["MatchVelocity"]


@dataclass
class MatchVelocity:
    """gdx-ai's MatchVelocity: steer toward a target velocity (one for all or one per agent).

    The target is first truncated to the agent's max speed, then the force is ``(target -
    velocity) * gain`` limited to max force (gdx-ai's ``1 / timeToTarget`` is the gain). For
    convoys, escorts and the velocity part of flocking. Fails at keeping position: it matches
    velocity only, so any offset from a leader drifts; use :class:`OffsetPursuit` for that.

    Debug: ``"match.velocity"`` (N, 2) the truncated target velocity.

    Raises:
        TypeError, ValueError: for a NaN gain, or (at the call) a target velocity that is not
            finite points of the right shape.
    """

    target_velocity: ArrayLike
    gain: float = DEFAULT_GAIN

    def __post_init__(self) -> None:
        self.gain = finite("MatchVelocity.gain", self.gain)

    def __call__(self, agents: AgentGroup, dt: float, debug: Debug | None = None) -> FloatArray:
        """Return (N, 2) forces toward the target velocity."""
        n = agents.n
        target = fast_points("MatchVelocity.target_velocity", self.target_velocity, n)
        desired = np.empty((n, 2))
        out = np.empty((n, 2))
        _match_rows(n)(
            agents.vel, agents.max_speed, agents.max_force, target, self.gain, desired, out
        )
        if debug is not None:
            write(MatchDebug(desired), debug)
        return out


@rows_kernel
def _match_rows(
    vel: FloatArray,
    max_speed: FloatArray,
    max_force: FloatArray,
    target: FloatArray,
    gain: float,
    desired: FloatArray,
    out: FloatArray,
) -> None:
    ts = 0 if target.shape[0] == 1 else 1
    for i in prange(vel.shape[0]):
        t = i * ts
        dx, dy = kern.truncate(target[t, 0], target[t, 1], max_speed[i])
        desired[i, 0] = dx
        desired[i, 1] = dy
        out[i, 0], out[i, 1] = kern.steer(dx, dy, vel[i, 0], vel[i, 1], gain, max_force[i])
