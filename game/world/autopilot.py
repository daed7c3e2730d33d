"""The autopilot: the player arrives at the nearest exit with the core's arrive + avoidance.

Arrive alone gets stuck behind a rock between the player and the exit (the obstacle-avoidance
"corner trap"), so the target of the arrival is a waypoint: a grid planner (Dijkstra from every
exit cell over the free cells, static rocks and walls inflated by the player's radius) gives
the way to the nearest exit by path length, and each step the target is the farthest point of
that way, within :attr:`Autopilot.lookahead`, that the player can reach in a straight line.
Pushable rocks are left to avoidance (the player can also push them). Enemies make the cells
around them, now and where they are heading, costly, so the way goes round them (see
:class:`Autopilot`); it still gets caught where no way round is left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import convolve1d
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from steering import AgentGroup, Arrive, AvoidObstacles, TruncatedRunningSum
from steering.vec import FloatArray, truncate

from .physics import SIGHT_FILTER

if TYPE_CHECKING:
    from game.level import Level

    from .blind import Run
    from .world import World

__all__ = ["Autopilot", "NavGrid", "fly"]

IntArray = NDArray[np.intp]


@dataclass(eq=False)
class NavGrid:
    """Distances to the nearest exit over a grid of free cells (static rocks inflated).

    Attributes:
        cell_w, cell_h: cell size (px; the map divided into whole cells).
        cols, rows: grid size.
        free: (rows, cols) cells whose centre the player can occupy.
        dist: (rows, cols) path length to the nearest exit (inf where unreachable).
        next_cell: (rows * cols,) flat index of the neighbour one step closer to an exit
            (itself at an exit or where unreachable).
        edges: the grid graph's edges between free cells: (source, target, length).
        goals: flat indices of the free cells inside an exit.
    """

    cell_w: float
    cell_h: float
    cols: int
    rows: int
    free: NDArray[np.bool_]
    dist: FloatArray
    next_cell: IntArray
    edges: tuple[IntArray, IntArray, FloatArray]
    goals: IntArray

    @classmethod
    def build(cls, world: World, clearance: float, cell: float = 16.0) -> NavGrid:
        """Plan on ``world``'s map for a body of radius ``clearance``.

        Cells are ``cell`` px, or larger on a map so big that it would need more than
        :data:`MAX_NAV_CELLS` of them. Each rock and wall segment marks only the cells within
        its reach (a window of the grid), so building costs the map's cells plus the
        obstacles' footprints, not their product.
        """
        w, h = world.level.width_px, world.level.height_px
        cell = max(cell, math.sqrt(w * h / MAX_NAV_CELLS))
        cols, rows = max(int(w // cell), 1), max(int(h // cell), 1)
        cw, ch = w / cols, h / rows
        cx = (np.arange(cols) + 0.5) * cw
        cy = (np.arange(rows) + 0.5) * ch
        gx, gy = np.meshgrid(cx, cy)
        free = (gx > clearance) & (gx < w - clearance) & (gy > clearance) & (gy < h - clearance)

        def window(x0: float, x1: float, y0: float, y1: float) -> tuple[slice, slice]:
            """The rows and columns whose centres lie in [x0, x1] x [y0, y1]."""
            c0 = max(math.floor(x0 / cw - 0.5), 0)
            c1 = min(math.ceil(x1 / cw - 0.5) + 1, cols)
            r0 = max(math.floor(y0 / ch - 0.5), 0)
            r1 = min(math.ceil(y1 / ch - 0.5) + 1, rows)
            return slice(r0, max(r1, r0)), slice(c0, max(c1, c0))

        static = ~world.obstacle_dynamic
        for (ox, oy), r in zip(
            world.obstacle_pos[static], world.obstacle_radius[static], strict=True
        ):
            reach = float(r) + clearance
            rs, cs = window(ox - reach, ox + reach, oy - reach, oy + reach)
            sub = free[rs, cs]
            sub &= np.hypot(gx[rs, cs] - ox, gy[rs, cs] - oy) > reach
        for (a, b), t in zip(world.walls.segments, world.wall_thickness, strict=True):
            reach = clearance + 0.5 * float(t)
            lo, hi = np.minimum(a, b) - reach, np.maximum(a, b) + reach
            rs, cs = window(float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1]))
            sub = free[rs, cs]
            sub &= _segment_distance(gx[rs, cs], gy[rs, cs], a, b) > reach
        goal = np.zeros_like(free)
        for e in world.level.exits:
            rect = e.rect
            goal |= (gx >= rect.left) & (gx <= rect.right) & (gy >= rect.bottom) & (gy <= rect.top)
        goal &= free
        n = rows * cols
        edges = _edges(free, cw, ch)
        goals = np.flatnonzero(goal.ravel())
        grid = cls(
            cw, ch, cols, rows, free, np.full((rows, cols), np.inf), np.arange(n), edges, goals
        )
        grid.plan()
        return grid

    def plan(self, danger: FloatArray | None = None) -> None:
        """Find every cell's way to the nearest exit again, each edge's length multiplied by
        ``1 + danger`` (the mean of its two cells'; ``danger`` is (rows, cols), >= 0)."""
        rows, cols, n = self.rows, self.cols, self.rows * self.cols
        s, d, c = self.edges
        if danger is not None:
            flat = danger.ravel()
            c = c * (1.0 + 0.5 * (flat[s] + flat[d]))
        graph = coo_matrix((c, (s, d)), shape=(n, n)).tocsr()
        if self.goals.size:
            dist = dijkstra(graph, directed=False, indices=self.goals, min_only=True)
        else:
            dist = np.full(n, np.inf)
        dist = np.asarray(dist, dtype=np.float64)
        # Each cell's best neighbour (8-connected, same corner rule as the graph).
        idx = np.arange(n).reshape(rows, cols)
        nxt = np.arange(n)
        best = dist.copy()
        pad = np.full((rows + 2, cols + 2), np.inf)
        pad[1:-1, 1:-1] = dist.reshape(rows, cols)
        fpad = np.zeros((rows + 2, cols + 2), dtype=bool)
        fpad[1:-1, 1:-1] = self.free
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == 0 and dc == 0:
                    continue
                cand = pad[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc].ravel().copy()
                if dr and dc:
                    corner = (
                        fpad[1 + dr : rows + 1 + dr, 1 : cols + 1]
                        & fpad[1 : rows + 1, 1 + dc : cols + 1 + dc]
                    ).ravel()
                    cand[~corner] = np.inf
                better = cand < best
                best[better] = cand[better]
                nxt[better] = (idx + dr * cols + dc).ravel()[better]
        self.dist = dist.reshape(rows, cols)
        self.next_cell = nxt

    def centres(self) -> tuple[FloatArray, FloatArray]:
        """Every cell centre's x and y, each (rows, cols)."""
        cx = (np.arange(self.cols) + 0.5) * self.cell_w
        cy = (np.arange(self.rows) + 0.5) * self.cell_h
        gx, gy = np.meshgrid(cx, cy)
        return gx, gy

    def centre(self, flat: int) -> tuple[float, float]:
        """World position of cell ``flat``'s centre."""
        r, c = divmod(flat, self.cols)
        return ((c + 0.5) * self.cell_w, (r + 0.5) * self.cell_h)

    def start_cell(self, p: FloatArray) -> int | None:
        """The reachable cell nearest ``p`` (a few cells around it), or None."""
        c0 = int(np.clip(p[0] // self.cell_w, 0, self.cols - 1))
        r0 = int(np.clip(p[1] // self.cell_h, 0, self.rows - 1))
        for radius in (0, 1, 2, 3, 5):
            r_lo, r_hi = max(r0 - radius, 0), min(r0 + radius + 1, self.rows)
            c_lo, c_hi = max(c0 - radius, 0), min(c0 + radius + 1, self.cols)
            block = self.dist[r_lo:r_hi, c_lo:c_hi]
            if np.isfinite(block).any():
                rr, cc = np.mgrid[r_lo:r_hi, c_lo:c_hi]
                gap = np.hypot((cc + 0.5) * self.cell_w - p[0], (rr + 0.5) * self.cell_h - p[1])
                score = np.where(np.isfinite(block), block + gap, np.inf)
                k = int(np.argmin(score))
                return int(rr.ravel()[k] * self.cols + cc.ravel()[k])
        return None


#: The planning grid never has more cells than this (about 512 x 512): a bigger map gets
#: bigger cells (a 100,000 px square map plans on 195 px cells instead of 16 px ones, 39
#: million of them).
MAX_NAV_CELLS = 262_144
#: Above this many (threat points x cells), the danger is the binned approximation
#: (:func:`_binned_danger`) instead of one exact Gaussian per threat over every cell.
EXACT_DANGER_WORK = 20_000_000


@dataclass(eq=False)
class Autopilot:
    """Drives the player to the nearest exit: call it each step for the thrust to give.

    ``thrust = pilot(world); world.step(thrust)``. The steering is the core's
    ``TruncatedRunningSum([AvoidObstacles(rocks), Arrive(waypoint)])`` on a one-agent group that
    views the player's row; its force is turned back into an input (the swimming velocity
    relative to the water, as a fraction of max speed), so the autopilot also leans into
    currents.

    Enemies are threats: every :attr:`replan_every` steps the way is planned again with each
    cell's length multiplied by ``1 + danger``, where each enemy, now and
    :attr:`lead_time` seconds ahead on its velocity, adds :attr:`threat_weight` times a
    Gaussian of width :attr:`threat_radius`. So it goes round a patrol, keeps away from a
    sentinel, and runs from a chaser along a way that does not lead back past it. Being seen
    fills the detection meter (issue 44), so each enemy also adds :attr:`sight_weight` on
    every cell of its sight (range and cone, rocks not counted): the way keeps out of sight
    where it can.

    Attributes:
        world: the world it flies.
        lookahead: how far along the planned way the waypoint may be (px).
        cell: planning grid cell (px).
        threat_radius: width of an enemy's danger (px).
        threat_weight: an enemy's danger at its centre (a cell's length times 1 + this).
        sight_weight: the danger of a cell an enemy's sight covers (0: sight is ignored).
        lead_time: enemies also count where they will be this many seconds ahead.
        replan_every: steps between plans.
        stickiness: cells off the last plan's way (and its neighbours) cost ``1 +
            stickiness`` times more (danger included), so that the way does not flip from one
            side of an enemy to the other at every plan.
    """

    world: World
    lookahead: float = 160.0
    cell: float = 16.0
    threat_radius: float = 90.0
    threat_weight: float = 40.0
    sight_weight: float = 12.0
    lead_time: float = 0.5
    replan_every: int = 6
    stickiness: float = 0.5
    nav: NavGrid = field(init=False)
    _route: NDArray[np.bool_] | None = field(default=None, init=False)
    target: FloatArray = field(init=False)
    _group: AgentGroup = field(init=False)
    _arrive: Arrive = field(init=False)
    _steer: TruncatedRunningSum = field(init=False)

    def __post_init__(self) -> None:
        a = self.world.agents
        clearance = float(a.radius[0]) + 4.0
        self.nav = NavGrid.build(self.world, clearance, self.cell)
        self._group = AgentGroup(
            pos=a.pos[0:1],
            vel=a.vel[0:1],
            max_speed=a.max_speed[0:1],
            max_force=a.max_force[0:1],
            radius=a.radius[0:1],
            mass=a.mass[0:1],
            heading=a.heading[0:1],
        )
        self.target = a.pos[0].copy()
        self._arrive = Arrive(self.target, slowing_radius=40.0)
        self._steer = TruncatedRunningSum([AvoidObstacles(self.world.obstacles), self._arrive])

    def danger(self) -> FloatArray | None:
        """(rows, cols) danger of every cell from the enemies (None without enemies)."""
        from .spawn import ENEMY

        world = self.world
        rows = np.flatnonzero(world.kind[: world.n] == ENEMY)
        if rows.size == 0 or self.threat_weight <= 0:
            return None
        pos = world.agents.pos[rows]
        ahead = pos + world.agents.vel[rows] * self.lead_time
        return self.danger_at(np.concatenate((pos, ahead))) + self.sight_danger(
            np.ones(rows.size, dtype=bool), pos
        )

    def sight_danger(self, keep: NDArray[np.bool_], pos: FloatArray) -> FloatArray:
        """(rows, cols) :attr:`sight_weight` on every cell inside the sight (range and cone,
        from its heading now) of the enemies ``keep`` selects, seen at ``pos`` (one row each
        of those kept)."""
        nav = self.nav
        gx, gy = nav.centres()
        out = np.zeros_like(gx)
        if self.sight_weight <= 0:
            return out
        minds = self.world.minds
        heading = self.world.agents.heading[minds.rows[keep]]
        half = np.asarray(minds.half_angle, dtype=np.float64)[keep]
        flat = out.ravel()
        rocks = self.world.obstacles
        walls = np.array(
            [seg for wd in self.world.level.walls for seg in wd.segments], dtype=np.float64
        ).reshape(-1, 2, 2)
        cols, rows = nav.cols, nav.rows
        centers = np.asarray(rocks.centers, dtype=np.float64).reshape(-1, 2)
        radii = np.asarray(rocks.radii, dtype=np.float64).reshape(-1)
        wall_lo, wall_hi = walls.min(axis=1), walls.max(axis=1)
        for (ex, ey), (hx, hy), rng, a in zip(pos, heading, minds.sight[keep], half, strict=True):
            # Only the cells of the square round the enemy's range can be in its sight: the
            # window keeps a crowd of enemies on a big map from costing the whole grid each.
            c0, c1 = _span(float(ex), float(rng), nav.cell_w, cols)
            r0, r1 = _span(float(ey), float(rng), nav.cell_h, rows)
            if c0 >= c1 or r0 >= r1:
                continue
            wx, wy = gx[r0:r1, c0:c1].ravel(), gy[r0:r1, c0:c1].ravel()
            dx, dy = wx - ex, wy - ey
            d = np.hypot(dx, dy)
            inside = d <= rng
            if a < math.pi:
                h = math.hypot(hx, hy) or 1.0
                inside &= dx * hx + dy * hy >= math.cos(a) * d * h
            local = np.flatnonzero(inside)
            if local.size:
                # Only rocks and walls that reach into the range can hide a cell in it.
                near = np.hypot(centers[:, 0] - ex, centers[:, 1] - ey) <= rng + radii + 1.0
                box = (
                    (wall_lo[:, 0] <= ex + rng + 1.0)
                    & (wall_hi[:, 0] >= ex - rng - 1.0)
                    & (wall_lo[:, 1] <= ey + rng + 1.0)
                    & (wall_hi[:, 1] >= ey - rng - 1.0)
                )
                hidden = _blocked(
                    (float(ex), float(ey)),
                    wx[local],
                    wy[local],
                    centers[near],
                    radii[near],
                    walls[box],
                )
                shown = local[~hidden]
                width = c1 - c0
                flat[(r0 + shown // width) * cols + c0 + shown % width] += 1.0
        return out * self.sight_weight

    def danger_at(self, points: FloatArray) -> FloatArray:
        """(rows, cols) danger of every cell from enemies at (K, 2) ``points``: each a
        Gaussian of width :attr:`threat_radius`, times :attr:`threat_weight`."""
        nav = self.nav
        if points.shape[0] * nav.rows * nav.cols > EXACT_DANGER_WORK:
            return _binned_danger(nav, points, self.threat_radius) * self.threat_weight
        gx, gy = nav.centres()
        out = np.zeros_like(gx)
        two_s2 = 2.0 * self.threat_radius**2
        for ex, ey in points:
            out += np.exp(-((gx - ex) ** 2 + (gy - ey) ** 2) / two_s2)
        return out * self.threat_weight

    def _way_mask(self) -> NDArray[np.bool_] | None:
        """The cells of the planned way from the player to the exit, and their neighbours."""
        nav = self.nav
        start = nav.start_cell(self.world.agents.pos[0])
        if start is None:
            return None
        mask = np.zeros(nav.rows * nav.cols, dtype=bool)
        k = start
        for _ in range(nav.rows * nav.cols):
            mask[k] = True
            nxt = int(nav.next_cell[k])
            if nxt == k:
                break
            k = nxt
        grid = mask.reshape(nav.rows, nav.cols)
        grown = grid.copy()
        grown[1:] |= grid[:-1]
        grown[:-1] |= grid[1:]
        grown[:, 1:] |= grid[:, :-1]
        grown[:, :-1] |= grid[:, 1:]
        return grown

    def waypoint(self) -> FloatArray:
        """The point the player heads for now (see the module docstring)."""
        world = self.world
        p = world.agents.pos[0]
        nav = self.nav
        start = nav.start_cell(p)
        if start is None:  # nowhere to plan from: head for the nearest exit's centre
            centres = np.array([e.rect.center for e in world.level.exits])
            return np.asarray(centres[np.argmin(np.hypot(*(centres - p).T))], dtype=np.float64)
        chain = [start]
        travelled = 0.0
        while travelled < self.lookahead:
            nxt = int(nav.next_cell[chain[-1]])
            if nxt == chain[-1]:
                break
            chain.append(nxt)
            travelled += nav.cell_w
        radius = float(world.agents.radius[0]) + 2.0
        here = (float(p[0]), float(p[1]))
        space = world.physics.space
        for k in range(len(chain) - 1, 0, -1):
            c = nav.centre(chain[k])
            if space.segment_query_first(here, c, radius, SIGHT_FILTER) is None:
                return np.array(c)
        return np.array(nav.centre(chain[min(1, len(chain) - 1)]))

    def __call__(self, world: World | None = None) -> FloatArray:
        """The thrust (a vector of length <= 1) for the coming step."""
        w = self.world if world is None else world
        if self.replan_every > 0 and w.frame % self.replan_every == 0:
            danger = self.danger()
            if danger is not None:
                if self._route is not None:
                    danger = (1.0 + danger) * (1.0 + self.stickiness * ~self._route) - 1.0
                self.nav.plan(danger)
                self._route = self._way_mask()
        self.target[:] = self.waypoint()
        self._arrive.target = self.target
        force = self._steer(self._group, w.dt)[0]
        v = w.agents.vel[0]
        desired = v + force / w.tuning.crowd.player_gain - w.current_at_agents[0]
        u = desired / float(w.agents.max_speed[0])
        return np.asarray(truncate(u[None, :], np.array([1.0]))[0], dtype=np.float64)


def fly(level: Level, seconds: float = 120.0, seed: int | None = None) -> Run:
    """Let the autopilot play a fresh world of ``level`` for at most ``seconds`` (the run
    stops at the outcome); the yardstick's other side, beside :func:`game.world.blind.play`."""
    from .blind import Run
    from .world import World

    world = World(level, level.seed if seed is None else seed)
    pilot = Autopilot(world)
    for _ in range(max(1, round(seconds / world.dt))):
        world.step(pilot())
        if world.outcome != "running":
            break
    return Run("Autopilot", world.outcome, world.time)


def _edges(free: NDArray[np.bool_], cw: float, ch: float) -> tuple[IntArray, IntArray, FloatArray]:
    """The 8-connected edges between free cells (no corner cutting past a blocked cell)."""
    rows, cols = free.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    src: list[IntArray] = []
    dst: list[IntArray] = []
    cost: list[FloatArray] = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r0, r1 = max(0, -dr), rows - max(0, dr)
        c0, c1 = max(0, -dc), cols - max(0, dc)
        a = idx[r0:r1, c0:c1]
        b = idx[r0 + dr : r1 + dr, c0 + dc : c1 + dc]
        ok = free[r0:r1, c0:c1] & free[r0 + dr : r1 + dr, c0 + dc : c1 + dc]
        if dr and dc:  # no corner cutting past a blocked orthogonal neighbour
            ok &= free[r0 + dr : r1 + dr, c0:c1] & free[r0:r1, c0 + dc : c1 + dc]
        length = math.hypot(dr * ch, dc * cw)
        src.append(a[ok])
        dst.append(b[ok])
        cost.append(np.full(int(ok.sum()), length))
    return np.concatenate(src), np.concatenate(dst), np.concatenate(cost)


def _span(at: float, reach: float, cell: float, count: int) -> tuple[int, int]:
    """The cells ``[lo, hi)`` along one axis whose centres ``(k + 0.5) * cell`` may lie within
    ``reach`` of ``at`` (one cell of slack each side; all of them for an unbounded reach)."""
    if not math.isfinite(at) or not math.isfinite(reach):
        return 0, count
    lo = math.floor((at - reach) / cell - 0.5) - 1
    hi = math.floor((at + reach) / cell - 0.5) + 2
    return max(lo, 0), min(hi, count)


def _blocked(
    eye: tuple[float, float],
    cx: FloatArray,
    cy: FloatArray,
    centers: FloatArray,
    radii: FloatArray,
    walls: FloatArray,
) -> NDArray[np.bool_]:
    """Which points ``(cx, cy)`` a rock (circle) or a wall (segment) hides from ``eye``:
    the sight test of the physics, vectorised over the points (pushable rocks where they
    are now, walls as thin segments)."""
    ex, ey = eye
    dx, dy = (cx - ex)[:, None], (cy - ey)[:, None]
    hidden = np.zeros(cx.shape[0], dtype=bool)
    if centers.shape[0]:
        ox, oy = centers[None, :, 0] - ex, centers[None, :, 1] - ey
        den = np.maximum(dx * dx + dy * dy, 1e-9)
        t = np.clip((ox * dx + oy * dy) / den, 0.0, 1.0)
        hidden |= ((ox - t * dx) ** 2 + (oy - t * dy) ** 2 < radii[None, :] ** 2).any(axis=1)
    if walls.shape[0]:
        ax, ay = walls[None, :, 0, 0] - ex, walls[None, :, 0, 1] - ey
        bx, by = walls[None, :, 1, 0] - ex, walls[None, :, 1, 1] - ey
        wx, wy = bx - ax, by - ay
        den = dx * wy - dy * wx
        ok = np.abs(den) > 1e-9
        safe = np.where(ok, den, 1.0)
        t = (ax * wy - ay * wx) / safe  # along the sight line
        u = (ax * dy - ay * dx) / safe  # along the wall
        hidden |= (ok & (t >= 0.0) & (t <= 1.0) & (u >= 0.0) & (u <= 1.0)).any(axis=1)
    return hidden


def _binned_danger(nav: NavGrid, points: FloatArray, radius: float) -> FloatArray:
    """The sum of Gaussians of width ``radius`` at ``points`` over the grid's cells, with each
    point moved to its cell's centre: a count per cell blurred by the separable Gaussian (out
    to four widths), so its cost is the grid's, whatever the number of points."""
    col = np.clip((points[:, 0] // nav.cell_w).astype(np.intp), 0, nav.cols - 1)
    row = np.clip((points[:, 1] // nav.cell_h).astype(np.intp), 0, nav.rows - 1)
    counts = np.bincount(row * nav.cols + col, minlength=nav.rows * nav.cols)
    out = counts.reshape(nav.rows, nav.cols).astype(np.float64)
    for axis, size in ((1, nav.cell_w), (0, nav.cell_h)):
        reach = max(math.ceil(4.0 * radius / size), 1)
        offsets = np.arange(-reach, reach + 1) * size
        kernel = np.exp(-(offsets**2) / (2.0 * radius**2))
        out = convolve1d(out, kernel, axis=axis, mode="constant")
    return out


def _segment_distance(gx: FloatArray, gy: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distance from each point ``(gx, gy)`` to the segment from ``a`` to ``b``."""
    d = b - a
    den = float(d @ d)
    t = np.zeros_like(gx) if den == 0.0 else ((gx - a[0]) * d[0] + (gy - a[1]) * d[1]) / den
    t = np.clip(t, 0.0, 1.0)
    return np.asarray(np.hypot(gx - (a[0] + t * d[0]), gy - (a[1] + t * d[1])))
