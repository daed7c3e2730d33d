"""gdx-ai's MatchVelocity: steer toward a target velocity. The behaviour, its record and its
per-agent function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _kern as kern
from ._checks import finite, point_array
from .agents import AgentGroup
from .base import DEFAULT_GAIN, Debug
from .checked import ArraySettings, checks
from .composite import AgentCols, RowPart, row_function
from .debug import MatchDebug, write
from .vec import FloatArray

__all__ = ["MatchRecord", "MatchVelocity", "match_agent", "match_row"]


class MatchRecord(NamedTuple):
    """:class:`MatchVelocity`'s parameters for one call."""

    target: FloatArray
    """(1, 2) one velocity for every agent, or (N, 2) one per agent, px/s."""
    target_step: int
    """0 for one velocity, 1 for one per agent (the target's row is ``i * target_step``)."""
    gain: float
    """1/s."""
    debug: FloatArray
    """(N, 2) each agent's truncated target when debug output is asked, else (0, 2)."""


@row_function
def match_agent(i: int, a: AgentCols, p: MatchRecord) -> tuple[float, float]:
    """Agent ``i``'s force toward its target velocity (truncated to its max speed)."""
    t = i * p.target_step
    dx, dy = kern.truncate(p.target[t, 0], p.target[t, 1], a.max_speed[i])
    if p.debug.shape[0] > 0:
        p.debug[i, 0] = dx
        p.debug[i, 1] = dy
    return kern.steer(dx, dy, a.vel[i, 0], a.vel[i, 1], p.gain, a.max_force[i])


@row_function
def match_row(i: int, a: AgentCols, p: MatchRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s velocity matching force in a composite."""
    return match_agent(i, a, p)


@dataclass(eq=False)
class MatchVelocity(RowPart, ArraySettings):
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

    if TYPE_CHECKING:  # read back as arrays, given as any points (see point_array)

        def __init__(self, target_velocity: ArrayLike, gain: float = ...) -> None: ...

        @property
        def target_velocity(self) -> FloatArray: ...
        @target_velocity.setter
        def target_velocity(self, value: ArrayLike) -> None: ...

    ROW = match_row
    ROW_RECORD = MatchRecord

    if not TYPE_CHECKING:
        target_velocity: ArrayLike
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "MatchVelocity",
        target_velocity=point_array,
        gain=finite,
    )

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> MatchRecord:
        """This call's record.

        Raises:
            TypeError, ValueError: for a target velocity that is not finite points of the
                right shape.
        """
        n = agents.n
        target = self.points("MatchVelocity.target_velocity", self.target_velocity, n)
        rows = np.full((n, 2), np.nan) if debug else _NO_DEBUG
        return MatchRecord(target, 0 if target.shape[0] == 1 else 1, self.gain, rows)

    def report(self, agents: AgentGroup, record: MatchRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.MatchDebug`."""
        write(MatchDebug(record.debug), debug)


_NO_DEBUG = np.zeros((0, 2))
