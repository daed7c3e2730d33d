"""Drags: a node, a segment (insert then drag), a tube edge, a rock, a rim; each drag is one
undo step, updates never accumulate, refused updates keep the last good position."""

from __future__ import annotations

import pytest

from game.editor import (
    MIN_PATH_RADIUS,
    Change,
    EditModel,
    HitKind,
    PathChanged,
    RockChanged,
    overlapping_rocks,
)
from tests.unit.editor.helpers import LINE, LOOP, make_level

PICK = 6.0


@pytest.fixture
def model() -> EditModel:
    return EditModel(make_level())


def drag(model: EditModel, start: tuple[float, float], *moves: tuple[float, float]) -> bool:
    """Press at ``start``, move through ``moves``, release; return whether a step was made."""
    hit = model.hit_test(*start, PICK)
    assert hit is not None, f"nothing under {start}"
    assert model.begin_drag(hit, *start)
    for x, y in moves:
        model.update_drag(x, y)
    return model.end_drag()


def test_node_drag_moves_by_the_cursor_delta(model: EditModel) -> None:
    # Given the cursor 2 px right of the loop's node 1 at (400, 200)
    # When it drags by (+30, +15) in three moves
    made = drag(model, (402.0, 200.0), (410.0, 203.0), (420.0, 210.0), (432.0, 215.0))
    # Then the node moved by exactly (+30, +15) (no jump to the cursor), as one undo step
    assert made
    assert model.path("loop").points[1] == (430.0, 215.0)
    assert model.undo_labels == ("move node",)
    assert model.selected == "loop"


def test_node_drag_is_live_and_one_undo_step(model: EditModel) -> None:
    # Given a listener
    seen: list[list[Change]] = []
    model.subscribe(lambda changes: seen.append(list(changes)))
    # When a node is dragged through three positions
    drag(model, (400.0, 200.0), (410.0, 200.0), (420.0, 200.0), (430.0, 200.0))
    # Then the listener saw each position, and one undo restores the start
    assert [c[0].nodes[1] for c in seen if isinstance(c[0], PathChanged)] == [
        (410.0, 200.0),
        (420.0, 200.0),
        (430.0, 200.0),
    ]
    assert model.undo()
    assert model.level == make_level()
    assert not model.can_undo


def test_refused_update_keeps_the_last_good_position(model: EditModel) -> None:
    # Given the line's node 0 dragged towards node 1
    hit = model.hit_test(600.0, 100.0, PICK)
    assert hit is not None and hit.kind is HitKind.NODE
    model.begin_drag(hit, 600.0, 100.0)
    model.update_drag(700.0, 100.0)
    # When an update would put it on node 1
    moved = model.update_drag(800.0, 100.0)
    # Then the update is skipped: it stays at the last allowed place
    assert not moved
    assert model.path("line").points[0] == (700.0, 100.0)
    model.end_drag()
    assert model.path("line").points[0] == (700.0, 100.0)


def test_drag_with_snapping_snaps_the_position_not_the_delta(model: EditModel) -> None:
    # Given snapping on (16 px grid) and a node at (400, 200)
    model.toggle_snap()
    # When the node is grabbed 3 px off and dragged by (+21, +9)
    drag(model, (403.0, 201.0), (424.0, 210.0))
    # Then it lands on the grid point nearest (421, 209)
    assert model.path("loop").points[1] == (416.0, 208.0)


def test_click_on_a_segment_inserts_a_node(model: EditModel) -> None:
    # Given the cursor on the loop's bottom segment
    # When it clicks (press and release without moving)
    made = drag(model, (300.0, 202.0))
    # Then a node is inserted at the nearest point of the segment, as one step
    assert made
    assert model.path("loop").points == (LOOP.points[0], (300.0, 200.0), *LOOP.points[1:])
    assert model.undo_labels == ("insert node",)


def test_drag_on_a_segment_inserts_and_drags_as_one_step(model: EditModel) -> None:
    # Given the cursor on the line's second segment
    # When it drags from there by (0, +50)
    drag(model, (900.0, 101.0), (900.0, 130.0), (900.0, 151.0))
    # Then the new node is at (900, 150), and one undo removes it
    assert model.path("line").points == (*LINE.points[:2], (900.0, 150.0), LINE.points[2])
    assert model.undo_labels == ("insert node",)
    model.undo()
    assert model.path("line") == LINE


