"""Levels near the size limit at full size (issue 43): a level the loader accepts stays accepted
after the editor saves it, twice, with its ``.bak``. Before, a 30.0 MB level of 10 million
``{}`` in an ignored key was written indented as 60.0 MB, and a 32.4 MB one as 108 MB. Those two
files are now refused by the loader's limit on JSON objects and arrays (tested with the budget's
levels); the levels here reach the size with few of them, and grow as much when indented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.editor import EditModel
from game.level import LEVELS_DIR, load_level
from game.level.schema import MAX_FILE_BYTES

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "junk",
    [
        pytest.param(lambda: [k % 10 for k in range(15_000_000)], id="15 million numbers"),
        pytest.param(lambda: {f"k{k}": k % 10 for k in range(2_600_000)}, id="2.6 million keys"),
    ],
)
def test_an_accepted_level_near_the_size_limit_stays_accepted_after_saves(
    tmp_path: Path, junk: object
) -> None:
    # Given a level the loader accepts, within a few MB of the limit, written compactly
    raw = json.loads((LEVELS_DIR / "01_patrol.tmj").read_text(encoding="utf-8"))
    raw["junk"] = junk()  # type: ignore[operator]
    path = tmp_path / "big.tmj"
    path.write_text(json.dumps(raw, separators=(",", ":")), encoding="utf-8")
    del raw
    assert 29_000_000 < path.stat().st_size <= MAX_FILE_BYTES
    # When the editor opens it and saves it twice with no edit
    model = EditModel.open(path)
    model.save()
    model.save()
    # Then the file and its .bak are within the limit and the game loads both
    bak = path.with_name("big.tmj.bak")
    for written in (path, bak):
        assert written.stat().st_size <= MAX_FILE_BYTES
    assert load_level(path).title == load_level(bak).title == model.level.title
