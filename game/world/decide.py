"""The decide system: whether the run is over.

Being seen matters (issue 44): the player's detection meter (``world.player.detection``, 0 to
1) fills while any enemy sees the player itself (``world.minds.sighted``), in
``detection.fill_time`` seconds far away and up to twice as fast within
``detection.near_distance`` of the nearest enemy that sees it, and drains out of sight in
``detection.drain_time``. A full meter catches the player as a touch does (the enemy that
filled it is put on the physics' ``caught_by``, so the end ring marks it).

:func:`decide` then sets ``world.outcome`` to ``caught`` when an enemy touched the player this
run or the meter is full, else to ``won`` when the player stands in an exit
(``world.exits.rects``); once over, it stays so. A ghost player (``world.player.ghost``) is
never caught and never wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from game.clock import DT
from steering.kernels import njit, use_cache
from steering.vec import FloatArray

if TYPE_CHECKING:
    from .world import World

__all__ = ["decide", "detect"]

use_cache(__file__)


def decide(world: World) -> None:
    """Run the decide system on ``world`` (see the module's docstring)."""
    if world.outcome != "running":
        return
    if world.player.ghost:  # a ghost is never caught (and the editor's world never ends)
        world.physics.caught_by.clear()
        return
    detect(world, DT)
    if world.physics.caught_by:
        world.outcome = "caught"
    elif _inside_any(world.exits.rects, world.agents.pos):
        world.outcome = "won"


def detect(world: World, dt: float) -> None:
    """Fill or drain the player's detection meter for a step of ``dt`` seconds (see the
    module); a full meter puts the nearest enemy that sees the player on ``caught_by``."""
    minds = world.minds
    player = world.player
    d = world.options.tuning.detection
    seeing = minds.rows[minds.sighted]
    if seeing.size == 0:
        player.detection = max(0.0, player.detection - dt / d.drain_time)
        return
    pos = world.agents.pos
    gaps = np.hypot(*(pos[seeing] - pos[0]).T)
    k = int(np.argmin(gaps))
    near = d.near_distance
    boost = min(max((near - float(gaps[k])) / near, 0.0), 1.0) if near > 0 else 0.0
    player.detection = min(1.0, player.detection + dt * (1.0 + boost) / d.fill_time)
    if player.detection >= 1.0:
        world.physics.caught_by.append(int(seeing[k]))


@njit
def _inside_any(rects: FloatArray, pos: FloatArray) -> bool:
    """Whether the point ``pos[0]`` lies in any (left, bottom, right, top) rectangle."""
    x, y = pos[0, 0], pos[0, 1]
    for k in range(rects.shape[0]):
        if rects[k, 0] <= x <= rects[k, 2] and rects[k, 1] <= y <= rects[k, 3]:
            return True
    return False