def test_edge_drag_sets_the_radius(model: EditModel) -> None:
    # Given the cursor 1 px outside the loop's tube edge (radius 20) at the bottom segment
    # When it drags the edge 10 px further out
    drag(model, (300.0, 179.0), (300.0, 169.0))
    # Then the radius grows by 10 (the grab offset is kept)
    assert model.path("loop").radius == 30.0
    assert model.undo_labels == ("path radius",)


def test_edge_drag_follows_the_distance_to_the_centre_line(model: EditModel) -> None:
    # Given the loop's lower edge grabbed exactly (radius 20)
    # When dragged across the centre line to 30 px on the other side
    drag(model, (300.0, 180.0), (300.0, 200.0), (300.0, 230.0))
    # Then the radius is the distance to the centre line, 30 px
    assert model.path("loop").radius == 30.0


def test_edge_drag_never_goes_below_the_minimum(model: EditModel) -> None:
    # Given the loop's edge grabbed
    # When dragged to 1 px from the centre line
    drag(model, (300.0, 180.0), (300.0, 199.0))
    # Then the radius stops at the minimum
    assert model.path("loop").radius == MIN_PATH_RADIUS


def test_rock_drag_moves_it_and_pushes_it_out(model: EditModel) -> None:
    # Given rock 0 (700, 400), grabbed 10 px off centre
    # When it is dragged right by 150 px, towards rock 1 at (900, 400)
    drag(model, (710.0, 400.0), (760.0, 400.0), (860.0, 400.0))
    # Then it stops where it touches rock 1, one undo step
    rock = model.level.obstacles[0]
    assert overlapping_rocks(model.level.obstacles, 0) == []
    assert rock.y == 400.0 and 819.9 < rock.x < 820.0
    assert model.undo_labels == ("move rock",)


def test_rim_drag_resizes_the_rock(model: EditModel) -> None:
    # Given rock 2 (800, 560, r 30), grabbed on its top rim 1 px outside
    seen: list[Change] = []
    model.subscribe(seen.extend)
    # When the rim is dragged 15 px outwards
    drag(model, (800.0, 591.0), (800.0, 606.0))
    # Then the radius is 45, and the world heard about it
    assert model.level.obstacles[2].radius == 45.0
    assert seen[-1] == RockChanged(2, 7, 800.0, 560.0, 45.0)
    assert model.undo_labels == ("resize rock",)


def test_rim_drag_stops_at_the_neighbour(model: EditModel) -> None:
    # Given rock 0 (r 40), rock 1 200 px to its right (r 40)
    # When rock 0's rim is dragged 300 px outwards
    drag(model, (740.0, 400.0), (1040.0, 400.0))
    # Then it grows only until it touches the nearest rock
    assert overlapping_rocks(model.level.obstacles, 0) == []
    assert model.level.obstacles[0].radius == 158.6


def test_cancel_drag_restores_everything(model: EditModel) -> None:
    # Given a segment drag in progress (which inserted a node)
    hit = model.hit_test(300.0, 200.0, PICK)
    assert hit is not None
    model.begin_drag(hit, 300.0, 200.0)
    model.update_drag(300.0, 260.0)
    # When it is cancelled
    assert model.cancel_drag()
    # Then the level is as before and there is nothing to undo
    assert model.level == make_level()
    assert not model.can_undo and model.dragging is None


def test_drag_that_ends_where_it_began_records_nothing(model: EditModel) -> None:
    # Given a node
    # When it is dragged away and back
    made = drag(model, (400.0, 200.0), (450.0, 200.0), (400.0, 200.0))
    # Then no undo step is recorded and the model is clean
    assert not made
    assert not model.can_undo and not model.dirty


def test_undo_during_a_drag_finishes_it_first(model: EditModel) -> None:
    # Given a node drag in progress
    hit = model.hit_test(400.0, 200.0, PICK)
    assert hit is not None
    model.begin_drag(hit, 400.0, 200.0)
    model.update_drag(450.0, 200.0)
    assert model.can_undo
    # When undo is pressed mid-drag
    model.undo()
    # Then the drag was recorded and undone
    assert model.dragging is None
    assert model.level == make_level()
    assert model.can_redo


def test_nothing_to_drag_inside_a_tube(model: EditModel) -> None:
    # Given a cursor inside the loop's tube, away from line and edge
    hit = model.hit_test(300.0, 190.0, 3.0)
    assert hit is not None and hit.kind is HitKind.TUBE
    # When a drag begins there
    # Then none starts, but the path is selected
    assert not model.begin_drag(hit, 300.0, 190.0)
    assert model.selected == "loop"
    assert not model.update_drag(310.0, 190.0)
    assert not model.end_drag()
