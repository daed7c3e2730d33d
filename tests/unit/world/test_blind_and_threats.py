"""Blind strategies (the curve's yardstick) and the autopilot's fear of enemies."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.world import Autopilot, World
from game.world.blind import KEY_DIRECTIONS, FollowEdges, HoldToward, _Ring, key_direction, play

from .helpers import ascii_level


def test_key_direction_picks_the_nearest_of_eight() -> None:
    # Given directions a little off each key direction
    for k, d in enumerate(KEY_DIRECTIONS):
        a = math.atan2(d[1], d[0]) + 0.3
        # Then the nearest key is that key
        assert key_direction(np.array([math.cos(a), math.sin(a)])) == k
    assert np.allclose(np.hypot(*KEY_DIRECTIONS.T), 1.0)


def test_the_ring_round_trips_arc_length() -> None:
    ring = _Ring(10.0, 20.0, 110.0, 70.0)  # 100 x 50: perimeter 300
    assert ring.perimeter == 300.0
    for s in (0.0, 37.5, 100.0, 120.0, 150.0, 222.0, 275.0):
        assert ring.param(ring.point(s)) == pytest.approx(s)
    # A point inside is mapped to the nearest side: (60, 25) is 5 px above the bottom side
    assert ring.param(np.array([60.0, 25.0])) == pytest.approx(50.0)
    # Going clockwise from the bottom side's middle to its left end is 50 px, the other way 250
    assert ring.gap(50.0, 0.0, clockwise=True) == pytest.approx(50.0)
    assert ring.gap(50.0, 0.0, clockwise=False) == pytest.approx(250.0)


OPEN = [
    "..........",
    "..........",
    ".P......E.",
    "..........",
    "..........",
]


def test_holding_toward_the_exit_wins_an_empty_map() -> None:
    run = play(ascii_level(OPEN), HoldToward(0), seconds=10)
    assert run.outcome == "won" and run.seconds < 3


@pytest.mark.parametrize("clockwise", [True, False])
def test_following_the_edges_wins_an_empty_map_the_long_way(clockwise: bool) -> None:
    run = play(ascii_level(OPEN), FollowEdges(clockwise=clockwise), seconds=20)
    straight = play(ascii_level(OPEN), HoldToward(0), seconds=10)
    assert run.outcome == "won"
    assert run.seconds > straight.seconds  # it went round by an edge


WIDE = ["." * 24] * 9 + [".P.........e..........E."] + ["." * 24] * 9


def test_the_autopilot_goes_round_an_enemy_in_its_way() -> None:
    # Given an enemy (no path: it wanders by its post; a short sight) on the straight line
    # to the exit
    rows = WIDE
    level = ascii_level(rows, sight=1.0)
    world = World(level)
    pilot = Autopilot(world)
    closest = math.inf
    for _ in range(60 * 15):
        world.step(pilot())
        closest = min(closest, float(np.hypot(*(world.player_pos - world.agents.pos[1]))))
        if world.outcome != "running":
            break
    # Then it wins without passing close to the enemy
    assert world.outcome == "won"
    assert closest > 60.0


def test_without_fear_the_autopilot_passes_close() -> None:
    rows = WIDE
    world = World(ascii_level(rows, sight=1.0))
    pilot = Autopilot(world, threat_weight=0.0)
    closest = math.inf
    for _ in range(60 * 15):
        world.step(pilot())
        closest = min(closest, float(np.hypot(*(world.player_pos - world.agents.pos[1]))))
        if world.outcome != "running":
            break
    assert closest < 60.0
