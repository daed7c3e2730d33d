"""A new level from nothing: it loads and plays, is written atomically, and an existing file
or a bad size is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.editor.blank import blank_level, create_level_file, parse_size
from game.level import LevelError, load_level
from game.world import World


def test_a_new_level_loads_back_equal_and_runs(tmp_path: Path) -> None:
    target = tmp_path / "fresh.tmj"
    saved = create_level_file(target, (30, 20))
    assert load_level(target) == saved == blank_level(30, 20, "fresh")
    assert (saved.width_px, saved.height_px) == (960.0, 640.0)
    assert not list(tmp_path.glob("*.bak"))
    world = World(saved)
    for _ in range(60):
        world.step((1.0, 0.0))
    assert world.outcome in ("running", "won", "caught")


def test_an_existing_file_is_refused_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "mine.tmj"
    target.write_text("precious", encoding="utf-8")
    with pytest.raises(LevelError, match="already exists"):
        create_level_file(target)
    assert target.read_text(encoding="utf-8") == "precious"


@pytest.mark.parametrize("text", ["40", "4x4", "40x-3", "axb", "99999999x2"])
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="tiles"):
        parse_size(text)
