"""Issue 15: currents carry nothing against the map's edges, rocks grip the bottom, and a
patrol holds its route through currents and crowds."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from game.level import FlowRegion, ObstacleData, Rect, load_level
from game.level.shipped import shipped_levels
from game.world import World
from game.world.brains import combine
from game.world.currents import BANK, Current, Currents, ShoreFlow
from game.world.spawn import ENEMY, NPC
from game.world.world import ROCK_GRIP
from steering import AgentGroup

from .helpers import ascii_level

BOUNDS = (0.0, 0.0, 640.0, 640.0)


def _river(angle: float, strength: float = 100.0) -> Currents:
    """A uniform current over the whole 640 px square, banked by its edges."""
    region = FlowRegion(rect=Rect(0, 0, 640, 640), kind="uniform", angle=angle, strength=strength)
    return Currents([Current.build(region)], bounds=BOUNDS)


def test_the_water_slows_toward_the_edge_it_runs_into_but_not_along_it() -> None:
    # Given a river running up (+y) into the top edge
    currents = _river(90.0)
    # When it is read in open water, half a bank below the top, and at the top
    y = [320.0, 640.0 - BANK / 2, 640.0]
    vel, _ = currents.velocity_at(np.array([[320.0, yy] for yy in y]))
    # Then its speed into the edge falls from full to half to nothing
    assert vel[:, 1] == pytest.approx([100.0, 50.0, 0.0])
    # And by the bottom edge, which it runs away from, nothing changes
    away, _ = currents.velocity_at(np.array([[320.0, 1.0]]))
    assert away[0] == pytest.approx([0.0, 100.0])
    # And a river running along the top edge keeps its speed there
    along, _ = _river(0.0).velocity_at(np.array([[320.0, 639.0]]))
    assert along[0] == pytest.approx([100.0, 0.0])


def test_fish_at_a_shore_swim_back_out_and_along_it() -> None:
    # Given a river running up into the top edge
    shore = ShoreFlow(_river(90.0), BOUNDS, band=80.0)
    # When fish left of the middle read the flow they follow on the edge, where the banked
    # water stands still, and half a band (40 px) below it
    at_edge, below = shore.lookup(np.array([[200.0, 640.0], [200.0, 600.0]]))
    # Then on the edge they head straight back down, out of the bank
    assert at_edge[0] == pytest.approx(0.0) and at_edge[1] < 0.0
    # And below it they swim along the edge toward the middle, out of the stream: the water
    # runs up at 100 * 40 / 96 px/s there, all of it turned to the right
    up = 100.0 * 40.0 / BANK
    assert below == pytest.approx([0.5 * up, 0.0])
    # And in open water it is the current unchanged
    assert shore.lookup(np.array([[320.0, 320.0]]))[0] == pytest.approx([0.0, 100.0])


def test_a_rock_grips_the_bottom_of_a_gentle_current_but_a_strong_one_moves_it() -> None:
    # Given a pushable rock in a river slower than what moves a rock (drag rate 2/s), and in
    # one twice as fast
    gentle = 0.9 * ROCK_GRIP / 2.0
    rows = ["~" * 20 for _ in range(20)]
    rows[18] = "~P" + "~" * 18
    rock = ObstacleData(x=200.0, y=320.0, radius=16.0, id=900, dynamic=True, mass=6.0)
    moved = []
    for speed in (gentle, 2.0 * gentle):
        level = replace(ascii_level(rows, current=(0.0, speed)), obstacles=(rock,))
        world = World(level)
        # When two seconds pass
        for _ in range(120):
            world.step()
        moved.append(float(world.obstacle_pos[0, 0] - rock.x))
    # Then the gentle river leaves it where it lay, the strong one rolls it downstream
    assert moved[0] == pytest.approx(0.0, abs=1e-6)
    assert moved[1] > 10.0


def test_a_patrol_puts_its_goal_before_separation() -> None:
    # Given two agents with the same parts: a goal along +x and separation along +y, each at
    # the full force budget
    group = AgentGroup.create(np.zeros((2, 2)), max_speed=100.0, max_force=100.0)
    goals = np.array([[100.0, 0.0], [100.0, 0.0]])
    separation = np.array([[0.0, 100.0], [0.0, 100.0]])
    urgent = np.zeros((2, 2))
    # When the second one patrols
    force = combine(group, urgent, separation, goals, goal_first=np.array([False, True]))
    # Then the first spends its budget on separation, the patrol on its route
    assert force[0] == pytest.approx([0.0, 100.0])
    assert force[1] == pytest.approx([100.0, 0.0])


LEVELS = shipped_levels()


@pytest.mark.slow
@pytest.mark.parametrize("path", LEVELS, ids=[p.stem for p in LEVELS])
def test_a_minute_of_a_shipped_level_pins_nothing_and_keeps_patrols_on_route(path: Path) -> None:
    # Given a shipped level with nobody in any enemy's sight (the player keeps still)
    level = load_level(path)
    world = World(level)
    world.minds.sight[:] = 0.0
    enemies = np.flatnonzero(world.kind == ENEMY)
    # (formation followers hold slots beside their leader, not the route itself)
    patrols = enemies[(world.path_index[enemies] >= 0) & (world.roster.leader[enemies] < 0)]
    rocks = world.physics.dynamic_rocks
    start = world.obstacle_pos[rocks].copy()
    on_route = np.zeros(patrols.size)
    # When it runs for 60 simulated seconds
    steps = 3600
    for _ in range(steps):
        world.step()
        if patrols.size:
            s, near = world.paths.project(world.path_index[patrols], world.agents.pos[patrols])
            gap = np.hypot(*(world.agents.pos[patrols] - near).T)
            on_route += gap <= world.paths.radius_at(world.path_index[patrols], s) + 10.0
    # Then fewer than 10 % of the fish are within two radii of an edge
    pos, radius = world.agents.pos, world.agents.radius
    to_edge = np.minimum.reduce(
        [pos[:, 0], level.width_px - pos[:, 0], pos[:, 1], level.height_px - pos[:, 1]]
    )
    fish = world.kind == NPC
    if fish.any():
        pinned = np.count_nonzero(fish & (to_edge <= 2 * radius))
        assert pinned < 0.1 * np.count_nonzero(fish), f"{pinned} of {fish.sum()} fish at an edge"
    # And every patrol was within its route's radius (+10 px) at least 90 % of the time
    assert (on_route >= 0.9 * steps).all(), (on_route / steps).round(2).tolist()
    # And no pushable rock drifted more than 200 px on its own
    drift = np.hypot(*(world.obstacle_pos[rocks] - start).T)
    assert (drift < 200.0).all(), drift.round().tolist()
