"""The Lab's canvas (pure NumPy): shapes in world px, in drawing order, that a scene's sketch
(:mod:`game.lab.sketch`) and the behaviours' annotations (:mod:`game.lab.annotate`) add to. A
:class:`Sketch` is a :class:`~game.render.debug_draw.Canvas`, so the game's debug drawing
functions draw into it; :mod:`game.lab.draw` uploads it to the GPU in a few batches."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.render.geometry import arrow_segments, circle_segments

from .scene import Rgba

__all__ = ["Color", "FloatArray", "Sketch"]

FloatArray = NDArray[np.float64]
Color = Rgba | NDArray[np.uint8]


def _rows(a: ArrayLike, width: int) -> FloatArray:
    return np.asarray(a, dtype=np.float64).reshape(-1, width)


def _colors(color: ArrayLike, ok: ArrayLike) -> Color:
    """One colour, or the rows of a per-item colour array that are kept."""
    if isinstance(color, tuple):
        return color
    c = np.asarray(color, dtype=np.uint8)
    if c.ndim == 1:
        r, g, b, a = (int(v) for v in c)
        return (r, g, b, a)
    return c[np.asarray(ok, dtype=bool)]


@dataclass
class Sketch:
    """Shapes in world px, in drawing order: bands and rocks under the agents; hairlines,
    strokes and dots over them. Rows with a non-finite coordinate are left out.

    Attributes:
        px: World px per screen pixel (1 / camera zoom): what :meth:`thick` and :meth:`dot`
            are given in screen pixels is kept in world px at this scale.
        bands: (segments (K, 4), colour, width): wide lines (path corridors, walls).
        rocks: (centres (K, 2), radii, colour): filled discs under the agents.
        lines: (segments (K, 4), colour): one-pixel lines (field, trails, annotations).
        strokes: (segments (K, 4), colour, width): thick lines over the agents.
        dots: (centres (K, 2), radii, colour, ring thickness (0: filled)).
        triangles: (3N, 2) agent triangle vertices; ``triangle_colors`` (3N, 4).
    """

    px: float = 1.0
    bands: list[tuple[FloatArray, Color, float]] = field(default_factory=list)
    rocks: list[tuple[FloatArray, FloatArray, Color]] = field(default_factory=list)
    lines: list[tuple[FloatArray, Color]] = field(default_factory=list)
    strokes: list[tuple[FloatArray, Color, float]] = field(default_factory=list)
    dots: list[tuple[FloatArray, FloatArray, Color, float]] = field(default_factory=list)
    triangles: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))
    triangle_colors: NDArray[np.uint8] = field(default_factory=lambda: np.zeros((0, 4), np.uint8))

    # -- the Canvas the game's debug drawing uses -------------------------------------------

    def thin(self, segments: ArrayLike, color: ArrayLike) -> None:
        """One-pixel segments."""
        s = _rows(segments, 4)
        ok = np.isfinite(s).all(axis=1)
        if ok.any():
            self.lines.append((s[ok], _colors(color, ok)))

    def thick(self, segments: ArrayLike, color: ArrayLike, width_px: float = 2.4) -> None:
        """Segments ``width_px`` screen pixels wide, over the agents."""
        s = _rows(segments, 4)
        ok = np.isfinite(s).all(axis=1)
        if ok.any():
            self.strokes.append((s[ok], _colors(color, ok), width_px * self.px))

    def dot(
        self, centres: ArrayLike, radius_px: float, color: ArrayLike, ring_px: float = 0.0
    ) -> None:
        """Discs (or rings ``ring_px`` thick) of ``radius_px`` screen pixels, over the agents."""
        self.disc(centres, radius_px * self.px, color, ring_px)

    def disc(
        self, centres: ArrayLike, radius: ArrayLike, color: ArrayLike, ring_px: float = 0.0
    ) -> None:
        """Discs (or rings ``ring_px`` screen pixels thick) of ``radius`` world px."""
        c = _rows(centres, 2)
        r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (c.shape[0],))
        ok = np.isfinite(c).all(axis=1) & np.isfinite(r)
        if ok.any():
            self.dots.append((c[ok], r[ok].copy(), _colors(color, ok), ring_px * self.px))

    # -- the Lab's own shapes -------------------------------------------------------------------

    def link(self, a: ArrayLike, b: ArrayLike, color: ArrayLike) -> None:
        """Lines from points ``a`` to points ``b`` (row by row)."""
        self.thin(np.concatenate((_rows(a, 2), _rows(b, 2)), axis=1), color)

    def arrow(self, tails: ArrayLike, heads: ArrayLike, color: Color, head: float = 5.0) -> None:
        """Arrows from tails to heads (``head``: the arrowhead's size in world px)."""
        t, h = _rows(tails, 2), _rows(heads, 2)
        ok = np.isfinite(t).all(axis=1) & np.isfinite(h).all(axis=1)
        if ok.any():
            self.thin(arrow_segments(t[ok], h[ok], head), color)

    def ring(self, centres: ArrayLike, radius: ArrayLike, color: Color, sides: int = 24) -> None:
        """Circle outlines as hairlines."""
        c = _rows(centres, 2)
        r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (c.shape[0],))
        ok = np.isfinite(c).all(axis=1) & np.isfinite(r) & (r > 0)
        if ok.any():
            self.thin(circle_segments(c[ok], r[ok], sides), color)
