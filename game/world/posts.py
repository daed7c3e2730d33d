"""Where a seeded enemy starts (issue 45): its post drawn within its spawn's ``scatter`` and
its start moved a seeded ``phase`` of the way round its path, per world seed (see
docs/levels.md, "enemy")."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from game.level import EnemySpawn, Level
from steering.vec import FloatArray

__all__ = ["Start", "enemy_post", "enemy_start"]


#: Mixed into an enemy's draw (with the world seed and the spawn's id) so that it has a stream of
#: its own: editing one spawn, or the NPCs' scatter, moves no other enemy.
_POST_STREAM = 0x5CA77E2


#: Draws of a scattered post at most, until one is clear of rocks and walls and not across a
#: wall from the spawn point (the last is kept if none is).
_TRIES = 16


class Start(NamedTuple):
    """Where a spawn's enemies start: the point, and whether they start walking their open
    path back toward its first node (``state.reverse``)."""

    x: float
    y: float
    backwards: bool


def _along(
    points: FloatArray, closed: bool, at: tuple[float, float], phase: float
) -> tuple[FloatArray, bool]:
    """The point ``phase`` (a fraction of the length) further along the path than the path's
    point nearest ``at``; an open path is walked back from its end (a patrol turns there).
    The flag, whether a patrol there starts walking back, is always False for now."""
    a = points
    b = np.roll(points, -1, axis=0) if closed else points[1:]
    a = a if closed else points[:-1]
    d = b - a
    seg = np.hypot(d[:, 0], d[:, 1])
    total = float(seg.sum())
    if total <= 0.0:
        return points[0].copy(), False
    rel = np.asarray(at, dtype=np.float64) - a
    t = np.clip((rel * d).sum(axis=1) / np.maximum(seg * seg, 1e-12), 0.0, 1.0)
    gap = np.hypot(rel[:, 0] - t * d[:, 0], rel[:, 1] - t * d[:, 1])
    k = int(np.argmin(gap))
    start = np.concatenate(([0.0], np.cumsum(seg)))
    home = start[k] + t[k] * seg[k]
    if closed:
        s = (home + phase * total) % total
    else:
        # Known limit (issue 45): the draw spans one length ahead, reflected at the far end,
        # and the patrol starts walking forward, so it covers only the part of its round
        # from the nearest point out to the end and back there, not the way back beyond it.
        s = (home + phase * total) % (2.0 * total)
        s = 2.0 * total - s if s > total else s
    k = min(int(np.searchsorted(start, s, side="right")) - 1, seg.shape[0] - 1)
    f = (s - start[k]) / seg[k] if seg[k] > 0 else 0.0
    return a[k] + f * d[k], False


def _crosses(p: FloatArray, q: FloatArray, u: FloatArray, v: FloatArray) -> bool:
    """Whether the segments p-q and u-v cross."""

    def side(a: FloatArray, b: FloatArray, c: FloatArray) -> float:
        return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return side(p, q, u) * side(p, q, v) < 0.0 and side(u, v, p) * side(u, v, q) < 0.0


def _clear(level: Level, home: FloatArray, point: FloatArray, radius: float) -> bool:
    """Whether an agent of ``radius`` at ``point`` is off every rock and wall, and no wall
    lies between it and ``home`` (the spawn point: a post across a reef is out of reach)."""
    for o in level.obstacles:
        if math.hypot(point[0] - o.x, point[1] - o.y) < o.radius + radius:
            return False
    for wall in level.walls:
        for (ux, uy), (vx, vy) in wall.segments:
            u, v = np.array([ux, uy]), np.array([vx, vy])
            d = v - u
            t = float(np.clip(np.dot(point - u, d) / max(float(np.dot(d, d)), 1e-12), 0.0, 1.0))
            if math.hypot(*(point - u - t * d)) < wall.thickness / 2.0 + radius:
                return False
            if _crosses(home, point, u, v):
                return False
    return True


def enemy_start(e: EnemySpawn, level: Level, seed: int) -> Start:
    """Where the enemies of spawn ``e`` start in a world of ``seed`` (the post a pathless one
    guards): (x, y), moved a seeded part of ``e.phase`` of its path's length along it (see
    :func:`_along` for an open path's limit), then by a seeded offset uniform over the
    disc of radius ``e.scatter``, drawn again (up to 16 times) while it lands on a rock or a
    wall or across a wall from (x, y); inside the world. With neither, (x, y) itself walking
    forward, and no draw is made (the levels without them are as before)."""
    if e.phase <= 0.0 and e.scatter <= 0.0:
        return Start(e.x, e.y, False)
    rng = np.random.default_rng([seed, e.id, _POST_STREAM])
    u_phase, u_r, u_angle = rng.random(3)
    centre = np.array([e.x, e.y], dtype=np.float64)
    backwards = False
    path = next((p for p in level.paths if p.name == e.path), None) if e.path else None
    if path is not None and e.phase > 0.0:
        pts = np.asarray(path.points, dtype=np.float64)
        centre, backwards = _along(pts, path.closed, (e.x, e.y), u_phase * e.phase)
    if e.scatter > 0.0:
        home = centre
        for _ in range(_TRIES):
            r, angle = e.scatter * math.sqrt(u_r), 2.0 * math.pi * u_angle
            centre = home + r * np.array([math.cos(angle), math.sin(angle)])
            if _clear(level, home, centre, e.radius):
                break
            u_r, u_angle = rng.random(2)
    x = min(max(float(centre[0]), 0.0), level.width_px)
    y = min(max(float(centre[1]), 0.0), level.height_px)
    return Start(x, y, backwards)


def enemy_post(e: EnemySpawn, level: Level, seed: int) -> tuple[float, float]:
    """Where the enemies of spawn ``e`` start and a pathless one's post (see
    :func:`enemy_start`)."""
    start = enemy_start(e, level, seed)
    return start.x, start.y
