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


def test_an_unknown_class_of_megabytes_is_shown_short(tmp_path: Path) -> None:
    # Given an object whose class is 3 million characters (issue 43: a 30 MB error line)
    obj = {"id": 5, "name": "", "class": "x" * 3_000_000, "x": 10, "y": 10, "point": True}
    path = write(tmp_path, valid_map([obj]))
    # When it is loaded, Then one short line says so, with the length
    with pytest.raises(LevelError) as err:
        load_level(path)
    message = str(err.value)
    assert "unknown class" in message and "3,000,000 characters" in message
    assert len(message) < 400 and "\n" not in message


def test_thousands_of_unknown_properties_are_counted_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a rock with 25,000 unknown properties (issue 43: 25,000 warnings, 27 MB)
    rock = {
        "id": 5,
        "name": "",
        "class": "obstacle",
        "ellipse": True,
        "x": 100,
        "y": 100,
        "width": 40,
        "height": 40,
        "properties": [prop(f"note{k}", "string", "") for k in range(25_000)],
    }
    path = write(tmp_path, valid_map([rock]))
    # When it is loaded, Then the first ten are named and the rest counted in one line
    with caplog.at_level("WARNING", logger="game.level"):
        assert load_level(path).obstacles
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 11
    assert "24,990 more unknown properties, ignored" in lines[-1]
    assert all(len(line) < 400 for line in lines)


def test_an_object_with_both_a_polygon_and_a_polyline_is_refused(tmp_path: Path) -> None:
    pts = [{"x": 0, "y": 0}, {"x": 100, "y": 0}, {"x": 100, "y": 100}]
    obj = {"id": 5, "name": "p", "class": "path", "x": 100, "y": 100}
    path = write(tmp_path, valid_map([{**obj, "polygon": pts, "polyline": pts}]))
    with pytest.raises(LevelError, match="both a polygon and a polyline"):
        load_level(path)


def test_check_escapes_bidirectional_and_format_characters_in_a_title(tmp_path: Path) -> None:
    from game.level.__main__ import summary

    # Given a title with a right-to-left override and a zero-width joiner (accepted text)
    title = "Reef\u202e\u200dgate\u00a0two"
    level = load_level(write(tmp_path, valid_map(props=[prop("title", "string", title)])))
    # When check summarises it, Then the format characters are escaped, spaces kept
    line = summary(level)
    assert '"Reef\\u202e\\u200dgate\u00a0two"' in line
    assert "\u202e" not in line
