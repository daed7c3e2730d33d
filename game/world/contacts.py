"""The compiled contact pipeline around pymunk's step, and the grid of static rocks it reads.

pymunk (Chipmunk 7) finds a contact only once shapes overlap, and its solver lets overlaps
heal over several steps. Before each step :func:`before_step` removes the part of each body's
velocity that would carry it into a rock or out of the map (speculative contacts); after it
:func:`after_step` projects bodies that still sank into a rock back to its surface. Both are
numba kernels over plain arrays; :class:`RockGrid` bins the static rocks they test against.
:class:`~game.world.physics.Physics` calls them with its bodies' arrays.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from steering.kernels import hypot, njit, use_cache
from steering.vec import FloatArray

from .motion import body_forces

__all__ = [
    "MAX_ROCK_CELLS",
    "MAX_STEP",
    "PROJECTION_PASSES",
    "RockCells",
    "RockGrid",
    "after_step",
    "before_step",
    "clamp_bodies",
    "project_bodies",
]

use_cache(__file__)

#: Largest distance (px) a body is expected to move in one step, for the speculative contacts
#: (1,200 px/s at 60 steps a second).
MAX_STEP = 20.0
#: Projection passes of :func:`project_bodies` (bodies wedged between overlapping rocks).
PROJECTION_PASSES = 8

IntArray = NDArray[np.intp]


@njit
def _cell_of(x: float, y: float, cell: float, cols: int, rows: int) -> int:
    """The grid cell holding (x, y), clamped to the grid (a NaN coordinate: the first)."""
    inv = 1.0 / cell
    gx = x * inv
    gy = y * inv
    c = 0 if not gx > 0.0 else (cols - 1 if gx >= cols - 1 else int(gx))
    r = 0 if not gy > 0.0 else (rows - 1 if gy >= rows - 1 else int(gy))
    return r * cols + c


@njit
def clamp_bodies(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    rocks: RockCells,
    dt: float,
    slop: float,
    push_start: IntArray,
    push_rock: IntArray,
) -> None:
    """Speculative contacts with the map's edges and the rocks, in place on ``vel``.

    pymunk (Chipmunk 7) finds a contact only once two shapes overlap, so a body moving at
    ``v`` sinks up to ``v * dt`` into a rock before it is pushed out. Before each step this
    removes the part of each body's velocity that would carry it closer to a static rock or
    the map's edge than touching within the step (sliding along them is untouched), and the
    part of an agent's velocity relative to a pushable rock that would carry it into the rock:
    agents stop on its surface, the player sinks by the slop so that pymunk lets it push the
    rock. Per body: the edge, then the pushable rocks (``push_start``/``push_rock``:
    :func:`~game.world.pushable.pushable_pairs`), then the static rocks of its cell of the rock
    grid (``rocks``); each stage's pushes are summed from the velocity the stage began with."""
    cell, cols, rows, flags, table = rocks.cell, rocks.cols, rocks.rows, rocks.flags, rocks.table
    centers, radii, w, h = rocks.centers, rocks.radii, rocks.w, rocks.h
    for i in range(pos.shape[0]):
        px, py, r = pos[i, 0], pos[i, 1], radius[i]
        f = flags[_cell_of(px, py, cell, cols, rows)]
        if f & 2:
            vx = max(vel[i, 0], min((r - px) / dt, 0.0))
            vel[i, 0] = min(vx, max((w - r - px) / dt, 0.0))
            vy = max(vel[i, 1], min((r - py) / dt, 0.0))
            vel[i, 1] = min(vy, max((h - r - py) / dt, 0.0))
    # Pushable rocks read the rocks' velocities after their own edge clamp.
    for i in range(push_start.shape[0] - 1):
        a, b = push_start[i], push_start[i + 1]
        if a == b:
            continue
        allow = slop if i == 0 else 0.0
        ax = ay = 0.0
        for k in range(a, b):
            j = push_rock[k]
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            d = hypot(dx, dy)
            if not d > 1e-9:
                continue
            nx, ny = dx / d, dy / d
            approach = -((vel[i, 0] - vel[j, 0]) * nx + (vel[i, 1] - vel[j, 1]) * ny)
            gap = d - radius[i] - radius[j] + allow
            excess = approach - max(gap, 0.0) / dt
            if excess > 0.0:
                ax += nx * excess
                ay += ny * excess
        vel[i, 0] += ax
        vel[i, 1] += ay
    if centers.shape[0] == 0:
        return
    for i in range(pos.shape[0]):
        px, py, r = pos[i, 0], pos[i, 1], radius[i]
        c = _cell_of(px, py, cell, cols, rows)
        if not flags[c] & 1:
            continue
        ax = ay = 0.0
        for k in range(table.shape[1]):
            j = table[c, k]
            if j < 0:
                break
            dx = px - centers[j, 0]
            dy = py - centers[j, 1]
            d = hypot(dx, dy)
            if not d > 1e-9:
                continue
            nx, ny = dx / d, dy / d  # away from the rock
            approach = -(vel[i, 0] * nx + vel[i, 1] * ny)
            excess = approach - max(d - r - radii[j], 0.0) / dt
            if excess > 0.0:
                ax += nx * excess
                ay += ny * excess
        vel[i, 0] += ax
        vel[i, 1] += ay


