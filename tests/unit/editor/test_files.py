"""Saving through the level saver and autosave: only the edited object changes in the file,
the old file is kept as .bak, unsaved work survives in NAME.autosave.tmj."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.editor import EditModel, autosave_path_for, is_autosave, newer_autosave
from game.level import LevelError, load_level
from tests.unit.editor.helpers import make_level, objects_by_id, read_json, write_rich


@pytest.fixture
def level_file(tmp_path: Path) -> Path:
    return write_rich(tmp_path)


def test_save_changes_only_the_edited_object(level_file: Path) -> None:
    # Given a level file opened for editing
    old_text = level_file.read_text(encoding="utf-8")
    old = read_json(level_file)
    model = EditModel.open(level_file)
    # When a node of the loop moves and the level is saved
    model.move_node("loop", 2, 410.0, 420.0)
    saved = model.save()
    # Then the file loads to the edited level, clean
    assert load_level(level_file) == model.level == saved
    assert not model.dirty
    assert model.notice == "saved level.tmj"
    # And only the loop's points changed in the file
    new = read_json(level_file)
    before, after = objects_by_id(old), objects_by_id(new)
    assert before.keys() == after.keys()
    for oid in before:
        if oid != 3:
            assert after[oid] == before[oid], oid
    assert after[3]["polygon"][2] == {"x": 210, "y": -220}
    changed = {k for k in before[3] if before[3][k] != after[3].get(k)}
    assert changed == {"polygon"}
    assert {k: v for k, v in new.items() if k != "layers"} == {
        k: v for k, v in old.items() if k != "layers"
    }
    assert new["layers"][0] == old["layers"][0]  # the tile layer
    # And the .bak holds the old file, byte for byte
    bak = level_file.with_name("level.tmj.bak")
    assert bak.read_text(encoding="utf-8") == old_text


def test_save_rock_and_radius_edits_round_trip(level_file: Path) -> None:
    # Given several kinds of edit
    model = EditModel.open(level_file)
    model.move_rock(2, 333.33, 555.55)
    model.resize_rock(2, 27.26)
    model.set_path_radius("line", 17.77)
    model.toggle_closed("line")
    model.insert_node("loop", 0, 300.0, 200.0)
    # When saved and loaded again
    model.save()
    # Then the file holds exactly the edited level
    assert load_level(level_file) == model.level
    assert model.level.obstacles[2].radius == 27.3  # rounded to 0.1 px


def test_new_path_is_saved_with_the_id_the_model_gave_it(level_file: Path) -> None:
    # Given a file whose note uses id 30 and whose nextobjectid is 31
    model = EditModel.open(level_file)
    # When a new path is added and saved
    name = model.new_path(500.0, 300.0)
    assert name is not None
    new_id = model.path(name).id
    model.save()
    # Then it kept its id (past every id the file uses), and the file's next id moved on
    assert new_id == 31
    raw = read_json(level_file)
    assert objects_by_id(raw)[31]["name"] == name
    assert raw["nextobjectid"] == 32
    assert not model.dirty


def test_undo_after_save_makes_it_dirty_and_redo_clean(level_file: Path) -> None:
    # Given an edit that was saved
    model = EditModel.open(level_file)
    model.move_node("loop", 0, 210.0, 210.0)
    model.save()
    # When it is undone, then redone
    model.undo()
    undone_dirty = model.dirty
    model.redo()
    # Then the undo is an unsaved change, and redo returns to the saved state
    assert undone_dirty and not model.dirty


def test_save_as_moves_the_level_to_the_new_file(level_file: Path, tmp_path: Path) -> None:
    # Given an edit
    model = EditModel.open(level_file)
    model.move_node("loop", 0, 210.0, 210.0)
    other = tmp_path / "copy.tmj"
    # When saved to another file
    model.save(other)
    # Then the new file has the edit and the designer's note; the old file is untouched
    assert load_level(other) == model.level
    assert 30 in objects_by_id(read_json(other))
    assert load_level(level_file) == make_level()
    assert model.source == other
    # And later saves go to the new file, even after an undo
    model.undo()
    model.save()
    assert load_level(other) == make_level()


def test_failed_save_keeps_the_old_file_and_the_changes(level_file: Path, tmp_path: Path) -> None:
    # Given an edit
    model = EditModel.open(level_file)
    model.move_node("loop", 0, 210.0, 210.0)
    # When saving to a folder that does not exist
    with pytest.raises(LevelError):
        model.save(tmp_path / "missing" / "x.tmj")
    # Then the model is still dirty and saves to its own file
    assert model.dirty and model.source == level_file


def test_model_without_a_file_cannot_save_or_autosave() -> None:
    # Given a level built in code
    model = EditModel(make_level())
    model.move_node("loop", 0, 210.0, 210.0)
    # When saving without a path, or autosaving
    # Then saving says where the problem is and autosave does nothing
    with pytest.raises(LevelError, match="nowhere to save"):
        model.save()
    assert model.autosave() is None
    assert model.autosave_path is None


def test_autosave_path_and_name_check(tmp_path: Path) -> None:
    # Given a level file name
    # When asking for its autosave
    auto = autosave_path_for(tmp_path / "01_patrol.tmj")
    # Then it sits next to it as NAME.autosave.tmj
    assert auto == tmp_path / "01_patrol.autosave.tmj"
    assert is_autosave(auto) and not is_autosave(tmp_path / "01_patrol.tmj")


def test_autosave_writes_unsaved_work_and_leaves_the_level_alone(level_file: Path) -> None:
    # Given unsaved edits
    text = level_file.read_text(encoding="utf-8")
    model = EditModel.open(level_file)
    assert model.autosave() is None  # nothing unsaved yet
    model.move_node("loop", 0, 210.0, 210.0)
    name = model.new_path(500.0, 300.0)
    # When autosaving
    auto = model.autosave()
    # Then the autosave holds the edited level (and the note), the level file is untouched,
    # and no .bak is made for it
    assert auto == level_file.with_name("level.autosave.tmj")
    assert load_level(auto) == model.level
    assert name is not None and load_level(auto).path_named(name) is not None
    assert 30 in objects_by_id(read_json(auto))
    assert level_file.read_text(encoding="utf-8") == text
    assert not auto.with_name(auto.name + ".bak").exists()
    assert model.dirty


def test_newer_autosave_is_offered_and_recovered(level_file: Path) -> None:
    # Given an autosave written by a session that was closed without saving
    first = EditModel.open(level_file)
    first.move_node("loop", 0, 210.0, 210.0)
    auto = first.autosave()
    assert auto is not None
    edited = first.level
    # When the level is opened again
    model = EditModel.open(level_file)
    offered = model.newer_autosave()
    recovered = model.recover_autosave()
    # Then the autosave is offered, and recovering it is an undoable, unsaved edit
    assert offered == auto
    assert recovered and model.level == edited and model.dirty
    assert model.undo_labels == ("recover autosave",)
    assert model.notice == "recovered level.autosave.tmj"
    model.undo()
    assert model.level == make_level() and not model.dirty
    model.redo()
    # And saving writes it to the level file and deletes the autosave
    model.save()
    assert load_level(level_file) == edited
    assert not auto.exists()
    assert newer_autosave(level_file) is None


def test_stale_autosave_is_not_offered(level_file: Path) -> None:
    # Given an autosave older than the level file (the level was saved since, in Tiled)
    model = EditModel.open(level_file)
    model.move_node("loop", 0, 210.0, 210.0)
    auto = model.autosave()
    assert auto is not None
    stamp = level_file.stat().st_mtime_ns
    os.utime(auto, ns=(stamp - 10**9, stamp - 10**9))
    # When the level is opened again
    # Then no autosave is offered and recover does nothing
    again = EditModel.open(level_file)
    assert again.newer_autosave() is None
    assert not again.recover_autosave()
    assert again.notice == "no newer autosave"


def test_discard_autosave(level_file: Path) -> None:
    # Given an autosave
    model = EditModel.open(level_file)
    model.move_node("loop", 0, 210.0, 210.0)
    auto = model.autosave()
    assert auto is not None and auto.exists()
    # When the designer declines it
    model.discard_autosave()
    # Then it is gone
    assert not auto.exists()
    model.discard_autosave()  # and discarding again is harmless


def test_a_recovered_autosave_is_not_offered_again_after_undo_and_leave(
    level_file: Path,
) -> None:
    # Given an autosave newer than the level, recovered
    first = EditModel.open(level_file)
    first.move_node("loop", 0, 222.0, 222.0)
    auto = first.autosave()
    assert auto is not None
    stamp = os.stat(level_file).st_mtime_ns
    os.utime(auto, ns=(stamp + 10**9, stamp + 10**9))
    model = EditModel.open(level_file)
    assert model.autosave_offered == auto
    assert model.recover_autosave()
    # Then it is not offered again in this session
    assert model.autosave_offered is None
    # When the recovery is undone and the editor left (autosave() on leaving)
    model.undo()
    assert not model.dirty
    assert model.autosave() is None
    # Then the stale autosave is gone and the next opening offers nothing
    assert not auto.exists()
    assert EditModel.open(level_file).autosave_offered is None
