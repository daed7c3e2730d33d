"""The saver changes only the objects the level owns, keeps everything else, and never loses
the old file."""

from __future__ import annotations

import copy
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from game.level import (
    LEVELS_DIR,
    RESOURCES_DIR,
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelError,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Rect,
    load_level,
    save_level,
    shipped_levels,
)
from game.level.saver import apply_level
from game.level.tiled import read_raw
from tests.helpers.level import (
    ellipse,
    exit_,
    layer,
    make_map,
    player,
    point,
    poly,
    prop,
    rect,
    write,
)

GRADIENT = RESOURCES_DIR / "flow" / "gradient.png"


def rich_map() -> dict[str, Any]:
    """A map with things the level does not own: a tile layer, a tileset, unknown keys,
    unknown properties, a class-less note, a group layer and a Tiled 1.9 ``class`` key."""
    guard = point(
        4,
        "enemy",
        300,
        300,
        [prop("path", "string", "loop"), prop("sight", "float", 180), prop("mood", "string", "x")],
        "guard",
    )
    guard["futurekey"] = {"keep": [1, 2.5]}
    objects = [
        player(),
        exit_(),
        poly(3, "path", 200, 200, [(0, 0), (100, 0), (100, 100)], True, [], "loop"),
        guard,
        rect(5, "", 10, 10, 20, 20, [prop("note", "string", "designer note")], "note"),
        ellipse(6, "obstacle", 600, 100, 40, 40, name="rock", key="class"),
    ]
    tiles = {
        "data": [1] * 800,
        "height": 20,
        "id": 7,
        "name": "ground",
        "opacity": 0.5,
        "type": "tilelayer",
        "visible": True,
        "width": 40,
        "x": 0,
        "y": 0,
    }
    group = {
        "id": 8,
        "name": "more",
        "type": "group",
        "layers": [layer([rect(9, "flow", 0, 0, 320, 320, [prop("kind", "string", "noise")])], 10)],
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    raw = make_map(objects, layers=[tiles, layer(objects, 1), group])
    raw["tilesets"] = [{"firstgid": 1, "source": "ground.tsx"}]
    raw["backgroundcolor"] = "#102030"
    raw["properties"] = [prop("title", "string", "Rich"), prop("music", "file", "song.ogg")]
    raw["nextobjectid"] = 20
    raw["editorsettings"] = {"export": {"format": "json"}}
    return raw


@pytest.fixture
def rich(tmp_path: Path) -> tuple[Path, dict[str, Any], Level]:
    raw = rich_map()
    path = write(tmp_path, raw)
    return path, raw, load_level(path)


def _read(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _objects(raw: dict[str, Any]) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}

    def walk(layers: list[dict[str, Any]]) -> None:
        for lay in layers:
            for obj in lay.get("objects", []):
                found[obj["id"]] = obj
            walk(lay.get("layers", []))

    walk(raw["layers"])
    return found


def test_unchanged_level_saves_equal_data(rich: tuple[Path, dict[str, Any], Level]) -> None:
    # Given a loaded level
    path, raw, level = rich
    # When it is saved unchanged
    save_level(level)
    # Then the JSON holds exactly the same data
    assert _read(path) == raw


def test_load_save_load_gives_equal_level(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    moved = replace(level, player=replace(level.player, x=level.player.x + 0.1))
    saved = save_level(moved)
    again = load_level(path)
    assert again == saved == moved
    assert again.source == path


def test_only_owned_objects_change(rich: tuple[Path, dict[str, Any], Level]) -> None:
    # Given the guard moves and sees farther
    path, raw, level = rich
    guard = replace(level.enemies[0], x=500.0, sight=400.0)
    save_level(replace(level, enemies=(guard,)))
    # Then the guard's object changed, keeping its unknown key and property
    after = _read(path)
    before_objects, after_objects = _objects(raw), _objects(after)
    changed = after_objects[4]
    assert changed["x"] == 500
    assert {p["name"]: p["value"] for p in changed["properties"]} == {
        "path": "loop",
        "sight": 400,
        "mood": "x",
    }
    assert changed["futurekey"] == {"keep": [1, 2.5]}
    # And every other object, layer and key is as it was
    for oid, obj in before_objects.items():
        if oid != 4:
            assert after_objects[oid] == obj
    assert after["layers"][0] == raw["layers"][0]
    unchanged = {k: v for k, v in after.items() if k != "layers"}
    assert unchanged == {k: v for k, v in raw.items() if k != "layers"}


def test_class_key_is_kept(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    rock = replace(level.obstacles[0], radius=30.0)
    save_level(replace(level, obstacles=(rock,)))
    obj = _objects(_read(path))[6]
    assert obj["class"] == "obstacle"
    assert "type" not in obj
    assert obj["width"] == obj["height"] == 60


def test_new_objects_take_ids_from_nextobjectid(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    rocks = (
        *level.obstacles,
        ObstacleData(x=900, y=300, radius=25),
        ObstacleData(x=1000, y=300, radius=5),
    )
    saved = save_level(replace(level, obstacles=rocks))
    assert [o.id for o in saved.obstacles] == [6, 20, 21]
    after = _read(path)
    assert after["nextobjectid"] == 22
    new = _objects(after)[20]
    assert new["ellipse"] is True
    assert new["class"] == "obstacle"  # the map already uses Tiled 1.9's "class" key
    # the new rock went to the layer of the existing one
    assert [o["id"] for o in after["layers"][1]["objects"]][-2:] == [20, 21]


def test_new_object_with_a_free_explicit_id_keeps_it(
    rich: tuple[Path, dict[str, Any], Level],
) -> None:
    _path, _raw, level = rich
    saved = save_level(
        replace(level, obstacles=(*level.obstacles, ObstacleData(x=900, y=300, radius=25, id=50)))
    )
    assert saved.obstacles[-1].id == 50


def test_new_object_whose_id_is_taken_gets_a_new_one(
    rich: tuple[Path, dict[str, Any], Level],
) -> None:
    _path, _raw, level = rich
    # id 5 is the class-less note, which the level does not own
    saved = save_level(
        replace(level, obstacles=(*level.obstacles, ObstacleData(x=900, y=300, radius=25, id=5)))
    )
    assert saved.obstacles[-1].id == 20


def test_removed_objects_leave_the_file(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    save_level(replace(level, obstacles=(), flows=()))
    objects = _objects(_read(path))
    assert 6 not in objects
    assert 9 not in objects
    assert 5 in objects  # the note is not the level's


def test_repeated_ids_in_the_level_are_refused(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, raw, level = rich
    twin = replace(level.obstacles[0], x=900.0)
    with pytest.raises(LevelError, match="share id 6"):
        save_level(replace(level, obstacles=(level.obstacles[0], twin)))
    assert _read(path) == raw


def test_invalid_level_is_refused_before_writing(
    rich: tuple[Path, dict[str, Any], Level],
) -> None:
    path, raw, level = rich
    lost = replace(level.enemies[0], path="nowhere")
    with pytest.raises(LevelError, match="nowhere"):
        save_level(replace(level, enemies=(lost,)))
    assert _read(path) == raw
    assert not path.with_name(path.name + ".bak").exists()


def test_nan_in_level_data_is_refused(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, raw, level = rich
    with pytest.raises(LevelError) as info:
        save_level(replace(level, player=replace(level.player, max_speed=float("nan"))))
    assert _read(path) == raw
    # and the line names the player object and its property
    assert info.value.object_id == level.player.id
    assert info.value.field == "max_speed"
    assert "cannot save: NaN" in str(info.value)


def test_previous_version_is_kept_as_bak(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    old_text = path.read_text(encoding="utf-8")
    save_level(replace(level, title="Renamed"))
    bak = path.with_name("level.tmj.bak")
    assert bak.read_text(encoding="utf-8") == old_text
    assert load_level(path).title == "Renamed"


def test_backup_can_be_turned_off(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    save_level(replace(level, title="Renamed"), backup=False)
    assert not path.with_name("level.tmj.bak").exists()


@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_failing_save_leaves_the_old_file_intact(
    rich: tuple[Path, dict[str, Any], Level], monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    # Given a level file and a write that fails at some point
    path, _raw, level = rich
    old_bytes = path.read_bytes()

    def boom(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    if failing == "write":
        real_fdopen = os.fdopen

        class FailingFile:
            def __init__(self, fd: int, *args: Any, **kwargs: Any) -> None:
                self.handle = real_fdopen(fd, *args, **kwargs)

            def __enter__(self) -> FailingFile:
                return self

            def __exit__(self, *exc: object) -> None:
                self.handle.close()

            def write(self, data: bytes) -> int:
                self.handle.write(data[: len(data) // 2])
                raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "fdopen", FailingFile)
    else:
        monkeypatch.setattr(os, failing, boom)
    # When saving a changed level
    with pytest.raises(LevelError, match="No space left"):
        save_level(replace(level, title="Lost"))
    monkeypatch.undo()
    # Then the old file is byte for byte the same and no temporary file is left behind
    assert path.read_bytes() == old_bytes
    assert sorted(p.name for p in path.parent.iterdir()) == ["level.tmj"]


def test_failing_serialisation_leaves_the_old_file_intact(
    rich: tuple[Path, dict[str, Any], Level], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _raw, level = rich
    old_bytes = path.read_bytes()

    def boom(*_args: object, **_kwargs: object) -> str:
        raise ValueError("cannot serialise")

    monkeypatch.setattr(json, "dumps", boom)
    with pytest.raises((LevelError, ValueError)):
        save_level(replace(level, title="Lost"))
    monkeypatch.undo()
    assert path.read_bytes() == old_bytes


def test_file_mode_is_kept(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    path.chmod(0o640)
    save_level(replace(level, title="Mode"))
    assert path.stat().st_mode & 0o777 == 0o640


def test_written_like_tiled(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    save_level(replace(level, title="Indent"))
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n "')  # indent=1
    assert '"x": 64,' in text  # whole numbers stay integers


def test_new_level_without_source_gets_a_fresh_tiled_map(tmp_path: Path) -> None:
    level = Level(
        width_px=640,
        height_px=320,
        title="New",
        player=PlayerSpawn(x=50, y=50),
        exits=(ExitData(rect=Rect(500, 200, 64, 64)),),
        paths=(PathData(name="p", points=((100, 100), (200, 100)), drift=2.5),),
        obstacles=(ObstacleData(x=300, y=150, radius=20.5, dynamic=True),),
        enemies=(EnemySpawn(x=100, y=100, path="p"),),
        npcs=(NpcSpawn(x=0, y=0, area=Rect(10, 200, 100, 50), count=5),),
        flows=(FlowRegion(rect=Rect(0, 0, 640, 320), kind="image", image=GRADIENT),),
    )
    path = tmp_path / "new.tmj"
    saved = save_level(level, path)
    raw = _read(path)
    for key in ("type", "version", "tiledversion", "orientation", "renderorder", "infinite"):
        assert key in raw
    assert raw["nextobjectid"] == 8  # seven objects, ids 1 to 7
    assert [lay["name"] for lay in raw["layers"]] == ["flows", "paths", "rocks", "walls", "spawns"]
    assert all("draworder" in lay for lay in raw["layers"])
    assert load_level(path) == saved
    assert saved.flows[0].image == GRADIENT.resolve()
    image_prop = _objects(raw)[1]["properties"]
    assert {"name": "image", "type": "file", "value": os.path.relpath(GRADIENT, tmp_path)} in (
        image_prop
    )
    assert saved.npcs[0].area == Rect(10, 200, 100, 50)


def test_size_must_be_whole_tiles(tmp_path: Path) -> None:
    level = Level(width_px=650, height_px=320, player=PlayerSpawn(x=5, y=5), exits=())
    with pytest.raises(LevelError, match="whole number"):
        save_level(level, tmp_path / "x.tmj")


def test_save_without_any_path_is_refused() -> None:
    level = Level(width_px=640, height_px=320, player=PlayerSpawn(x=5, y=5))
    with pytest.raises(LevelError, match="nowhere"):
        save_level(level)


def test_save_into_a_missing_folder_is_refused(rich: tuple[Path, dict[str, Any], Level]) -> None:
    _path, _raw, level = rich
    with pytest.raises(LevelError, match="does not exist"):
        save_level(level, _path.parent / "nope" / "x.tmj")


def test_resizing_the_world_moves_objects_with_the_bottom(
    rich: tuple[Path, dict[str, Any], Level],
) -> None:
    path, _raw, level = rich
    taller = replace(level, height_px=level.height_px + 64)
    saved = save_level(taller)
    assert saved == taller
    assert _read(path)["height"] == 22


def test_every_kind_of_change_round_trips(rich: tuple[Path, dict[str, Any], Level]) -> None:
    # Given a level where every class of object changes shape or properties
    path, _raw, level = rich
    changed = replace(
        level,
        title="All",
        seed=9,
        hint="h",
        paths=(replace(level.paths[0], points=((10.5, 20.25), (30, 40), (50, 10)), closed=False),),
        obstacles=(replace(level.obstacles[0], dynamic=True, mass=3.5),),
        exits=(replace(level.exits[0], rect=Rect(1000, 10, 33.5, 40)),),
        npcs=(
            NpcSpawn(x=0, y=0, area=Rect(100, 100, 50, 50), count=7, path="loop", wander=False),
            NpcSpawn(x=123.25, y=321.5, separation=5.0),
        ),
        flows=(replace(level.flows[0], kind="image", image=GRADIENT, clockwise=True, seed=3),),
    )
    # When saved and loaded again
    saved = save_level(changed)
    # Then the data is the same
    assert load_level(path) == saved
    assert saved.npcs[0].area == Rect(100, 100, 50, 50)
    assert (saved.npcs[1].x, saved.npcs[1].y) == (123.25, 321.5)
    # And saving the result again changes nothing
    raw_once = _read(path)
    save_level(saved)
    assert _read(path) == raw_once


def test_npc_can_change_between_point_and_area(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, _raw, level = rich
    with_area = save_level(replace(level, npcs=(NpcSpawn(x=0, y=0, area=Rect(100, 100, 50, 50)),)))
    as_point = replace(with_area.npcs[0], area=None, x=300.0, y=300.0)
    saved = save_level(replace(with_area, npcs=(as_point,)))
    obj = _objects(_read(path))[saved.npcs[0].id]
    assert obj["point"] is True
    assert (obj["width"], obj["height"]) == (0, 0)
    assert saved.npcs[0].area is None


def test_save_as_into_another_folder_rewrites_relative_image_paths(tmp_path: Path) -> None:
    # Given a level whose image path is relative to its folder
    source = load_level(LEVELS_DIR / "02_currents.tmj")
    target = tmp_path / "elsewhere" / "copy.tmj"
    target.parent.mkdir()
    # When saved elsewhere
    saved = save_level(source, target)
    # Then the image still resolves to the same file
    assert saved == source
    assert load_level(target) == source


@pytest.mark.parametrize("path", shipped_levels(), ids=lambda p: p.name)
def test_shipped_levels_save_unchanged(path: Path) -> None:
    # In memory: writing into levels/ from a test is not wanted, and a copy elsewhere would
    # break the relative image paths.
    raw = read_raw(path)
    assert apply_level(copy.deepcopy(raw), load_level(path), path) == raw


def test_map_properties_are_added_sorted(tmp_path: Path) -> None:
    raw = make_map(
        [player(), exit_()], props=[prop("seed", "int", 1), prop("title", "string", "t")]
    )
    path = write(tmp_path, raw)
    save_level(replace(load_level(path), hint="new"))
    assert [p["name"] for p in _read(path)["properties"]] == ["hint", "seed", "title"]


def test_raw_dict_is_not_shared_between_saves(rich: tuple[Path, dict[str, Any], Level]) -> None:
    path, raw, level = rich
    snapshot = copy.deepcopy(raw)
    save_level(replace(level, title="One"))
    save_level(replace(level, title="Two"))
    after = _read(path)
    assert {p["name"]: p["value"] for p in after["properties"]}["title"] == "Two"
    assert snapshot == raw
