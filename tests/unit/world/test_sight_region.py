"""The drawn sight regions (:mod:`game.world.sight`) agree with what the world decides.

Around every enemy of every shipped level, at the opening and after some play, points are
sampled; each is inside the enemy's drawn region exactly when the world's own sight test
(:meth:`~game.world.brains.EnemyMinds.sense`: range, cone and pymunk's line of sight), with
the player standing there, says the enemy sees it. Points inside a rock or a wall (where the
player cannot stand) and points within :data:`MARGIN` of the drawn outline are not asked.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.level import load_level, shipped_levels
from game.world import World
from game.world.sight import (
    MAX_EXACT_OUTLINES,
    MAX_SWEEP_RAYS,
    SightFans,
    enemy_sight,
    sight_fans,
)

#: Points this close to the drawn outline (px) are not asked.
MARGIN = 0.5
#: Points sampled around each enemy.
SAMPLES = 1500


def _inside_fan(points: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """(N,) whether each point is inside any of the (T, 3, 2) triangles."""
    inside = np.zeros(points.shape[0], dtype=bool)
    for chunk in range(0, tri.shape[0], 256):
        t = tri[chunk : chunk + 256]
        a, b, c = t[:, 0][None], t[:, 1][None], t[:, 2][None]
        p = points[:, None, :]

        def cross(u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
            return (v[..., 0] - u[..., 0]) * (w[..., 1] - u[..., 1]) - (v[..., 1] - u[..., 1]) * (
                w[..., 0] - u[..., 0]
            )

        d1, d2, d3 = cross(a, b, p), cross(b, c, p), cross(c, a, p)
        neg = (d1 < 0) | (d2 < 0) | (d3 < 0)
        pos = (d1 > 0) | (d2 > 0) | (d3 > 0)
        inside |= (~(neg & pos)).any(axis=1)
    return inside


def _distance_to_segments(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N,) distance from each point to the nearest of the segments (a[k], b[k])."""
    best = np.full(points.shape[0], np.inf)
    for chunk in range(0, a.shape[0], 256):
        sa, sb = a[chunk : chunk + 256][None], b[chunk : chunk + 256][None]
        d = sb - sa
        ll = np.maximum((d * d).sum(-1), 1e-12)
        t = np.clip(((points[:, None] - sa) * d).sum(-1) / ll, 0.0, 1.0)
        near = sa + t[..., None] * d
        best = np.minimum(best, np.hypot(*(points[:, None] - near).transpose(2, 0, 1)).min(1))
    return best


def _outline(tri: np.ndarray, full: bool) -> tuple[np.ndarray, np.ndarray]:
    """The drawn region's outline: every rim edge, and the cone's two sides."""
    a, b = [tri[:, 1]], [tri[:, 2]]
    if not full and tri.shape[0]:
        a += [tri[:1, 0], tri[-1:, 0]]
        b += [tri[:1, 1], tri[-1:, 2]]
    return np.concatenate(a), np.concatenate(b)


def _world_sees(world: World, k: int, points: np.ndarray) -> np.ndarray:
    """Whether enemy ``k`` sees the player at each point: the world's sense, the player moved
    there."""
    minds = world.minds
    pos = world.agents.pos.copy()
    out = np.empty(points.shape[0], dtype=bool)
    keep = minds.sighted.copy()
    for p in range(points.shape[0]):
        pos[0] = points[p]
        minds.sense(pos, world.agents.heading, world.physics.line_of_sight)
        out[p] = minds.sighted[k]
    minds.sighted[:] = keep
    return out


def _blocked(world: World, points: np.ndarray) -> np.ndarray:
    """Points inside a rock or a wall, or within MARGIN of one."""
    out = np.zeros(points.shape[0], dtype=bool)
    rocks, radius = world.obstacle_pos, world.physics.rock_radius
    for c, r in zip(rocks, radius, strict=True):
        out |= np.hypot(*(points - c).T) < r + MARGIN
    segs = world.walls.segments
    if segs.shape[0]:
        for (a, b), r in zip(segs, world.wall_thickness / 2, strict=True):
            out |= _distance_to_segments(points, a[None], b[None]) < r + MARGIN
    return out


def _check(world: World, fans: SightFans, seed: int) -> int:
    """Assert agreement around every enemy; returns how many points were asked."""
    rng = np.random.default_rng(seed)
    minds = world.minds
    w, h = world.physics.size
    asked = 0
    for k, row in enumerate(minds.rows.tolist()):
        reach = float(minds.sight[k])
        if reach <= 0.0:
            assert not (fans.owner == k).any()
            continue
        eye = world.agents.pos[row]
        r = reach * np.sqrt(rng.uniform(0.0, 1.2**2, SAMPLES))
        a = rng.uniform(-math.pi, math.pi, SAMPLES)
        points = eye + np.stack((r * np.cos(a), r * np.sin(a)), axis=1)
        points = points[(points[:, 0] > 0) & (points[:, 0] < w) & (points[:, 1] > 0)]
        points = points[points[:, 1] < h]
        tri = fans.vertices.reshape(-1, 3, 2)[fans.owner == k]
        half = math.pi if minds.half_angle is None else float(minds.half_angle[k])
        ends = _outline(tri, half >= math.pi)
        ask = ~_blocked(world, points) & (_distance_to_segments(points, *ends) > MARGIN)
        points = points[ask]
        drawn = _inside_fan(points, tri)
        seen = _world_sees(world, k, points)
        wrong = np.flatnonzero(drawn != seen)
        assert wrong.size == 0, (
            f"enemy {k} at {eye.tolist()}: {wrong.size} of {points.shape[0]} points disagree,"
            f" e.g. {points[wrong[0]].tolist()} drawn={bool(drawn[wrong[0]])}"
        )
        assert seen.any(), f"enemy {k} sees nothing: the check asked no seen point"
        asked += points.shape[0]
    return asked


