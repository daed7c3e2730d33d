"""The editor loses nothing when its files go wrong underneath it (issue 27): a save never
re-reads the level file, a file changed on disk is never overwritten or merged into, and every
failure leaves the edits in the model with a one-line message."""

from __future__ import annotations

import errno
import os
from dataclasses import replace
from pathlib import Path

import pytest

from game.editor import EditModel, autosave_path_for
from game.level import LevelError, load_level
from game.safe_io import OutputError
from tests.unit.editor.helpers import make_level, write_rich

CONFLICT = "<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> theirs\n"


@pytest.fixture
def model(tmp_path: Path) -> EditModel:
    m = EditModel.open(write_rich(tmp_path))
    m.move_node("loop", 2, 410.0, 420.0)
    m.move_rock(2, 333.0, 444.0)
    return m


def _edited(m: EditModel) -> None:
    """The two edits of the fixture are still in the model."""
    loop = next(p for p in m.level.paths if p.name == "loop")
    assert loop.points[2] == (410.0, 420.0)
    rock = m.level.obstacles[2]
    assert (rock.x, rock.y) == (333.0, 444.0)


def test_merge_conflict_markers_in_the_file_save_beside_it_and_autosave(
    model: EditModel,
) -> None:
    # Given the level file turned into a merge conflict from outside
    level_file = model.source
    assert level_file is not None
    conflicted = CONFLICT.format(level_file.read_text(), "{}")
    level_file.write_text(conflicted, encoding="utf-8")
    # When the designer saves (Ctrl+S) and then leaves (the autosave)
    model.save()
    model.autosave()
    # Then the conflicted file is untouched, the edits are in a copy beside it that loads,
    # and the autosave of the original has them too
    assert level_file.read_text(encoding="utf-8") == conflicted
    copy = level_file.with_name("level.edited.tmj")
    assert model.source == copy and not model.dirty
    _edited_level = load_level(copy)
    assert next(p for p in _edited_level.paths if p.name == "loop").points[2] == (410.0, 420.0)
    original_autosave = load_level(autosave_path_for(level_file))
    assert original_autosave.obstacles[2].x == 333.0
    # and the notice says what happened, in one line
    assert "level.tmj changed on disk" in model.notice
    assert "level.edited.tmj" in model.notice and "\n" not in model.notice


def test_a_file_replaced_by_another_level_is_not_merged_into(
    model: EditModel, tmp_path: Path
) -> None:
    # Given the file replaced by a different valid level (same ids, other objects)
    level_file = model.source
    assert level_file is not None
    other = write_rich(tmp_path, "other.tmj")
    text = other.read_text(encoding="utf-8").replace('"loop"', '"ring"')
    level_file.write_text(text, encoding="utf-8")
    # When saved
    model.save()
    # Then the other level is left whole, and ours went beside it with our objects only
    assert level_file.read_text(encoding="utf-8") == text
    mine = load_level(level_file.with_name("level.edited.tmj"))
    assert [p.name for p in mine.paths] == [p.name for p in make_level().paths]
    _edited(model)


def test_a_save_works_without_reading_the_file(
    model: EditModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a file that cannot be read any more (reading it raises), unchanged on disk
    import game.level.saver as saver

    def unreadable(path: object) -> dict[str, object]:
        raise LevelError("cannot read: permission denied", file=model.source)

    monkeypatch.setattr(saver, "read_raw", unreadable)
    # When saved: the map opened is the starting point, so the save goes through
    model.save()
    assert not model.dirty
    monkeypatch.undo()
    _edited(model)
    assert load_level(model.source) == model.level  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "reason",
    ["Permission denied", "No space left on device"],  # a read-only folder, a full disk
)
def test_a_failed_write_keeps_the_edits_and_says_why_in_one_line(
    model: EditModel, monkeypatch: pytest.MonkeyPatch, reason: str
) -> None:
    # (simulated: this machine's tests run as root, whom permissions do not stop)
    import game.level.write as write

    def fail(path: object, data: bytes, **_: object) -> None:
        raise OutputError(f"cannot write {path}: {reason}")

    monkeypatch.setattr(write, "atomic_write", fail)
    for action in (model.save, model.autosave):
        with pytest.raises(LevelError) as err:
            action()
        assert reason in str(err.value) and "\n" not in str(err.value)
    assert model.dirty
    _edited(model)
    monkeypatch.undo()
    model.save()  # and once the disk has room again, the save goes through
    assert not model.dirty and load_level(model.source) == model.level  # type: ignore[arg-type]


