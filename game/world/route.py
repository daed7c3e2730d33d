"""Whether patrols hold their routes while the player is out of sight (issue 44's curve).

A patrol (an enemy with a path that is neither a sentinel nor a formation follower) holds its
route in a frame when it is within its path's radius there plus :data:`SLACK` px of the
nearest point of the path. :class:`RouteWatch` counts, over the frames in which no enemy sees
the player, the patrol-frames held and all patrol-frames, the walk back after a chase
included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from steering.kernels import P_COUNT, S_RADIUS, hypot, locate, nearest

if TYPE_CHECKING:
    from .world import World

__all__ = ["SLACK", "RouteWatch"]

#: How far beyond its path's radius a patrol may be and still hold its route (px).
SLACK = 10.0


@dataclass(eq=False)
class RouteWatch:
    """Counts patrol-frames on and off route while the player is unseen (see the module).

    Attributes:
        held: patrol-frames within the path's radius plus :data:`SLACK`.
        frames: patrol-frames counted (the player out of every enemy's sight).
    """

    held: int = 0
    frames: int = 0

    @property
    def share(self) -> float:
        """The share of counted patrol-frames held (1 when none were counted)."""
        return self.held / self.frames if self.frames else 1.0

    def __call__(self, world: World) -> None:
        """Count this frame (call it after each step)."""
        minds = world.minds
        if minds.sighted.any():
            return
        geo = world.paths.geometry()
        pos = world.agents.pos
        patrols = (
            minds.has_path & ~np.asarray(minds.sentinel, bool) & ~np.asarray(minds.follower, bool)
        )
        for e in np.flatnonzero(patrols):
            r = int(minds.rows[e])
            p = int(world.roster.path[r])
            if p < 0:
                continue
            x, y = float(pos[r, 0]), float(pos[r, 1])
            _, s, tx, ty = nearest(geo.pf, geo.pi, geo.sf, geo.real, p, 0, geo.pi[p, P_COUNT], x, y)
            j, _ = locate(geo.pf, geo.pi, geo.sf, p, s)
            limit = float(geo.sf[geo.real[j], S_RADIUS]) + SLACK
            self.frames += 1
            self.held += int(hypot(x - tx, y - ty) <= limit)
