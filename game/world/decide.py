"""The decide system: whether the run is over.

:func:`decide` sets ``world.outcome`` to ``caught`` when an enemy touched the player this run
(the physics' ``caught_by``), else to ``won`` when the player stands in an exit
(``world.exits.rects``); once over, it stays so. A ghost player (``world.player.ghost``) is never
caught and never wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from steering.kernels import njit, use_cache
from steering.vec import FloatArray

if TYPE_CHECKING:
    from .world import World

__all__ = ["decide"]

use_cache(__file__)


def decide(world: World) -> None:
    """Run the decide system on ``world`` (see the module's docstring)."""
    if world.outcome != "running":
        return
    if world.player.ghost:  # a ghost is never caught (and the editor's world never ends)
        world.physics.caught_by.clear()
        return
    if world.physics.caught_by:
        world.outcome = "caught"
    elif _inside_any(world.exits.rects, world.agents.pos):
        world.outcome = "won"


@njit
def _inside_any(rects: FloatArray, pos: FloatArray) -> bool:
    """Whether the point ``pos[0]`` lies in any (left, bottom, right, top) rectangle."""
    x, y = pos[0, 0], pos[0, 1]
    for k in range(rects.shape[0]):
        if rects[k, 0] <= x <= rects[k, 2] and rects[k, 1] <= y <= rects[k, 3]:
            return True
    return False
