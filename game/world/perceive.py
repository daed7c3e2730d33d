"""The perceive system: what every agent senses this step.

:func:`perceive` moves the drifting paths, lets the currents evolve, finds the water's velocity
where every body is, and asks which enemies see the player (sight range and cone in a
compiled pass, then the physics' line of sight for the few in range).

Reads ``world.time``/``frame``, the bodies' positions (``world.physics.pos``), the agents'
positions and headings, and the currents, paths, rocks and walls. Writes the paths' nodes,
``world.physics.current`` and ``in_current`` (every body's current), the currents'
memory, and ``world.minds.sighted``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.clock import DT

if TYPE_CHECKING:
    from .world import World

__all__ = ["perceive"]


def perceive(world: World) -> None:
    """Run the perceive system on ``world`` (see the module's docstring)."""
    t = world.frame * DT  # world.time
    world.paths.drift(t)
    currents = world.currents
    currents.update(t, world.frame)
    pos = world.physics.pos
    current, inside = currents.velocity_at(pos)
    phys = world.physics
    if phys.current.shape == current.shape and phys.in_current.shape == inside.shape:
        # In place: the steering's records hold these arrays from step to step.
        phys.current[:] = current
        phys.in_current[:] = inside
    else:
        phys.current, phys.in_current = current, inside
    n = world.roster.n
    currents.remember(pos[1:n], current[1:n], inside[1:n])
    a = world.agents
    if world.player.ghost:  # no one sees a ghost
        world.minds.sighted[:] = False
    else:
        world.minds.sense(a.pos, a.heading, world.physics.line_of_sight)
