"""Pure drawing geometry: route tubes, chevrons, arrows, boxes, rings, trails, particles."""

from __future__ import annotations

import numpy as np
import pytest

from game.render.geometry import (
    arrow_segments,
    box_segments,
    chevrons_along,
    polyline_segments,
)
from game.render.overlay import circle_segments
from game.render.particles import ARROW_PARTS, FlowParticles
from game.render.scene import facing_angles
from game.render.trails import Trails

SQUARE = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]


def test_polyline_segments_open_and_closed() -> None:
    assert polyline_segments(SQUARE, closed=False).shape == (3, 4)
    closed = polyline_segments(SQUARE, closed=True)
    assert closed.shape == (4, 4)
    assert tuple(closed[-1]) == (0.0, 100.0, 0.0, 0.0)


def test_chevrons_point_along_the_path() -> None:
    seg = chevrons_along([(0.0, 0.0), (300.0, 0.0)], closed=False, spacing=100.0, size=8.0)
    assert seg.shape == (6, 4)
    tips = seg[:, 2:]
    wings = seg[:, :2]
    assert (tips[:, 0] > wings[:, 0]).all()  # the tips are ahead (+x), as the nodes run
    backwards = chevrons_along([(300.0, 0.0), (0.0, 0.0)], closed=False, spacing=100.0, size=8.0)
    assert (backwards[:, 2] < backwards[:, 0]).all()


def test_arrows_and_degenerate_arrows() -> None:
    seg = arrow_segments([[0.0, 0.0], [5.0, 5.0]], [[10.0, 0.0], [5.0, 5.0]], 3.0)
    assert seg.shape == (6, 4)
    assert np.isfinite(seg).all()
    assert tuple(seg[0]) == (0.0, 0.0, 10.0, 0.0)


def test_boxes_and_rings() -> None:
    corners = np.array([[[0, 0], [2, 0], [2, 1], [0, 1]]], dtype=float)
    seg = box_segments(corners)
    assert seg.shape == (4, 4)
    assert tuple(seg[-1]) == (0.0, 1.0, 0.0, 0.0)
    ring = circle_segments(np.array([[10.0, 10.0]]), 5.0, 12)
    assert ring.shape == (12, 4)
    assert np.hypot(ring[:, 0] - 10, ring[:, 1] - 10) == pytest.approx(np.full(12, 5.0))


def test_facing_angles_are_arcade_clockwise_degrees() -> None:
    heading = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    assert facing_angles(heading) == pytest.approx([0.0, -90.0, -180.0, 90.0])


def test_trails_keep_the_last_samples_in_order() -> None:
    trails = Trails(length=3, every=1)
    for k in range(5):
        trails.update(np.array([[float(k), 0.0], [0.0, float(k)]]))
    hist = trails.ordered()
    assert hist[:, 0, 0].tolist() == [2.0, 3.0, 4.0]
    seg = trails.segments(np.array([[5.0, 0.0], [0.0, 5.0]]), np.array([0]))
    assert seg.shape == (3, 4)
    assert tuple(seg[-1]) == (4.0, 0.0, 5.0, 0.0)
    # every second sample, counted back from now (5): 3, then now
    sparse = trails.segments(np.array([[5.0, 0.0], [0.0, 5.0]]), np.array([0]), stride=2)
    assert sparse.tolist() == [[3.0, 0.0, 5.0, 0.0]]
    # a stride past the history leaves no segment
    assert trails.segments(np.array([[5.0, 0.0], [0.0, 5.0]]), stride=9).shape == (0, 4)
    trails.update(np.zeros((3, 2)))  # a different crowd starts afresh
    assert trails.ordered().shape[1] == 3


def test_particles_drift_with_the_current_and_stay_in_their_region() -> None:
    def east(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.tile([50.0, 0.0], (points.shape[0], 1)), np.ones(points.shape[0], dtype=bool)

    rects = [(0.0, 0.0, 200.0, 100.0), (500.0, 500.0, 50.0, 50.0)]
    p = FlowParticles(rects, east, density=1 / 100, seed=1)
    assert p.count > 0 and (p.region == 1).sum() >= 12
    for _ in range(300):
        before = p.pos.copy()
        p.update(1 / 60)
        moved = np.isclose(p.pos[:, 0] - before[:, 0], 50 / 60) & (p.age > 0)
        assert moved.mean() > 0.8
        r = np.array(rects)[p.region]
        assert ((p.pos >= r[:, :2] - 1e-9) & (p.pos <= r[:, :2] + r[:, 2:] + 1.0)).all()
    assert ((p.fade() >= 0) & (p.fade() <= 1)).all()


def test_particle_arrows_point_downstream_with_a_brighter_head() -> None:
    # Given plankton in a current running north at 150 px/s (issue 15: direction must read in
    # a still frame)
    def north(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.tile([0.0, 150.0], (points.shape[0], 1)), np.ones(points.shape[0], dtype=bool)

    p = FlowParticles([(0.0, 0.0, 200.0, 200.0)], north, density=1 / 400, seed=2)
    p.update(1 / 60)
    # When they are drawn as arrows
    seg, alpha = p.arrows(seconds=0.1, length=(9.0, 26.0), barb=5.0)
    parts = seg.reshape(p.count, ARROW_PARTS, 4)
    a = alpha.reshape(p.count, ARROW_PARTS)
    # Then each tail runs 15 px up to the particle, in three pieces...
    assert parts[:, 0, 1] == pytest.approx(p.pos[:, 1] - 15.0)
    assert parts[:, 2, 3] == pytest.approx(p.pos[:, 1])
    assert (parts[:, :3, 3] > parts[:, :3, 1]).all()  # every piece points north
    # ...the barbs spread back and sideways from the head...
    barbs = parts[:, 3:, 2:] - parts[:, 3:, :2]
    assert (barbs[..., 1] < 0).all()
    assert (np.sign(barbs[:, 0, 0]) == -np.sign(barbs[:, 1, 0])).all()
    # ...and the tail brightens toward the head
    live = p.fade() > 0.05
    assert (np.diff(a[live, :3], axis=1) > 0).all()
