"""The world's per-agent state, as one object of columns.

:class:`AgentState` holds every column an agent has, one row per agent (row 0 the player):

* **motion and limits** (:data:`MOTION`, :data:`LIMITS`): position, velocity, heading, speed,
  force and turn limits, radius, mass. These are the arrays the steering engine's
  :class:`~steering.AgentGroup` (``world.agents``) and its crowd view (rows 1..) work on: the
  group is a view of the state's columns, not a copy;
* **what the agent is** (:data:`IDENTITY`): kind, archetype, path index, patrol pace, whether
  it leads a formation;
* **what it does** (:data:`BRAIN`): its mode, which way it walks an open path, whether it
  hides and from what, its target, whether it sees the player;
* **what it holds between steps**: the crowd's last forces (:data:`CROWD_COLUMNS`, one row per
  non-player agent: crowd row ``i`` is agent row ``i + 1``), the behaviours' memory
  (:attr:`AgentState.memory`: path progress, wander angle, avoidance side; crowd rows, the
  crowd group's own state columns) and the enemies' memory of the player
  (:attr:`AgentState.minds`: :data:`MIND_COLUMNS` for the enemies' rows).

Who holds what: the engine's groups (``world.agents``, ``world.crowd``) hold these very
arrays (views, not copies), the roster's ``kind`` and ``path`` arrays are the ``kind`` and
``path_index`` columns, and ``minds`` is the world's :class:`~game.world.brains.EnemyMinds`.
The physics' per-body arrays (``physics.pos``, ``vel``: agents, then pushable rocks) are
pymunk's bodies as read back; the physics system copies the agents' rows into the motion
columns once a step (:func:`~game.world.motion.read_back`), and the steer system's forces
reach the bodies through ``physics.acc``: the bodies are pymunk's, the columns the steering's.

:meth:`AgentState.take` copies the rows of some agents out, :meth:`AgentState.put` writes such a
part into other rows (all columns, or a named set of them). A running world carried over to an
edited level (:mod:`game.world.respawn`) is two puts: where every matched agent is and how it
moves (:data:`MOTION`), and, for agents that keep their role, what they remember
(:data:`REMEMBERED`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "AGENT_COLUMNS",
    "BRAIN",
    "CROWD_COLUMNS",
    "IDENTITY",
    "LIMITS",
    "MIND_COLUMNS",
    "MOTION",
    "REMEMBERED",
    "AgentState",
    "MindRows",
]

IntArray = NDArray[np.intp]

#: Where each agent is and how it moves (the engine's group works on these arrays).
MOTION = ("pos", "vel", "heading")
#: Each agent's limits and body (the engine's group's too).
LIMITS = ("max_speed", "max_force", "max_turn_rate", "radius", "mass")
#: What each agent is, from the level: kind, archetype, path index (-1: none), the fraction
#: of max speed it patrols at, whether it leads a formation.
IDENTITY = ("kind", "archetype", "path_index", "pace", "leads")
#: What each agent does: mode, walking its open path backwards, hiding now (the hiders'
#: hysteresis) and from what threat and its velocity, target, seeing the player this step.
BRAIN = ("mode", "reverse", "hiding", "threat", "threat_vel", "target", "sees")
#: Columns with one row per agent.
AGENT_COLUMNS = MOTION + LIMITS + IDENTITY + BRAIN
#: Columns with one row per non-player agent: the crowd's last steering forces and the
#: staggered crowd's held parts of them.
CROWD_COLUMNS = ("steer", "urgent", "goals")
#: The enemies' memory of the player, one row per enemy (:class:`MindRows`).
MIND_COLUMNS = ("lost_for", "last_seen", "last_vel", "seen")
#: What an agent remembers: carried to an edited level when it keeps its role.
REMEMBERED = (*BRAIN, *CROWD_COLUMNS, "memory", "minds")
_ALL = (*AGENT_COLUMNS, *CROWD_COLUMNS, "memory", "minds")


class Minds(Protocol):
    """The enemies' memory: ``rows`` (E,) their agent rows, and :data:`MIND_COLUMNS`, one
    row per enemy (:class:`~game.world.brains.EnemyMinds` is one)."""

    rows: IntArray


@dataclass
class MindRows:
    """Enemy memory rows taken out of a state (:meth:`AgentState.take`): ``rows`` are the
    positions, among the rows taken, of the agents that had a mind."""

    rows: IntArray
    lost_for: NDArray[np.float64]
    last_seen: NDArray[np.float64]
    last_vel: NDArray[np.float64]
    seen: NDArray[np.bool_]


@dataclass
class AgentState:
    """Every per-agent column of a world (see the module docstring for what each holds)."""

    pos: NDArray[np.float64]
    vel: NDArray[np.float64]
    heading: NDArray[np.float64]
    max_speed: NDArray[np.float64]
    max_force: NDArray[np.float64]
    max_turn_rate: NDArray[np.float64]
    radius: NDArray[np.float64]
    mass: NDArray[np.float64]
    kind: NDArray[np.integer[Any]]
    archetype: NDArray[np.integer[Any]]
    path_index: NDArray[np.intp]
    pace: NDArray[np.float64]
    leads: NDArray[np.bool_]
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
    #: The behaviours' memory columns (crowd rows), by name: the crowd group's own dict.
    memory: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    #: Each memory column's fill (what an agent that never wrote it holds).
    fills: dict[str, float] = field(default_factory=dict)
    #: The enemies' memory of the player.
    minds: Minds | MindRows | None = None

    @classmethod
    def empty(cls, n: int, mode: NDArray[np.int8], **columns: Any) -> AgentState:
        """The state of ``n`` agents that have done nothing yet, in the given modes; any
        column may be given (the world passes its group's arrays, so that the group and the
        state share them), the rest start at zero (limits at 0, path index -1)."""
        vectors = {"pos", "vel", "heading", "threat", "threat_vel", "target"}
        flags = {"leads", "reverse", "hiding", "sees"}
        made: dict[str, Any] = {}
        for name in AGENT_COLUMNS:
            if name in columns:
                made[name] = columns.pop(name)
            elif name == "mode":
                made[name] = mode
            elif name == "path_index":
                made[name] = np.full(n, -1, dtype=np.intp)
            elif name in ("kind", "archetype"):
                made[name] = np.zeros(n, dtype=np.int8)
            else:
                shape = (n, 2) if name in vectors else (n,)
                made[name] = np.zeros(shape, dtype=bool if name in flags else np.float64)
        for name in CROWD_COLUMNS:
            made[name] = np.zeros((n - 1, 2))
        return cls(**made, **columns)

    @property
    def n(self) -> int:
        """How many agents (rows)."""
        return int(self.mode.shape[0])

    def take(self, rows: IntArray) -> AgentState:
        """The state of the agents at ``rows`` (copies), in that order; row 0 (the player)
        has no crowd rows."""
        crowd = rows[rows > 0] - 1
        parts: dict[str, Any] = {name: getattr(self, name)[rows] for name in AGENT_COLUMNS}
        parts.update({name: getattr(self, name)[crowd] for name in CROWD_COLUMNS})
        memory = {name: col[crowd] for name, col in self.memory.items()}
        return AgentState(
            **parts, memory=memory, fills=dict(self.fills), minds=self._minds_at(rows)
        )

    def put(self, rows: IntArray, part: AgentState, columns: Iterable[str] | None = None) -> None:
        """Write ``part`` (as :meth:`take` returns it, one row per entry of ``rows``) into the
        agents at ``rows``, in place: every column, or only ``columns`` (names of
        :data:`AGENT_COLUMNS`, :data:`CROWD_COLUMNS`, ``"memory"`` and ``"minds"``; see
        :data:`MOTION` and :data:`REMEMBERED`). A memory column this state lacks is made with
        the part's fill; an enemy's memory goes only to a row that has a mind here."""
        names = set(_ALL) if columns is None else set(columns)
        unknown = names - set(_ALL)
        if unknown:
            raise ValueError(f"AgentState.put: no column {sorted(unknown)}")
        crowd = rows[rows > 0] - 1
        for name in AGENT_COLUMNS:
            if name in names:
                getattr(self, name)[rows] = getattr(part, name)
        for name in CROWD_COLUMNS:
            if name in names:
                getattr(self, name)[crowd] = getattr(part, name)
        if "memory" in names:
            for name, col in part.memory.items():
                fill = part.fills.get(name, 0.0)
                mine = self.memory.get(name)
                want = (self.n - 1, *col.shape[1:])
                if mine is None or mine.shape != want:
                    mine = self.memory[name] = np.full(want, fill, dtype=np.float64)
                    self.fills.setdefault(name, fill)
                mine[crowd] = col
        if "minds" in names and part.minds is not None and self.minds is not None:
            self._put_minds(rows, part.minds)

    def _minds_at(self, rows: IntArray) -> MindRows | None:
        """The enemy memory of the agents at ``rows`` that have a mind (copies)."""
        minds = self.minds
        if minds is None:
            return None
        where = {int(r): k for k, r in enumerate(minds.rows.tolist())}
        pairs = [(p, where[r]) for p, r in enumerate(rows.tolist()) if r in where]
        at, k = (
            (np.array(v, dtype=np.intp) for v in zip(*pairs, strict=True))
            if pairs
            else (
                np.zeros(0, dtype=np.intp),
                np.zeros(0, dtype=np.intp),
            )
        )
        return MindRows(at, *(getattr(minds, name)[k] for name in MIND_COLUMNS))

    def _put_minds(self, rows: IntArray, part: Minds | MindRows) -> None:
        """Write a part's enemy memory into the minds of the agents at ``rows``."""
        mine = self.minds
        assert mine is not None
        where = {int(r): k for k, r in enumerate(mine.rows.tolist())}
        targets = rows[part.rows].tolist()
        pairs = [(j, where[r]) for j, r in enumerate(targets) if r in where]
        if not pairs:
            return
        src, dst = (np.array(v, dtype=np.intp) for v in zip(*pairs, strict=True))
        for name in MIND_COLUMNS:
            getattr(mine, name)[dst] = getattr(part, name)[src]
