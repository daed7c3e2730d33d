"""The autopilot's sight cost (issue 44) and the patrols' route watch: cells an enemy sees
cost more, cells a rock hides from it do not; a patrol on its path holds its route."""

from __future__ import annotations

import numpy as np

from game.level import load_level, shipped_levels
from game.world.autopilot import Autopilot, _blocked
from game.world.route import RouteWatch
from game.world.world import World


def test_a_rock_or_a_wall_between_the_eye_and_a_point_hides_it() -> None:
    # Given an eye at the origin, a rock of radius 1 at (5, 0) and a wall across x = 5, y > 3
    rocks, radii = np.array([[5.0, 0.0]]), np.array([1.0])
    wall = np.array([[[5.0, 3.0], [5.0, 9.0]]])
    cx, cy = np.array([10.0, 10.0, 3.0, 10.0]), np.array([0.0, 2.5, 0.0, 6.0])
    # When asked which points are hidden, Then those behind the rock or the wall are
    hidden = _blocked((0.0, 0.0), cx, cy, rocks, radii, wall)
    assert hidden.tolist() == [True, False, False, True]


def test_the_autopilot_costs_the_cells_an_enemy_sees() -> None:
    world = World(load_level(next(p for p in shipped_levels() if p.stem == "03_rockfield")))
    pilot = Autopilot(world)
    keep = np.ones(world.minds.rows.size, dtype=bool)
    cost = pilot.sight_danger(keep, world.agents.pos[world.minds.rows])
    assert cost.max() > 0
    seen = cost > 0
    assert 0 < seen.mean() < 1  # some cells seen, not all
    pilot.sight_weight = 0.0
    assert not pilot.sight_danger(keep, world.agents.pos[world.minds.rows]).any()


def test_patrols_walking_their_loops_hold_their_routes() -> None:
    world = World(load_level(next(p for p in shipped_levels() if p.stem == "01_patrol")))
    watch = RouteWatch()
    for _ in range(300):
        world.step()  # the player waits at the start, unseen
        watch(world)
    assert watch.frames >= 300 * 4 * 0.9
    assert watch.share >= 0.95
