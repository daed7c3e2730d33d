"""The world's per-agent state that agents carry from step to step, as one object of columns.

Positions, velocities, headings and limits live in the steering engine's
:class:`~steering.AgentGroup`; everything else an agent remembers is here: its mode, which way
it walks an open path, whether it hides and from what, its target, and the crowd's last
forces. Agent columns have one row per agent (row 0 the player); crowd columns one row per
non-player agent (crowd row ``i`` is agent row ``i + 1``). :meth:`AgentState.take` and
:meth:`AgentState.put` move the rows of some agents between two worlds in one go: a running
world carried over to an edited level (:mod:`game.world.respawn`) is ``new.state.put(rows,
old.state.take(matched))``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["AGENT_COLUMNS", "CROWD_COLUMNS", "AgentState"]

IntArray = NDArray[np.intp]

#: Columns with one row per agent.
AGENT_COLUMNS = ("mode", "reverse", "hiding", "threat", "threat_vel", "target", "sees")
#: Columns with one row per non-player agent.
CROWD_COLUMNS = ("steer", "urgent", "goals")


@dataclass
class AgentState:
    """Per-agent columns (see the module docstring).

    Attributes:
        mode: (N,) each agent's mode (``game.world.brains.Mode``).
        reverse: (N,) agents walking their open path backwards.
        hiding: (N,) hiders hiding now (their hysteresis).
        threat, threat_vel: (N, 2) what each hider hides from, and its velocity.
        target: (N, 2) where a pursuing or returning enemy heads.
        sees: (N,) enemies that see the player this step, themselves or through their
            formation.
        steer: (N - 1, 2) the crowd's last steering forces.
        urgent, goals: (N - 1, 2) the staggered crowd's held parts of them.
    """

    mode: NDArray[np.int8]
    reverse: NDArray[np.bool_]
    hiding: NDArray[np.bool_]
    threat: NDArray[np.float64]
    threat_vel: NDArray[np.float64]
    target: NDArray[np.float64]
    sees: NDArray[np.bool_]
    steer: NDArray[np.float64]
    urgent: NDArray[np.float64]
    goals: NDArray[np.float64]

    @classmethod
    def empty(cls, n: int, mode: NDArray[np.int8]) -> AgentState:
        """The state of ``n`` agents that have done nothing yet, in the given modes."""
        return cls(
            mode=mode,
            reverse=np.zeros(n, dtype=bool),
            hiding=np.zeros(n, dtype=bool),
            threat=np.zeros((n, 2)),
            threat_vel=np.zeros((n, 2)),
            target=np.zeros((n, 2)),
            sees=np.zeros(n, dtype=bool),
            steer=np.zeros((n - 1, 2)),
            urgent=np.zeros((n - 1, 2)),
            goals=np.zeros((n - 1, 2)),
        )

    def take(self, rows: IntArray) -> AgentState:
        """The state of the agents at ``rows`` (copies), in that order; row 0 (the player)
        has no crowd rows."""
        crowd = rows[rows > 0] - 1
        parts = {name: getattr(self, name)[rows] for name in AGENT_COLUMNS}
        parts.update({name: getattr(self, name)[crowd] for name in CROWD_COLUMNS})
        return AgentState(**parts)

    def put(self, rows: IntArray, part: AgentState) -> None:
        """Write ``part`` (as :meth:`take` returns it, one row per entry of ``rows``) into the
        agents at ``rows``, in place."""
        crowd = rows[rows > 0] - 1
        for name in AGENT_COLUMNS:
            getattr(self, name)[rows] = getattr(part, name)
        for name in CROWD_COLUMNS:
            getattr(self, name)[crowd] = getattr(part, name)
