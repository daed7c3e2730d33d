"""Currents: a level's flow regions as steering flow fields, and the drag they put on bodies.

Each region becomes a :class:`~steering.FlowField` of unit directions over its rectangle
(a :class:`~steering.NoiseFlow` when its noise changes with time) and a strength in px/s.
The current velocity at a point is the sum over the regions that contain it (overlapping
regions add up, as docs/levels.md says); outside every region the water is still. The map's
edges are walls the water turns along: within :data:`BANK` px of an edge the part of the
current heading into it fades out, so nothing is driven against an edge (see
:meth:`Currents.velocity_at`), and fish swimming with the current follow a :class:`ShoreFlow`
that turns them back from the edges.
"""

from __future__ import annotations

import logging
import math
import operator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.level import FlowRegion, Level
from game.level.images import decode_image
from steering import FlowField, FlowSource, NoiseFlow
from steering.kernels import flow_sample, hypot, njit, use_cache
from steering.vec import FloatArray, as_points

__all__ = ["BANK", "CURRENT_DRAG", "SHORE", "Current", "Currents", "ShoreFlow", "image_field"]

use_cache(__file__)

log = logging.getLogger(__name__)

#: Drag rate (1/s) toward the current: a body in a current feels
#: ``F = mass * CURRENT_DRAG * (v_current - v_body)``, so a body that does nothing reaches the
#: current's velocity within about ``1 / CURRENT_DRAG`` seconds. Agents steer against it with
#: their own gain (8/s), so a current shifts their velocity by about 20 % of its own; the
#: player swims relative to the water (see :mod:`game.world.brains`) and is carried fully.
CURRENT_DRAG = 2.0
#: Width (px) of the band along each map edge where the current's part heading into the edge
#: fades out linearly (to zero at the edge): the edge is a wall the water turns along. The
#: play-test found 53-59 of 90 fish pinned against the top wall of Currents without it.
BANK = 96.0
#: Width (px) of the band along each map edge where fish swimming with the current turn back
#: toward open water (:class:`ShoreFlow`).
SHORE = 80.0


def image_field(region: FlowRegion, cols: int, rows: int) -> FlowField:
    """The ``image`` kind: the image stretched over the region, gray ``v`` turns the current
    by ``360 deg * v / 256`` from ``angle``; fully transparent pixels are still water.

    Each cell reads the pixel under its centre (row 0 of the field is the image's bottom).
    """
    if region.image is None:
        raise ValueError(f"flow region {region.id}: kind 'image' needs an image")
    decoded = decode_image(region.image)  # decoded once: the loader's check decoded it
    alpha_px, gray = decoded.alpha, decoded.gray
    h, w = gray.shape
    xs = ((np.arange(cols) + 0.5) / cols * w).astype(np.intp).clip(0, w - 1)
    ys = ((np.arange(rows) + 0.5) / rows * h).astype(np.intp).clip(0, h - 1)
    ys = (h - 1) - ys  # field row 0 is the bottom; image row 0 is the top
    g = gray[np.ix_(ys, xs)].astype(np.float64)
    alpha = alpha_px[np.ix_(ys, xs)]
    angle = math.radians(region.angle) + 2.0 * math.pi * g / 256.0
    vec = np.stack((np.cos(angle), np.sin(angle)), axis=-1) * (alpha > 0)[..., None]
    return FlowField(vec, region.cell, (region.rect.left, region.rect.bottom))


@dataclass(eq=False)
class Current:
    """One flow region: its field of unit directions and its strength.

    Attributes:
        region: the level's flow region.
        field: the region's field (directions, length <= 1); for a changing noise region the
            :class:`NoiseFlow`'s field, rewritten in place every step.
        noise: the :class:`NoiseFlow` of a noise region whose ``speed`` > 0, else None.
    """

    region: FlowRegion
    field: FlowField
    noise: NoiseFlow | None = None

    @classmethod
    def build(cls, region: FlowRegion) -> Current:
        """Build the field of ``region`` by its kind (see docs/levels.md, "Flow regions")."""
        cols, rows = region.cells
        origin = (region.rect.left, region.rect.bottom)
        kind = region.kind
        if kind == "uniform":
            fld = FlowField.uniform(
                rows, cols, region.cell, math.radians(region.angle), origin=origin
            )
            return cls(region, fld)
        if kind == "vortex":
            centre = region.rect.center
            fld = FlowField.vortex(
                rows, cols, region.cell, origin=origin, center=centre, clockwise=region.clockwise
            )
            return cls(region, fld)
        if kind == "noise":
            # docs: direction = 360 deg x n, n in [-1, 1] at (col*scale, row*scale, t*speed).
            if region.speed > 0:
                nf = NoiseFlow(
                    rows,
                    cols,
                    region.cell,
                    origin,
                    scale=region.scale,
                    speed=region.speed,
                    seed=region.seed,
                    turns=2.0,
                    base_angle=0.0,
                )
                return cls(region, nf.field, nf)
            fld = FlowField.noise(
                rows,
                cols,
                region.cell,
                origin=origin,
                scale=region.scale,
                seed=region.seed,
                z=0.0,
                turns=2.0,
                base_angle=0.0,
            )
            return cls(region, fld)
        if kind == "image":
            return cls(region, image_field(region, cols, rows))
        raise ValueError(f"flow region {region.id}: unknown kind {kind!r}")


