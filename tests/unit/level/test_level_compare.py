"""``level_differences`` names every difference by object and field; the round-trip check's
trace comparison, without Tiled (its command line: tests/integration/test_cli_level.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from game import tiled_roundtrip
from game.level import Level, Rect
from game.level.compare import level_differences
from game.tiled_roundtrip import RoundTripError, round_trip, trace_differences
from tests.helpers.level import load, poly, prop, valid_map


def _level(tmp_path: Path) -> Level:
    route = poly(5, "path", 100, 100, [(0, 0), (300, 0), (300, 200)], False, name="route")
    route["properties"] = [prop("radius", "float", 24)]
    return load(tmp_path, valid_map([route]))


def test_equal_levels_have_no_differences(tmp_path: Path) -> None:
    level = _level(tmp_path)
    assert level_differences(level, replace(level, source=None)) == []


def test_a_changed_field_names_the_object_the_field_and_both_values(tmp_path: Path) -> None:
    # Given a level and a copy whose path is wider and whose third node moved
    level = _level(tmp_path)
    path = level.paths[0]
    moved = replace(path, radius=24.5, points=(*path.points[:2], (400.0, 341.0)))
    # When they are compared
    lines = level_differences(level, replace(level, paths=(moved,), seed=9))
    # Then each difference is one line naming it
    assert lines == [
        "map: seed 0 -> 9",
        'paths: object 5 "route": points[2] (400.0, 340.0) -> (400.0, 341.0)',
        'paths: object 5 "route": radius 24.0 -> 24.5',
    ]


def test_missing_new_and_reordered_objects(tmp_path: Path) -> None:
    level = _level(tmp_path)
    exit_ = level.exits[0]
    second = replace(exit_, id=9, name="", rect=Rect(10.0, 10.0, 20.0, 20.0))
    two = replace(level, exits=(exit_, second))
    assert level_differences(two, level) == ["exits: object 9 is missing after the round trip"]
    assert level_differences(level, two) == ["exits: object 9 is new after the round trip"]
    swapped = replace(level, exits=(second, exit_))
    assert level_differences(two, swapped) == ["exits: order of ids [2, 9] -> [9, 2]"]


def test_a_class_lost_on_the_way_shows_as_a_missing_object(tmp_path: Path) -> None:
    # Tiled 1.8 reads an object's class from "type" only: a "class" key is dropped
    level = _level(tmp_path)
    lines = level_differences(level, replace(level, paths=()))
    assert lines == ['paths: object 5 "route" is missing after the round trip']


def test_trace_differences_name_the_first_frame_that_differs() -> None:
    pos = np.zeros((5, 2, 2), np.float32)
    moved = pos.copy()
    moved[3, 1, 0] = 0.25
    same = {"pos": pos, "outcome": np.array("running")}
    assert trace_differences(same, {"pos": pos.copy(), "outcome": np.array("running")}) == []
    lines = trace_differences(same, {"pos": moved, "outcome": np.array("won")})
    assert lines == [
        "trace: outcome 'running' -> 'won'",
        "trace: pos differs from frame 3 on (largest difference 0.25)",
    ]
    assert trace_differences(same, {"pos": pos[:4], "outcome": same["outcome"]}) == [
        "trace: pos has shape (5, 2, 2) -> (4, 2, 2)"
    ]


def test_play_trace_is_the_same_for_the_same_level(tmp_path: Path) -> None:
    level = _level(tmp_path)
    first = tiled_roundtrip.play_trace(level, 0.5)
    assert first["pos"].shape[0] == 31  # frame 0 and 30 steps
    assert trace_differences(first, tiled_roundtrip.play_trace(level, 0.5)) == []


def test_without_tiled_the_check_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tiled_roundtrip, "find_tiled", lambda: None)
    level = _level(tmp_path)
    assert level.source is not None
    with pytest.raises(RoundTripError, match="Tiled map editor is not installed"):
        round_trip(level.source)
    with pytest.raises(RoundTripError, match="unknown route 'xml'"):
        round_trip(level.source, routes=("xml",))
