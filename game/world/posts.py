"""Where a seeded enemy starts (issue 45): its post drawn within its spawn's ``scatter`` and
its start moved a seeded ``phase`` of the way round its path, per world seed (see
docs/levels.md, "enemy")."""

from __future__ import annotations

import math

import numpy as np

from game.level import EnemySpawn, Level
from steering.vec import FloatArray

__all__ = ["enemy_post"]


#: Mixed into an enemy's draw (with the world seed and the spawn's id) so that it has a stream of
#: its own: editing one spawn, or the NPCs' scatter, moves no other enemy.
_POST_STREAM = 0x5CA77E2


def _along(points: FloatArray, closed: bool, at: tuple[float, float], phase: float) -> FloatArray:
    """The point ``phase`` (a fraction of the length) further along the path than the path's
    point nearest ``at``; an open path is walked back from its end (a patrol turns there)."""
    a = points
    b = np.roll(points, -1, axis=0) if closed else points[1:]
    a = a if closed else points[:-1]
    d = b - a
    seg = np.hypot(d[:, 0], d[:, 1])
    total = float(seg.sum())
    if total <= 0.0:
        return points[0].copy()
    rel = np.asarray(at, dtype=np.float64) - a
    t = np.clip((rel * d).sum(axis=1) / np.maximum(seg * seg, 1e-12), 0.0, 1.0)
    gap = np.hypot(rel[:, 0] - t * d[:, 0], rel[:, 1] - t * d[:, 1])
    k = int(np.argmin(gap))
    start = np.concatenate(([0.0], np.cumsum(seg)))
    s = start[k] + t[k] * seg[k] + phase * total
    if closed:
        s %= total
    else:
        s %= 2.0 * total
        s = 2.0 * total - s if s > total else s
    k = min(int(np.searchsorted(start, s, side="right")) - 1, seg.shape[0] - 1)
    f = (s - start[k]) / seg[k] if seg[k] > 0 else 0.0
    return a[k] + f * d[k]


def enemy_post(e: EnemySpawn, level: Level, seed: int) -> tuple[float, float]:
    """Where the enemies of spawn ``e`` start, and the post a pathless one guards, in a world of
    ``seed``: (x, y), moved along its path by a seeded part of ``e.phase`` and then by a
    seeded offset within ``e.scatter`` (uniform over the disc), inside the world. With
    neither, (x, y) itself, and no draw is made (the levels without them are as before)."""
    centre = np.array([e.x, e.y], dtype=np.float64)
    if e.phase <= 0.0 and e.scatter <= 0.0:
        return e.x, e.y
    rng = np.random.default_rng([seed, e.id, _POST_STREAM])
    u_phase, u_r, u_angle = rng.random(3)
    path = next((p for p in level.paths if p.name == e.path), None) if e.path else None
    if path is not None and e.phase > 0.0:
        pts = np.asarray(path.points, dtype=np.float64)
        centre = _along(pts, path.closed, (e.x, e.y), u_phase * e.phase)
    if e.scatter > 0.0:
        r, angle = e.scatter * math.sqrt(u_r), 2.0 * math.pi * u_angle
        centre = centre + r * np.array([math.cos(angle), math.sin(angle)])
    x = min(max(float(centre[0]), 0.0), level.width_px)
    y = min(max(float(centre[1]), 0.0), level.height_px)
    return x, y