@njit
def project_bodies(
    pos: FloatArray,
    radius: FloatArray,
    rocks: RockCells,
    slop: float,
    push_start: IntArray,
    push_rock: IntArray,
) -> bool:
    """Move bodies that sank into a rock or out of the map by more than the slop back to the
    surface (in place on ``pos``); returns whether any moved. Against a pushable rock only the
    agent moves (the rock keeps its place).

    The speculative contacts (:func:`clamp_bodies`) keep a body's own motion out of rocks,
    but a crowd pressed against a rock (by a current, say) pushes its front row in through
    pymunk's contact solver, which lets overlaps heal over several steps. Projecting those few
    bodies back makes static rocks hard, so no centre is ever closer to a rock than the sum of
    the radii minus the slop; the world writes the moved positions back to pymunk with its next
    step. Per body: back inside the map, then out of its static rocks and pushable rocks (the
    rocks where they were before any body moved), in a few passes summing every overlap's push
    (a body in the crevice between two overlapping rocks, pushed out of one, lands in the
    other; alternating projections settle it outside both)."""
    cell, cols, rows, flags, table = rocks.cell, rocks.cols, rocks.rows, rocks.flags, rocks.table
    centers, radii, w, h = rocks.centers, rocks.radii, rocks.w, rocks.h
    moved = False
    n = pos.shape[0]
    cells = np.empty(n, dtype=np.intp)
    for i in range(n):
        c = _cell_of(pos[i, 0], pos[i, 1], cell, cols, rows)
        cells[i] = c
        if flags[c] & 2:
            r = radius[i]
            for axis, top in ((0, w), (1, h)):
                x = pos[i, axis]
                if x < r - slop or x > top - r + slop:
                    pos[i, axis] = min(max(x, r), top - r)
                    moved = True
    # The pushable rocks' centres before anything moves (a rock is a body too).
    m = push_rock.shape[0]
    rock_xy = np.empty((m, 2))  # one allocation, not one per axis
    for k in range(m):
        rock_xy[k, 0] = pos[push_rock[k], 0]
        rock_xy[k, 1] = pos[push_rock[k], 1]
    for i in range(n):
        c = cells[i]
        rocky = (flags[c] & 1) != 0 and centers.shape[0] > 0
        a = push_start[i] if i < push_start.shape[0] - 1 else 0
        b = push_start[i + 1] if i < push_start.shape[0] - 1 else 0
        if not rocky and a == b:
            continue
        r = radius[i]
        for _ in range(PROJECTION_PASSES):
            px, py = pos[i, 0], pos[i, 1]
            sx = sy = 0.0
            deep = False
            if rocky:
                for k in range(table.shape[1]):
                    j = table[c, k]
                    if j < 0:
                        break
                    sx, sy, deep = _push_out(
                        px, py, centers[j, 0], centers[j, 1], r + radii[j], slop, sx, sy, deep
                    )
            for k in range(a, b):
                j = push_rock[k]
                sx, sy, deep = _push_out(
                    px, py, rock_xy[k, 0], rock_xy[k, 1], r + radius[j], slop, sx, sy, deep
                )
            if not deep:
                break
            pos[i, 0] = px + sx
            pos[i, 1] = py + sy
            moved = True
    return moved