def test_a_symlink_loop_at_the_level_path_keeps_the_edits(model: EditModel) -> None:
    # Given the level file replaced by a symlink loop
    level_file = model.source
    assert level_file is not None
    level_file.unlink()
    os.symlink(level_file.name, level_file)
    try:
        os.stat(level_file)
    except OSError as exc:
        assert exc.errno == errno.ELOOP
    # When saved: it cannot be checked, so the edits go beside it
    model.save()
    assert model.source == level_file.with_name("level.edited.tmj") and not model.dirty
    assert "level.tmj cannot be checked" in model.notice and "\n" not in model.notice
    _edited(model)
    # and an autosave into a loop fails with a level error (not a RuntimeError)
    looped = EditModel(replace(model.level, source=level_file))
    looped.move_rock(2, 300.0, 300.0)
    autosave = autosave_path_for(level_file)
    autosave.unlink(missing_ok=True)
    autosave.symlink_to(autosave.name)
    with pytest.raises(LevelError):
        looped.autosave()
    assert looped.dirty


def test_saving_twice_after_a_conflict_goes_on_in_the_copy(model: EditModel) -> None:
    level_file = model.source
    assert level_file is not None
    level_file.write_text(level_file.read_text() + "\n", encoding="utf-8")  # changed bytes
    model.save()
    copy = model.source
    model.move_node("loop", 0, 190.0, 190.0)
    model.save()
    assert model.source == copy and not model.dirty
    assert not level_file.with_name("level.edited-2.tmj").exists()
    # a file only touched (same bytes) is not a change
    os.utime(copy, None)
    model.move_node("loop", 0, 180.0, 190.0)
    model.save()
    assert model.source == copy


def test_a_rewrite_that_keeps_size_and_mtime_is_still_seen(model: EditModel) -> None:
    # Given the file rewritten in place by someone else, same size, its mtime put back
    level_file = model.source
    assert level_file is not None
    info = level_file.stat()
    text = level_file.read_text(encoding="utf-8")
    swapped = text.replace('"loop"', '"pool"')
    assert len(swapped) == len(text)
    with open(level_file, "r+", encoding="utf-8") as handle:  # the same inode
        handle.write(swapped)
    os.utime(level_file, ns=(info.st_atime_ns, info.st_mtime_ns))
    # When saved: the change time differs, so the bytes decide, and they changed
    model.save()
    assert level_file.read_text(encoding="utf-8") == swapped
    assert model.source == level_file.with_name("level.edited.tmj")


def test_an_unrecovered_autosave_is_set_aside_not_overwritten(tmp_path: Path) -> None:
    # Given an autosave from an earlier session, newer than the level, offered and ignored
    level_file = write_rich(tmp_path)
    earlier = EditModel.open(level_file)
    earlier.move_rock(2, 300.0, 300.0)
    earlier.autosave()
    autosave = autosave_path_for(level_file)
    old_work = autosave.read_bytes()
    os.utime(autosave, (level_file.stat().st_mtime + 10,) * 2)
    model = EditModel.open(level_file)
    assert model.autosave_offered == autosave
    # When the designer edits something else and the editor autosaves
    model.move_node("loop", 2, 410.0, 420.0)
    model.autosave()
    # Then the earlier work is kept beside it, byte for byte
    kept = autosave.with_name(autosave.name + ".unrecovered")
    assert kept.read_bytes() == old_work
    assert load_level(autosave).obstacles[2].x != 300.0


def test_saving_through_another_name_of_the_same_file_still_checks_it(tmp_path: Path) -> None:
    # Given a level opened through a symlink, and the real file changed by someone else
    real = write_rich(tmp_path)
    link = tmp_path / "link.tmj"
    link.symlink_to(real.name)
    model = EditModel.open(link)
    model.move_node("loop", 2, 410.0, 420.0)
    real.write_text(real.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    # When saved to the real file's name
    model.save(real)
    # Then it is recognised as the same file and not overwritten
    assert real.read_text(encoding="utf-8").endswith("\n\n")
    assert "changed on disk" in model.notice