@dataclass(eq=False)
class Currents:
    """All flow regions of a level, and the current velocity anywhere in the world.

    Attributes:
        items: one :class:`Current` per region, in level order.
        drag: the drag rate (1/s), :data:`CURRENT_DRAG` by default.
    """

    items: list[Current] = field(default_factory=list)
    drag: float = CURRENT_DRAG
    #: The map's rectangle ``(left, bottom, right, top)``, whose edges bank the water (see
    #: :data:`BANK`); None: no banks (a free-standing set of regions, as in unit tests).
    bounds: tuple[float, float, float, float] | None = None
    bank: float = BANK
    #: Time-varying noise regions refresh one row in this many each step, every row once per
    #: this many steps (:meth:`NoiseFlow.update_rows`): the same cost every step, no bursts
    #: (a 1,400-cell region costs about 1 ms whole; at the levels' noise speeds a field turns
    #: by well under a degree between refreshes, so the current still changes smoothly).
    noise_every: int = 4
    _known: tuple[FloatArray, FloatArray, NDArray[np.bool_] | None] | None = field(
        default=None, init=False, repr=False
    )
    #: The regions as :func:`_add_regions` reads them, and the items they were made from.
    _table: _RegionTable | None = field(default=None, init=False, repr=False)

    @classmethod
    def from_level(cls, level: Level, drag: float = CURRENT_DRAG) -> Currents:
        """One :class:`Current` per flow region of ``level``, banked by the map's edges."""
        bounds = (0.0, 0.0, float(level.width_px), float(level.height_px))
        return cls([Current.build(r) for r in level.flows], drag, bounds)

    @property
    def fields(self) -> list[FlowField]:
        """The regions' fields, in level order (for drawing)."""
        return [c.field for c in self.items]

    def update(self, t: float, frame: int = 0) -> None:
        """Bring time-varying regions (noise with ``speed`` > 0) toward time ``t`` (s): the
        rows ``frame % noise_every`` of each, so every step costs the same."""
        parts = max(self.noise_every, 1)
        for c in self.items:
            if c.noise is not None:
                c.noise.update_rows(t, frame % parts, parts)
        table = self._table
        if table is not None and table.noise:
            table.refresh(frame % parts, parts)

    def remember(
        self,
        points: FloatArray,
        velocity: FloatArray,
        inside: NDArray[np.bool_] | None = None,
    ) -> None:
        """Note the current at ``points`` already computed this step (the world's lookup for
        every body), and which of them lie in a region when ``inside`` is given, so that
        :meth:`lookup` (and then :meth:`contains`) at the same points costs a comparison."""
        self._known = (
            points.copy(),
            velocity.copy(),
            None if inside is None else inside.copy(),
        )

    def lookup(self, points: ArrayLike, bilinear: bool = True) -> FloatArray:
        """The current's velocity (px/s) at (K, 2) points: a flow source for the core's
        :class:`~steering.FollowFlow` (``bilinear`` is always on here)."""
        p = as_points(points)
        known = self._known
        if known is not None and _same_points(known[0], p):
            return known[1].copy()
        return self.velocity_at(p)[0]

    def contains(self, points: ArrayLike) -> NDArray[np.bool_]:
        """(K,) which points lie in any region."""
        p = as_points(points)
        known = self._known
        if known is not None and known[2] is not None and _same_points(known[0], p):
            return known[2].copy()
        return self.velocity_at(p)[1]

    def velocity_at(self, points: FloatArray) -> tuple[FloatArray, NDArray[np.bool_]]:
        """Current velocity (px/s) at (K, 2) points, and which points are in any region.

        Bilinear lookup in each region that contains the point, times its strength, summed;
        then, with :attr:`bounds`, the part heading into an edge is scaled by the distance to
        it over :attr:`bank` (the water turns along the walls instead of running into them).
        """
        k = points.shape[0]
        vel = np.zeros((k, 2))
        inside = np.zeros(k, dtype=bool)
        p = np.ascontiguousarray(points, dtype=np.float64)
        items = self.items
        if not items:
            return vel, inside
        table = self._regions()
        bounds = self.bounds
        band = self.bank if bounds is not None and k and self.bank > 0.0 else 0.0
        left, bottom, right, top = bounds if bounds is not None else (0.0, 0.0, 0.0, 0.0)
        _add_regions(
            p, table.cells, table.numbers, float(left), float(bottom), float(right),
            float(top), float(band), vel, inside,
        )  # fmt: skip
        return vel, inside

    def _regions(self) -> _RegionTable:
        """The regions' numbers and fields for :func:`_add_regions`, made again when the
        items are other objects (an edit replaces them; a region and its field never change
        in place, but for a noise field's vectors, which :meth:`update` copies in)."""
        items = self.items
        table = self._table
        if (
            table is not None
            and len(table.items) == len(items)
            and all(map(operator.is_, table.items, items))
        ):
            return table
        table = self._table = _RegionTable.build(items)
        return table


