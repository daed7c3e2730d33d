"""The small messages of issue 27 the loader gives: numbers shown as a person would type them,
ASCII digits only (the commands' messages: tests/integration/test_small_messages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.level import LevelError, load_level
from tests.helpers.level import prop, valid_map, write


def test_an_integer_limit_reads_as_an_integer(tmp_path: Path) -> None:
    path = write(tmp_path, valid_map(props=[prop("seed", "int", 4294967296)]))
    with pytest.raises(LevelError) as err:
        load_level(path)
    assert "must be at most 4294967295, got 4294967296" in str(err.value)


def test_radii_take_ascii_digits_only(tmp_path: Path) -> None:
    path_obj = {
        "id": 5,
        "name": "p",
        "class": "path",
        "x": 100,
        "y": 100,
        "polyline": [{"x": 0, "y": 0}, {"x": 100, "y": 0}],
        "properties": [prop("radii", "string", "\u0664\u0660")],
    }
    path = write(tmp_path, valid_map([path_obj]))
    with pytest.raises(LevelError, match='field "radii"'):
        load_level(path)
