"""Where a run ended, marked on the frozen world: a pulsing ring around the enemy that caught
the player, or around the exit it reached (issue 15: the result panel used to cover it)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import theme
from .batch import DiscBatch

if TYPE_CHECKING:
    from arcade.context import ArcadeContext

    from game.world import World

__all__ = ["EndMark", "EndSpot", "end_spot"]

#: Gap (px) between what ended the run and its ring.
RING_GAP = 10.0


@dataclass(frozen=True)
class EndSpot:
    """What ended a run, in world px.

    Attributes:
        x, y: its centre.
        radius: the ring's radius (what it marks plus :data:`RING_GAP`).
        caught: True for the enemy that caught the player, False for the exit reached.
    """

    x: float
    y: float
    radius: float
    caught: bool


def end_spot(world: World) -> EndSpot | None:
    """The enemy that caught the player (the first to touch it), or the exit the player is
    in; None while the run is undecided."""
    p = world.player_pos
    if world.outcome == "caught":
        rows = [r for r in world.physics.caught_by if 0 < r < world.n]
        if not rows:  # nobody on record: mark the player
            return EndSpot(float(p[0]), float(p[1]), float(world.agents.radius[0]) + RING_GAP, True)
        e = rows[0]
        x, y = world.agents.pos[e]
        return EndSpot(float(x), float(y), float(world.agents.radius[e]) + RING_GAP, True)
    if world.outcome == "won":
        for ex in world.level.exits:
            r = ex.rect
            if r.left <= p[0] <= r.right and r.bottom <= p[1] <= r.top:
                cx, cy = r.center
                return EndSpot(cx, cy, 0.5 * math.hypot(r.width, r.height) + RING_GAP, False)
        return EndSpot(float(p[0]), float(p[1]), float(world.agents.radius[0]) + RING_GAP, False)
    return None


class EndMark:
    """The ring drawn (under the world camera) once a run has ended: a steady ring and a
    fainter one that swells from it every second."""

    def __init__(self, ctx: ArcadeContext) -> None:
        self._discs = DiscBatch(ctx, 8)
        self.spot: EndSpot | None = None
        self._clock = 0.0

    def update(self, world: World, dt: float) -> None:
        """Find the spot once the run is decided and advance the pulse."""
        if world.outcome == "running":
            self.spot = None
            self._clock = 0.0
            return
        if self.spot is None:
            self.spot = end_spot(world)
        self._clock += dt
        spot = self.spot
        if spot is None:
            return
        color = theme.HUD_WARN if spot.caught else theme.HUD_GOOD
        phase = self._clock % 1.0
        swell = spot.radius * (1.0 + 0.6 * phase)
        self._discs.add([(spot.x, spot.y)], spot.radius, color, ring=3.0)
        self._discs.add([(spot.x, spot.y)], swell, (*color[:3], int(200 * (1.0 - phase))), ring=2.0)
        self._discs.commit()

    def draw(self) -> None:
        """Draw the rings (nothing while the run goes on). Changes nothing."""
        if self.spot is not None:
            self._discs.draw()
