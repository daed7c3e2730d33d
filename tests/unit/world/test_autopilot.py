"""The autopilot reaches the exit around rocks, and decides every shipped level."""

from __future__ import annotations

import numpy as np
import pytest

from game.level import load_level, resolve_level
from game.world import Autopilot, World

from .helpers import ascii_level


def fly(world: World, seconds: float) -> str:
    pilot = Autopilot(world)
    for _ in range(round(seconds * 60)):
        world.step(pilot())
        if world.outcome != "running":
            break
    return world.outcome


def test_it_finds_the_way_around_a_wall_of_rocks() -> None:
    # A wall of rocks between the player and the exit, open only at the bottom
    rows = [
        "....o........",
        "....o........",
        ".P..o......E.",
        "....o........",
        "....o........",
        ".............",
        ".............",
    ]
    world = World(ascii_level(rows))
    assert fly(world, 20) == "won"
    assert world.time < 10


def test_its_input_is_a_direction_no_longer_than_one() -> None:
    world = World(load_level(resolve_level("rockfield")))
    pilot = Autopilot(world)
    for _ in range(30):
        u = pilot()
        assert u.shape == (2,) and np.hypot(*u) <= 1.0 + 1e-12
        world.step(u)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["patrol", "rockfield", "sandbox"])
def test_it_never_gets_stuck(name: str) -> None:
    world = World(load_level(resolve_level(name)))
    assert fly(world, 60) in ("won", "caught")