@njit
def _push_out(
    px: float,
    py: float,
    cx: float,
    cy: float,
    reach: float,
    slop: float,
    sx: float,
    sy: float,
    deep: bool,
) -> tuple[float, float, bool]:
    """(sx, sy) plus the push that brings (px, py) to ``reach`` from (cx, cy) when it is
    deeper than the slop (straight along +x from the very centre), and whether any was."""
    dx = px - cx
    dy = py - cy
    d = hypot(dx, dy)
    if not d < reach - slop:
        return sx, sy, deep
    if d > 1e-9:
        ux, uy = dx / d, dy / d
    else:
        ux, uy = 1.0, 0.0
    return sx + ux * (reach - d), sy + uy * (reach - d), True


class RockCells(NamedTuple):
    """A :class:`RockGrid` as the compiled contact passes read it, with the map's size (a
    NamedTuple: the same record compiled and with ``NUMBA_DISABLE_JIT=1``)."""

    #: Cell size (px), and the grid's columns and rows.
    cell: float
    cols: int
    rows: int
    #: Per cell: 1 near a rock, 2 near an edge (bit flags).
    flags: NDArray[np.int8]
    #: Each cell's rocks, padded with -1.
    table: IntArray
    #: The static rocks' centres (M, 2) and radii (M,).
    centers: FloatArray
    radii: FloatArray
    #: The map's width and height (px).
    w: float
    h: float


#: The most cells a :class:`RockGrid` has (about 512 x 512).
MAX_ROCK_CELLS = 262_144


