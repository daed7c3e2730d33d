"""Drawing a :class:`~game.lab.canvas.Sketch` with the game's batches: a handful of draw calls
whatever the scene holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.render.batch import DiscBatch, HairlineBatch, LineBatch, TriangleBatch

from .canvas import Sketch

if TYPE_CHECKING:
    import arcade

__all__ = ["Painter"]


class Painter:
    """The batches one Lab view draws with, refilled from a sketch in :meth:`update`.

    Args:
        ctx: The window's context.
    """

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        self.bands = LineBatch(ctx, 256)
        self.rocks = DiscBatch(ctx, 64)
        self.hairlines = HairlineBatch(ctx, 8192)
        self.agents = TriangleBatch(ctx, 3 * 512)
        self.strokes = LineBatch(ctx, 256)
        self.dots = DiscBatch(ctx, 1024)
        self.pixel = 1.0

    def update(self, sketch: Sketch) -> None:
        """Upload ``sketch`` (its sizes are world px; its ``px`` sets the lines' fringes)."""
        self.pixel = sketch.px
        for seg, color, width in sketch.bands:
            self.bands.add(seg, color, width)
        self.bands.commit()
        for centres, radii, color in sketch.rocks:
            self.rocks.add(centres, radii, color)
        self.rocks.commit()
        for seg, color in sketch.lines:
            self.hairlines.add(seg, color)
        self.hairlines.commit()
        self.agents.add(sketch.triangles, sketch.triangle_colors)
        self.agents.commit()
        for seg, color, width in sketch.strokes:
            self.strokes.add(seg, color, width)
        self.strokes.commit()
        for centres, radii, color, ring in sketch.dots:
            self.dots.add(centres, radii, color, ring)
        self.dots.commit()

    def draw(self) -> None:
        """Draw everything (under the world camera). Changes nothing."""
        self.bands.draw(self.pixel)
        self.rocks.draw()
        self.hairlines.draw()
        self.agents.draw()
        self.strokes.draw(self.pixel)
        self.dots.draw()
