"""The shipped levels load and teach what they promise; names resolve; the docs
work (the command line: tests/integration/test_cli_level.py)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.level import (
    CLASSES,
    LEVELS_DIR,
    MAP_PROPERTIES,
    Level,
    LevelError,
    load_level,
    loads_level,
    resolve_level,
    shipped_levels,
)
from game.level.shipped import REPO_ROOT
from tests.helpers.level import valid_map, write

SHIPPED = shipped_levels()
DOCS = REPO_ROOT / "docs" / "levels.md"


def _level(stem: str) -> Level:
    return load_level(LEVELS_DIR / f"{stem}.tmj")


def test_at_least_ten_levels_numbered_one_to_n() -> None:
    assert len(SHIPPED) >= 10
    numbers = [int(p.name.split("_")[0]) for p in SHIPPED]
    assert numbers == list(range(1, len(SHIPPED) + 1))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_level_loads_and_is_plausible(path: Path) -> None:
    level = load_level(path)
    assert level.title
    assert level.hint
    assert 1280 <= level.width_px <= 3200
    assert 720 <= level.height_px <= 1800
    start = (level.player.x, level.player.y)
    diagonal = math.hypot(level.width_px, level.height_px)
    for exit_ in level.exits:
        assert math.dist(start, exit_.rect.center) > diagonal / 2
    for enemy in level.enemies:
        # sneaking is possible: nobody sees the start or the whole width of the map
        assert math.dist(start, (enemy.x, enemy.y)) > enemy.sight
        assert enemy.sight < level.width_px / 4


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_file_is_a_tiled_18_map(path: Path) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    for key in (
        "type",
        "version",
        "tiledversion",
        "orientation",
        "renderorder",
        "infinite",
        "nextlayerid",
        "nextobjectid",
        "compressionlevel",
        "tilesets",
    ):
        assert key in raw, key
    assert raw["type"] == "map"
    assert raw["orientation"] == "orthogonal"
    assert raw["infinite"] is False
    assert (raw["tilewidth"], raw["tileheight"]) == (32, 32)
    ids = []
    for layer in raw["layers"]:
        assert layer["type"] == "objectgroup"
        assert "draworder" in layer
        for obj in layer["objects"]:
            assert "class" not in obj  # Tiled 1.8 writes the class as "type"
            assert obj["type"] in CLASSES
            ids.append(obj["id"])
    assert raw["nextobjectid"] > max(ids)


def test_patrol_has_closed_sharp_cornered_paths() -> None:
    level = _level("01_patrol")
    patrolled = {e.path for e in level.enemies}
    for path in level.paths:
        assert path.closed
        assert len(path.points) >= 3
        assert path.name in patrolled
        assert path.drift == 0
        pts = path.points
        # sharp: at least one turn of 60 degrees or more
        turns = []
        for i in range(len(pts)):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
            h1 = math.atan2(b[1] - a[1], b[0] - a[0])
            h2 = math.atan2(c[1] - b[1], c[0] - b[0])
            turns.append(abs((h2 - h1 + math.pi) % (2 * math.pi) - math.pi))
        assert max(turns) >= math.radians(60)


def test_currents_has_time_varying_noise_a_river_and_a_vortex() -> None:
    level = _level("02_currents")
    kinds = {f.kind for f in level.flows}
    assert {"noise", "uniform", "vortex"} <= kinds
    assert any(f.kind == "noise" and f.speed > 0 for f in level.flows)
    assert level.npcs


def test_image_flow_is_used_and_resolved() -> None:
    images = [f.image for p in SHIPPED for f in load_level(p).flows if f.kind == "image"]
    assert images
    for image in images:
        assert image is not None and image.is_file()
        assert image.is_relative_to(REPO_ROOT / "resources")


def test_rockfield_has_at_least_30_rocks_that_do_not_overlap() -> None:
    level = _level("03_rockfield")
    rocks = level.obstacles
    assert len(rocks) >= 30
    for i, a in enumerate(rocks):
        for b in rocks[i + 1 :]:
            assert math.dist((a.x, a.y), (b.x, b.y)) >= a.radius + b.radius + 48
    assert any(r.dynamic for r in rocks)
    assert level.enemies


def test_swarm_has_at_least_200_npcs() -> None:
    level = _level("04_swarm")
    assert sum(n.count for n in level.npcs) >= 200
    assert any(n.area is not None for n in level.npcs)


def test_moving_paths_drift() -> None:
    level = _level("05_moving_paths")
    drifting = [p for p in level.paths if p.drift > 0]
    assert len(drifting) >= 3
    assert {e.path for e in level.enemies} >= {p.name for p in drifting}


def test_gate_has_a_wall_with_gates_and_a_queueing_school() -> None:
    level = _level("06_gate")
    assert len(level.walls) >= 2
    school = [n for n in level.npcs if n.queue]
    assert school and all(n.path for n in school)


def test_sentries_guard_the_exit() -> None:
    level = _level("08_sentries")
    (exit_,) = level.exits
    sentinels = [e for e in level.enemies if e.role == "sentinel"]
    assert len(sentinels) >= 2
    start = (level.player.x, level.player.y)
    for s in sentinels:  # nearer the exit than the start
        assert math.dist((s.x, s.y), exit_.rect.center) < math.dist((s.x, s.y), start)


def test_squadron_has_formations_and_hiders() -> None:
    level = _level("07_squadron")
    assert {e.formation for e in level.enemies if e.count > 1} - {"none"}
    assert any(n.role == "hider" for n in level.npcs)


def test_from_level_three_on_walls_or_sentinels_stop_the_straight_run() -> None:
    for path in SHIPPED[2:]:
        level = load_level(path)
        assert level.walls or any(e.role == "sentinel" for e in level.enemies), path.name


def test_finale_combines_everything() -> None:
    level = _level("09_finale")
    assert level.obstacles and level.enemies and level.npcs and level.walls
    assert any(e.role == "sentinel" for e in level.enemies)
    assert any(p.drift > 0 for p in level.paths)
    assert any(p.closed and p.drift == 0 for p in level.paths)
    assert {"noise", "uniform", "vortex"} <= {f.kind for f in level.flows}


def test_sandbox_is_an_open_field_with_one_of_each() -> None:
    level = _level("10_sandbox")
    assert level.obstacles
    assert level.flows
    assert level.paths
    assert any(n.area is not None for n in level.npcs)


@pytest.mark.parametrize(
    "name",
    [
        "1",
        "01",
        "patrol",
        "01_patrol",
        "01_patrol.tmj",
        "PATROL",
        str(LEVELS_DIR / "01_patrol.tmj"),
    ],
)
def test_resolve_level_by_name_number_or_path(name: str) -> None:
    assert resolve_level(name).name == "01_patrol.tmj"


def test_resolve_level_accepts_any_existing_file(tmp_path: Path) -> None:
    path = write(tmp_path, valid_map())
    assert resolve_level(path) == path


def test_resolve_unknown_level_lists_the_known_ones() -> None:
    with pytest.raises(LevelError) as info:
        resolve_level("atlantis")
    message = str(info.value)
    assert "atlantis" in message
    for path in SHIPPED:
        assert path.stem in message


# --- docs ----------------------------------------------------------------------------------


def test_docs_describe_every_class_and_property() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for name, spec in CLASSES.items():
        assert f"### `{name}`" in text, name
        section = text.split(f"### `{name}`", 1)[1].split("\n### ", 1)[0]
        for prop in spec.props:
            assert f"| `{prop.name}` |" in section, (name, prop.name)
    for prop in MAP_PROPERTIES:
        assert f"| `{prop.name}` |" in text


def test_docs_minimal_example_loads() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## A minimal level", 1)[1]
    example = re.search(r"```json\n(.*?)```", section, re.S)
    assert example is not None
    level = loads_level(example.group(1), LEVELS_DIR / "11_first_steps.tmj")
    assert level.title == "First steps"
    assert (level.player.x, level.player.y) == (64, 320)
    assert level.paths[0].points == ((480, 480), (800, 480), (800, 160), (480, 160))
    assert (level.obstacles[0].x, level.obstacles[0].y, level.obstacles[0].radius) == (640, 320, 40)
    assert level.enemies[0].sight == 180


# --- the command line and tools --------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )


def test_level_package_imports_no_arcade_or_pymunk() -> None:
    code = (
        "import sys, game.level, game.level.__main__\n"
        "bad = sorted(m for m in ('arcade', 'pymunk', 'pyglet') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = _run("-c", code)
    assert result.returncode == 0, result.stderr


def test_rock_placement_follows_seed_002() -> None:
    import random

    from tools import make_rockfield

    keep_out = [(400.0, 300.0, 50.0)]
    rocks = make_rockfield.place_rocks(
        800,
        600,
        40,
        rng=random.Random(1),
        min_radius=10,
        max_radius=30,
        gap=20,
        border=10,
        keep_out=keep_out,
    )
    assert rocks
    for i, (x, y, r) in enumerate(rocks):
        assert 10 <= r < 30
        assert r + 10 <= x <= 800 - r - 10 and r + 10 <= y <= 600 - r - 10
        for ox, oy, orad in rocks[i + 1 :] + keep_out:
            assert math.dist((x, y), (ox, oy)) >= r + orad + 20
    # the same seed gives the same rocks
    assert rocks == make_rockfield.place_rocks(
        800,
        600,
        40,
        rng=random.Random(1),
        min_radius=10,
        max_radius=30,
        gap=20,
        border=10,
        keep_out=keep_out,
    )
