"""Mutated levels either load or raise LevelError, never anything else; what loads re-saves."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from game.level import LEVELS_DIR, RESOURCES_DIR, Level, LevelError, loads_level
from game.level.saver import apply_level, dumps_map
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
)

#: Mutated texts are parsed as if they were this file, so relative image paths resolve.
SOURCE = LEVELS_DIR / "fuzz.tmj"


def base_map() -> dict[str, Any]:
    """A valid map using every class, shape and property kind."""
    image = str(RESOURCES_DIR / "flow" / "gradient.png")
    objects = [
        player(props=[prop("max_speed", "float", 200)]),
        exit_(),
        poly(
            3,
            "path",
            200,
            200,
            [(0, 0), (100, 0), (100, 100)],
            True,
            [prop("drift", "float", 5)],
            "loop",
        ),
        poly(4, "path", 50, 50, [(0, 0), (60, 10)], False, [prop("radius", "float", 10)], "line"),
        ellipse(5, "obstacle", 600, 100, 40, 40, [prop("dynamic", "bool", True)], "rock"),
        point(6, "enemy", 300, 300, [prop("path", "string", "loop"), prop("count", "int", 2)], "g"),
        rect(
            7, "npc", 100, 400, 200, 100, [prop("count", "int", 20), prop("wander", "bool", False)]
        ),
        point(8, "npc", 700, 500, [prop("separation", "float", 30)], "n"),
        rect(9, "flow", 0, 0, 640, 320, [prop("kind", "string", "noise"), prop("seed", "int", 4)]),
        rect(
            10,
            "flow",
            640,
            0,
            320,
            320,
            [prop("kind", "string", "image"), prop("image", "file", image)],
        ),
        rect(11, "", 0, 0, 5, 5, [prop("note", "string", "hi")]),
    ]
    group = {"id": 2, "name": "g", "type": "group", "offsetx": 0, "layers": [layer(objects[4:], 3)]}
    return make_map(
        objects,
        layers=[layer(objects[:4]), group],
        props=[prop("title", "string", "Fuzz"), prop("seed", "int", 3)],
    )


BASE = base_map()


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in the JSON tree."""
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


PATHS = _paths(BASE)

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, -0.5, 1e-300, 1e12, 1e13, -1e12, 1e308, 2**53 + 1, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["12", "", "enemy", "path", "polygon", "vortex", "../../../etc/x.png", "1e3"]),
    st.just([]),
    st.just({}),
    st.just([{"x": 0, "y": 0}]),
    st.just({"x": "1", "y": None}),
)

MUTATION = st.tuples(st.sampled_from(["drop", "set"]), st.sampled_from(PATHS), VALUES)


def _mutate(raw: dict[str, Any], action: str, path: tuple[Any, ...], value: Any) -> None:
    """Drop or set the value at ``path`` (skipped when an earlier mutation removed it)."""
    node: Any = raw
    for part in path[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return
    last = path[-1]
    value = copy.deepcopy(value)  # a shared {} set twice would make a cycle
    in_dict = isinstance(node, dict) and (action == "set" or last in node)
    in_list = isinstance(node, list) and isinstance(last, int) and last < len(node)
    if not (in_dict or in_list):
        return
    if action == "drop":
        del node[last]
    else:
        node[last] = value


def test_base_map_is_valid() -> None:
    level = loads_level(json.dumps(BASE), SOURCE)
    assert len(level.flows) == 2
    assert level.agent_count == 1 + 2 + 20 + 1


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mutations=st.lists(MUTATION, min_size=1, max_size=4),
    truncate=st.one_of(st.none(), st.integers(min_value=0, max_value=4000)),
)
@pytest.mark.slow
def test_mutated_level_loads_or_raises_level_error(
    mutations: list[tuple[str, tuple[Any, ...], Any]], truncate: int | None
) -> None:
    # Given a valid level with keys dropped, wrong types, NaN, huge or negative numbers
    raw = copy.deepcopy(BASE)
    for action, path, value in mutations:
        _mutate(raw, action, path, value)
    text = json.dumps(raw, allow_nan=True)
    if truncate is not None:
        text = text[:truncate]
    # When it is loaded
    try:
        level = loads_level(text, SOURCE)
    except LevelError as exc:
        # Then it either fails with one clear line...
        event("refused")
        assert "\n" not in str(exc)
        assert str(SOURCE) in str(exc)
        return
    # ...or it loads, and saving and loading again gives the same data
    event("loaded")
    assert isinstance(level, Level)
    decoded = json.loads(text)
    again = loads_level(dumps_map(apply_level(decoded, level, SOURCE)), SOURCE)
    assert again == level