@dataclass(frozen=True)
class _RegionTable:
    """The regions as :func:`_add_regions` reads them: arrays whatever their number (a tuple
    of fields would make numba compile the kernel again for every region count, and refuse
    1,000 or more).

    Attributes:
        items: the items the table was made from.
        numbers: (R, 11) per region its field's origin (x, y) and cell, its rectangle (left,
            bottom, right, top) and strength, then where its field's cells start in
            :attr:`cells`, its rows and its columns (whole numbers, exact as floats; one
            array of numbers keeps the kernel's call as cheap as it was).
        cells: (C, 2) every field's vectors, one after another (row-major, as each field's).
        noise: (region, first cell, rows, columns) of the changing noise regions, whose
            vectors :meth:`refresh` copies in again after they are rewritten.
    """

    items: tuple[Current, ...]
    numbers: FloatArray
    cells: FloatArray
    noise: tuple[tuple[int, int, int, int], ...]

    @classmethod
    def build(cls, items: list[Current]) -> _RegionTable:
        """The table of ``items``, in their order."""
        n = len(items)
        numbers = np.empty((n, 11))
        start = 0
        noise = []
        for k, c in enumerate(items):
            r = c.region.rect
            f = c.field
            rows, cols = f.vectors.shape[:2]
            numbers[k] = (
                f.origin[0], f.origin[1], f.cell, r.left, r.bottom, r.right, r.top,
                c.region.strength, start, rows, cols,
            )  # fmt: skip
            if c.noise is not None:
                noise.append((k, start, rows, cols))
            start += rows * cols
        cells = np.empty((start, 2))
        for k, c in enumerate(items):
            first, rows, cols = (int(v) for v in numbers[k, 8:])
            cells[first : first + rows * cols] = c.field.vectors.reshape(rows * cols, 2)
        return cls(tuple(items), numbers, cells, tuple(noise))

    def refresh(self, part: int, parts: int) -> None:
        """Copy in again the rows ``part, part + parts, ...`` of the changing noise fields,
        the rows :meth:`Currents.update` just rewrote (every other row is as it was)."""
        cells = self.cells
        for k, first, rows, cols in self.noise:
            mine = cells[first : first + rows * cols].reshape(rows, cols, 2)
            mine[part::parts] = self.items[k].field.vectors[part::parts]


@njit
def _add_regions(
    points: FloatArray,
    cells: FloatArray,
    numbers: FloatArray,
    left: float,
    bottom: float,
    right: float,
    top: float,
    band: float,
    vel: FloatArray,
    inside: NDArray[np.bool_],
) -> None:
    """:meth:`Currents.velocity_at` in one call: every region's current added in level order
    (:func:`_add_region`, each reading its field as a view of ``cells``), then the banks
    (:func:`_bank`) when ``band`` > 0."""
    for r in range(numbers.shape[0]):
        first, rows, cols = int(numbers[r, 8]), int(numbers[r, 9]), int(numbers[r, 10])
        vectors = cells[first : first + rows * cols].reshape((rows, cols, 2))
        _add_region(
            points, vectors, numbers[r, 2], numbers[r, 0], numbers[r, 1], numbers[r, 3],
            numbers[r, 4], numbers[r, 5], numbers[r, 6], numbers[r, 7], vel, inside,
        )  # fmt: skip
    if band > 0.0:
        _bank(points, vel, left, bottom, right, top, band)


@njit
def _add_region(
    points: FloatArray,
    vectors: FloatArray,
    cell: float,
    ox: float,
    oy: float,
    left: float,
    bottom: float,
    right: float,
    top: float,
    strength: float,
    vel: FloatArray,
    inside: NDArray[np.bool_],
) -> None:
    """Add one region's current (its field's bilinear sample times its strength) at the
    points inside its rectangle, and mark them inside."""
    for i in range(points.shape[0]):
        x, y = points[i, 0], points[i, 1]
        if left <= x <= right and bottom <= y <= top:
            sx, sy = flow_sample(vectors, cell, ox, oy, x, y, True)
            vel[i, 0] += sx * strength
            vel[i, 1] += sy * strength
            inside[i] = True


