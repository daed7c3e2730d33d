"""Every class and property: its default and an explicit value, with ``type`` and ``class``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.level import CLASSES, MAP_PROPERTIES, RESOURCES_DIR, Level, PropSpec
from tests.helpers.level import (
    ellipse,
    exit_,
    load,
    make_map,
    player,
    point,
    poly,
    prop,
    rect,
    valid_map,
)

GRADIENT = RESOURCES_DIR / "flow" / "gradient.png"
KEYS = ("type", "class")

#: A valid explicit value (different from the default) per (class, property), as
#: (Tiled type, value in the file, expected value in the level data).
EXPLICIT: dict[tuple[str, str], tuple[str, Any, Any]] = {
    ("path", "radius"): ("float", 35.5, 35.5),
    # the path of these tests is a three-node polygon: three segments
    ("path", "radii"): ("string", "10, 20.5,30", (10.0, 20.5, 30.0)),
    ("path", "drift"): ("float", 12, 12.0),
    ("path", "drift_speed"): ("float", 1.25, 1.25),
    ("obstacle", "dynamic"): ("bool", True, True),
    ("obstacle", "mass"): ("float", 42.5, 42.5),
    ("wall", "thickness"): ("float", 20.5, 20.5),
    ("player", "max_speed"): ("float", 300, 300.0),
    ("player", "radius"): ("float", 10.5, 10.5),
    ("enemy", "path"): ("string", "loop", "loop"),
    ("enemy", "count"): ("int", 3, 3),
    ("enemy", "max_speed"): ("float", 150.5, 150.5),
    ("enemy", "max_force"): ("float", 250, 250.0),
    ("enemy", "radius"): ("float", 16, 16.0),
    ("enemy", "sight"): ("float", 0, 0.0),
    ("enemy", "separation"): ("float", 55.5, 55.5),
    ("enemy", "role"): ("string", "sentinel", "sentinel"),
    ("enemy", "formation"): ("string", "wedge", "wedge"),
    ("enemy", "spacing"): ("float", 64.5, 64.5),
    ("enemy", "scatter"): ("float", 120.5, 120.5),
    ("enemy", "phase"): ("float", 0.75, 0.75),
    ("npc", "count"): ("int", 25, 25),
    ("npc", "max_speed"): ("float", 90, 90.0),
    ("npc", "max_force"): ("float", 120.5, 120.5),
    ("npc", "radius"): ("float", 6, 6.0),
    ("npc", "separation"): ("float", 30, 30.0),
    ("npc", "path"): ("string", "loop", "loop"),
    ("npc", "wander"): ("bool", False, False),
    ("npc", "role"): ("string", "hider", "hider"),
    ("npc", "queue"): ("bool", True, True),
    ("npc", "avoid"): ("bool", True, True),
    ("flow", "kind"): ("string", "vortex", "vortex"),
    ("flow", "angle"): ("float", -45, -45.0),
    ("flow", "strength"): ("float", 120.5, 120.5),
    ("flow", "cell"): ("float", 64, 64.0),
    ("flow", "scale"): ("float", 0.125, 0.125),
    ("flow", "speed"): ("float", 0.3, 0.3),
    ("flow", "seed"): ("int", 99, 99),
    ("flow", "clockwise"): ("bool", True, True),
    ("flow", "image"): ("file", str(GRADIENT), GRADIENT.resolve()),
}

CASES = [(cls, spec) for cls, cspec in CLASSES.items() for spec in cspec.props]


def _object_of(cls: str, props: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """An object of class ``cls`` in its natural shape, id 10, name "it"."""
    if cls == "path":
        return poly(10, cls, 200, 200, [(0, 0), (100, 0), (100, 100)], True, props, "it", key)
    if cls == "obstacle":
        return ellipse(10, cls, 500, 300, 40, 40, props, "it", key)
    if cls in ("player", "enemy", "npc"):
        return point(10, cls, 400, 400, props, "it", key)
    return rect(10, cls, 300, 100, 200, 100, props, "it", key)


def _find(level: Level, cls: str, oid: int = 10) -> Any:
    """The level object with id ``oid`` (the player for class player)."""
    for item in level.objects():
        if item.id == oid:
            return item
    raise AssertionError(f"no {cls} with id {oid}")


def _load_one(tmp_path: Path, cls: str, props: list[dict[str, Any]], key: str) -> Any:
    """Load a valid map holding one object of ``cls`` and return that object's data."""
    loop = poly(20, "path", 100, 100, [(0, 0), (50, 0)], False, name="loop")
    if cls == "player":
        raw = make_map([_object_of(cls, props, key), exit_(), loop])
    else:
        raw = valid_map([_object_of(cls, props, key), loop])
    return _find(load(tmp_path, raw), cls)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(("cls", "spec"), CASES, ids=[f"{c}.{s.name}" for c, s in CASES])
