"""The world as components: one owner per kind of data, composed by ``World``; the systems
listed once, in order; one holder per agent datum (the engine's groups share the state's
arrays)."""

from __future__ import annotations

import numpy as np

from game.level import load_level, resolve_level
from game.world import World
from game.world.crowd import CrowdSteering
from game.world.exits import Exits
from game.world.options import WorldOptions
from game.world.player import Player
from game.world.world import STEP_SYSTEMS, SYSTEMS

#: Everything a world holds: its owners, the engine's views of the state, the clock and verdict.
OWNERS = {
    "level",
    "options",
    "roster",
    "state",
    "agents",
    "crowd",
    "minds",
    "npcs",
    "physics",
    "paths",
    "walls",
    "wall_thickness",
    "currents",
    "brain",
    "separate",
    "steering",
    "player",
    "exits",
    "frame",
    "outcome",
    "timer",
}


def test_a_world_is_its_owners_and_nothing_else() -> None:
    # Given a world of a level with enemies, NPCs, rocks and exits, stepped a little
    world = World(load_level(resolve_level("finale")))
    for _ in range(5):
        world.step((1.0, 0.0))
    # Then it holds its owners only, each of its kind
    assert set(vars(world)) == OWNERS
    assert isinstance(world.options, WorldOptions)
    assert isinstance(world.steering, CrowdSteering)
    assert isinstance(world.player, Player) and isinstance(world.exits, Exits)
    # And the systems are listed once, in the order a step runs them
    assert [s.name for s in STEP_SYSTEMS] == list(SYSTEMS)
    assert SYSTEMS == ("perceive", "think", "steer", "physics", "decide")


def test_one_agent_datum_has_one_holder() -> None:
    world = World(load_level(resolve_level("squadron")))
    world.step((1.0, 0.0))
    state, roster = world.state, world.roster
    # The engine's groups are the state's arrays (rows 1.. for the crowd), not copies
    for name in ("pos", "vel", "heading", "max_speed", "max_force", "radius", "mass"):
        assert getattr(world.agents, name) is getattr(state, name)
        assert getattr(world.crowd, name).base is getattr(state, name)
    # Who is who is the roster's, read through by the world and shared by the state
    assert world.kind is roster.kind is state.kind
    assert world.path_index is roster.path is state.path_index
    assert world.n == roster.n == state.n
    # The player's position is row 0 of the state; the input is the player's own
    assert world.player_pos.base is state.pos
    np.testing.assert_array_equal(world.player.thrust, [1.0, 0.0])
    # The bodies' currents are the physics' (one row per body), the agents' a view of them
    assert world.current_at_agents.base is world.physics.current
