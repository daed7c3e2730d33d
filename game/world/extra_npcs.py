"""The extra NPCs of a stress run (``World(level, extra_npcs=N)``): which spawns they copy,
where they are scattered and how big they are, and the grown rectangles that hold them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.level import Level, NpcSpawn, Rect

__all__ = ["ExtraGroup", "extra_npc_plan", "grown"]


def grown(rect: Rect, need_area: float, world: tuple[float, float]) -> Rect:
    """``rect`` scaled about its centre to at least ``need_area`` px^2, kept inside the world."""
    w, h = world
    area = rect.width * rect.height
    if area >= need_area:
        return rect
    s = math.sqrt(need_area / max(area, 1e-9))
    rw, rh = min(rect.width * s, w), min(rect.height * s, h)
    if rw * rh < need_area:  # one side hit the world: stretch the other
        rw = min(w, need_area / rh)
        rh = min(h, need_area / rw)
    cx, cy = rect.center
    left = min(max(cx - rw / 2, 0.0), w - rw)
    bottom = min(max(cy - rh / 2, 0.0), h - rh)
    return Rect(left, bottom, rw, rh)


@dataclass(frozen=True)
class ExtraGroup:
    """The extra NPCs of a stress run that copy one spawn.

    Attributes:
        spawn: the NPC spawn they copy (max speed, force, path, wander).
        count: how many.
        area: where they are scattered (the spawn's area, grown to hold them).
        radius: their radius (the spawn's, shrunk when the world is too small for them).
        separation: their separation (shrunk with the radius).
    """

    spawn: NpcSpawn
    count: int
    area: Rect
    radius: float
    separation: float


def extra_npc_plan(level: Level, extra: int) -> list[ExtraGroup]:
    """Where the ``extra`` NPCs of a stress run go, and how big they are.

    They are shared among the level's NPC spawns in proportion to each spawn's count and copy
    its properties. Each spawn's area (a point spawn counts as a square of its separation per
    agent) is grown about its centre, inside the world, until it holds its own agents and its
    extra ones at one ``spacing^2`` each, ``spacing = max(separation, 3 * radius)``. When the
    whole world cannot hold them at that spacing, the extra agents' radius and separation
    shrink by the same factor so that they fit (10,000 agents of 8 px would otherwise cover
    the whole sandbox). A level without NPC spawns gets one default spawn over the whole world.
    """
    if extra <= 0:
        return []
    w, h = level.width_px, level.height_px
    spawns = list(level.npcs)
    if not spawns:
        spawns = [NpcSpawn(x=w / 2, y=h / 2, area=Rect(0.0, 0.0, w, h), count=1)]
    counts = np.array([s.count for s in spawns], dtype=np.float64)
    share = np.floor(extra * counts / counts.sum()).astype(np.intp)
    share[: extra - int(share.sum())] += 1
    total_area = 0.0
    for s, k in zip(spawns, share, strict=True):
        spacing = max(s.separation, 3.0 * s.radius)
        total_area += (s.count + int(k)) * spacing * spacing
    shrink = min(1.0, math.sqrt(0.8 * w * h / total_area))
    plan = []
    for s, k in zip(spawns, share, strict=True):
        if k == 0:
            continue
        spacing = max(s.separation, 3.0 * s.radius) * shrink
        base = s.area or Rect(s.x - spacing / 2, s.y - spacing / 2, spacing, spacing)
        area = grown(base, (s.count + int(k)) * spacing * spacing, (w, h))
        plan.append(ExtraGroup(s, int(k), area, s.radius * shrink, s.separation * shrink))
    return plan
