"""Walls in the world: solid for the player, avoided by every agent, opaque to sight."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from game.level import Level, WallData
from game.world import World
from game.world.tuning import default_tuning
from tests.unit.world.helpers import ascii_level

#: A 40 x 20 cell room cut in two by a wall at x = 640 with a 96 px gate in the middle.
ROOM = [
    "........................................",
    "........................................",
    "...nnnn.................................",
    "...nnnn.................................",
    "...nnnn.................................",
    "...nnnn.................................",
    "........................................",
    "........................................",
    "........................................",
    ".P......................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "....................................e...",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
    "........................................",
]
WALL_X = 640.0
GATE = (272.0, 368.0)


def _gated(level: Level, gate: bool = True) -> Level:
    h = level.height_px
    if gate:
        walls = (
            WallData(points=((WALL_X, 0.0), (WALL_X, GATE[0])), thickness=12.0, id=900),
            WallData(points=((WALL_X, GATE[1]), (WALL_X, h)), thickness=12.0, id=901),
        )
    else:
        walls = (WallData(points=((WALL_X, 0.0), (WALL_X, h)), thickness=12.0, id=900),)
    return replace(level, walls=walls)


def test_line_of_sight_is_blocked_by_a_wall_and_not_through_the_gate() -> None:
    world = World(_gated(ascii_level(ROOM)))
    los = world.physics.line_of_sight
    assert not los((500.0, 100.0), (800.0, 100.0))  # through the southern wall
    assert not los((500.0, 500.0), (800.0, 500.0))  # through the northern wall
    assert los((500.0, 320.0), (800.0, 320.0))  # through the gate
    assert los((500.0, 100.0), (600.0, 500.0))  # beside it


def test_an_enemy_does_not_see_the_player_through_a_wall() -> None:
    # Given a player 150 px from an enemy, a solid wall between them
    rows = ["." * 40 for _ in range(20)]
    rows[10] = "." * 17 + "P" + "." * 4 + "e" + "." * 17
    world = World(_gated(replace(ascii_level(rows)), gate=False))
    # (the wall runs through x = 640, between the P at x = 560 and the e at x = 720)
    for _ in range(60):
        world.step()
    assert (world.mode_names[world.kind == 1] != "pursue").all()
    # Without the wall the enemy gives chase at once
    base = default_tuning()  # all round: the enemy's back is toward the player
    open_world = World(
        ascii_level(rows), tuning=replace(base, patrol=replace(base.patrol, sight_angle=180.0))
    )
    for _ in range(5):
        open_world.step()
    assert (open_world.mode_names[open_world.kind == 1] == "pursue").all()


def _crossings(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Agents whose centre went from one side of x = WALL_X to the other outside the gate."""
    side_a = before[:, 0] < WALL_X
    side_b = after[:, 0] < WALL_X
    y = (before[:, 1] + after[:, 1]) / 2
    outside_gate = (y < GATE[0]) | (y > GATE[1])
    return np.flatnonzero((side_a != side_b) & outside_gate)


def test_no_agent_and_not_the_player_crosses_a_wall_segment() -> None:
    # Given a school wandering west of the wall, an enemy east of it, the player swimming
    # hard into the wall's southern part for 10 s
    world = World(_gated(ascii_level(ROOM, npc_props={"count": 8})))
    crossed = 0
    pos = world.agents.pos.copy()
    for frame in range(600):
        thrust = (1.0, -0.6) if frame < 300 else (1.0, 0.6)
        world.step(thrust)
        now = world.agents.pos.copy()
        crossed += _crossings(pos, now).size
        pos = now
    # Then no centre ever went through a wall, and nobody sank into one
    assert crossed == 0
    gap = np.abs(world.agents.pos[:, 0] - WALL_X) - world.agents.radius - 6.0
    beside = (world.agents.pos[:, 1] < GATE[0]) | (world.agents.pos[:, 1] > GATE[1])
    assert (gap[beside] > -1.0).all()


def test_fish_whose_path_runs_through_a_wall_stay_on_their_side() -> None:
    # Given a school following a path that runs straight through a wall with no gate
    route = [(150.0, 560.0), (1100.0, 560.0), (1100.0, 80.0), (150.0, 80.0)]
    props = {"count": 12, "path": "beat"}
    world = World(_gated(ascii_level(ROOM, path=route, npc_props=props), gate=False))
    npcs = world.kind == 2
    # When they try for 15 s
    for _ in range(900):
        world.step()
        # Then every fish stays west of the wall, clear of its face
        assert (world.agents.pos[npcs, 0] < WALL_X - 6.0).all()


def test_a_world_with_walls_takes_rock_edits() -> None:
    from game.level.changes import RockChanged

    level = _gated(ascii_level([*ROOM[:-1], "......o................................."]))
    world = World(level)
    rock = level.obstacles[0]
    world.edit([RockChanged(0, rock.id, rock.x + 40, rock.y, 20.0)])
    world.step()
    assert world.obstacle_pos[0, 0] == rock.x + 40
    assert len(world.walls) == 2
