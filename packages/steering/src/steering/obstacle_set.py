"""Circular obstacles as shared data (rocks, pillars): their centers and radii, and the
spatial index that finds the obstacles near each agent (a uniform grid over the centers,
:mod:`steering._grid`, kept while the centers move little). :class:`~steering.AvoidObstacles`
(:mod:`steering.obstacles`) and :class:`~steering.Hide` read them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._checks import all_finite, float_array
from ._grid import Grid, build_grid, cell_span
from ._jit import njit, njit_leaf, prange, rows_kernel
from ._kern import hypot
from .agents import AgentGroup
from .vec import FloatArray

__all__ = ["Obstacles", "candidate_pairs"]

IntArray = NDArray[np.intp]

_EMPTY_IDX: IntArray = np.zeros(0, dtype=np.intp)

#: A grid is kept while no center has moved farther than this fraction of a cell from where
#: it was when the grid was built (queries widen by the largest move); beyond, it is rebuilt.
_REBUILD_SHIFT = 0.25


def _centers(values: ArrayLike, name: str = "Obstacles.centers") -> FloatArray:
    arr = float_array(name, values)
    if arr.size == 0:
        arr = arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name}: expected an (M, 2) array, got shape {arr.shape}")
    return all_finite(name, arr)


def _radii(values: ArrayLike, m: int) -> FloatArray:
    name = "Obstacles.radii"
    arr = float_array(name, values)
    if arr.ndim == 0:
        arr = np.full(m, float(arr))
    if arr.shape != (m,):
        raise ValueError(f"{name}: expected {m} values, got shape {arr.shape}")
    all_finite(name, arr)
    if (arr <= 0).any():
        raise ValueError(f"{name}: values must be > 0")
    return arr


@dataclass(eq=False)
class Obstacles:
    """M circular obstacles (pymunk circles in the game), shared by every agent that avoids them.

    Holds no per-agent memory. Rocks that move (pushable, dynamic) update their centers with
    :meth:`set_centers` or :meth:`move`, or by writing into :attr:`centers`. The spatial index
    is a uniform grid over the centers (compiled); it is kept while every center stays within
    a quarter cell of where it was when the grid was built (queries widen by the largest
    move, one compiled pass over the centers per query) and rebuilt beyond, so moving rocks
    cost O(M) a step. M = 0 is allowed and makes avoidance a no-op.

    Attributes:
        centers: (M, 2) center positions, px.
        radii: (M,) radii, px, all > 0.
    """

    centers: FloatArray
    radii: FloatArray
    _grid: Grid | None = field(default=None, init=False, repr=False)
    _grid_centers: FloatArray | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.centers = _centers(self.centers)
        self.radii = _radii(self.radii, self.centers.shape[0])

    @classmethod
    def create(cls, centers: ArrayLike, radii: ArrayLike) -> Obstacles:
        """Build from anything array-like; ``radii`` may be one value for every obstacle.

        Raises:
            ValueError: naming ``centers`` or ``radii`` on a bad shape, a non-finite value or
                a radius <= 0.
            TypeError: naming them for values that are not numbers.
        """
        c = _centers(centers)
        return cls(c, _radii(radii, c.shape[0]))

    @classmethod
    def empty(cls) -> Obstacles:
        """No obstacles at all."""
        return cls(np.zeros((0, 2)), np.zeros(0))

    def __len__(self) -> int:
        return int(self.centers.shape[0])

    @property
    def max_radius(self) -> float:
        """The largest radius, 0 when there is no obstacle."""
        return float(self.radii.max()) if len(self) else 0.0

    def index(self) -> tuple[Grid, float, float]:
        """The grid over the centers, how far (px) a center may have moved since it was built
        (queries widen by that much), and the largest radius.

        Built on first use; kept while no center moved more than a quarter cell, rebuilt
        otherwise (also after :attr:`centers` was replaced by another array)."""
        c = self.centers
        m = c.shape[0]
        if c.shape != (m, 2) or self.radii.shape != (m,):  # replaced by a bad array: refuse
            raise ValueError(
                f"Obstacles.centers, radii: expected (M, 2) and (M,), got {c.shape} and "
                f"{self.radii.shape}"
            )
        snap = self._grid_centers
        grid = self._grid
        if grid is None or snap is None or snap.shape != c.shape:
            return self._rebuild()
        shift2, rmax = _shift_and_radius(c, snap, self.radii)
        shift = math.sqrt(shift2)
        if not shift <= _REBUILD_SHIFT * grid.cell:  # NaN-safe
            return self._rebuild()
        return grid, shift, rmax

    def shift_bound(self) -> float:
        """How far (px) a center may move from where it was when the grid was built before
        the grid is rebuilt (a quarter cell; 0 before any grid): a query widened by this much
        finds every rock while the grid is kept, however far they moved within it."""
        grid = self._grid
        return 0.0 if grid is None else _REBUILD_SHIFT * grid.cell

    def _rebuild(self) -> tuple[Grid, float, float]:
        snap = np.array(self.centers, dtype=np.float64, order="C")
        rmax = self.max_radius
        grid = build_grid(snap, min_cell=rmax)
        self._grid, self._grid_centers = grid, snap
        return grid, 0.0, rmax

    def set_centers(self, centers: ArrayLike) -> None:
        """Replace every center (same M) in place, e.g. from the physics bodies each step.

        Raises:
            ValueError: on a shape change or a non-finite value.
            TypeError: for values that are not numbers.
        """
        new = _centers(centers)
        if new.shape != self.centers.shape:
            raise ValueError(
                f"Obstacles.centers: expected shape {self.centers.shape}, got {new.shape}"
            )
        self.centers = new

    def move(self, i: int | ArrayLike, xy: ArrayLike) -> bool:
        """Move obstacle ``i`` to ``xy``; or, with an index array ``i`` of K rocks and (K, 2)
        points ``xy``, each of them (in place, cheap: the grid follows lazily). Returns whether
        a center changed (a caller that stamps its steering calls, :func:`steering.composite.run`,
        changes its stamp then).

        Raises:
            ValueError: if ``xy`` is not finite points of the matching shape.
            TypeError: for values that are not numbers.
            IndexError: if an index is out of range.
        """
        if (
            type(i) is np.ndarray
            and type(xy) is np.ndarray
            and i.ndim == 1
            and xy.shape == (i.shape[0], 2)
            and i.dtype == np.intp
            and xy.dtype == np.float64
        ):  # the physics' pushable rocks every step: checked and copied in one compiled pass
            put = _put_rows(self.centers, i, xy)
            if put:
                return put == 2
        p = float_array("Obstacles.centers", xy)
        rows = np.asarray(i)
        want = (*rows.shape, 2)
        if p.shape != want or not np.isfinite(p).all():
            raise ValueError(
                f"Obstacles.centers: expected finite points of shape {want}, got {xy!r:.60}"
            )
        changed = bool((self.centers[rows] != p).any())
        self.centers[rows] = p
        return changed


@njit
def _put_rows(centers: FloatArray, rows: IntArray, xy: FloatArray) -> int:
    """``centers[rows] = xy`` when every index is in range and every value finite: 2 when a
    center changed, 1 when none did; else nothing is written and 0 (the caller's checks name
    what is wrong)."""
    m = centers.shape[0]
    for k in range(rows.shape[0]):
        r = rows[k]
        if not (-m <= r < m and math.isfinite(xy[k, 0]) and math.isfinite(xy[k, 1])):
            return 0
    changed = 1
    for k in range(rows.shape[0]):
        r = rows[k]
        if r < 0:
            r += m
        if centers[r, 0] != xy[k, 0] or centers[r, 1] != xy[k, 1]:
            changed = 2
        centers[r, 0] = xy[k, 0]
        centers[r, 1] = xy[k, 1]
    return changed


def candidate_pairs(
    agents: AgentGroup, obstacles: Obstacles, reach: float
) -> tuple[IntArray, IntArray]:
    """Index arrays ``(agent, obstacle)`` of every pair whose centers are at most ``reach``
    apart, sorted by agent then obstacle.

    Two compiled passes over the agents (count, then fill) reading the obstacles' grid cells
    within reach: no Python loop over agents or pairs.
    """
    n = agents.n
    if len(obstacles) == 0 or n == 0 or not reach > 0:
        return _EMPTY_IDX, _EMPTY_IDX
    grid, pad, _ = obstacles.index()
    counts = np.empty(n + 1, dtype=np.intp)
    counts[0] = 0
    args = (agents.pos, obstacles.centers, grid.start, grid.items)
    geo = (grid.x0, grid.y0, grid.inv, grid.nx, grid.ny, float(reach), pad)
    _pairs_rows(n)(*args, *geo, counts, _EMPTY_IDX, False)
    offsets = np.cumsum(counts)
    rock = np.empty(int(offsets[-1]), dtype=np.intp)
    _pairs_rows(n)(*args, *geo, offsets, rock, True)
    who = np.repeat(np.arange(n, dtype=np.intp), np.diff(offsets))
    return who, rock


@rows_kernel
def _pairs_rows(
    pos: FloatArray,
    centers: FloatArray,
    start: IntArray,
    items: IntArray,
    x0: float,
    y0: float,
    inv: float,
    nx: int,
    ny: int,
    reach: float,
    pad: float,
    offsets: IntArray,
    rock: IntArray,
    fill: bool,
) -> None:
    """Count (``fill`` False: into ``offsets[i + 1]``) or list (into ``rock`` from
    ``offsets[i]``, sorted) the obstacles within ``reach`` of each agent."""
    for i in prange(pos.shape[0]):
        px, py = pos[i, 0], pos[i, 1]
        r = reach + pad
        ax, bx = cell_span(px - r, px + r, x0, inv, nx)
        ay, by = cell_span(py - r, py + r, y0, inv, ny)
        k = offsets[i] if fill else 0
        first = k
        for cy in range(ay, by + 1):
            for cx in range(ax, bx + 1):
                c = cy * nx + cx
                for s in range(start[c], start[c + 1]):
                    j = items[s]
                    if hypot(centers[j, 0] - px, centers[j, 1] - py) <= reach:
                        if fill:
                            rock[k] = j
                        k += 1
        if fill:
            rock[first:k].sort()
        else:
            offsets[i + 1] = k


@njit_leaf
def _shift_and_radius(
    centers: FloatArray, snap: FloatArray, radii: FloatArray
) -> tuple[float, float]:
    """The largest squared distance of a center from its snapshot (inf for a non-finite
    one), and the largest radius (0 for none)."""
    worst = 0.0
    for j in range(centers.shape[0]):
        dx = centers[j, 0] - snap[j, 0]
        dy = centers[j, 1] - snap[j, 1]
        d2 = dx * dx + dy * dy
        if not d2 <= worst:  # larger, or NaN
            worst = d2 if d2 == d2 else math.inf
    rmax = 0.0
    for j in range(radii.shape[0]):
        if radii[j] > rmax:
            rmax = radii[j]
    return worst, rmax
