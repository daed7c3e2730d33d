"""The crowd-fit rule is one rule for the loader and the world's spawning, and a flow image is
decoded once for both the loader's check and the current built from it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.level import load_level
from game.level.crowd import MAX_CROWD_FILL, SPAWN_GAP, CrowdRoom, agent_cell
from game.level.errors import LevelError
from game.world import spawn
from game.world.currents import Current
from tests.helpers.level import exit_, make_map, player, point, prop, rect, write


def test_an_agents_cell_is_its_diameter_and_the_gap_squared() -> None:
    # Given an agent of radius 10
    # Then its starting square is (2 * 10 + 2) px a side
    assert SPAWN_GAP == 2.0
    assert agent_cell(10.0) == pytest.approx(22.0**2)


def test_the_room_fills_spawn_by_spawn_and_refuses_the_one_that_does_not_fit() -> None:
    # Given a 100 x 100 px world: half of it, 5,000 px^2, may hold starting squares
    room = CrowdRoom.of_world(100.0, 100.0)
    assert room.room == pytest.approx(100.0 * 100.0 * MAX_CROWD_FILL)
    # When 10 agents of radius 10 (484 px^2 each) are taken
    assert room.take(10, 10.0)
    # Then 0 more fit (4,840 of 5,000 used), and taking one is refused without taking anything
    assert room.fits(5, 10.0) == 0
    assert not room.take(1, 10.0)
    assert room.used == pytest.approx(4840.0)
    # And smaller agents still fit in what is left: 160 // 16 = 10 of radius 1
    assert room.fits(20, 1.0) == 10


def test_the_world_spawns_with_the_loaders_gap() -> None:
    # The world's spawning uses the rule's own constant and cell, not a copy
    assert spawn.SPAWN_GAP is SPAWN_GAP
    assert spawn.agent_cell is agent_cell


def _crowd_map(count: int) -> dict[str, object]:
    enemy = point(3, "enemy", 100, 100, name="crowd")
    enemy["properties"] = [prop("count", "int", count), prop("radius", "float", 10.0)]
    # a 320 x 320 px world: half of it, 51,200 px^2, may hold starting squares
    door = rect(2, "exit", 250, 10, 40, 40, name="exit")
    return make_map([player(x=40, y=40), door, enemy], width=10, height=10)


def test_the_loader_refuses_the_first_crowd_that_does_not_fit_with_how_many_would(
    tmp_path: Path,
) -> None:
    small = load_level(write(tmp_path, _crowd_map(1), "one.tmj"))
    room = CrowdRoom.around_player(320.0, 320.0, small.player.radius)
    fits = room.fits(10_000, 10.0)
    # Given the largest crowd of radius 10 the rule lets in, it loads
    load_level(write(tmp_path, _crowd_map(fits)))
    # When one more agent is asked for
    with pytest.raises(LevelError) as caught:
        load_level(write(tmp_path, _crowd_map(fits + 1), "more.tmj"))
    # Then it is refused on the spawn's count, saying how many fit
    assert caught.value.field == "count"
    assert f"at most {fits:,} here" in str(caught.value)


def test_the_players_square_counts_even_in_a_world_too_small_for_it(tmp_path: Path) -> None:
    # Given a 32 x 32 px world (512 px^2 of room) whose player alone (radius 14: 900 px^2)
    # overfills it, and one fish of radius 8 (324 px^2)
    fish = point(3, "npc", 20, 20, name="fish")
    door = rect(2, "exit", 0, 0, 8, 8, name="exit")
    raw = make_map([player(x=16, y=16), door, fish], width=1, height=1)
    # When it is loaded
    with pytest.raises(LevelError) as caught:
        load_level(write(tmp_path, raw))
    # Then the fish is refused beside the player, as before the rule was shared
    assert caught.value.field == "count"
    assert "at most 0 here" in str(caught.value)


def test_a_flow_image_is_decoded_once_for_the_check_and_the_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a level whose flow region is an image (under the game's levels folder)
    from game.level.shipped import LEVELS_DIR

    picture = LEVELS_DIR / f".test_decode_once_{tmp_path.name}.png"
    gray = np.tile(np.arange(0, 256, 32, dtype=np.uint8), (8, 1))
    Image.fromarray(gray).save(picture)
    try:
        region = rect(3, "flow", 0, 0, 256, 256, name="pic")
        region["properties"] = [
            prop("kind", "string", "image"),
            prop("image", "file", str(picture)),
        ]
        path = write(tmp_path, make_map([player(x=300, y=300), exit_(), region]))
        opened: list[str] = []
        real_open = Image.open

        def counting_open(fp: object, *args: object, **kw: object) -> Image.Image:
            opened.append(str(fp))
            return real_open(fp, *args, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(Image, "open", counting_open)
        # When the level loads and its current is built
        level = load_level(path)
        current = Current.build(level.flows[0])
        # Then the file was opened once, and the current turns with the image's gray
        assert opened == [str(picture.resolve())]
        assert np.isfinite(current.field.vectors).all()
    finally:
        picture.unlink(missing_ok=True)
