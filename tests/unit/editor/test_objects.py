"""Every object class with the mouse: create, move, resize, delete, and set properties, each
one undo step, each refused with the loader's own message when the level would not load."""

from __future__ import annotations

import pytest

from game.editor import EditModel, Hit, HitKind
from game.editor.hits import flow_arrow, hit_test
from game.editor.objects import Ref, refs
from game.level import CLASSES, MAP_PROPERTIES, FlowRegion, NpcSpawn, Rect
from tests.unit.editor.helpers import make_level


@pytest.fixture
def model() -> EditModel:
    return EditModel(make_level())


def test_create_each_class_then_undo_removes_it(model: EditModel) -> None:
    # Given the test level
    start = model.level
    for field in ("enemies", "npcs", "exits", "flows", "obstacles"):
        count = len(getattr(model.level, field))
        # When an object of that field is created in open water
        ref = model.create(field, 300.0, 550.0 if field != "obstacles" else 100.0)
        # Then it is there, selected, with a fresh id
        assert ref == Ref(field, count), model.notice
        assert model.selection == ref
        item = getattr(model.level, field)[count]
        assert item.id not in {o.id for o in start.objects()}
    # And undoing every creation gives the level back
    for _ in range(5):
        assert model.undo()
    assert model.level == start


def test_new_enemy_takes_the_selected_path(model: EditModel) -> None:
    # Given the line selected
    model.select("line")
    # When an enemy is created
    ref = model.create("enemies", 700.0, 200.0)
    # Then it patrols the line
    assert ref is not None
    assert model.level.enemies[ref.index].path == "line"


def test_a_click_drag_makes_a_rock_of_the_dragged_radius(model: EditModel) -> None:
    # Given the rock tool pressed in open water
    assert model.begin_create("obstacles", 300.0, 560.0)
    # When dragged 35 px away and released
    model.update_drag(335.0, 560.0)
    assert model.end_drag()
    # Then the new rock has radius 35 and it is one undo step
    rock = model.level.obstacles[-1]
    assert (rock.x, rock.y, rock.radius) == (300.0, 560.0, 35.0)
    assert model.undo_labels[-1] == "new rock"
    model.undo()
    assert len(model.level.obstacles) == 3


def test_a_drag_draws_an_exit_from_corner_to_corner(model: EditModel) -> None:
    # When the exit tool is dragged from (500, 500) to (420, 600)
    assert model.begin_create("exits", 500.0, 500.0)
    model.update_drag(420.0, 600.0)
    model.end_drag()
    # Then the new exit spans those corners
    assert model.level.exits[-1].rect == Rect(420.0, 500.0, 80.0, 100.0)


def test_an_exit_over_the_player_is_refused_with_the_loaders_message(model: EditModel) -> None:
    # When an exit is drawn over the player start (64, 320)
    assert model.begin_create("exits", 20.0, 280.0)
    model.update_drag(120.0, 360.0)
    model.end_drag()
    # Then the exit keeps its first, default size (the refused update was skipped) and the
    # notice is the loader's
    assert not model.level.exits[-1].rect.contains(64.0, 320.0)
    assert "the player starts inside exit" in model.notice


def test_drag_a_spawn_point_moves_it(model: EditModel) -> None:
    # Given the guard at (200, 200) under the cursor
    hit = Hit(HitKind.SPAWN, 0, (200.0, 200.0), 0.0, ref=Ref("enemies", 0))
    assert model.begin_drag(hit, 200.0, 200.0)
    # When dragged by (+50, -30)
    model.update_drag(250.0, 170.0)
    model.end_drag()
    # Then it moved by that much, one step
    guard = model.level.enemies[0]
    assert (guard.x, guard.y) == (250.0, 170.0)
    assert model.undo_labels == ("move enemy",)


def test_drag_a_corner_resizes_and_the_inside_moves(model: EditModel) -> None:
    # Given the exit (1152, 256, 96 x 128); its top-left corner is corner 3
    ref = Ref("exits", 0)
    assert model.begin_drag(Hit(HitKind.CORNER, 3, (1152.0, 384.0), 0.0, ref=ref), 1152, 384)
    model.update_drag(1100.0, 400.0)
    model.end_drag()
    assert model.level.exits[0].rect == Rect(1100.0, 256.0, 148.0, 144.0)
    # When its inside is dragged left by 100
    assert model.begin_drag(Hit(HitKind.AREA, 0, (0.0, 0.0), 0.0, ref=ref), 1200, 300)
    model.update_drag(1100.0, 300.0)
    model.end_drag()
    assert model.level.exits[0].rect == Rect(1000.0, 256.0, 148.0, 144.0)


