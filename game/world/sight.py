"""What each enemy can see: its sight region as a visibility polygon, cut by the shadows of
rocks and walls.

The world decides sight point by point (:meth:`~game.world.brains.EnemyMinds.sense`): the
player is seen when within the enemy's range and cone and pymunk finds no rock and no level
wall on the segment between (:meth:`~game.world.physics.Physics.line_of_sight`). This module
draws the same decision as a region: from each enemy's eye it casts rays across its cone,
each stopped at the first rock or wall it enters (the same shapes pymunk tests: rocks as
circles, walls as segments thickened by their half thickness, entered from outside), at the
enemy's range, and at the map's edge (the player is never outside the map).

Between the rays of a uniform sweep it casts a ray just either side of every point where the
region's outline can bend: the tangents of rocks and wall caps, the corners of walls and of
the map, and every crossing of two outlines in range (range circle, rocks, wall faces and
caps, map edges). Between two consecutive rays the outline is then one straight piece or one
arc: shadow edges and wall faces are exact; an arc of the range loses a sliver under its
chord (0.2 px at 300 px with the 4 degree sweep), and an arc of a rock cuts into the rock,
where no one stands.

:func:`sight_fans` returns the regions as one triangle fan per enemy (every enemy in one
compiled call, no Python loop per enemy or per ray), ready for one batched draw.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from steering.kernels import njit
from steering.vec import FloatArray

if TYPE_CHECKING:
    from .world import World

__all__ = [
    "MAX_EXACT_OUTLINES",
    "MAX_SWEEP_RAYS",
    "RAY_STEP",
    "SightFans",
    "circle_entry",
    "enemy_sight",
    "sight_fans",
    "wall_entry",
]

#: Angle between the rays of the uniform sweep (radians; 4 degrees: the range's arc then
#: loses under 0.2 px at 300 px, and a frame draws a quarter of the triangles of 1 degree,
#: which cost Finale 8-10 fps under llvmpipe).
RAY_STEP = math.radians(4.0)
#: The most sweep rays of all enemies together: beyond, the sweep's angle grows.
MAX_SWEEP_RAYS = 100_000
#: The most outlines (circles and wall faces) in one enemy's range whose tangents, ends and
#: crossings are cast as rays. The crossings are pairs: a dense reef (20,000 wall points
#: 3.5 px apart) made one screenshot of 250 enemies take minutes. Beyond, the uniform sweep
#: alone (shadow edges then off by at most the sweep's step).
MAX_EXACT_OUTLINES = 128
#: Offset of the rays either side of a silhouette edge (radians).
EDGE_EPS = 1e-5

IntArray = NDArray[np.intp]


class SightFans:
    """Enemies' sight regions as triangle fans.

    Attributes:
        vertices: (3T, 2) triangle vertices: the eye, then two consecutive rim points.
        reach: (3T,) each vertex's distance from its eye as a fraction of the enemy's range
            (0 at the eye; under 1 where a rock, a wall or the map's edge cut the ray short),
            for the torch's fade.
        owner: (T,) the index (into the ``enemies`` given) of each triangle's enemy.
    """

    __slots__ = ("owner", "reach", "vertices")

    def __init__(self, vertices: FloatArray, reach: FloatArray, owner: IntArray) -> None:
        self.vertices = vertices
        self.reach = reach
        self.owner = owner


def sight_fans(
    eyes: FloatArray,
    heading: FloatArray,
    sight: FloatArray,
    half_angle: FloatArray,
    rocks: FloatArray,
    rock_radius: FloatArray,
    walls: FloatArray,
    wall_radius: FloatArray,
    size: tuple[float, float],
    step: float = RAY_STEP,
) -> SightFans:
    """Every enemy's visibility polygon, as triangle fans (one compiled call).

    Args:
        eyes: (E, 2) the enemies' positions (inside the map).
        heading: (E, 2) their unit headings.
        sight: (E,) their sight ranges (0 or less: no region).
        half_angle: (E,) half of each cone (radians; pi or more: all round).
        rocks: (R, 2) rock centres; rock_radius: (R,) their radii.
        walls: (W, 2, 2) level wall segments; wall_radius: (W,) half their thickness.
        size: the map's (width, height): regions stop at its edges.
        step: angle between the uniform rays (radians; larger when the enemies together
            would sweep more than :data:`MAX_SWEEP_RAYS`).
    """
    eyes = np.ascontiguousarray(eyes, dtype=np.float64).reshape(-1, 2)
    e = eyes.shape[0]
    sight = np.ascontiguousarray(sight, dtype=np.float64).reshape(e)
    half = np.minimum(np.asarray(half_angle, dtype=np.float64).reshape(e), math.pi)
    # A crowd of enemies shares a budget of sweep rays (shadow edges stay exact; the range's
    # arc is drawn with fewer, longer chords).
    swept = float(2.0 * half[sight > 0.0].sum())
    step = max(float(step), swept / MAX_SWEEP_RAYS)
    rocks = np.ascontiguousarray(rocks, dtype=np.float64).reshape(-1, 2)
    walls = np.ascontiguousarray(walls, dtype=np.float64).reshape(-1, 2, 2)
    vertices, reach, owner = _sight_fans(
        eyes,
        np.ascontiguousarray(heading, dtype=np.float64).reshape(e, 2),
        sight,
        half,
        rocks,
        np.ascontiguousarray(rock_radius, dtype=np.float64).reshape(rocks.shape[0]),
        walls,
        np.ascontiguousarray(wall_radius, dtype=np.float64).reshape(walls.shape[0]),
        float(size[0]),
        float(size[1]),
        float(step),
    )
    return SightFans(vertices, reach, owner)


@njit
def circle_entry(
    ox: float, oy: float, ux: float, uy: float, cx: float, cy: float, r: float
) -> float:
    """Distance along the unit ray (o, u) at which it enters the circle (c, r); inf when it
    misses, or when o is inside (pymunk's segment query reports only an entry)."""
    fx = ox - cx
    fy = oy - cy
    c = fx * fx + fy * fy - r * r
    if c <= 0.0:
        return math.inf
    b = fx * ux + fy * uy
    disc = b * b - c
    if disc < 0.0:
        return math.inf
    t = -b - math.sqrt(disc)
    return t if t >= 0.0 else math.inf


@njit
def wall_entry(
    ox: float,
    oy: float,
    ux: float,
    uy: float,
    ax: float,
    ay: float,
    bx: float,
    by: float,
    r: float,
) -> float:
    """Distance along the unit ray (o, u) at which it enters the wall (a, b) thickened by
    ``r`` (a capsule: the face toward o, and a round cap at each end); inf when it misses."""
    best = math.inf
    if r > 0.0:
        best = min(circle_entry(ox, oy, ux, uy, ax, ay, r), circle_entry(ox, oy, ux, uy, bx, by, r))
    dx = bx - ax
    dy = by - ay
    length = math.hypot(dx, dy)
    if length == 0.0:
        return best
    tx = dx / length
    ty = dy / length
    nx = -ty
    ny = tx
    side = (ox - ax) * nx + (oy - ay) * ny  # o's signed distance from the wall's line
    if side < 0.0:
        nx = -nx
        ny = -ny
        side = -side
    if side <= r:
        return best  # o level with the thickened face: it is not entered head on
    approach = -(ux * nx + uy * ny)  # how fast the ray closes on the face
    if approach <= 0.0:
        return best
    t = (side - r) / approach
    along = (ox + ux * t - ax) * tx + (oy + uy * t - ay) * ty
    if 0.0 <= along <= length:
        best = min(best, t)
    return best


@njit
def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from p to the segment (a, b)."""
    dx = bx - ax
    dy = by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0.0 else min(max(((px - ax) * dx + (py - ay) * dy) / ll, 0.0), 1.0)
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


@njit
def _wrap(a: float) -> float:
    """``a`` in [0, 2 pi)."""
    two_pi = 2.0 * math.pi
    a = a % two_pi
    return a if a >= 0.0 else a + two_pi


@njit
def _edge(
    px: float,
    py: float,
    ox: float,
    oy: float,
    reach: float,
    base: float,
    cone: float,
    angle: FloatArray,
    k: int,
) -> int:
    """Add the rays just either side of the direction from the eye o to the point p (when p
    is within ``reach``) to ``angle`` from slot ``k``, as angles into the cone that starts at
    ``base`` and is ``cone`` wide; returns the next free slot."""
    dx = px - ox
    dy = py - oy
    d = math.hypot(dx, dy)
    if d < 1e-9 or d > reach * (1.0 + 1e-9):
        return k
    rel = _wrap(math.atan2(dy, dx) - base)
    for s in (-EDGE_EPS, EDGE_EPS):
        a = rel + s
        if 0.0 < a < cone:
            angle[k] = a
            k += 1
    return k


@njit
def _sight_fans(
    eyes: FloatArray,
    heading: FloatArray,
    sight: FloatArray,
    half: FloatArray,
    rocks: FloatArray,
    rock_radius: FloatArray,
    walls: FloatArray,
    wall_radius: FloatArray,
    width: float,
    height: float,
    step: float,
) -> tuple[FloatArray, FloatArray, IntArray]:
    """:func:`sight_fans`' work: each enemy's outlines in range (circles: its range, the
    rocks, the wall caps; segments: the map's edges, the walls' faces), the rays (the sweep,
    and either side of every tangent, end and crossing), how far each ray sees, the fan."""
    e = eyes.shape[0]
    n_rocks = rocks.shape[0]
    n_walls = walls.shape[0]
    # Pass 1: what is in range of each enemy, and a bound on its rays.
    near_rock = np.zeros((e, n_rocks), dtype=np.bool_)
    near_wall = np.zeros((e, n_walls), dtype=np.bool_)
    bound = np.zeros(e, dtype=np.intp)
    uniform = np.zeros(e, dtype=np.intp)
    exact = np.zeros(e, dtype=np.bool_)
    for i in range(e):
        reach = sight[i]
        rays = 0
        if reach > 0.0:
            ox = eyes[i, 0]
            oy = eyes[i, 1]
            uniform[i] = math.ceil(2.0 * half[i] / step) + 1
            circles = 1
            segments = 4
            for j in range(n_rocks):
                d = math.hypot(rocks[j, 0] - ox, rocks[j, 1] - oy)
                if rock_radius[j] < d < reach + rock_radius[j]:
                    near_rock[i, j] = True
                    circles += 1
            for j in range(n_walls):
                d = _segment_distance(
                    ox, oy, walls[j, 0, 0], walls[j, 0, 1], walls[j, 1, 0], walls[j, 1, 1]
                )
                if wall_radius[j] < d < reach + wall_radius[j]:
                    near_wall[i, j] = True
                    circles += 2
                    segments += 2
            points = 0
            exact[i] = circles + segments <= MAX_EXACT_OUTLINES
            if exact[i]:
                points += 2 * circles + 2 * segments
                points += circles * (circles - 1) + 2 * circles * segments
                points += segments * (segments - 1) // 2
            rays = uniform[i] + 2 * points
        bound[i] = rays
    # One enemy's rays are cast in scratch arrays, then kept in arrays that grow as needed.
    sa = np.empty(max(bound.max() if e else 0, 1))
    sd = np.empty(sa.shape[0])
    capacity = max(int(uniform.sum()) * 2, 16)
    angle = np.empty(capacity)
    dist = np.empty(capacity)
    start = np.zeros(e, dtype=np.intp)
    used = np.zeros(e, dtype=np.intp)
    filled = 0
    # Pass 2: each enemy's rays.
    circ = np.empty((1 + n_rocks + 2 * n_walls, 3))
    seg = np.empty((4 + 2 * n_walls, 4))
    for i in range(e):
        reach = sight[i]
        if reach <= 0.0:
            continue
        ox = eyes[i, 0]
        oy = eyes[i, 1]
        base = math.atan2(heading[i, 1], heading[i, 0]) - half[i]
        cone = 2.0 * half[i]
        # The outlines in range.
        circ[0, 0], circ[0, 1], circ[0, 2] = ox, oy, reach
        nc = 1
        for j in range(n_rocks):
            if near_rock[i, j]:
                circ[nc, 0], circ[nc, 1], circ[nc, 2] = rocks[j, 0], rocks[j, 1], rock_radius[j]
                nc += 1
        seg[0, 0], seg[0, 1], seg[0, 2], seg[0, 3] = 0.0, 0.0, width, 0.0
        seg[1, 0], seg[1, 1], seg[1, 2], seg[1, 3] = width, 0.0, width, height
        seg[2, 0], seg[2, 1], seg[2, 2], seg[2, 3] = width, height, 0.0, height
        seg[3, 0], seg[3, 1], seg[3, 2], seg[3, 3] = 0.0, height, 0.0, 0.0
        ns = 4
        for j in range(n_walls):
            if not near_wall[i, j]:
                continue
            ax, ay = walls[j, 0, 0], walls[j, 0, 1]
            bx, by = walls[j, 1, 0], walls[j, 1, 1]
            r = wall_radius[j]
            length = math.hypot(bx - ax, by - ay)
            nx = -(by - ay) / length if length > 0.0 else 0.0
            ny = (bx - ax) / length if length > 0.0 else 0.0
            for sgn in (-1.0, 1.0):
                seg[ns, 0], seg[ns, 1] = ax + sgn * r * nx, ay + sgn * r * ny
                seg[ns, 2], seg[ns, 3] = bx + sgn * r * nx, by + sgn * r * ny
                ns += 1
            if r > 0.0:
                circ[nc, 0], circ[nc, 1], circ[nc, 2] = ax, ay, r
                circ[nc + 1, 0], circ[nc + 1, 1], circ[nc + 1, 2] = bx, by, r
                nc += 2
        s = 0
        k = 0
        m = uniform[i]
        for j in range(m):
            sa[k] = cone * j / (m - 1)
            k += 1
        # Tangents of the circles (not the range's own), ends of the segments.
        for c in range(1, nc if exact[i] else 1):
            cx, cy, r = circ[c, 0], circ[c, 1], circ[c, 2]
            d = math.hypot(cx - ox, cy - oy)
            if d <= r:
                continue
            mid = math.atan2(cy - oy, cx - ox)
            spread = math.asin(r / d)
            tangent = math.sqrt(d * d - r * r)
            for sgn in (-1.0, 1.0):
                a = mid + sgn * spread
                px = ox + tangent * math.cos(a)
                py = oy + tangent * math.sin(a)
                k = _edge(px, py, ox, oy, reach, base, cone, sa, k)
        for c in range(ns if exact[i] else 0):
            k = _edge(seg[c, 0], seg[c, 1], ox, oy, reach, base, cone, sa, k)
            k = _edge(seg[c, 2], seg[c, 3], ox, oy, reach, base, cone, sa, k)
        # Crossings: circle with circle, circle with segment, segment with segment.
        for c in range(nc if exact[i] else 0):
            x1, y1, r1 = circ[c, 0], circ[c, 1], circ[c, 2]
            for c2 in range(c + 1, nc):
                x2, y2, r2 = circ[c2, 0], circ[c2, 1], circ[c2, 2]
                d = math.hypot(x2 - x1, y2 - y1)
                if d == 0.0 or d > r1 + r2 or d < abs(r1 - r2):
                    continue
                a = (r1 * r1 - r2 * r2 + d * d) / (2.0 * d)
                h = math.sqrt(max(r1 * r1 - a * a, 0.0))
                mx = x1 + a * (x2 - x1) / d
                my = y1 + a * (y2 - y1) / d
                for sgn in (-1.0, 1.0):
                    px = mx - sgn * h * (y2 - y1) / d
                    py = my + sgn * h * (x2 - x1) / d
                    k = _edge(px, py, ox, oy, reach, base, cone, sa, k)
            for g in range(ns):
                ax, ay, bx, by = seg[g, 0], seg[g, 1], seg[g, 2], seg[g, 3]
                dx = bx - ax
                dy = by - ay
                qa = dx * dx + dy * dy
                if qa == 0.0:
                    continue
                fx = ax - x1
                fy = ay - y1
                qb = fx * dx + fy * dy
                disc = qb * qb - qa * (fx * fx + fy * fy - r1 * r1)
                if disc < 0.0:
                    continue
                root = math.sqrt(disc)
                for t in ((-qb - root) / qa, (-qb + root) / qa):
                    if 0.0 <= t <= 1.0:
                        k = _edge(ax + t * dx, ay + t * dy, ox, oy, reach, base, cone, sa, k)
        for g in range(ns if exact[i] else 0):
            ax, ay = seg[g, 0], seg[g, 1]
            rx, ry = seg[g, 2] - ax, seg[g, 3] - ay
            for g2 in range(g + 1, ns):
                cx, cy = seg[g2, 0], seg[g2, 1]
                sx, sy = seg[g2, 2] - cx, seg[g2, 3] - cy
                den = rx * sy - ry * sx
                if den == 0.0:
                    continue
                t = ((cx - ax) * sy - (cy - ay) * sx) / den
                u = ((cx - ax) * ry - (cy - ay) * rx) / den
                if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
                    k = _edge(ax + t * rx, ay + t * ry, ox, oy, reach, base, cone, sa, k)
        sa[:k].sort()
        used[i] = k
        # How far each ray sees.
        for q in range(s, k):
            a = base + sa[q]
            ux = math.cos(a)
            uy = math.sin(a)
            t = reach
            if ux > 0.0:  # the map's edge (the eye is inside the map)
                t = min(t, (width - ox) / ux)
            elif ux < 0.0:
                t = min(t, -ox / ux)
            if uy > 0.0:
                t = min(t, (height - oy) / uy)
            elif uy < 0.0:
                t = min(t, -oy / uy)
            t = max(t, 0.0)
            for j in range(n_rocks):
                if near_rock[i, j]:
                    t = min(
                        t, circle_entry(ox, oy, ux, uy, rocks[j, 0], rocks[j, 1], rock_radius[j])
                    )
            for j in range(n_walls):
                if near_wall[i, j]:
                    t = min(
                        t,
                        wall_entry(
                            ox,
                            oy,
                            ux,
                            uy,
                            walls[j, 0, 0],
                            walls[j, 0, 1],
                            walls[j, 1, 0],
                            walls[j, 1, 1],
                            wall_radius[j],
                        ),
                    )
            sd[q] = t
            sa[q] = a
        if filled + k > angle.shape[0]:
            grown = max(2 * angle.shape[0], filled + k)
            more_a = np.empty(grown)
            more_d = np.empty(grown)
            more_a[:filled] = angle[:filled]
            more_d[:filled] = dist[:filled]
            angle, dist = more_a, more_d
        angle[filled : filled + k] = sa[:k]
        dist[filled : filled + k] = sd[:k]
        start[i] = filled
        filled += k
    # The fans: triangles (eye, ray q, ray q + 1).
    first = np.zeros(e + 1, dtype=np.intp)
    for i in range(e):
        first[i + 1] = first[i] + max(used[i] - 1, 0)
    vertices = np.empty((3 * first[e], 2))
    reach_out = np.empty(3 * first[e])
    owner = np.empty(first[e], dtype=np.intp)
    for i in range(e):
        ox = eyes[i, 0]
        oy = eyes[i, 1]
        s = start[i]
        for q in range(s, s + used[i] - 1):
            tri = first[i] + q - s
            owner[tri] = i
            v = 3 * tri
            vertices[v, 0] = ox
            vertices[v, 1] = oy
            reach_out[v] = 0.0
            for w in range(2):
                a = angle[q + w]
                d = dist[q + w]
                vertices[v + 1 + w, 0] = ox + d * math.cos(a)
                vertices[v + 1 + w, 1] = oy + d * math.sin(a)
                reach_out[v + 1 + w] = d / sight[i]
    return vertices, reach_out, owner


def enemy_sight(world: World) -> SightFans:
    """The sight regions of every enemy of ``world`` as it stands (triangle ``owner``: the
    enemy's index in ``world.minds.rows``)."""
    minds = world.minds
    rows = minds.rows
    a = world.agents
    half = minds.half_angle if minds.half_angle is not None else np.full(rows.size, math.pi)
    return sight_fans(
        a.pos[rows],
        a.heading[rows],
        minds.sight,
        half,
        world.obstacle_pos,
        world.physics.rock_radius,
        world.walls.segments,
        world.wall_thickness / 2,
        world.physics.size,
    )
