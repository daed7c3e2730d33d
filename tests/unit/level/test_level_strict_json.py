"""A level file goes through the one strict JSON reader: a key given twice is refused like a
NaN, with one line naming the object and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.level import LevelError, load_level, loads_level
from tests.helpers.level import assert_names, point, valid_map


def test_a_key_given_twice_in_an_object_names_the_object_and_the_key(tmp_path: Path) -> None:
    # Given a map whose enemy object has "x" twice (json.loads would keep the last silently)
    guard = point(7, "enemy", 200, 300, name="guard")
    text = json.dumps(valid_map([guard])).replace('"x": 200,', '"x": 200, "x": 900,')
    path = tmp_path / "twice.tmj"
    path.write_text(text, encoding="utf-8")
    # When it is loaded
    with pytest.raises(LevelError) as info:
        load_level(path)
    # Then the line names the file, object 7 "guard" and the field
    assert_names(info.value, path, "x", 7, "guard")
    assert 'duplicate key "x"' in str(info.value)


def test_a_key_given_twice_at_the_top_names_the_key() -> None:
    text = json.dumps(valid_map()).replace('"tilewidth": 32,', '"tilewidth": 32, "tilewidth": 16,')
    with pytest.raises(LevelError) as info:
        loads_level(text, "top.tmj")
    assert info.value.field == "tilewidth"
    assert info.value.object_id is None
    assert "duplicate key" in str(info.value)


def test_text_with_a_byte_order_mark_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.tmj"
    path.write_text("\ufeff" + json.dumps(valid_map()), encoding="utf-8")
    assert load_level(path).player is not None
