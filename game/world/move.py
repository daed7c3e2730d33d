"""The physics system: every body moved one step by pymunk, and the agents read back.

:func:`move` takes the velocities the bodies were last read back with, removes what would
carry them into a rock or out of the map within the step (the physics' speculative contacts),
makes the forces that bring each body to the velocity its acceleration asks for
(:func:`~game.world.motion.body_forces`: at most max speed for agents, non-finite forces
zeroed), writes them to pymunk, steps it, and reads every body back
(:func:`~game.world.motion.read_back`).

Reads ``world.physics.acc`` (the steer system's accelerations) and the agents' max speeds.
Writes pymunk's bodies, the physics' per-body arrays and contact state, ``world.frame``, and
the agents' positions, velocities and headings.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from .motion import read_back

if TYPE_CHECKING:
    from .world import World

__all__ = ["move"]

log = logging.getLogger(__name__)


def move(world: World, dt: float) -> None:
    """Run the physics system on ``world`` for ``dt`` seconds (see the module's docstring)."""
    bad = world.physics.advance(world.agents.max_speed, dt)
    if bad:  # a NaN force would poison a pymunk body forever
        log.warning("non-finite force on %d bodies zeroed", bad)
    world.frame += 1
    read_back(world, dt)
