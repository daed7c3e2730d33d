"""Best times are kept per level key: a shipped level by its stem, any other file by its full
path, so a custom level named like a shipped one keeps its own best time."""

from __future__ import annotations

from pathlib import Path

from game.level import shipped_levels
from game.progress import ProgressStore
from game.views.entries import CUSTOM_PREFIX, LESSONS, level_key


def test_a_shipped_level_is_kept_under_its_stem() -> None:
    first = shipped_levels()[0]
    assert level_key(first) == first.stem == "01_patrol"


def test_a_custom_level_of_the_same_name_is_kept_apart(tmp_path: Path) -> None:
    # Given a level of one's own with a shipped level's file name
    custom = tmp_path / "01_patrol.tmj"
    key = level_key(custom)
    # Then its key is its full path, not the shipped level's
    assert key == f"{CUSTOM_PREFIX}{custom.resolve()}" and key != "01_patrol"
    # And a win there leaves level 1's best time alone
    store = ProgressStore(tmp_path / "progress.json")
    store.record_win(level_key(shipped_levels()[0]), 30.0)
    store.record_win(key, 12.0)
    again = ProgressStore(tmp_path / "progress.json")
    assert again.record("01_patrol").best_time == 30.0
    assert again.record(key).best_time == 12.0


def test_every_shipped_level_says_what_it_teaches() -> None:
    for path in shipped_levels():
        lesson = LESSONS.get(path.stem, "")
        assert lesson and len(lesson) <= 32, path.stem
