"""Undo/redo and unsaved-changes tracking."""

from __future__ import annotations

import pytest

from game.editor import EditModel
from tests.unit.editor.helpers import LOOP, make_level


@pytest.fixture
def model() -> EditModel:
    return EditModel(make_level())


def test_undo_and_redo_walk_the_history(model: EditModel) -> None:
    # Given three edits
    levels = [model.level]
    model.move_node("loop", 0, 210.0, 210.0)
    levels.append(model.level)
    model.toggle_closed("line")
    levels.append(model.level)
    model.move_rock(2, 500.0, 550.0)
    levels.append(model.level)
    assert model.undo_labels == ("move node", "close path", "move rock")
    # When undoing all, then redoing all
    undone = []
    while model.undo():
        undone.append(model.level)
    redone = []
    while model.redo():
        redone.append(model.level)
    # Then each step restores exactly the level before / after it
    assert undone == levels[-2::-1]
    assert redone == levels[1:]
    assert model.notice == "nothing to redo"


def test_a_new_edit_clears_redo(model: EditModel) -> None:
    # Given an undone edit
    model.move_node("loop", 0, 210.0, 210.0)
    model.undo()
    assert model.can_redo
    # When another edit is made
    model.toggle_closed("line")
    # Then there is nothing to redo
    assert not model.can_redo
    assert not model.redo()


def test_refused_edits_make_no_step(model: EditModel) -> None:
    # Given the level
    # When an edit is refused
    model.move_node("line", 0, 800.0, 100.0)
    # Then there is nothing to undo
    assert not model.can_undo
    assert not model.undo()
    assert model.notice == "nothing to undo"


def test_wheel_notches_on_one_path_merge(model: EditModel) -> None:
    # Given five wheel notches on the loop
    for _ in range(5):
        model.scale_path_radius("loop", 1)
    # When undoing once
    assert model.undo_labels == ("path radius",)
    model.undo()
    # Then the radius is back to the start
    assert model.path("loop").radius == LOOP.radius


def test_wheel_merge_stops_at_another_edit(model: EditModel) -> None:
    # Given notches on the loop, another edit, then notches again, and on another path
    model.scale_path_radius("loop", 1)
    model.move_node("loop", 0, 210.0, 210.0)
    model.scale_path_radius("loop", 1)
    model.scale_path_radius("line", 1)
    model.scale_rock_radius(0, -1)
    model.scale_rock_radius(0, -1)
    # When looking at the history
    # Then each run of notches is its own step
    assert model.undo_labels == (
        "path radius",
        "move node",
        "path radius",
        "path radius",
        "resize rock",
    )


def test_wheel_notches_that_cancel_out_leave_no_step(model: EditModel) -> None:
    # Given one notch up then one down on a radius that divides back exactly
    model.set_path_radius("loop", 100.0)
    model.scale_path_radius("loop", 1)
    model.scale_path_radius("loop", -1)
    # When looking at the history
    # Then only the explicit radius change is there
    assert model.path("loop").radius == 100.0
    assert model.undo_labels == ("path radius",)


def test_dirty_until_undo_returns_to_the_saved_level(model: EditModel) -> None:
    # Given a clean model
    assert not model.dirty
    # When an edit is made, undone, redone, undone
    model.move_node("loop", 0, 210.0, 210.0)
    states = [model.dirty]
    model.undo()
    states.append(model.dirty)
    model.redo()
    states.append(model.dirty)
    model.undo()
    states.append(model.dirty)
    # Then it is dirty exactly while the edit is in
    assert states == [True, False, True, False]


def test_edit_and_its_manual_reverse_is_clean(model: EditModel) -> None:
    # Given a node moved away
    model.move_node("loop", 0, 210.0, 210.0)
    # When moved back by hand
    model.move_node("loop", 0, *LOOP.points[0])
    # Then there is nothing unsaved, though two steps can be undone
    assert not model.dirty
    assert len(model.undo_labels) == 2


def test_history_limit_drops_the_oldest_steps() -> None:
    # Given a model that keeps 3 steps
    model = EditModel(make_level(), history_limit=3)
    # When five edits are made
    for i in range(5):
        model.move_node("loop", 0, 210.0 + i, 210.0)
    # Then only the last three can be undone
    assert len(model.undo_labels) == 3
    while model.undo():
        pass
    assert model.path("loop").points[0] == (211.0, 210.0)


def test_selection_follows_undo_of_a_new_path(model: EditModel) -> None:
    # Given a new, selected path
    name = model.new_path(500.0, 500.0)
    assert model.selected == name
    # When it is undone
    model.undo()
    # Then nothing is selected, and redo brings it back with the same id
    assert model.selected == ""
    model.redo()
    assert name is not None and model.path(name).id == 9
