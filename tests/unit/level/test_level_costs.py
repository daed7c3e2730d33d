"""Issue 43: the loader refuses, in one line naming the limit, what would take an accepted level
over its budget (products of counts, overlapping pushable rocks, all paths' nodes, a key of ten
million ``{}``); counted, not timed. The cases just inside each limit still load (their cost is
measured by ``benchmarks.level_budget``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks.level_budget import (
    _exit,
    _map,
    _player,
    _rock,
    compact,
    drifting_paths,
    hiders_among_rocks,
    point_spawn_pile,
    pushable_pile,
    walls_and_spawned_enemies,
)
from game.level import LevelError, load_level, loads_level
from game.level.costs import rock_overlaps
from game.level.schema import (
    MAX_HIDE_WORK,
    MAX_JSON_CONTAINERS,
    MAX_PATH_NODES,
    MAX_ROCK_OVERLAPS,
    MAX_SPAWN_WALL_WORK,
    MAX_SPAWN_WORK,
)
from game.level.shipped import shipped_levels

#: The zig-zag walls of ``benchmarks.level_budget.wall_points``: 20 walls of 1,000 points.
WALL_SEGMENTS = 20 * 999


def _refusal(make: Callable[[], dict[str, Any]]) -> str:
    with pytest.raises(LevelError) as err:
        loads_level(compact(make()))
    message = str(err.value)
    assert "\n" not in message and len(message) < 400
    return message


def _pile(pairs: int) -> int:
    """Rocks on one spot giving at most ``pairs`` overlapping pairs."""
    return (1 + math.isqrt(1 + 8 * pairs)) // 2


def test_a_pile_of_pushable_rocks_over_the_overlap_limit_is_refused() -> None:
    # Given rocks on one spot: k rocks make k (k - 1) / 2 overlapping pairs
    inside = _pile(MAX_ROCK_OVERLAPS)
    assert inside * (inside - 1) // 2 <= MAX_ROCK_OVERLAPS < (inside + 1) * inside // 2
    # When one more rock is piled on, Then the level is refused naming the limit
    assert loads_level(compact(pushable_pile(inside))).obstacles
    message = _refusal(lambda: pushable_pile(inside + 1))
    assert "rock overlap limit" in message and '"dynamic"' in message
    # And the 9,998 rocks on one spot stop counting at the limit
    assert "rock overlap limit" in _refusal(pushable_pile)


def test_rock_overlaps_counts_only_pairs_with_a_pushable_rock() -> None:
    # Given fixed rocks overlapping each other, and one pushable rock over two of them
    level = _map(
        2000,
        2000,
        [
            _player(60, 60),
            _exit(1800, 200),
            *(_rock(10 + k, 500 + 5 * k, 500, 20, False) for k in range(50)),
            _rock(100, 505, 500, 6, True),
        ],
    )
    rocks = loads_level(compact(level)).obstacles
    # Then only the pushable rock's pairs count (it meets the fixed rocks within 26 px)
    expected = sum(1 for k in range(50) if abs(5 * k - 5) < 26)
    assert rock_overlaps(rocks, MAX_ROCK_OVERLAPS) == (expected, None)


def test_one_agent_point_spawns_over_the_spawn_limit_are_refused() -> None:
    inside = math.isqrt(MAX_SPAWN_WORK) - 1  # spawns x agents, the player not a spawn
    assert loads_level(compact(point_spawn_pile(inside))).agent_count == inside + 1
    message = _refusal(lambda: point_spawn_pile(inside + 2))
    assert "spawn limit" in message and f"{MAX_SPAWN_WORK:,}" in message
    assert "spawn limit" in _refusal(point_spawn_pile)


def test_hiders_among_too_many_rocks_for_their_threats_are_refused() -> None:
    # threats = min(hiders, enemies + 1) = 100; work = threats x rocks x rocks
    rocks = math.isqrt(MAX_HIDE_WORK // 100)
    assert loads_level(compact(hiders_among_rocks(rocks, 200, 99))).obstacles
    message = _refusal(lambda: hiders_among_rocks(rocks + 1, 200, 99))
    assert "hiding limit" in message and '"role"' in message
    # And one hider (one threat to hide from at a time) among them loads
    assert loads_level(compact(hiders_among_rocks(rocks + 1, 1, 99)))


def test_spawned_agents_among_too_many_wall_segments_are_refused() -> None:
    inside = MAX_SPAWN_WALL_WORK // WALL_SEGMENTS
    assert loads_level(compact(walls_and_spawned_enemies(inside))).agent_count == inside + 1
    message = _refusal(lambda: walls_and_spawned_enemies(inside + 1))
    assert "spawn x wall limit" in message


def test_all_paths_together_hold_at_most_the_path_node_limit() -> None:
    per = MAX_PATH_NODES // 4
    assert len(loads_level(compact(drifting_paths(4, per))).paths) == 4
    message = _refusal(lambda: drifting_paths(5, per))
    assert f"at most {MAX_PATH_NODES:,} path nodes in all paths together" in message


def test_a_key_of_too_many_objects_is_refused_before_it_is_decoded() -> None:
    # Given a key the game ignores holding more objects than the limit
    level = _map(4000, 4000, [_player(60, 60), _exit(3800, 200)])
    level["notes"] = [{} for _ in range(MAX_JSON_CONTAINERS)]
    with pytest.raises(LevelError) as err:
        loads_level(compact(level))
    assert f"at most {MAX_JSON_CONTAINERS:,}" in str(err.value)
    # And a few fewer load (the map and its layer are containers too)
    level["notes"] = level["notes"][: MAX_JSON_CONTAINERS - 100]
    assert loads_level(compact(level)).player


def test_every_shipped_level_is_far_inside_the_new_limits() -> None:
    for path in shipped_levels():
        level = load_level(path)
        assert sum(len(p.points) for p in level.paths) < MAX_PATH_NODES // 10
        assert rock_overlaps(level.obstacles, MAX_ROCK_OVERLAPS)[1] is None


def test_one_agent_point_spawns_on_one_spot_start_apart() -> None:
    import numpy as np
    from scipy.spatial import cKDTree

    from game.world.spawn import build_roster

    # Given 300 one-NPC point spawns on one spot (issue 43: 600 stacked 236 and overlapped)
    level = loads_level(compact(point_spawn_pile(300)))
    # When they are placed, Then no two agents overlap and none share a place
    roster = build_roster(level, np.random.default_rng(0))
    pairs = cKDTree(roster.pos).query_pairs(2 * roster.radius.max(), output_type="ndarray")
    gap = np.hypot(*(roster.pos[pairs[:, 0]] - roster.pos[pairs[:, 1]]).T)
    assert not (gap < roster.radius[pairs[:, 0]] + roster.radius[pairs[:, 1]] - 1e-6).any()
    assert len(np.unique(roster.pos, axis=0)) == roster.n == 301


def _image_regions(tmp_path: Path, regions: int, images: int, side: int) -> Path:
    from PIL import Image

    from tests.helpers.level import prop, valid_map, write

    for k in range(images):
        Image.new("L", (side, side), 40 * k).save(tmp_path / f"i{k}.png")
    flows = [
        {
            "id": 10 + j,
            "name": "",
            "class": "flow",
            "x": 0,
            "y": 0,
            "width": 320,
            "height": 320,
            "properties": [
                prop("kind", "string", "image"),
                prop("image", "file", f"i{j % images}.png"),
                prop("cell", "float", 64.0),
            ],
        }
        for j in range(regions)
    ]
    return write(tmp_path, valid_map(flows))


def test_image_regions_decode_each_image_once_and_all_images_are_limited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import game.level.images as images

    # Given image regions cycling images in a folder the level may take images from, the
    # pixel limit at four of them (issue 43: 900 regions cycling 5 images of 4096 x 4096 px,
    # a cache of 4, took 77.6 s to check)
    monkeypatch.setattr(images, "IMAGE_ROOTS", (tmp_path,))
    monkeypatch.setattr(images, "MAX_IMAGE_PIXELS", 4 * 32 * 32)
    decoded: list[object] = []
    real = images.decode_image
    monkeypatch.setattr(images, "decode_image", lambda p: decoded.append(p) or real(p))
    # When 900 regions cycle four images, Then each is decoded once by the check
    assert len(load_level(_image_regions(tmp_path, 900, 4, 32)).flows) == 900
    assert len(decoded) == 4
    # When they cycle five, Then the level is refused naming the image limit
    with pytest.raises(LevelError) as err:
        load_level(_image_regions(tmp_path, 900, 5, 32))
    assert "(image limit)" in str(err.value) and "5,120 pixels" in str(err.value)


def test_agents_start_apart_even_where_rocks_fill_the_world() -> None:
    import numpy as np
    from scipy.spatial import cKDTree

    from game.world.spawn import build_roster

    # Given a rock covering the whole world and an area spawn of 200 NPCs (issue 43: the last
    # resort put agents at uniform random places, some on top of each other)
    level = _map(
        1600,
        1600,
        [
            _player(60, 60),
            _exit(1400, 200),
            _rock(3, 800, 800, 1200, False),
            {
                "id": 4,
                "class": "npc",
                "x": 700,
                "y": 700,
                "width": 100,
                "height": 100,
                "name": "",
                "properties": [{"name": "count", "type": "int", "value": 200}],
            },
        ],
    )
    roster = build_roster(loads_level(compact(level)), np.random.default_rng(0))
    # Then they stand apart from each other (on the rock: the physics pushes them off)
    pairs = cKDTree(roster.pos).query_pairs(2 * roster.radius.max(), output_type="ndarray")
    gap = np.hypot(*(roster.pos[pairs[:, 0]] - roster.pos[pairs[:, 1]]).T)
    assert not (gap < roster.radius[pairs[:, 0]] + roster.radius[pairs[:, 1]] - 1e-6).any()
