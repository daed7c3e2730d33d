"""The property panel: rows straight from the schema, typed and dragged values through the
loader's checks, each change one undo step."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.editor import EditModel
from game.editor.objects import Ref
from game.editor.panel import Panel, nudged
from game.level import CLASSES, MAP_PROPERTIES, PropSpec
from game.level import schema as level_schema
from tests.unit.editor.helpers import make_level


@pytest.fixture
def model() -> EditModel:
    return EditModel(make_level())


def test_rows_are_the_schemas_properties_with_value_unit_and_range(model: EditModel) -> None:
    model.select_object(Ref("enemies", 0))
    rows = Panel.rows(model)
    assert [r.name for r in rows] == [s.name for s in CLASSES["enemy"].props]
    speed = next(r for r in rows if r.name == "max_speed")
    assert (speed.value, speed.unit, speed.range) == ("180", "px/s", "> 0 <= 10000")
    path = next(r for r in rows if r.name == "path")
    assert path.value == "loop" and path.choices == ("", "loop", "line")
    assert Panel.title(model) == "enemy 8 guard"


def test_a_property_added_to_the_schema_shows_with_no_change(
    model: EditModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the schema grows an enemy property (as another change to the schema may do)
    role = PropSpec("role", "enum", "patrol", choices=("patrol", "sentinel"), doc="what it does")
    enemy = CLASSES["enemy"]
    monkeypatch.setitem(level_schema.CLASSES, "enemy", replace(enemy, props=(*enemy.props, role)))
    # Then the panel lists it with its default and choices
    model.select_object(Ref("enemies", 0))
    row = Panel().row(model, "role")
    assert row is not None and row.value == "patrol" and row.choices == ("patrol", "sentinel")


def test_nothing_selected_shows_the_map(model: EditModel) -> None:
    rows = Panel.rows(model)
    names = [r.name for r in rows]
    assert names == [s.name for s in MAP_PROPERTIES] + ["width", "height"]
    assert rows[-2].value == "40" and rows[-1].value == "20"


def test_type_a_number_and_enter(model: EditModel) -> None:
    panel = Panel()
    model.select_object(Ref("obstacles", 0))
    assert panel.begin_typing(model, "mass")
    panel.backspace()
    panel.backspace()
    panel.type("25")
    assert panel.commit(model)
    assert model.level.obstacles[0].mass == 25.0 and panel.editing is None
    assert model.undo_labels == ("set mass",)


def test_typing_replaces_the_old_value_and_backspace_edits_it(model: EditModel) -> None:
    # Given an enemy spawn of one agent, its count clicked for typing
    panel = Panel()
    model.select_object(Ref("enemies", 0))
    assert panel.click(model, "count") is False and panel.text == "1"
    # When 3 is typed and then 0
    panel.type("3")
    panel.type("0")
    # Then the value is 30, not 130
    assert panel.commit(model) and model.level.enemies[0].count == 30
    # And after a Backspace the old value is edited instead: 30 -> 3 -> 35
    panel.begin_typing(model, "count")
    panel.backspace()
    panel.type("5")
    assert panel.commit(model) and model.level.enemies[0].count == 35


def test_a_refused_value_keeps_typing_with_the_loaders_message(model: EditModel) -> None:
    panel = Panel()
    model.select_object(Ref("obstacles", 0))
    panel.begin_typing(model, "mass")
    panel.text = "-3"
    assert not panel.commit(model)
    assert panel.editing == "mass" and "must be > 0, got -3" in model.notice
    assert model.level == make_level()


def test_click_cycles_choices(model: EditModel) -> None:
    panel = Panel()
    model.select_object(Ref("obstacles", 0))
    assert panel.click(model, "dynamic")
    assert model.level.obstacles[0].dynamic is True
    model.select_object(Ref("enemies", 0))
    assert panel.click(model, "path")  # loop -> line
    assert model.level.enemies[0].path == "line"


def test_drag_on_a_value_is_one_undo_step(model: EditModel) -> None:
    panel = Panel()
    model.select_object(Ref("enemies", 0))
    assert panel.begin_drag(model, "max_speed", 100.0)
    for x in (110.0, 130.0, 150.0):
        panel.drag(model, x)
    panel.end_drag()
    # 180 + 50 px * 0.9 per px
    assert model.level.enemies[0].max_speed == 225.0
    assert model.undo_labels == ("set max_speed",)


def test_map_size_rows(model: EditModel) -> None:
    panel = Panel()
    panel.begin_typing(model, "width")
    panel.text = "45"
    assert panel.commit(model)
    assert model.level.width_px == 45 * 32


def test_nudged_keeps_the_range() -> None:
    count = CLASSES["enemy"].prop("count")
    assert nudged(count, 1, -40.0) == 1
    assert nudged(count, 3, 8.0) == 5
    radius = CLASSES["player"].prop("radius")
    assert nudged(radius, 14.0, -10_000.0) == pytest.approx(0.1)


def test_a_range_reads_as_numbers_a_person_types(model: EditModel) -> None:
    # the map's seed runs to 2**32 - 1: its range shows every digit, not 4.29497e+09
    model.select_object(None)
    seed = next(r for r in Panel.rows(model) if r.name == "seed")
    assert seed.range == ">= 0 <= 4294967295"
