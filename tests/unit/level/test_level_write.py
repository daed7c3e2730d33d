"""The saver never writes a file the loader refuses (issue 43): over the size limit indented,
a level is written compactly; over it even then, the save is refused in one line; and the
``.bak`` is never replaced by a file the game refuses.

The loader's size limit is lowered here so the files stay small; the issue's own cases (a
32.4 MB level, 10 million ``{}``) are in tests/integration/test_level_write_big.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import game.level.tiled as tiled
import game.level.write as write
from game.level import LEVELS_DIR, LevelError, load_level, save_level

LIMIT = 200_000


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(tiled, "MAX_FILE_BYTES", LIMIT)
    monkeypatch.setattr(write, "MAX_FILE_BYTES", LIMIT)
    return LIMIT


def _level_with_junk(folder: Path, empties: int) -> Path:
    """A shipped level, written compactly, with ``empties`` ``{}`` in a key the game ignores."""
    raw = json.loads((LEVELS_DIR / "01_patrol.tmj").read_text(encoding="utf-8"))
    raw["junk"] = [{}] * empties
    path = folder / "level.tmj"
    path.write_text(json.dumps(raw, separators=(",", ":")), encoding="utf-8")
    return path


def test_a_level_over_the_limit_indented_is_written_compactly(
    tmp_path: Path, small_limit: int
) -> None:
    # Given an accepted level that indentation alone would push over the size limit
    path = _level_with_junk(tmp_path, 60_000)
    old = path.read_bytes()
    assert len(old) < small_limit < len(json.dumps(json.loads(old), indent=1))
    level = load_level(path)
    # When it is saved twice, with no edit
    save_level(level)
    save_level(load_level(path))
    # Then it is still within the limit and loads, and the .bak is a file the game accepts
    assert path.stat().st_size <= small_limit
    assert load_level(path) == replace(level, source=path)
    bak = path.with_name("level.tmj.bak")
    assert bak.stat().st_size <= small_limit
    load_level(bak)


def test_an_ordinary_level_is_still_indented_as_tiled_does(tmp_path: Path) -> None:
    path = _level_with_junk(tmp_path, 3)
    save_level(load_level(path))
    assert path.read_text(encoding="utf-8").startswith('{\n "')


def test_a_level_over_the_limit_even_compact_is_refused_in_one_line(
    tmp_path: Path, small_limit: int
) -> None:
    # Given an accepted level, then edited past the limit (here: the loader's limit shrinks)
    path = _level_with_junk(tmp_path, 60_000)
    level = load_level(path)
    old = path.read_bytes()
    write.MAX_FILE_BYTES = 150_000  # monkeypatched: restored after the test
    # When saved
    with pytest.raises(LevelError) as err:
        save_level(replace(level, title="Edited"))
    # Then one line names the file, the size and the limit; nothing was written
    message = str(err.value)
    assert "\n" not in message and str(path) in message
    assert "even written compactly" in message and "150,000" in message
    assert path.read_bytes() == old
    assert not path.with_name("level.tmj.bak").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level.tmj"]


@pytest.mark.parametrize("bad", ["too large", "not a level", "not JSON"])
def test_the_bak_is_never_replaced_by_a_file_the_game_refuses(
    tmp_path: Path, small_limit: int, bad: str
) -> None:
    # Given a level saved once (its .bak is a good level), then its file spoiled on disk
    path = _level_with_junk(tmp_path, 10)
    level = load_level(path)
    save_level(replace(level, title="First"))
    bak = path.with_name("level.tmj.bak")
    good = bak.read_bytes()
    base = tiled.read_raw(path)  # the map it was opened from, as the editor keeps it
    spoilt = {
        "too large": b" " * (small_limit + 1) + b"{}",
        "not a level": b'{"layers": 3}',
        "not JSON": b"{",
    }[bad]
    path.write_bytes(spoilt)
    # When the level is saved over it
    save_level(replace(level, title="Second"), base=base)
    # Then the new file is saved and the .bak is still the last good file
    assert load_level(path).title == "Second"
    assert bak.read_bytes() == good


def test_the_editor_keeps_its_edits_the_autosave_and_the_file_when_a_save_is_refused(
    tmp_path: Path, small_limit: int
) -> None:
    from game.editor import EditModel

    # Given the editor on an accepted level, an edit and its autosave
    path = _level_with_junk(tmp_path, 60_000)
    model = EditModel.open(path)
    assert model.set_path_radius(model.level.paths[0].name, 31.0)
    autosave = model.autosave()
    assert autosave is not None
    kept = autosave.read_bytes()
    old = path.read_bytes()
    # When the level no longer fits (the limit shrinks under it) and Ctrl+S is pressed
    write.MAX_FILE_BYTES = 150_000  # monkeypatched: restored after the test
    with pytest.raises(LevelError) as err:
        model.save()
    # Then one line names the file and the limit, and nothing is lost
    assert "\n" not in str(err.value) and str(path) in str(err.value)
    assert "150,000" in str(err.value)
    assert model.dirty and model.level.paths[0].radius == 31.0
    assert path.read_bytes() == old and autosave.read_bytes() == kept
    assert not path.with_name("level.tmj.bak").exists()