@pytest.mark.parametrize("path", shipped_levels(), ids=lambda p: p.stem)
def test_drawn_sight_is_what_the_world_sees(path) -> None:
    world = World(load_level(path))
    asked = _check(world, enemy_sight(world), seed=1)
    for _ in range(240):  # four seconds of play, the enemies moved and turned
        world.step((0.0, 0.0))
    asked += _check(world, enemy_sight(world), seed=2)
    assert asked > 1000


def test_a_rock_casts_a_shadow_and_a_wall_stops_sight() -> None:
    # An eye at (100, 100) looking along +x, all round, range 300; a rock of radius 20 at
    # (200, 100) and a wall from (100, 250) to (300, 250), 10 px thick.
    fans = sight_fans(
        np.array([[100.0, 100.0]]),
        np.array([[1.0, 0.0]]),
        np.array([300.0]),
        np.array([math.pi]),
        np.array([[200.0, 100.0]]),
        np.array([20.0]),
        np.array([[[100.0, 250.0], [300.0, 250.0]]]),
        np.array([5.0]),
        (1000.0, 1000.0),
    )
    tri = fans.vertices.reshape(-1, 3, 2)
    probe = np.array(
        [
            [150.0, 100.0],  # before the rock: seen
            [300.0, 100.0],  # behind the rock: shadow
            [300.0, 150.0],  # beside the shadow (its edge passes 41 px off the axis there): seen
            [100.0, 240.0],  # before the wall: seen
            [100.0, 270.0],  # behind the wall: not seen
            [420.0, 100.0],  # beyond the range: not seen
        ]
    )
    assert _inside_fan(probe, tri).tolist() == [True, False, True, True, False, False]
    # the fade: 0 at the eye, 1 at the range, the fraction of it where a rock stops a ray
    assert fans.reach.min() == 0.0 and fans.reach.max() == pytest.approx(1.0)
    assert fans.reach[fans.reach > 0].min() == pytest.approx(80.0 / 300.0, abs=1e-3)


def test_a_cone_stays_in_the_map_and_no_sight_draws_nothing() -> None:
    fans = sight_fans(
        np.array([[20.0, 50.0], [50.0, 50.0]]),
        np.array([[-1.0, 0.0], [0.0, 1.0]]),
        np.array([200.0, 0.0]),
        np.array([math.radians(30), math.pi]),
        np.zeros((0, 2)),
        np.zeros(0),
        np.zeros((0, 2, 2)),
        np.zeros(0),
        (400.0, 300.0),
    )
    assert (fans.owner == 0).all() and fans.owner.size > 0
    v = fans.vertices
    assert v[:, 0].min() >= -1e-9 and v[:, 1].min() >= -1e-9
    # looking left from x = 20: the cone ends at the map's left edge, 20 px away
    assert np.hypot(*(v - (20.0, 50.0)).T).max() <= 20.0 / math.cos(math.radians(30)) + 1e-6


def test_a_crowd_of_enemies_shares_a_budget_of_rays() -> None:
    # Given 5,000 enemies seeing all round on an open map
    rng = np.random.default_rng(3)
    e = 5000
    eyes = rng.uniform(100.0, 9900.0, (e, 2))
    fans = sight_fans(
        eyes,
        np.tile([1.0, 0.0], (e, 1)),
        np.full(e, 250.0),
        np.full(e, math.pi),
        np.zeros((0, 2)),
        np.zeros(0),
        np.zeros((0, 2, 2)),
        np.zeros(0),
        (10000.0, 10000.0),
    )
    # Then their sweeps together stay within the budget (plus a few edge rays each), and
    # every enemy still has its disc
    assert fans.owner.size <= MAX_SWEEP_RAYS + 8 * e
    assert np.unique(fans.owner).size == e


def test_an_enemy_in_a_dense_reef_casts_the_sweep_alone() -> None:
    # Given an enemy seeing all round among wall segments 3.5 px apart (issue 43: 250 such
    # enemies among 20,000 wall points took minutes to draw, the crossings being pairs)
    xs = np.arange(0.0, 400.0, 3.5)
    pts = np.column_stack((xs + 100.0, 150.0 + 8.0 * (np.arange(xs.size) % 2)))
    walls = np.stack((pts[:-1], pts[1:]), axis=1)
    assert 2 * walls.shape[0] > MAX_EXACT_OUTLINES

    def fan(segments: np.ndarray) -> SightFans:
        return sight_fans(
            np.array([[300.0, 120.0]]),
            np.array([[1.0, 0.0]]),
            np.array([250.0]),
            np.array([math.pi]),
            np.zeros((0, 2)),
            np.zeros(0),
            segments,
            np.full(segments.shape[0], 2.0),
            (600.0, 400.0),
        )

    # When its region is cast, Then it has only the uniform sweep's triangles (90 of 4
    # degrees), and still stops at the reef (nothing seen beyond y = 160)
    dense = fan(walls)
    assert dense.owner.size <= 92
    assert dense.vertices[:, 1].max() <= 160.0 + 1e-6
    # And a few segments are still cast exactly, with their ends and crossings
    assert fan(walls[:10]).owner.size > 92