@njit
def _shore(
    points: FloatArray,
    v: FloatArray,
    left: float,
    bottom: float,
    right: float,
    top: float,
    band: float,
    out: FloatArray,
) -> None:
    """:meth:`ShoreFlow.lookup` at every point from the current ``v`` there: within ``band``
    of an edge, the part heading into it taken away, a part heading back out added (at least
    1 px/s) and a part along the edge (the way the flow runs, else toward the edge's middle),
    all in proportion to ``1 - distance / band``."""
    for i in range(points.shape[0]):
        vx, vy = v[i, 0], v[i, 1]
        speed = max(hypot(vx, vy), 1.0)
        ox, oy = vx, vy
        for axis in range(2):
            lo = left if axis == 0 else bottom
            hi = right if axis == 0 else top
            c = points[i, axis]
            mid = 0.5 * (top + bottom) if axis == 0 else 0.5 * (left + right)
            along = vy if axis == 0 else vx
            across = vx if axis == 0 else vy
            other = points[i, 1 - axis]
            for side in range(2):
                d = c - lo if side == 0 else hi - c
                inward = 1.0 if side == 0 else -1.0
                w = min(max(1.0 - d / band, 0.0), 1.0)
                if not w > 0.0:
                    continue
                into = min(across * inward, 0.0)  # < 0: toward this edge
                push = inward * w * (speed - into)
                if along != 0.0:
                    sign = 1.0 if along > 0.0 else -1.0
                else:
                    gap = mid - other
                    sign = 1.0 if gap > 0.0 else (-1.0 if gap < 0.0 else 0.0)
                slide = sign * w * -into
                if axis == 0:
                    ox += push
                    oy += slide
                else:
                    oy += push
                    ox += slide
        out[i, 0] = ox
        out[i, 1] = oy


@njit
def _bank(
    points: FloatArray,
    vel: FloatArray,
    left: float,
    bottom: float,
    right: float,
    top: float,
    band: float,
) -> None:
    """Scale, in place, each velocity's part heading into a near edge by ``distance / band``
    (the part heading for the low edge near it, or for the high edge near that)."""
    for i in range(points.shape[0]):
        for axis in range(2):
            lo = left if axis == 0 else bottom
            hi = right if axis == 0 else top
            v = vel[i, axis]
            d = points[i, axis] - lo if v < 0.0 else hi - points[i, axis]
            if d < band:
                vel[i, axis] = v * min(max(d / band, 0.0), 1.0)


@dataclass(eq=False)
class ShoreFlow:
    """What fish swimming with the current follow: the current, turned back from the map's
    edges (a :class:`~steering.FlowSource` for :class:`~steering.FollowFlow`).

    Within :attr:`band` px of an edge, the part of the flow heading into the edge is taken
    away and a part heading back out is added (at least 1 px/s: only the direction matters to
    :class:`~steering.FollowFlow`), both in proportion to ``1 - distance / band``,
    together with a part along the edge (the way the flow already runs along it, else toward
    the middle of that edge) so a fish caught in a current running into a wall swims along
    the wall and out of the stream instead of holding still against it; where the banked
    water stands still at the edge itself, it swims straight back out. Away from the edges
    it is the current unchanged.

    Trade-offs: only the map's edges are shores; rocks and walls are left to avoidance.

    Attributes:
        source: the current (the world's :class:`Currents`).
        bounds: the map's rectangle ``(left, bottom, right, top)``.
        band: width of the shore band (px).
    """

    source: FlowSource
    bounds: tuple[float, float, float, float]
    band: float = SHORE

    def lookup(self, points: ArrayLike, bilinear: bool = True) -> FloatArray:
        """(K, 2) the flow the fish follow at the points (see the class docstring)."""
        p = as_points(points)
        v = np.array(self.source.lookup(p, bilinear), dtype=np.float64)
        if p.shape[0] == 0 or self.band <= 0.0:
            return v
        out = np.empty_like(v)
        left, bottom, right, top = self.bounds
        _shore(p, v, float(left), float(bottom), float(right), float(top), float(self.band), out)
        return out

    def contains(self, points: ArrayLike) -> NDArray[np.bool_]:
        """(K,) which points the current covers."""
        return self.source.contains(points)


@njit
def _same_points(a: FloatArray, b: FloatArray) -> bool:
    """Whether two (K, 2) point arrays hold the same points (``np.array_equal``: NaN differs
    from everything), compiled: the check runs for every flow lookup."""
    if a.shape[0] != b.shape[0]:
        return False
    for i in range(a.shape[0]):  # noqa: SIM110 (numba compiles no generator)
        if a[i, 0] != b[i, 0] or a[i, 1] != b[i, 1]:
            return False
    return True
