"""Seeded enemy starts (issue 45): ``scatter`` draws an enemy's start and post within a radius
of its spawn point, ``phase`` starts a path patrol further along its path, both per world seed,
so a script that never looks cannot learn where a guard stands or when a patrol passes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from game.level import EnemySpawn, Level, load_level, resolve_level
from game.level.changes import diff_levels
from game.world import ENEMY, NPC, World
from game.world.edit import apply_edit
from game.world.posts import enemy_post, enemy_start

SEEDS = range(400)


def _patrol() -> Level:
    return load_level(resolve_level("01_patrol"))


def _with(level: Level, name: str, **kw: float) -> tuple[Level, EnemySpawn]:
    enemies = tuple(replace(e, **kw) if e.name == name else e for e in level.enemies)
    new = replace(level, enemies=enemies)
    return new, next(e for e in new.enemies if e.name == name)


def _path_points(level: Level, name: str) -> tuple[np.ndarray, bool]:
    pd = next(p for p in level.paths if p.name == name)
    return np.asarray(pd.points, dtype=np.float64), pd.closed


def _arc_and_gap(points: np.ndarray, closed: bool, q: np.ndarray) -> tuple[float, float, float]:
    """(arc length of the path's point nearest q, q's distance to the path, path length)."""
    b = np.roll(points, -1, axis=0) if closed else points[1:]
    a = points if closed else points[:-1]
    d = b - a
    seg = np.hypot(d[:, 0], d[:, 1])
    t = np.clip(((q - a) * d).sum(axis=1) / (seg * seg), 0.0, 1.0)
    foot = a + t[:, None] * d
    gap = np.hypot(*(q - foot).T)
    k = int(np.argmin(gap))
    return float(seg[:k].sum() + t[k] * seg[k]), float(gap[k]), float(seg.sum())


def test_without_scatter_or_phase_the_enemy_starts_on_its_point_whatever_the_seed() -> None:
    level = _patrol()
    for e in level.enemies:
        assert enemy_post(e, level, 0) == (e.x, e.y) == enemy_post(e, level, 12345)
    for seed in (0, 1, 7):
        world = World(level, seed)
        rows = np.flatnonzero(world.kind == ENEMY)
        expected = [[e.x, e.y] for e in level.enemies]
        assert world.agents.pos[rows].tolist() == expected
        assert world.roster.post[rows].tolist() == expected


def test_scatter_draws_the_post_uniformly_over_its_disc_and_the_world_starts_there() -> None:
    level, guard = _with(_patrol(), "guard-square", scatter=100.0, path="")
    posts = np.array([enemy_post(guard, level, s) for s in SEEDS])
    r = np.hypot(posts[:, 0] - guard.x, posts[:, 1] - guard.y)
    # Within the radius, and uniform over the disc's area: a quarter within half the radius
    assert r.max() <= 100.0 + 1e-9
    assert 0.18 < float((r < 50.0).mean()) < 0.32
    # Every direction: each quadrant holds about a quarter
    quadrant = (posts[:, 0] > guard.x).astype(int) * 2 + (posts[:, 1] > guard.y)
    assert np.bincount(quadrant, minlength=4).min() > 0.18 * len(SEEDS)
    # The world starts the guard on its drawn post, and it guards that post
    for seed in (3, 4):
        world = World(level, seed)
        row = int(np.flatnonzero((world.kind == ENEMY) & (world.spawn_id == guard.id))[0])
        assert tuple(world.roster.post[row]) == enemy_post(guard, level, seed)
        assert tuple(world.agents.pos[row]) == enemy_post(guard, level, seed)


def test_phase_one_starts_a_patrol_anywhere_on_its_closed_path() -> None:
    level, guard = _with(_patrol(), "guard-square", phase=1.0)
    pts, closed = _path_points(level, "square")
    arcs = []
    for s in SEEDS:
        arc, gap, total = _arc_and_gap(pts, closed, np.array(enemy_post(guard, level, s)))
        assert gap < 1e-6  # on the path
        arcs.append(arc / total)
    # Spread over the whole loop: each tenth of it holds some starts
    assert np.histogram(arcs, bins=10, range=(0.0, 1.0))[0].min() > 0.04 * len(SEEDS)


def test_a_small_phase_moves_the_start_only_that_far_along_the_path() -> None:
    level, guard = _with(_patrol(), "guard-square", phase=0.2)
    pts, closed = _path_points(level, "square")
    home, _, total = _arc_and_gap(pts, closed, np.array([guard.x, guard.y]))
    ahead = []
    for s in SEEDS:
        arc, gap, _ = _arc_and_gap(pts, closed, np.array(enemy_post(guard, level, s)))
        assert gap < 1e-6
        ahead.append(((arc - home) % total) / total)
    assert max(ahead) <= 0.2 + 1e-9 and max(ahead) > 0.18 and min(ahead) < 0.02


def test_on_an_open_path_the_start_is_ahead_of_the_spawn_reflected_at_the_end() -> None:
    # The known limit (docs/levels.md): one length ahead of the spawn's point, reflected at
    # the far end, the patrol walking forward; not yet its whole round out and back
    level = _patrol()
    line = replace(level.paths[0], points=((100.0, 100.0), (500.0, 100.0)), closed=False)
    level = replace(level, paths=(line, *level.paths[1:]))
    level, guard = _with(level, "guard-square", x=300.0, y=100.0, phase=1.0, path=line.name)
    starts = [enemy_start(guard, level, s) for s in SEEDS]
    xs = np.array([st.x for st in starts])
    assert (np.array([st.y for st in starts]) == 100.0).all()
    assert xs.min() >= 300.0 and xs.max() <= 500.0 and xs.min() < 310.0 and xs.max() > 490.0
    assert not any(st.backwards for st in starts)
    # From a spawn at the first node the whole line is covered (out, and back from the end)
    level, guard = _with(level, "guard-square", x=100.0, y=100.0)
    xs = np.array([enemy_post(guard, level, s)[0] for s in SEEDS])
    assert np.histogram(xs, bins=4, range=(100.0, 500.0))[0].min() > 0.18 * len(SEEDS)


def test_a_scattered_post_is_off_rocks_and_walls_and_not_across_a_wall() -> None:
    level = load_level(resolve_level("03_rockfield"))
    hunters = [e for e in level.enemies if e.scatter > 0 and not e.path]
    assert hunters
    for e in hunters:
        home = np.array([e.x, e.y])
        for seed in range(150):
            post = np.array(enemy_post(e, level, seed))
            for o in level.obstacles:
                assert np.hypot(*(post - (o.x, o.y))) >= o.radius + e.radius
            for wall in level.walls:
                for u, v in wall.segments:
                    u, v = np.array(u), np.array(v)
                    d = v - u
                    t = np.clip(np.dot(post - u, d) / np.dot(d, d), 0.0, 1.0)
                    assert np.hypot(*(post - u - t * d)) >= wall.thickness / 2 + e.radius
                    assert not _crosses(home, post, u, v)


def _crosses(p: np.ndarray, q: np.ndarray, u: np.ndarray, v: np.ndarray) -> bool:
    def side(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
        return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return side(p, q, u) * side(p, q, v) < 0 and side(u, v, p) * side(u, v, q) < 0


def test_a_phased_patrol_walks_on_from_where_it_starts() -> None:
    level, guard = _with(_patrol(), "guard-square", phase=1.0)
    pts, closed = _path_points(level, "square")
    ends = []
    for seed in (0, 1, 2):
        world = World(level, seed)
        row = int(np.flatnonzero((world.kind == ENEMY) & (world.spawn_id == guard.id))[0])
        start, _, total = _arc_and_gap(pts, closed, world.agents.pos[row].copy())
        for _ in range(120):  # 2 s
            world.step((0.0, 0.0))
        arc, gap, _ = _arc_and_gap(pts, closed, world.agents.pos[row].copy())
        # Still on its corridor, and moved forward round the loop from its own start
        assert gap < 40.0
        assert 60.0 < (arc - start) % total < 0.5 * total
        ends.append(arc)
    assert len({round(a) for a in ends}) == 3


def test_each_spawn_draws_alone_and_the_npcs_are_not_moved() -> None:
    level = load_level(resolve_level("05_moving_paths"))
    phased = replace(level, enemies=tuple(replace(e, phase=1.0) for e in level.enemies))
    one, square = _with(phased, "square-guard", scatter=80.0)
    for e in phased.enemies:
        if e.name != "square-guard":
            mine = next(x for x in one.enemies if x.id == e.id)
            assert enemy_post(mine, one, 9) == enemy_post(e, phased, 9)
    before = next(e for e in phased.enemies if e.name == "square-guard")
    assert enemy_post(square, one, 9) != enemy_post(before, phased, 9)
    a, b = World(level, 9), World(one, 9)
    npc = a.kind == NPC
    assert np.array_equal(a.agents.pos[npc], b.agents.pos[npc])


@pytest.mark.parametrize("seed", [0, 5])
def test_editing_a_spawns_scatter_moves_its_post_to_the_new_draw(seed: int) -> None:
    # Given a running world whose first guard has no path: it wanders round its post
    level, _ = _with(_patrol(), "guard-square", path="")
    world = World(level, seed)
    new, guard = _with(level, "guard-square", scatter=150.0)
    rows = np.flatnonzero((world.kind == ENEMY) & (world.spawn_id == guard.id))
    # When the designer gives it a scatter, the edit is applied in place
    assert apply_edit(world, diff_levels(level, new), new) == ""
    # Then its post is the new draw (test_edit_objects: a wanderer heads for a moved post)
    post = enemy_post(guard, new, seed)
    assert tuple(world.roster.post[rows[0]]) == post != (guard.x, guard.y)
