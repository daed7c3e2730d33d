"""Flow fields (seed 003): a grid of flow vectors over the world, its generators, and its
compiled lookup.

:class:`FlowField` is shared data (a grid, a cell size and an origin) with a compiled clamped
lookup; its class methods build the seed's kinds of field (uniform, noise, vortex, image
brightness, any function). :func:`sample` and :func:`inside` are the lookup for one point, for
compiled loops over agents (:class:`~steering.FollowFlow`'s, :mod:`steering.kernels`). A field
that drifts over time is :class:`~steering.NoiseFlow` (:mod:`steering.noise_flow`); following a
field is :class:`~steering.FollowFlow` (:mod:`steering.follow_flow`).
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _checks
from ._jit import njit, njit_leaf, prange, rows_kernel
from .noise_grid import NoiseGrid, angle_vectors, noise_angles
from .vec import FloatArray, as_points, perp, safe_normalize

__all__ = ["MAX_CELLS", "FlowField", "grid_shape", "inside", "sample"]

#: Largest grid accepted (rows x cols); a bigger one is a broken level, not a big level.
MAX_CELLS = 1_000_000

IntArray = NDArray[np.intp]


# -- validation helpers ------------------------------------------------------------------------


def grid_shape(rows: int, cols: int) -> tuple[int, int]:
    """A field's rows and columns, checked: whole numbers, at least one cell, at most
    :data:`MAX_CELLS`."""
    try:
        r, c = operator.index(rows), operator.index(cols)
    except TypeError as exc:
        raise ValueError(f"FlowField rows/cols: expected integers, got {rows!r}, {cols!r}") from exc
    if r < 1 or c < 1:
        raise ValueError(f"FlowField rows/cols: grid is empty ({r} x {c})")
    if r * c > MAX_CELLS:
        raise ValueError(f"FlowField rows/cols: {r} x {c} cells is more than {MAX_CELLS}")
    return r, c


def _positive(value: float, name: str) -> float:
    return _checks.positive(name, value)


def _finite(value: float, name: str) -> float:
    return _checks.finite(name, value)


def _origin(origin: ArrayLike) -> tuple[float, float]:
    o = np.asarray(origin, dtype=np.float64)
    if o.shape != (2,) or not np.isfinite(o).all():
        raise ValueError(f"FlowField.origin: expected a finite (x, y), got {origin!r}")
    return float(o[0]), float(o[1])


def _cell_centers(rows: int, cols: int, cell: float, origin: tuple[float, float]) -> FloatArray:
    """(rows, cols, 2) world positions of the cell centers; row 0 is the bottom row."""
    xs = origin[0] + (np.arange(cols) + 0.5) * cell
    ys = origin[1] + (np.arange(rows) + 0.5) * cell
    gx, gy = np.meshgrid(xs, ys)
    return np.stack((gx, gy), axis=-1)


# -- the field ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FlowField:
    """A grid of flow vectors over an axis-aligned rectangle of the world (seed 003).

    Cell ``(r, c)`` covers ``x`` in ``[ox + c*cell, ox + (c+1)*cell)`` and ``y`` in
    ``[oy + r*cell, oy + (r+1)*cell)``: ``origin`` is the grid's bottom-left corner and row 0 is
    the *bottom* row (y up; the seed's screen rows run downwards).

    Vectors are directions with a strength: the direction is where the current flows, the length
    in [0, 1] is the strength as a fraction of full (longer counts as 1; only
    ``FollowFlow(strength_scales_speed=True)`` reads it). A zero vector is still water: an agent
    following it brakes, as in the seed.

    Shared data: many behaviours and agents may read one field; nothing per agent is stored on
    it. The grid may be rewritten in place (:class:`~steering.NoiseFlow` does), never resized.

    Attributes:
        vectors: (rows, cols, 2) float64 flow vectors, finite.
        cell: cell side in px (the seed's ``resolution``), > 0.
        origin: world (x, y) of the grid's bottom-left corner.

    Raises:
        ValueError: naming the field, for a non-finite vector, a wrong shape, an empty grid, a
            grid over :data:`MAX_CELLS` cells, a cell size <= 0 or a non-finite origin.
    """

    vectors: FloatArray
    cell: float
    origin: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        vec = np.asarray(self.vectors)
        if vec.ndim != 3 or vec.shape[2] != 2:
            raise ValueError(f"FlowField.vectors: expected (rows, cols, 2), got shape {vec.shape}")
        grid_shape(vec.shape[0], vec.shape[1])
        vec = np.array(vec, dtype=np.float64, order="C")  # a private copy
        if not np.isfinite(vec).all():
            raise ValueError("FlowField.vectors: values must be finite")
        object.__setattr__(self, "vectors", vec)
        object.__setattr__(self, "cell", _positive(self.cell, "FlowField.cell"))
        object.__setattr__(self, "origin", _origin(self.origin))

    # -- geometry ---------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        """Number of rows (along y)."""
        return int(self.vectors.shape[0])

    @property
    def cols(self) -> int:
        """Number of columns (along x)."""
        return int(self.vectors.shape[1])

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the covered rectangle in world px."""
        ox, oy = self.origin
        return ox, oy, ox + self.cols * self.cell, oy + self.rows * self.cell

    def cell_centers(self) -> FloatArray:
        """(rows, cols, 2) world positions of the cell centers (where the overlay draws arrows)."""
        return _cell_centers(self.rows, self.cols, self.cell, self.origin)

    def contains(self, points: ArrayLike) -> NDArray[np.bool_]:
        """(N,) mask of the points inside the covered rectangle (left/bottom edges included)."""
        p = np.ascontiguousarray(as_points(points))
        out = np.empty(p.shape[0], dtype=np.bool_)
        ox, oy = self.origin
        _contains_rows(p.shape[0])(self.vectors, self.cell, ox, oy, p, out)
        return out

    def cell_of(self, points: ArrayLike) -> tuple[IntArray, IntArray]:
        """Clamped (row, col) indices of the cell holding each point (the seed's lookup)."""
        p = np.ascontiguousarray(as_points(points))
        n = p.shape[0]
        rc = np.empty((n, 2), dtype=np.intp)
        ox, oy = self.origin
        _cell_rows(n)(self.vectors, self.cell, ox, oy, p, rc)
        return rc[:, 0].copy(), rc[:, 1].copy()

    # -- lookup -----------------------------------------------------------------------------

    def lookup(self, points: ArrayLike, bilinear: bool = True) -> FloatArray:
        """Field vectors at (N, 2) world points, clamped at the borders.

        Args:
            points: (N, 2) world points (or one (x, y)). Points outside the grid read the
                nearest border cell, as in the seed; a NaN coordinate reads as 0.
            bilinear: False is the seed's lookup (the vector of the cell holding the point).
                True interpolates between the four nearest cell *centers* (continuous, no
                sudden turn at cell edges), clamped to the outer centers. Interpolating between
                opposing vectors gives a shorter vector (in the limit zero: still water).

        Returns:
            (N, 2) float64 vectors, each a convex combination of cell vectors.
        """
        p = np.ascontiguousarray(as_points(points))
        out = np.empty(p.shape)
        ox, oy = self.origin
        _lookup_rows(p.shape[0])(self.vectors, self.cell, ox, oy, p, bool(bilinear), out)
        return out

    # -- generators -------------------------------------------------------------------------

    @classmethod
    def uniform(
        cls,
        rows: int,
        cols: int,
        cell: float,
        direction: float | ArrayLike,
        *,
        origin: ArrayLike = (0.0, 0.0),
    ) -> FlowField:
        """Every cell the same vector (the seed's all-right field).

        Args:
            direction: an angle in radians (counter-clockwise from +x, y up; unit strength) or
                a vector (x, y) used as given.
        """
        r, c = grid_shape(rows, cols)
        d = np.asarray(direction, dtype=np.float64)
        if d.ndim == 0:
            d = angle_vectors(np.asarray(_finite(float(d), "FlowField direction")))
        if d.shape != (2,):
            raise ValueError(f"FlowField direction: expected an angle or (x, y), got {direction!r}")
        return cls(np.broadcast_to(d, (r, c, 2)), cell, _origin(origin))

    @classmethod
    def noise(
        cls,
        rows: int,
        cols: int,
        cell: float,
        *,
        origin: ArrayLike = (0.0, 0.0),
        scale: float = 0.1,
        seed: int = 0,
        z: float | None = None,
        turns: float = 1.0,
        base_angle: float = math.pi,
    ) -> FlowField:
        """Unit vectors whose angle follows OpenSimplex noise (the seed's Perlin field).

        Cell ``(r, c)`` reads noise ``n`` at ``(c * scale, r * scale)``; its angle is
        ``base_angle + pi * turns * n``. The defaults are the seed's ``180 * (n + 1)`` degrees;
        as noise clusters near 0 such a field leans toward ``base_angle``, more so for small
        ``turns``.

        Args:
            scale: noise units per cell: smaller is smoother (the seed steps 0.05 per cell).
            seed: opensimplex seed; the same seed gives the same field.
            z: None for 2-D noise (``noise2``); a number for the slice of 3-D noise at that z
                (``noise3``, what :class:`~steering.NoiseFlow` samples at ``z = t * speed``).
            turns: how many half-turns the angle spans per unit of noise.
            base_angle: angle (radians) where the noise is 0.
        """
        r, c = grid_shape(rows, cols)
        scale = _positive(scale, "FlowField.noise scale")
        seed = _checks.integer("FlowField.noise seed", seed)
        gen = NoiseGrid(seed)
        xs = np.arange(c, dtype=np.float64) * scale
        ys = np.arange(r, dtype=np.float64) * scale
        n = gen.grid2(xs, ys) if z is None else gen.grid3(xs, ys, _finite(z, "FlowField.noise z"))
        angles = noise_angles(n, _finite(base_angle, "base_angle"), _finite(turns, "turns"))
        return cls(angle_vectors(angles), cell, _origin(origin))

    @classmethod
    def vortex(
        cls,
        rows: int,
        cols: int,
        cell: float,
        *,
        origin: ArrayLike = (0.0, 0.0),
        center: ArrayLike | None = None,
        clockwise: bool = False,
        pull: float = 0.0,
    ) -> FlowField:
        """A rotating current: unit vectors tangent to circles around ``center`` (Exercise 5.6).

        Counter-clockwise (y up) by default: right of the center the flow points +y. The seed's
        field turns clockwise on screen. The cell exactly on the center gets a zero vector.

        Args:
            center: world point the flow turns around; default the middle of the grid.
            clockwise: turn the other way.
            pull: in [-1, 1]; mixes in an inward (positive: a whirlpool) or outward (negative)
                radial component, making the flow a spiral.
        """
        r, c = grid_shape(rows, cols)
        cell = _positive(cell, "FlowField.cell")
        o = _origin(origin)
        center = (
            np.array([o[0] + c * cell / 2, o[1] + r * cell / 2])
            if center is None
            else as_points(center)[0]
        )
        if not np.isfinite(center).all():
            raise ValueError(f"FlowField.vortex center: must be finite, got {center!r}")
        pull = _finite(pull, "FlowField.vortex pull")
        radial = safe_normalize((_cell_centers(r, c, cell, o) - center).reshape(-1, 2))
        tangent = perp(radial) * (-1.0 if clockwise else 1.0)
        vec = safe_normalize(tangent - pull * radial)
        return cls(vec.reshape(r, c, 2), cell, o)

    @classmethod
    def from_function(
        cls,
        fn: Callable[[FloatArray], ArrayLike],
        rows: int,
        cols: int,
        cell: float,
        *,
        origin: ArrayLike = (0.0, 0.0),
    ) -> FlowField:
        """Sample ``fn`` at every cell center.

        Args:
            fn: maps an (N, 2) array of world points to an (N, 2) array of vectors, called once
                with all ``rows * cols`` centers (row 0 first, x fastest).
        """
        r, c = grid_shape(rows, cols)
        o = _origin(origin)
        centers = _cell_centers(r, c, _positive(cell, "FlowField.cell"), o).reshape(-1, 2)
        out = np.asarray(fn(centers), dtype=np.float64)
        if out.shape != (r * c, 2):
            raise ValueError(
                f"FlowField.from_function: fn returned shape {out.shape}, expected {(r * c, 2)}"
            )
        return cls(out.reshape(r, c, 2), cell, o)

    @classmethod
    def from_image(
        cls,
        source: str | os.PathLike[str] | ArrayLike,
        cell: float,
        *,
        origin: ArrayLike = (0.0, 0.0),
        block: int | None = None,
    ) -> FlowField:
        """Vectors from dark to bright: the brightness gradient of an image (Exercise 5.8).

        Brightness is r + g + b (as in the seed) or the values of a 2-D array. Each cell covers
        ``block`` x ``block`` image pixels and gets the mean brightness gradient over them, a
        steadier direction than the seed's darkest-to-brightest pixel pair. Lengths are relative
        to the steepest cell (the strength in [0, 1]); a flat cell is still water.

        Image order: row 0 of the image or array is its *top*, as Pillow loads it and as an
        array prints; the field flips it so the image's top is the field's top (largest y).
        Pixels left over at the right and top edges (size not a multiple of ``block``) are
        dropped, like the seed's ``width // resolution``.

        Args:
            source: a path to an image file (read with Pillow), or an array: (H, W)
                brightness, or (H, W, 3 or 4) colour (alpha ignored).
            cell: world size of a cell in px.
            block: image pixels per cell side; default ``round(cell)``, i.e. one pixel per px
                as in the seed.

        Raises:
            ValueError: for an unreadable array, non-finite values, or an image smaller than one
                cell.
        """
        cell = _positive(cell, "FlowField.cell")
        if isinstance(source, str | os.PathLike):
            from PIL import Image  # lazy: only image fields need Pillow

            with Image.open(source) as im:
                img = np.asarray(im.convert("RGB"), dtype=np.float64).sum(axis=2)
        else:
            arr = np.asarray(source, dtype=np.float64)
            if arr.ndim == 3 and arr.shape[2] in (3, 4):
                arr = arr[:, :, :3].sum(axis=2)
            if arr.ndim != 2:
                raise ValueError(
                    f"FlowField.from_image: expected (H, W) or (H, W, 3|4), got {arr.shape}"
                )
            img = arr
        if not np.isfinite(img).all():
            raise ValueError("FlowField.from_image: brightness values must be finite")
        b = max(1, round(cell)) if block is None else operator.index(block)
        if b < 1:
            raise ValueError(f"FlowField.from_image block: must be >= 1, got {block!r}")
        r, c = grid_shape(img.shape[0] // b, img.shape[1] // b)
        up = img[::-1]  # image rows run downwards; field rows run upwards
        gy = np.gradient(up, axis=0) if up.shape[0] > 1 else np.zeros_like(up)
        gx = np.gradient(up, axis=1) if up.shape[1] > 1 else np.zeros_like(up)
        grad = np.stack((gx, gy), axis=-1)[: r * b, : c * b]
        vec = grad.reshape(r, b, c, b, 2).mean(axis=(1, 3))
        top = float(np.sqrt((vec * vec).sum(axis=-1)).max())
        if top > 0.0:
            vec = vec / top
        return cls(vec, cell, _origin(origin))


# -- the compiled kernels ------------------------------------------------------------------------


@njit
def _grid_clamp(x: float, hi: float) -> float:
    """``x`` limited to [0, hi]; NaN becomes 0 and infinities the bounds."""
    if not x >= 0.0:
        return 0.0
    if x > hi:
        return hi
    return x


@njit_leaf
def _cell(
    vec: FloatArray, cell: float, ox: float, oy: float, x: float, y: float
) -> tuple[int, int]:
    """The seed's lookup: (row, col) of the cell holding (x, y), clamped to the grid."""
    col = int(_grid_clamp((x - ox) / cell, vec.shape[1] - 1.0))
    row = int(_grid_clamp((y - oy) / cell, vec.shape[0] - 1.0))
    return row, col


@njit_leaf
def inside(vec: FloatArray, cell: float, ox: float, oy: float, x: float, y: float) -> bool:
    """Whether (x, y) is in the field's rectangle (left and bottom edges included)."""
    right = ox + vec.shape[1] * cell
    top = oy + vec.shape[0] * cell
    return x >= ox and x < right and y >= oy and y < top


@njit_leaf
def sample(
    vec: FloatArray, cell: float, ox: float, oy: float, x: float, y: float, bilinear: bool
) -> tuple[float, float]:
    """The field vector at (x, y): the holding cell's, or bilinear between the four nearest
    cell centers (clamped to the outer centers)."""
    rows = vec.shape[0]
    cols = vec.shape[1]
    if not bilinear:
        r, c = _cell(vec, cell, ox, oy, x, y)
        return vec[r, c, 0], vec[r, c, 1]
    u = _grid_clamp((x - ox) / cell - 0.5, cols - 1.0)  # in cell-center coordinates
    v = _grid_clamp((y - oy) / cell - 0.5, rows - 1.0)
    c0 = min(int(u), max(cols - 2, 0))
    r0 = min(int(v), max(rows - 2, 0))
    fu = u - c0
    fv = v - r0
    c1 = c0 + 1 if cols > 1 else c0  # a one-column grid has no right neighbour
    r1 = r0 + 1 if rows > 1 else r0
    ax, ay = vec[r0, c0, 0], vec[r0, c0, 1]
    bx, by = vec[r0, c1, 0], vec[r0, c1, 1]
    cx, cy = vec[r1, c0, 0], vec[r1, c0, 1]
    dx, dy = vec[r1, c1, 0], vec[r1, c1, 1]
    below_x = ax + (bx - ax) * fu
    below_y = ay + (by - ay) * fu
    above_x = cx + (dx - cx) * fu
    above_y = cy + (dy - cy) * fu
    return below_x + (above_x - below_x) * fv, below_y + (above_y - below_y) * fv


@rows_kernel
def _lookup_rows(
    vec: FloatArray,
    cell: float,
    ox: float,
    oy: float,
    points: FloatArray,
    bilinear: bool,
    out: FloatArray,
) -> None:
    for i in prange(points.shape[0]):
        out[i, 0], out[i, 1] = sample(vec, cell, ox, oy, points[i, 0], points[i, 1], bilinear)


@rows_kernel
def _cell_rows(
    vec: FloatArray, cell: float, ox: float, oy: float, points: FloatArray, out: IntArray
) -> None:
    for i in prange(points.shape[0]):
        out[i, 0], out[i, 1] = _cell(vec, cell, ox, oy, points[i, 0], points[i, 1])


@rows_kernel
def _contains_rows(
    vec: FloatArray,
    cell: float,
    ox: float,
    oy: float,
    points: FloatArray,
    out: NDArray[np.bool_],
) -> None:
    for i in prange(points.shape[0]):
        out[i] = inside(vec, cell, ox, oy, points[i, 0], points[i, 1])
