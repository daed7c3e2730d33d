"""The ring of rays, hand-computed: a player at (100, 100) in a 1000 x 500 map."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.env.rays import cast_ring, enemies_near, observe_into, ring_directions

REACH = 300.0
NO_WALLS = np.zeros((0, 5))
NO_ROCKS = np.zeros((0, 2))


def _ring(
    rocks: np.ndarray = NO_ROCKS,
    radius: np.ndarray | None = None,
    walls: np.ndarray = NO_WALLS,
    pos: np.ndarray | None = None,
    seen: tuple[bool, ...] = (),
    rays: int = 4,
) -> np.ndarray:
    pos = np.array([[100.0, 100.0]]) if pos is None else pos
    rows = np.arange(1, pos.shape[0])
    out = np.empty(4 * rays)
    cast_ring(
        100.0,
        100.0,
        ring_directions(rays),
        REACH,
        rocks,
        np.zeros(rocks.shape[0]) if radius is None else radius,
        walls,
        pos,
        rows,
        np.full(rows.size, 10.0),
        np.array(seen, dtype=np.bool_),
        1000.0,
        500.0,
        out,
    )
    return out.reshape(rays, 4)


def test_the_ring_starts_along_x_and_turns_counter_clockwise() -> None:
    dirs = ring_directions(4)
    np.testing.assert_allclose(dirs, [[1, 0], [0, 1], [-1, 0], [0, -1]], atol=1e-15)


def test_an_empty_map_shows_its_edges_within_reach() -> None:
    # Given nothing but the map, when the four rays are cast from (100, 100)
    ring = _ring()
    # Then each sees no rock, wall or enemy (the reach), and the edge 900, 400, 100, 100 away
    np.testing.assert_array_equal(ring[:, :3], REACH)
    np.testing.assert_allclose(ring[:, 3], [REACH, REACH, 100.0, 100.0])


def test_a_rock_is_seen_where_the_ray_enters_it() -> None:
    # Given a rock of radius 20 at (250, 100): the +x ray enters it at 250 - 20 - 100 = 130
    ring = _ring(np.array([[250.0, 100.0]]), np.array([20.0]))
    assert ring[0, 0] == pytest.approx(130.0)
    assert ring[1, 0] == REACH  # the +y ray misses it


def test_a_wall_is_seen_at_its_thickened_face() -> None:
    # Given a wall from (0, 180) to (400, 180), 8 px thick: the +y ray meets its face at
    # 180 - 4 - 100 = 76
    ring = _ring(walls=np.array([[0.0, 180.0, 400.0, 180.0, 4.0]]))
    assert ring[1, 1] == pytest.approx(76.0)
    assert ring[0, 1] == REACH


def test_an_enemy_counts_only_when_seen() -> None:
    # Given an enemy of radius 10 at (100, 160): 50 px up the +y ray
    pos = np.array([[100.0, 100.0], [100.0, 160.0]])
    assert _ring(pos=pos, seen=(True,))[1, 2] == pytest.approx(50.0)
    assert _ring(pos=pos, seen=(False,))[1, 2] == REACH


def test_enemies_near_marks_bodies_within_reach() -> None:
    pos = np.array([[0.0, 0.0], [305.0, 0.0], [400.0, 0.0]])
    near = np.zeros(2, dtype=np.bool_)
    # 305 - 10 = 295 < 300; 400 - 10 = 390 is beyond
    assert enemies_near(pos, np.array([1, 2]), np.array([10.0, 10.0]), REACH, near) == 1
    assert near.tolist() == [True, False]


def test_the_observation_is_normalised_and_clipped() -> None:
    # Given the player at (100, 100) moving at (110, -440) px/s with a top speed of 220, the
    # exit at (400, 500), a current of (22, 0) px/s, and one enemy that sees it
    out = np.empty(4 * 4 + 8, dtype=np.float32)
    pos = np.array([[100.0, 100.0]])
    params = np.array([REACH, 1000.0, 500.0, 220.0, math.hypot(1000.0, 500.0), 1.0])
    observe_into(
        out,
        pos,
        np.array([[110.0, -440.0]]),
        np.array([[22.0, 0.0]]),
        NO_ROCKS,
        np.zeros(0),
        NO_WALLS,
        np.zeros(0, dtype=np.intp),
        np.zeros(0),
        np.zeros(0, dtype=np.bool_),
        ring_directions(4),
        np.array([400.0, 500.0]),
        np.array([True]),
        params,
    )
    # Then the edges 100 px away read 2 * 100 / 300 - 1 = -1/3, the far ones 1
    np.testing.assert_allclose(out[3::4][:4], [1.0, 1.0, -1 / 3, -1 / 3], rtol=1e-6)
    extra = out[16:]
    # velocity 0.5 and -2 clipped to -1; the exit 500 px away at (0.6, 0.8)
    np.testing.assert_allclose(extra[:2], [0.5, -1.0])
    np.testing.assert_allclose(extra[2:4], [0.6, 0.8], rtol=1e-6)
    assert extra[4] == pytest.approx(2 * 500 / math.hypot(1000, 500) - 1, rel=1e-6)
    assert extra[5] == 1.0
    np.testing.assert_allclose(extra[6:], [0.1, 0.0], rtol=1e-6)