def test_property_default(tmp_path: Path, cls: str, spec: PropSpec, key: str) -> None:
    # Given an object of the class without the property
    # When the level loads
    item = _load_one(tmp_path, cls, [], key)
    # Then the property has its documented default
    expected = None if spec.kind == "file" else spec.default
    assert getattr(item, spec.name) == expected
    if spec.kind == "float":
        assert isinstance(getattr(item, spec.name), float)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(("cls", "spec"), CASES, ids=[f"{c}.{s.name}" for c, s in CASES])
def test_property_explicit(tmp_path: Path, cls: str, spec: PropSpec, key: str) -> None:
    # Given an object of the class with the property set to a non-default value
    tiled_type, value, expected = EXPLICIT[(cls, spec.name)]
    props = [prop(spec.name, tiled_type, value)]
    if cls == "flow" and spec.name == "image":
        props.append(prop("kind", "string", "image"))
    if cls == "enemy" and spec.name == "formation":
        props.append(prop("count", "int", 3))  # a formation needs followers
    # When the level loads
    item = _load_one(tmp_path, cls, props, key)
    # Then the level data holds that value with the right Python type
    assert getattr(item, spec.name) == expected
    assert type(getattr(item, spec.name)) is type(expected)


def test_every_property_has_an_explicit_case() -> None:
    assert set(EXPLICIT) == {(c, s.name) for c, s in CASES}


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("cls", sorted(CLASSES))
def test_class_is_read_from_type_and_class(tmp_path: Path, cls: str, key: str) -> None:
    item = _load_one(tmp_path, cls, [], key)
    assert item.id == 10
    assert item.name == "it"


def test_class_and_type_may_both_be_given_when_equal(tmp_path: Path) -> None:
    rock = ellipse(10, "obstacle", 500, 300, 40, 40)
    rock["class"] = "obstacle"
    level = load(tmp_path, valid_map([rock]))
    assert len(level.obstacles) == 1


@pytest.mark.parametrize(
    ("spec", "tiled_type", "value", "expected"),
    [
        (MAP_PROPERTIES[0], "string", "Deep Water", "Deep Water"),
        (MAP_PROPERTIES[1], "int", 4242, 4242),
        (MAP_PROPERTIES[2], "string", "Swim.", "Swim."),
    ],
    ids=lambda v: v.name if isinstance(v, PropSpec) else None,
)
def test_map_property_explicit_and_default(
    tmp_path: Path, spec: PropSpec, tiled_type: str, value: Any, expected: Any
) -> None:
    default = load(tmp_path, valid_map())
    assert getattr(default, spec.name) == spec.default
    explicit = load(tmp_path, valid_map(props=[prop(spec.name, tiled_type, value)]))
    assert getattr(explicit, spec.name) == expected


def test_float_property_accepts_an_int_and_int_property_a_whole_float(tmp_path: Path) -> None:
    enemy = point(10, "enemy", 400, 400, [prop("sight", "int", 300), prop("count", "float", 2.0)])
    level = load(tmp_path, valid_map([enemy]))
    assert level.enemies[0].sight == 300.0
    assert level.enemies[0].count == 2
    assert isinstance(level.enemies[0].count, int)


def test_property_without_declared_type_uses_the_json_type(tmp_path: Path) -> None:
    enemy = point(10, "enemy", 400, 400, [{"name": "sight", "value": 123}])
    assert load(tmp_path, valid_map([enemy])).enemies[0].sight == 123.0


def test_unknown_property_is_ignored_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    enemy = point(10, "enemy", 400, 400, [prop("sigth", "float", 10)], name="g")
    level = load(tmp_path, valid_map([enemy]))
    assert level.enemies[0].sight == 250.0
    assert "sigth" in caplog.text
    assert 'did you mean "sight"' in caplog.text


def test_player_defaults(tmp_path: Path) -> None:
    level = load(tmp_path, make_map([player(), exit_()]))
    assert (level.player.max_speed, level.player.radius) == (220.0, 14.0)
