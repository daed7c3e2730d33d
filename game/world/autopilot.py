"""The autopilot: the player arrives at the nearest exit with the core's arrive + avoidance.

Arrive alone gets stuck behind a rock between the player and the exit (the obstacle-avoidance
"corner trap"), so the target of the arrival is a waypoint: a grid planner (Dijkstra from every
exit cell over the free cells, static rocks inflated by the player's radius) gives the way to
the nearest exit by path length, and each step the target is the farthest point of that way,
within :attr:`Autopilot.lookahead`, that the player can reach in a straight line. Pushable
rocks are left to avoidance (the player can also push them). Enemies are ignored: the
autopilot wins or gets caught.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from game.steering import AgentGroup, Arrive, AvoidObstacles, PrioritizedSum, truncate
from game.steering.vec import FloatArray

from .brains import PLAYER_GAIN
from .physics import SIGHT_FILTER

if TYPE_CHECKING:
    from .world import World

__all__ = ["Autopilot", "NavGrid"]

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
    """

    cell_w: float
    cell_h: float
    cols: int
    rows: int
    free: NDArray[np.bool_]
    dist: FloatArray
    next_cell: IntArray

    @classmethod
    def build(cls, world: World, clearance: float, cell: float = 16.0) -> NavGrid:
        """Plan on ``world``'s map for a body of radius ``clearance``."""
        w, h = world.level.width_px, world.level.height_px
        cols, rows = max(int(w // cell), 1), max(int(h // cell), 1)
        cw, ch = w / cols, h / rows
        cx = (np.arange(cols) + 0.5) * cw
        cy = (np.arange(rows) + 0.5) * ch
        gx, gy = np.meshgrid(cx, cy)
        free = (gx > clearance) & (gx < w - clearance) & (gy > clearance) & (gy < h - clearance)
        static = ~world.obstacle_dynamic
        for (ox, oy), r in zip(
            world.obstacle_pos[static], world.obstacle_radius[static], strict=True
        ):
            free &= np.hypot(gx - ox, gy - oy) > r + clearance
        goal = np.zeros_like(free)
        for e in world.level.exits:
            rect = e.rect
            goal |= (gx >= rect.left) & (gx <= rect.right) & (gy >= rect.bottom) & (gy <= rect.top)
        goal &= free
        n = rows * cols
        idx = np.arange(n).reshape(rows, cols)
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
        s, d, c = np.concatenate(src), np.concatenate(dst), np.concatenate(cost)
        graph = coo_matrix((c, (s, d)), shape=(n, n)).tocsr()
        goals = np.flatnonzero(goal.ravel())
        if goals.size:
            dist = dijkstra(graph, directed=False, indices=goals, min_only=True)
        else:
            dist = np.full(n, np.inf)
        dist = np.asarray(dist, dtype=np.float64)
        # Each cell's best neighbour (8-connected, same corner rule as the graph).
        nxt = np.arange(n)
        best = dist.copy()
        pad = np.full((rows + 2, cols + 2), np.inf)
        pad[1:-1, 1:-1] = dist.reshape(rows, cols)
        fpad = np.zeros((rows + 2, cols + 2), dtype=bool)
        fpad[1:-1, 1:-1] = free
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
        return cls(cw, ch, cols, rows, free, dist.reshape(rows, cols), nxt)

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


@dataclass(eq=False)
class Autopilot:
    """Drives the player to the nearest exit: call it each step for the thrust to give.

    ``thrust = pilot(world); world.step(thrust)``. The steering is the core's
    ``PrioritizedSum([AvoidObstacles(rocks), Arrive(waypoint)])`` on a one-agent group that
    views the player's row; its force is turned back into an input (the swimming velocity
    relative to the water, as a fraction of max speed), so the autopilot also leans into
    currents.

    Attributes:
        world: the world it flies.
        lookahead: how far along the planned way the waypoint may be (px).
        cell: planning grid cell (px).
    """

    world: World
    lookahead: float = 160.0
    cell: float = 16.0
    nav: NavGrid = field(init=False)
    target: FloatArray = field(init=False)
    _group: AgentGroup = field(init=False)
    _arrive: Arrive = field(init=False)
    _steer: PrioritizedSum = field(init=False)

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
        self._steer = PrioritizedSum([AvoidObstacles(self.world.obstacles), self._arrive])

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
        self.target[:] = self.waypoint()
        self._arrive.target = self.target
        force = self._steer(self._group, w.dt)[0]
        v = w.agents.vel[0]
        desired = v + force / PLAYER_GAIN - w.current_at_agents[0]
        u = desired / float(w.agents.max_speed[0])
        return np.asarray(truncate(u[None, :], np.array([1.0]))[0], dtype=np.float64)
