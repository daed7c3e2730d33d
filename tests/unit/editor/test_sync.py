"""Mirroring edits onto live steering paths with the fewest node edits, so followers keep
their progress: sync_path, apply_changes, apply_to_paths, diff_levels."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from game.editor import (
    Change,
    EditModel,
    PathChanged,
    PathRemoved,
    RockChanged,
    RockRemoved,
    apply_changes,
    apply_to_paths,
    diff_levels,
    sync_path,
)
from game.level import Point
from steering import DriftingPath, Path, PathSet
from tests.unit.editor.helpers import LINE, LOOP, make_level

SQUARE = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]


def nodes_of(path: Path) -> list[Point]:
    return [(float(x), float(y)) for x, y in path.nodes]


def test_moving_one_node_is_one_edit() -> None:
    # Given a steering path
    path = Path(SQUARE, closed=True)
    uid, version = path.uid, path.version
    # When synced to the same nodes with one moved
    target = [SQUARE[0], (120.0, 10.0), *SQUARE[2:]]
    edits = sync_path(path, target, closed=True, radius=20.0)
    # Then exactly one edit was made on the same path object
    assert edits == 1
    assert path.uid == uid and path.version == version + 1
    assert nodes_of(path) == target


def test_inserting_and_deleting_are_single_edits() -> None:
    # Given a steering path
    path = Path(SQUARE, closed=True)
    # When a node is inserted, then another deleted
    inserted = [*SQUARE[:2], (100.0, 50.0), *SQUARE[2:]]
    n_insert = sync_path(path, inserted, closed=True, radius=20.0)
    deleted = [inserted[0], *inserted[2:]]
    n_delete = sync_path(path, deleted, closed=True, radius=20.0)
    # Then each is one edit
    assert (n_insert, n_delete) == (1, 1)
    assert nodes_of(path) == deleted


def test_closed_flag_and_radius_are_edits_too() -> None:
    # Given an open path
    path = Path(SQUARE, closed=False, radius=20.0)
    # When synced to closed with another radius
    edits = sync_path(path, SQUARE, closed=True, radius=35.0)
    # Then both changed, nodes untouched
    assert edits == 2
    assert path.closed and path.radius == 35.0 and nodes_of(path) == SQUARE
    assert sync_path(path, SQUARE, closed=True, radius=35.0) == 0


def test_sync_never_drops_below_two_nodes() -> None:
    # Given a three-node path whose matching node is the first
    path = Path([(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)])
    # When synced to two new nodes followed by that node (deletes before inserts would fail)
    target = [(5.0, 5.0), (6.0, 5.0), (0.0, 0.0)]
    sync_path(path, target, closed=False, radius=20.0)
    # Then it arrives at the target
    assert nodes_of(path) == target


point = st.tuples(st.integers(0, 6).map(float), st.integers(0, 6).map(float))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@example(old=[(0.0, 0.0), (0.0, 2.0)], new=[(0.0, 0.0), (0.0, 0.0), (0.0, 1.0)])
@given(old=st.lists(point, min_size=2, max_size=9), new=st.lists(point, min_size=2, max_size=9))
def test_sync_reaches_any_target_with_remappable_edits(old: list[Point], new: list[Point]) -> None:
    # Given any path and any target nodes with some length (repeated nodes allowed)
    assume(len(set(old)) >= 2 and len(set(new)) >= 2)
    path = Path(old)
    version = path.version
    # When synced
    sync_path(path, new, closed=False, radius=20.0)
    # Then it has the target nodes and arc lengths still carry over (no wholesale replace)
    assert nodes_of(path) == new
    assert np.isfinite(path.remap(np.array([0.0, 1.0]), version)).all()


def test_apply_to_paths_adds_syncs_and_drops() -> None:
    # Given mirrors of the level's paths, plus a stale one
    level = make_level()
    paths = {p.name: Path(p.points, closed=p.closed, radius=p.radius) for p in level.paths}
    loop_mirror = paths["loop"]
    paths["gone"] = Path(SQUARE)
    # When a path is edited, one added, and the mirrors are synced
    model = EditModel(level)
    model.move_node("loop", 1, 410.0, 190.0)
    name = model.new_path(500.0, 500.0)
    count = apply_to_paths(paths, model.level)
    # Then the loop was edited in place, the new one created and the stale one dropped
    assert count == 3
    assert paths["loop"] is loop_mirror
    assert nodes_of(paths["loop"])[1] == (410.0, 190.0)
    assert name is not None and set(paths) == {"loop", "line", name}


def test_model_events_keep_a_mirror_in_step() -> None:
    # Given a mirror fed by the model's events only
    model = EditModel(make_level())
    mirror = {p.name: Path(p.points, closed=p.closed, radius=p.radius) for p in model.level.paths}
    model.subscribe(lambda changes: apply_changes(mirror, changes))
    # When edits, a drag, a new path and undos happen
    model.move_node("loop", 0, 210.0, 190.0)
    model.toggle_closed("line")
    model.scale_path_radius("line", 3)
    hit = model.hit_test(300.0, 200.0, 5.0)
    assert hit is not None
    model.begin_drag(hit, 300.0, 200.0)
    model.update_drag(300.0, 150.0)
    model.end_drag()
    model.new_path(600.0, 300.0)
    model.undo()
    model.undo()
    # Then the mirror matches the level exactly
    assert set(mirror) == {p.name for p in model.level.paths}
    for data in model.level.paths:
        m = mirror[data.name]
        assert (nodes_of(m), m.closed, m.radius) == (list(data.points), data.closed, data.radius)


def test_diff_levels_lists_what_changed() -> None:
    # Given a level and a version with a moved node, a new path, a removed path, moved rock
    old = make_level()
    extra = replace(LINE, name="extra", id=20)
    moved = replace(LOOP, points=((0.0, 0.0), *LOOP.points[1:]))
    rocks = (old.obstacles[0], replace(old.obstacles[1], x=950.0))
    new = replace(old, paths=(moved, extra), obstacles=rocks)
    # When diffed
    changes: list[Change] = diff_levels(old, new)
    # Then every change is listed once, in order
    assert changes == [
        PathChanged("loop", moved.points, True, 20.0),
        PathChanged("extra", LINE.points, False, 30.0),
        PathRemoved("line"),
        RockChanged(1, 6, 950.0, 400.0, 40.0),
        RockRemoved(2, 7),
    ]


def test_diff_levels_ignores_ids_and_unchanged_objects() -> None:
    # Given a level where only a path's id changed
    old = make_level()
    new = replace(old, paths=(replace(LOOP, id=99), LINE))
    # When diffed
    # Then there is nothing to mirror
    assert diff_levels(old, new) == []
    assert diff_levels(old, old) == []


def test_apply_changes_moves_a_drifting_paths_base() -> None:
    # Given a drifting path mirrored at time 2 s
    nodes = [(100.0, 100.0), (300.0, 100.0), (300.0, 300.0)]
    drift = DriftingPath(nodes, amplitude=(5.0, 5.0), speed=1.0, seed=3)
    paths = PathSet([("d", Path(drift.nodes_at(2.0)))])
    paths.set_drift("d", drift)
    mirror = paths["d"]
    # When the editor inserts a node
    edited = (nodes[0], (200.0, 50.0), *nodes[1:])
    rocks = apply_changes(paths, [PathChanged("d", edited, False, 20.0)], time=2.0)
    # Then the drift's base is the edited nodes, the path is where the new drift puts it at
    # 2 s, edited in place (same object), and no rock changed
    assert not rocks
    moved = paths.drift_of("d")
    assert moved is not None and moved.base == edited and moved.seed == 3
    assert paths["d"] is mirror
    assert np.allclose(mirror.nodes, moved.nodes_at(2.0))
    # And undoing the new path drops its drift too
    apply_changes(paths, [PathRemoved("d")])
    assert "d" not in paths and paths.drifts == {}


def test_apply_changes_reports_rock_changes() -> None:
    # Given no paths
    paths: dict[str, Path] = {}
    # When a rock event comes
    # Then it is reported for the physics
    assert apply_changes(paths, [RockChanged(0, 5, 1.0, 2.0, 3.0)])
    assert paths == {}


def test_sync_sets_radii_per_segment() -> None:
    # Given a path of one radius
    path = Path(SQUARE, closed=True, radius=20.0)
    # When synced to a radius per segment, then to the same again, then to one for all
    edits = sync_path(path, SQUARE, closed=True, radius=[5.0, 10.0, 15.0, 20.0])
    again = sync_path(path, SQUARE, closed=True, radius=[5.0, 10.0, 15.0, 20.0])
    # Then one edit set them, the second sync changed nothing
    assert (edits, again) == (1, 0)
    np.testing.assert_array_equal(path.radii, [5.0, 10.0, 15.0, 20.0])
    assert sync_path(path, SQUARE, closed=True, radius=8.0) == 1
    np.testing.assert_array_equal(path.radii, [8.0, 8.0, 8.0, 8.0])
    # and radii of the wrong count are refused before anything changes
    with pytest.raises(ValueError, match="radius"):
        sync_path(path, SQUARE[:3], closed=True, radius=[1.0, 2.0])
    assert nodes_of(path) == SQUARE


def test_model_events_keep_per_segment_radii_of_a_mirror_in_step() -> None:
    # Given a mirror of a level whose loop has a radius per segment
    level = make_level()
    loop = replace(LOOP, radii=(10.0, 20.0, 30.0, 40.0))
    model = EditModel(replace(level, paths=(loop, LINE)))
    mirror = {
        p.name: Path(p.points, closed=p.closed, radius=p.segment_radii) for p in model.level.paths
    }
    model.subscribe(lambda changes: apply_changes(mirror, changes))
    uid = mirror["loop"].uid
    # When nodes are inserted and deleted, the loop opened, the wheel turned and undone
    model.insert_node("loop", 1, 410.0, 300.0)
    model.delete_node("loop", 0)
    model.toggle_closed("loop")
    model.scale_path_radius("loop", 2)
    model.insert_node("line", 1, 900.0, 120.0)
    model.undo()
    model.set_path_radius("line", 12.0)
    # Then the same mirror path has the level's radius for every segment, and so on
    assert mirror["loop"].uid == uid
    for data in model.level.paths:
        m = mirror[data.name]
        assert (nodes_of(m), m.closed) == (list(data.points), data.closed)
        assert m.radii.tolist() == list(data.segment_radii)
    # and the diff reports a radii-only change
    before = model.level
    after = replace(before, paths=(replace(before.paths[0], radii=(1.0, 2.0, 3.0, 4.0)), LINE))
    changes = diff_levels(before, after)
    assert next(c.radii for c in changes if isinstance(c, PathChanged)) == (1.0, 2.0, 3.0, 4.0)