def test_drag_a_flow_arrow_sets_angle_and_strength(model: EditModel) -> None:
    # Given a flow region centred on (400, 560)
    ref = model.create("flows", 400.0, 560.0)
    assert ref is not None
    flow = model.level.flows[0]
    tip = flow_arrow(flow)[1]
    # When its arrow tip is dragged to straight above the centre, 50 px out
    hit = hit_test(model.level, *tip, 4.0, "")
    assert hit is not None and hit.kind is HitKind.ARROW and hit.ref == ref
    model.begin_drag(hit, *tip)
    model.update_drag(400.0, 610.0)
    model.end_drag()
    # Then the current points up with strength 50
    assert (model.level.flows[0].angle, model.level.flows[0].strength) == (90.0, 50.0)


def test_delete_every_kind_and_refusals(model: EditModel) -> None:
    start = model.level
    # The player start and the last exit cannot go
    assert not model.delete(Ref("player"))
    assert "player start" in model.notice
    assert not model.delete(Ref("exits", 0))
    # A rock in the middle goes
    assert model.delete(Ref("obstacles", 1))
    assert [r.id for r in model.level.obstacles] == [5, 7]
    # The loop goes, and the guard that patrolled it now guards its spot
    assert model.delete(Ref("paths", 0))
    assert model.level.enemies[0].path == ""
    # The guard goes
    assert model.delete(Ref("enemies", 0))
    assert model.level.enemies == ()
    for _ in range(3):
        model.undo()
    assert model.level == start


def test_npc_point_becomes_a_rectangle_and_back(model: EditModel) -> None:
    ref = model.create("npcs", 600.0, 300.0)
    assert ref is not None
    assert model.toggle_area(ref)
    npc = model.level.npcs[0]
    assert isinstance(npc, NpcSpawn) and npc.area == Rect(568.0, 268.0, 64.0, 64.0)
    assert (npc.x, npc.y) == (600.0, 300.0)
    assert model.toggle_area(ref)
    assert model.level.npcs[0].area is None


def test_set_property_typed_text_and_refusal(model: EditModel) -> None:
    spec = CLASSES["enemy"].prop("max_speed")
    # When a number is typed for the guard's max_speed
    assert model.set_property(Ref("enemies", 0), spec, "95.5")
    assert model.level.enemies[0].max_speed == 95.5
    assert model.undo_labels[-1] == "set max_speed"
    # And a value out of range is refused with the loader's message, changing nothing
    before = model.level
    assert not model.set_property(Ref("enemies", 0), spec, "0")
    assert model.level == before
    assert "max_speed" in model.notice and "must be > 0, got 0" in model.notice
    assert "guard" in model.notice  # names the object


def test_set_path_property_checks_the_path_exists(model: EditModel) -> None:
    spec = CLASSES["enemy"].prop("path")
    assert not model.set_property(Ref("enemies", 0), spec, "nowhere")
    assert "no path named 'nowhere'" in model.notice
    assert model.set_property(Ref("enemies", 0), spec, "line")
    assert model.level.enemies[0].path == "line"


def test_property_drag_is_one_undo_step(model: EditModel) -> None:
    spec = CLASSES["obstacle"].prop("mass")
    for value in (12.0, 14.0, 16.0):
        assert model.set_property(Ref("obstacles", 0), spec, value, merge=True)
    assert model.level.obstacles[0].mass == 16.0
    assert model.undo_labels == ("set mass",)
    model.undo()
    assert model.level.obstacles[0].mass == 10.0


def test_enum_and_bool_properties(model: EditModel) -> None:
    ref = model.create("flows", 400.0, 560.0)
    assert ref is not None
    kind = CLASSES["flow"].prop("kind")
    assert model.set_property(ref, kind, "vortex")
    assert not model.set_property(ref, kind, "vortx")
    assert "did you mean 'vortex'" in model.notice or "vortex" in model.notice
    assert model.set_property(ref, CLASSES["flow"].prop("clockwise"), "true")
    flow = model.level.flows[0]
    assert isinstance(flow, FlowRegion) and flow.kind == "vortex" and flow.clockwise


def test_map_properties_and_size(model: EditModel) -> None:
    title, seed = MAP_PROPERTIES[0], MAP_PROPERTIES[1]
    assert model.set_property(None, title, "New title")
    assert model.level.title == "New title"
    assert not model.set_property(None, seed, "-1")
    assert "must be >= 0" in model.notice
    # Growing the map works; shrinking it under the objects is refused
    assert model.set_map_size(50, 30)
    assert (model.level.width_px, model.level.height_px) == (1600.0, 960.0)
    assert not model.set_map_size(10, 10)
    assert model.level.width_px == 1600.0


def test_refs_cover_every_object(model: EditModel) -> None:
    level = model.level
    assert len(refs(level)) == sum(1 for _ in level.objects())
