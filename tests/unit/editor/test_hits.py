"""Hit testing: nodes, segments, tube edges, rock rims and bodies, tubes, with a pick radius
in world px."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.editor import Hit, HitKind, hit_test
from game.editor.hits import followed
from game.editor.objects import Ref
from game.level import WallData
from tests.unit.editor.helpers import LINE, LOOP, make_level


def test_node_within_pick_is_hit() -> None:
    # Given the loop's corner at (400, 200)
    level = make_level()
    # When the cursor is 3 px from it with a 6 px pick
    hit = hit_test(level, 403.0, 202.0, 6.0)
    # Then that node is hit
    assert hit is not None
    assert (hit.kind, hit.path, hit.index, hit.point) == (HitKind.NODE, "loop", 1, (400.0, 200.0))
    assert hit.distance == pytest.approx((9 + 4) ** 0.5)


def test_node_beats_segment_and_edge() -> None:
    # Given a cursor within pick of a node, its segments and the tube edge (radius 20)
    level = make_level()
    # When hit testing with a pick larger than the distance to all of them
    hit = hit_test(level, 200.0, 205.0, 25.0)
    # Then the node wins
    assert hit is not None and hit.kind is HitKind.NODE and hit.index == 0


def test_segment_hit_gives_the_point_on_the_centre_line() -> None:
    # Given the loop's bottom segment from (200, 200) to (400, 200)
    level = make_level()
    # When the cursor is 4 px above its middle
    hit = hit_test(level, 300.0, 204.0, 6.0)
    # Then the segment is hit, with the nearest point on it
    assert hit == Hit(HitKind.SEGMENT, 0, (300.0, 200.0), 4.0, "loop")


def test_closing_segment_of_a_closed_path() -> None:
    # Given the loop's closing segment from (200, 400) back to (200, 200)
    level = make_level()
    # When the cursor is next to it
    hit = hit_test(level, 198.0, 300.0, 6.0)
    # Then it is segment 3 (the last one)
    assert hit is not None and (hit.kind, hit.index) == (HitKind.SEGMENT, 3)


def test_tube_edge_is_hit_at_the_radius() -> None:
    # Given the loop with radius 20
    level = make_level()
    # When the cursor is 19 px from the centre line
    hit = hit_test(level, 300.0, 181.0, 3.0)
    # Then the edge is hit, 1 px away
    assert hit is not None
    assert (hit.kind, hit.path, hit.index) == (HitKind.EDGE, "loop", 0)
    assert hit.distance == pytest.approx(1.0)
    assert hit.point == (300.0, 200.0)


def test_inside_the_tube_away_from_line_and_edge() -> None:
    # Given the loop with radius 20
    level = make_level()
    # When the cursor is 10 px from the centre line with a 3 px pick
    hit = hit_test(level, 300.0, 190.0, 3.0)
    # Then it is over the tube
    assert hit is not None and (hit.kind, hit.path) == (HitKind.TUBE, "loop")


def test_rock_rim_and_body() -> None:
    # Given rock 0 at (700, 400), radius 40
    level = make_level()
    # When the cursor is on its rim, then inside it
    rim = hit_test(level, 741.0, 400.0, 3.0)
    body = hit_test(level, 710.0, 400.0, 3.0)
    # Then the rim, then the rock, is hit
    assert rim is not None and (rim.kind, rim.index, rim.path) == (HitKind.RIM, 0, "")
    assert rim.distance == pytest.approx(1.0)
    assert body is not None and (body.kind, body.index) == (HitKind.ROCK, 0)
    assert body.point == (700.0, 400.0)


def test_empty_space_hits_nothing() -> None:
    # Given the test level
    level = make_level()
    # When the cursor is far from everything
    # Then nothing is hit
    assert hit_test(level, 600.0, 300.0, 6.0) is None


@pytest.mark.parametrize(("pick", "expected"), [(2.0, HitKind.TUBE), (6.0, HitKind.NODE)])
def test_pick_radius_scales_with_zoom(pick: float, expected: HitKind) -> None:
    # Given a cursor 5 world px from a node, inside the tube (a 4 px screen tolerance is
    # 2 world px at zoom 2 and 6 at zoom 2/3)
    level = make_level()
    # When the view passes its screen tolerance divided by the zoom
    hit = hit_test(level, 405.0, 200.0, pick)
    # Then only the larger world pick reaches the node
    assert hit is not None and hit.kind is expected


def test_nearest_line_feature_wins() -> None:
    # Given the line (radius 30) whose tube edge runs along y = 130
    level = make_level()
    # When the cursor is 2 px from the edge and 28 px from the centre line, pick 30
    hit = hit_test(level, 700.0, 128.0, 30.0)
    # Then the edge (nearer) is hit, not the segment
    assert hit is not None and hit.kind is HitKind.EDGE and hit.path == "line"


def test_selected_path_is_preferred_where_paths_overlap() -> None:
    # Given a second path whose node coincides with the loop's node 0
    from dataclasses import replace

    level = make_level()
    other = replace(level.paths[1], points=((200.0, 200.0), (200.0, 600.0)), name="other", id=9)
    level = replace(level, paths=(*level.paths, other))
    # When hit testing with and without preferring "other"
    plain = hit_test(level, 200.0, 200.0, 5.0)
    preferred = hit_test(level, 200.0, 200.0, 5.0, prefer="other")
    # Then the first path wins by default and the preferred one when asked
    assert plain is not None and plain.path == "loop"
    assert preferred is not None and preferred.path == "other" and preferred.index == 0


def test_tube_and_edge_follow_each_segments_radius() -> None:
    # Given the loop with its bottom segment 10 px wide and its right one 40 px
    level = make_level()
    loop = replace(level.paths[0], radii=(10.0, 40.0, 20.0, 20.0))
    level = replace(level, paths=(loop, *level.paths[1:]))
    # When the cursor is 10 px below the bottom segment, then 30 px right of the right one
    bottom = hit_test(level, 300.0, 190.0, 2.0)
    right = hit_test(level, 430.0, 300.0, 2.0)
    # Then the first is on the narrow tube's edge, the second inside the wide tube
    assert bottom is not None and (bottom.kind, bottom.index) == (HitKind.EDGE, 0)
    assert right is not None and (right.kind, right.index) == (HitKind.TUBE, 1)


def test_a_hover_follows_the_dragged_wall_corner_node_and_spawn() -> None:
    # Given a level with a wall, and hits on its corner, a path node and the guard's spawn
    base = make_level()
    wall = WallData(points=((100.0, 500.0), (200.0, 520.0)), id=900)
    level = replace(base, walls=(wall,))
    corner = hit_test(level, 200.0, 520.0, 4.0)
    node = hit_test(level, 400.0, 400.0, 4.0)
    spawn = Hit(HitKind.SPAWN, 0, (200.0, 200.0), 0.0, ref=Ref("enemies", 0))
    assert corner is not None and corner.wall == 0 and node is not None
    # When the corner, the node and the spawn have been dragged elsewhere
    moved = replace(
        level,
        walls=(replace(wall, points=((100.0, 500.0), (260.0, 590.0))),),
        paths=(replace(LOOP, points=(*LOOP.points[:2], (420.0, 380.0), LOOP.points[3])), LINE),
        enemies=(replace(level.enemies[0], x=250.0, y=150.0),),
    )
    # Then each hover is where its handle is now (so the ring is drawn there)
    assert followed(moved, corner).point == (260.0, 590.0)
    assert followed(moved, node).point == (420.0, 380.0)
    assert followed(moved, spawn).point == (250.0, 150.0)
    # And a hover whose object is gone stays as it was
    assert followed(base, corner) == corner
