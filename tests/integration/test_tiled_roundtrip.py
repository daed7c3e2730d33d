"""A level made from nothing in the editor, and shipped levels with walls and flows, round-trip
through the real Tiled map editor (JSON, and TMX and back) unchanged in play: the same level
and the same 10 s trace (issue 16). Skipped when ``tiled`` is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.editor import EditModel
from game.editor.blank import create_level_file
from game.editor.objects import Ref
from game.level import (
    CLASSES,
    LEVELS_DIR,
    MAP_PROPERTIES,
    PropSpec,
    load_level,
)
from game.tiled_roundtrip import find_tiled, round_trip

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        find_tiled() is None, reason="the Tiled map editor is not installed (apt-get install tiled)"
    ),
]


def _spec(cls: str, name: str) -> PropSpec:
    """The property ``name`` of class ``cls`` (``map`` for the map's own)."""
    specs = MAP_PROPERTIES if cls == "map" else CLASSES[cls].props
    return next(p for p in specs if p.name == name)


def build_from_nothing(target: Path) -> Path:
    """Make a level as ``python -m game edit --new`` does and build it up with the editor's
    model: a path, an enemy on it, an NPC spawn area, a pushable rock, a flow region, map
    properties and size, a straight wall bent by a corner, and a rectangle wall. Returns the
    saved file."""
    create_level_file(target, (30, 20))
    m = EditModel.open(target)
    name = m.new_path(200.0, 500.0)
    assert name is not None
    assert m.append_node(name, 400.0, 560.0)
    m.select(name)
    assert m.create("enemies", 300.0, 530.0) is not None, m.notice
    npc = m.create("npcs", 600.0, 420.0)
    assert npc is not None and m.toggle_area(npc), m.notice
    assert m.set_property(npc, _spec("npc", "count"), "6"), m.notice
    assert m.begin_create("obstacles", 500.0, 200.0), m.notice
    m.update_drag(530.5, 200.0)
    assert m.end_drag()
    rock = Ref("obstacles", 0)
    assert m.set_property(rock, _spec("obstacle", "dynamic"), "true"), m.notice
    assert m.set_property(rock, _spec("obstacle", "mass"), "25.5"), m.notice
    assert m.begin_create("flows", 650.0, 100.0), m.notice
    m.update_drag(850.0, 250.0)
    assert m.end_drag()
    flow = Ref("flows", 0)
    for prop_name, text in (("strength", "42.5"), ("angle", "33.3"), ("kind", "noise")):
        assert m.set_property(flow, _spec("flow", prop_name), text), m.notice
    for prop_name, text in (("title", "From nothing ✓"), ("seed", "4000000000"), ("hint", "Go!")):
        assert m.set_property(None, _spec("map", prop_name), text), m.notice
    assert m.set_map_size(32, 22), m.notice
    assert m.begin_wall(100.0, 100.0), m.notice
    m.update_drag(220.25, 100.0)
    assert m.end_drag()
    assert m.insert_wall_node(0, 0, 160.0, 140.5), m.notice
    assert m.set_property(Ref("walls", 0), _spec("wall", "thickness"), "10"), m.notice
    assert m.begin_wall(700.0, 500.0, rect=True), m.notice
    m.update_drag(760.0, 540.0)
    assert m.end_drag()
    m.save()
    return target


def test_a_level_made_from_nothing_round_trips_through_tiled(tmp_path: Path) -> None:
    # Given a level made from nothing in the editor, with every kind of object
    level_file = build_from_nothing(tmp_path / "fresh.tmj")
    level = load_level(level_file)
    assert (len(level.paths), len(level.enemies), len(level.npcs)) == (2, 1, 1)
    assert (len(level.obstacles), len(level.flows), len(level.walls)) == (1, 1, 2)
    assert level.walls[0].points == ((100.0, 100.0), (160.0, 140.5), (220.25, 100.0))
    assert level.walls[1].shape == "rect"
    assert level.seed == 4_000_000_000 and level.obstacles[0].dynamic
    # When it goes through Tiled (JSON, and TMX and back) and is played for 10 s
    # Then nothing differs
    assert round_trip(level_file) == []


@pytest.mark.parametrize("name", ["06_gate.tmj", "09_finale.tmj"])
def test_shipped_levels_with_walls_and_flows_round_trip_through_tiled(name: str) -> None:
    # Given a shipped level with walls (and, for the finale, flows with an image and pushable
    # rocks); When it goes through Tiled, Then it loads and plays the same
    assert round_trip(LEVELS_DIR / name) == []
