"""The crowd-fit rule: agents start apart, so a level's crowd must fit in its world.

One rule for the loader, which refuses a spawn that cannot fit beside the ones before it, and
for the world's spawning (:mod:`game.world.spawn`), which places agents :data:`SPAWN_GAP` apart
in squares of :func:`agent_cell`. Overlapping bodies would stall the physics for minutes.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_CROWD_FILL", "SPAWN_GAP", "CrowdRoom", "agent_cell"]

#: Gap between agents as they are placed (px).
SPAWN_GAP = 2.0
#: The share of the world the agents' starting squares may fill at most (rocks and the
#: spawns' spread take the rest).
MAX_CROWD_FILL = 0.5


def agent_cell(radius: float) -> float:
    """The square one agent of ``radius`` needs to start apart from the others (px^2).

    Args:
        radius: The agent's radius (px).

    Returns:
        ``(2 * radius + SPAWN_GAP) ** 2``.
    """
    return (2.0 * radius + SPAWN_GAP) ** 2


@dataclass
class CrowdRoom:
    """The room left for agents' starting squares in a world, filled spawn by spawn.

    Attributes:
        room: The area the crowd may fill (px^2): :data:`MAX_CROWD_FILL` of the world.
        used: The area taken so far (px^2).
    """

    room: float
    used: float = 0.0

    @classmethod
    def of_world(cls, width: float, height: float) -> CrowdRoom:
        """The room of a ``width`` x ``height`` px world, nothing taken yet."""
        return cls(width * height * MAX_CROWD_FILL)

    @classmethod
    def around_player(cls, width: float, height: float, player_radius: float) -> CrowdRoom:
        """The room of a ``width`` x ``height`` px world with the player's square taken, even
        when the player alone overfills it (then no spawn fits beside it)."""
        room = cls.of_world(width, height)
        room.used = agent_cell(player_radius)
        return room

    def fits(self, count: int, radius: float) -> int:
        """How many agents of ``radius`` still fit (all of ``count`` or fewer)."""
        return min(count, int(max(self.room - self.used, 0.0) // agent_cell(radius)))

    def take(self, count: int, radius: float) -> bool:
        """Take the squares of ``count`` agents of ``radius``; False (nothing taken) when
        they do not all fit."""
        need = count * agent_cell(radius)
        if self.used + need > self.room:
            return False
        self.used += need
        return True