class RockGrid:
    """Static rocks binned on a coarse grid, to find the rocks near many points at once.

    Each cell lists (padded with -1) the rocks whose circle, grown by ``pad``, touches it, so
    the rocks within ``pad`` of a point's surface are among its cell's. O(N) gathers per query
    and no tree to build: cheaper than a k-d tree query for the per-step speculative contacts.

    Args:
        centers, radii: (M, 2), (M,) the static rocks.
        size: (width, height) of the world.
        pad: the largest body radius plus the largest step (px).
        cell: cell size (px).
    """

    def __init__(
        self,
        centers: FloatArray,
        radii: FloatArray,
        size: tuple[float, float],
        pad: float,
        cell: float = 32.0,
    ) -> None:
        self.centers = centers
        self.radii = radii
        # A map so big that 32 px cells would number millions gets bigger cells (at most
        # MAX_ROCK_CELLS of them): the table's memory is bounded whatever the map's size.
        cell = max(float(cell), math.sqrt(size[0] * size[1] / MAX_ROCK_CELLS))
        self.cell = cell
        self.cols = max(math.ceil(size[0] / cell), 1)
        self.rows = max(math.ceil(size[1] / cell), 1)
        n_cells = self.cols * self.rows
        cells: list[IntArray] = []
        rocks: list[IntArray] = []
        for k in range(centers.shape[0]):  # every rock once: the cells its grown circle touches
            r = float(radii[k]) + pad
            x0, x1 = centers[k, 0] - r, centers[k, 0] + r
            y0, y1 = centers[k, 1] - r, centers[k, 1] + r
            rs = np.arange(max(int(y0 // cell), 0), min(int(y1 // cell), self.rows - 1) + 1)
            cs = np.arange(max(int(x0 // cell), 0), min(int(x1 // cell), self.cols - 1) + 1)
            ids = (rs[:, None] * self.cols + cs[None, :]).ravel()
            cells.append(ids)
            rocks.append(np.full(ids.size, k, dtype=np.intp))
        cell_of = np.concatenate(cells) if cells else np.zeros(0, dtype=np.intp)
        rock_of = np.concatenate(rocks) if rocks else np.zeros(0, dtype=np.intp)
        order = np.argsort(cell_of, kind="stable")  # each cell's rocks in rock order
        cell_of, rock_of = cell_of[order], rock_of[order]
        count = np.bincount(cell_of, minlength=n_cells)
        width = int(count.max()) if count.size else 0
        self.table = np.full((n_cells, max(width, 1)), -1, dtype=np.intp)
        start = np.cumsum(count) - count
        self.table[cell_of, np.arange(cell_of.size) - start[cell_of]] = rock_of
        self.count = count
        cols = np.arange(self.cols)
        rows = np.arange(self.rows)
        # Cells any part of which lies within ``pad`` of an edge.
        edge_col = (cols * cell < pad) | ((cols + 1) * cell > size[0] - pad)
        edge_row = (rows * cell < pad) | ((rows + 1) * cell > size[1] - pad)
        self.edge = (edge_row[:, None] | edge_col[None, :]).ravel()
        #: Per cell: 1 near a rock, 2 near an edge (bit flags).
        self.flags = (self.count > 0).astype(np.int8) | (self.edge.astype(np.int8) << 1)
        #: What the compiled contact passes read of the grid.
        self.cells = RockCells(
            float(cell),
            int(self.cols),
            int(self.rows),
            self.flags,
            self.table,
            centers,
            radii,
            float(size[0]),
            float(size[1]),
        )
        #: :attr:`cells` as :func:`before_step` and :func:`after_step` take it from Python: a
        #: plain tuple of its fields, which they name again. numba types a plain tuple in C but
        #: a NamedTuple in Python: 0.7 us more a call, 1.5x either pass at 5 bodies (measured).
        self.fields: tuple[Any, ...] = tuple(self.cells)


@njit
def before_step(
    pos: FloatArray,
    vel_now: FloatArray,
    acc: FloatArray,
    mass: FloatArray,
    max_speed: FloatArray,
    radius: FloatArray,
    cells: tuple[Any, ...],
    dt: float,
    slop: float,
    start: IntArray,
    rock: IntArray,
    order: IntArray,
    force: FloatArray,
    out: FloatArray,
    with_pos: bool,
) -> int:
    """:meth:`~game.world.physics.Physics.advance`'s compiled pass: the speculative
    contacts (as :func:`clamp_bodies`) on a copy of the velocities, the bodies' forces
    (:func:`~game.world.motion.body_forces`) into ``force``, and the write buffer ``out``
    filled in pymunk's visiting order ``order`` (positions first ``with_pos``). Returns the
    count of non-finite forces zeroed. ``cells``: :attr:`RockGrid.fields`."""
    rocks = RockCells(*cells)
    vel = vel_now.copy()
    clamp_bodies(pos, vel, radius, rocks, dt, slop, start, rock)
    bad = body_forces(vel, acc, mass, max_speed, dt, force)
    for k in range(order.shape[0]):
        r = order[k]
        if r < 0:
            continue
        c = 0
        if with_pos:
            out[k, 0] = pos[r, 0]
            out[k, 1] = pos[r, 1]
            c = 2
        out[k, c] = vel[r, 0]
        out[k, c + 1] = vel[r, 1]
        out[k, c + 2] = force[r, 0]
        out[k, c + 3] = force[r, 1]
    return bad


@njit
def after_step(
    data: FloatArray,
    order: IntArray,
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    cells: tuple[Any, ...],
    slop: float,
    start: IntArray,
    rock: IntArray,
) -> bool:
    """:meth:`~game.world.physics.Physics.read_back`'s compiled pass: pymunk's positions and
    velocities (``data``, in the visiting order ``order``) into ``pos`` and ``vel`` in row
    order, then the bodies sunk into a rock projected out (as :func:`project_bodies`); returns
    whether any moved. ``cells``: :attr:`RockGrid.fields`."""
    rocks = RockCells(*cells)
    for k in range(order.shape[0]):
        r = order[k]
        if r < 0:
            continue
        pos[r, 0] = data[k, 0]
        pos[r, 1] = data[k, 1]
        vel[r, 0] = data[k, 2]
        vel[r, 1] = data[k, 3]
    return project_bodies(pos, radius, rocks, slop, start, rock)
