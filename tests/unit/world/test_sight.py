"""Line of sight, pursuit, the catch, and the return to the patrol route."""

from __future__ import annotations

import numpy as np

from game.world import World, default_tuning

from .helpers import CELL, ascii_level


def run_modes(world: World, steps: int, thrust: tuple[float, float] = (0.0, 0.0)) -> list[str]:
    """The first enemy's mode after each step (stops when the outcome is decided)."""
    modes = []
    for _ in range(steps):
        world.step(thrust)
        modes.append(str(world.mode_names[1]))
        if world.outcome != "running":
            break
    return modes


def test_an_enemy_does_not_see_the_player_behind_a_rock() -> None:
    # Given an enemy 256 px from the player (sight 300) with a big rock in between
    world = World(ascii_level(["...............", "..e...O...P....", "..............."], sight=300))
    # When half a second passes
    modes = run_modes(world, 30)
    # Then it never pursues
    assert "pursue" not in modes
    assert world.outcome == "running"


def test_it_sees_pursues_and_catches_when_the_rock_is_gone() -> None:
    world = World(ascii_level(["...............", "..e.......P....", "..............."], sight=300))
    start_gap = abs(world.agents.pos[1, 0] - world.player_pos[0])
    modes = run_modes(world, 300)
    assert modes[0] == "pursue"
    assert world.outcome == "caught"
    assert world.physics.caught_by == [1]
    assert abs(world.agents.pos[1, 0] - world.player_pos[0]) < start_gap


def test_a_ghost_player_is_neither_seen_nor_caught() -> None:
    # Given the open level where the enemy sees, pursues and catches the player (above), with
    # the player a ghost, as in the editor's live world
    world = World(ascii_level(["...............", "..e.......P....", "..............."], sight=300))
    world.player.ghost = True
    # When five seconds pass, the player swimming straight at the enemy
    modes, closest = [], float("inf")
    for _ in range(300):
        world.step((-1.0, 0.0))
        modes.append(str(world.mode_names[1]))
        closest = min(closest, float(np.hypot(*(world.agents.pos[1] - world.player_pos))))
    # Then they met, yet the enemy never pursued, and the touch caught no one
    r = world.agents.radius
    assert closest <= r[0] + r[1] + 1.0
    assert "pursue" not in modes
    assert world.outcome == "running" and not world.physics.caught_by


def test_other_agents_do_not_block_sight() -> None:
    world = World(ascii_level(["...............", "..e..nnn..P....", "..............."], sight=300))
    assert run_modes(world, 1) == ["pursue"]


def test_out_of_range_is_unseen_even_in_the_open() -> None:
    # 256 px apart; wandering for half a second brings the enemy at most 90 px closer
    world = World(ascii_level(["...............", "..e.......P....", "..............."], sight=150))
    assert "pursue" not in run_modes(world, 30)


def test_it_returns_to_its_path_after_losing_sight() -> None:
    # Given an enemy on a square route, the player 128 px away in sight (150 px), running off
    rows = ["." * 60 for _ in range(12)]
    rows[6] = "." * 8 + "e...P" + "." * 47
    route = [(112.0, 96.0), (272.0, 96.0), (272.0, 256.0), (112.0, 256.0)]
    world = World(ascii_level(rows, path=route, sight=150.0))
    # When the player flees right (it is faster than the enemy)
    modes = run_modes(world, 600, thrust=(1.0, 0.0))
    # Then the enemy pursues, gives up after losing sight for 2 s, returns, and patrols again
    changes = [m for k, m in enumerate(modes) if k == 0 or modes[k - 1] != m]
    assert changes == ["pursue", "return", "patrol"]
    assert modes.count("pursue") * world.dt >= default_tuning().patrol.lose_sight_after
    # and it is back on its route, inside the path's radius
    path = world.paths["beat"]
    assert path.project(world.agents.pos[1:2]).distance[0] <= path.radius
    assert world.outcome == "running"
    assert world.player_pos[0] > 30 * CELL


def test_sensing_in_place_follows_range_cone_and_line_of_sight_for_every_enemy() -> None:
    # Given enemies all round the player, in and out of range, facing every way, and a line
    # of sight that blocks every other enemy
    import numpy as np

    from game.world.brains import EnemyMinds

    rng = np.random.default_rng(4)
    n = 41
    pos = rng.uniform(0.0, 600.0, (n, 2))
    angle = rng.uniform(0.0, 2 * np.pi, n)
    heading = np.column_stack((np.cos(angle), np.sin(angle)))
    rows = np.arange(1, n)
    minds = EnemyMinds(
        rows,
        rng.uniform(0.0, 400.0, n - 1),
        np.zeros(n - 1, dtype=bool),
        half_angle=rng.uniform(0.2, np.pi, n - 1),
    )
    blocked = {tuple(p) for p in pos[1::2].tolist()}
    asked: list[tuple[float, float]] = []

    def line_of_sight(a: tuple[float, float], b: tuple[float, float]) -> bool:
        asked.append(a)
        return a not in blocked

    # When the minds sense in place
    minds.sense(pos, heading, line_of_sight)
    sensed, queries = minds.sighted.copy(), len(asked)
    # Then an enemy sees the player exactly when it is in range, in its cone and unblocked
    expected = []
    for k, r in enumerate(rows.tolist()):
        offset = pos[0] - pos[r]
        d = float(np.hypot(*offset))
        in_cone = float(offset @ heading[r]) >= np.cos(minds.half_angle[k]) * d
        expected.append(bool(d <= minds.sight[k] and in_cone and tuple(pos[r]) not in blocked))
    assert sensed.tolist() == expected
    # and line of sight was asked only for the enemies in range and cone; some were blocked
    assert 0 < sensed.sum() < queries < rows.size
