"""The detection meter (issue 44): being seen fills it, out of sight it drains, full is caught."""

from __future__ import annotations

import numpy as np
import pytest

from game.clock import DT
from game.level import load_level, shipped_levels
from game.world.decide import decide, detect
from game.world.world import World


@pytest.fixture(scope="module")
def level():  # type: ignore[no-untyped-def]
    return load_level(next(p for p in shipped_levels() if p.stem == "01_patrol"))


def _far_seen(world: World) -> None:
    """One enemy sees the player, from beyond the near distance."""
    world.minds.sighted[:] = False
    world.minds.sighted[0] = True
    far = world.options.tuning.detection.near_distance + 500.0
    world.agents.pos[int(world.minds.rows[0])] = world.agents.pos[0] + (far, 0.0)


def test_being_seen_far_away_fills_the_meter_in_fill_time(level) -> None:  # type: ignore[no-untyped-def]
    # Given a world where one enemy sees the player from far away
    world = World(level)
    d = world.options.tuning.detection
    steps = round(d.fill_time / DT)
    # When it is seen for a step less than the fill time
    for _ in range(steps - 2):
        _far_seen(world)
        detect(world, DT)
    # Then the meter is nearly full and no one caught it
    assert 0.95 < world.player.detection < 1.0
    assert world.physics.caught_by == []
    # When it is seen a little longer, Then it is caught by that enemy
    for _ in range(3):
        _far_seen(world)
        decide(world)
    assert world.outcome == "caught"
    assert world.physics.caught_by == [int(world.minds.rows[0])]


def test_near_fills_faster_and_out_of_sight_drains(level) -> None:  # type: ignore[no-untyped-def]
    world = World(level)
    d = world.options.tuning.detection
    world.minds.sighted[:] = False
    world.minds.sighted[0] = True
    world.agents.pos[int(world.minds.rows[0])] = world.agents.pos[0] + (1.0, 0.0)
    detect(world, 0.1)
    assert world.player.detection == pytest.approx(0.1 * 2.0 / d.fill_time, rel=0.02)
    # out of sight: drains at 1 / drain_time a second, never below 0
    world.minds.sighted[:] = False
    level_before = world.player.detection
    detect(world, 0.05)
    assert world.player.detection == pytest.approx(level_before - 0.05 / d.drain_time)
    for _ in range(100):
        detect(world, 0.1)
    assert world.player.detection == 0.0
    assert world.outcome == "running"


def test_a_ghost_fills_no_meter(level) -> None:  # type: ignore[no-untyped-def]
    world = World(level)
    world.player.ghost = True
    for _ in range(200):
        _far_seen(world)
        decide(world)
    assert world.player.detection == 0.0
    assert world.outcome == "running"
    assert np.isfinite(world.agents.pos).all()
