"""The world's static bottom layers, drawn once while the camera holds still.

The dark beyond the map, the currents' tints and the grid do not change while a level plays,
yet software rasterisers (Mesa's llvmpipe) spend milliseconds a frame on their translucent
fills and antialiased lines. :class:`Backdrop` draws them as they are while the camera moves,
and once it holds still draws them into an offscreen texture, over the window's clear colour,
which each later frame copies to the screen in one framebuffer blit. The blit covers the whole
window, so it also stands in for the frame's clear: on llvmpipe a clear and a blit each cost
about as much as one full-window fill, and translucent tints over most of the map two to four
more. Where the layers are cheap (no big tints) the blit gains nothing and costs the main
thread about a millisecond (measured), so the cache is only used when asked for.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
from arcade.gl import NEAREST, Framebuffer
from pyglet import gl

__all__ = ["Backdrop"]

#: What the layers were drawn for: viewport, projection, view, target framebuffer.
_Key = tuple[object, ...]


class Backdrop:
    """Layers drawn through a cache keyed on the camera and the viewport.

    Args:
        ctx: The window's context.
        layers: Draws the layers (under the active camera), bottom first, over what is there.
        clear: The colour under them (the window's clear colour), RGBA 0-255.
        cached: Use the texture while the camera holds still; False: always draw directly.
    """

    def __init__(
        self,
        ctx: arcade.ArcadeContext,
        layers: Callable[[], None],
        clear: tuple[int, int, int, int],
        cached: bool = True,
    ) -> None:
        self.cached = cached
        self._ctx = ctx
        self._layers = layers
        self._clear = clear
        self._fbo: Framebuffer | None = None
        self._holds: _Key | None = None  # what the texture holds
        self._last: _Key | None = None  # what the last frame drew for
        #: Frames drawn from the texture and frames drawn directly (the tests read them).
        self.copies = 0
        self.direct = 0

    def draw(self, clear: bool = False) -> None:
        """Draw the layers: directly when the camera or viewport changed since the last
        frame, else from the texture (made first when it holds another view).

        Args:
            clear: paint the whole target first with the clear colour (the frame's clear:
                the texture's copy does it, a direct draw clears first).
        """
        ctx = self._ctx
        target = ctx.active_framebuffer
        key: _Key = (
            tuple(ctx.viewport),
            tuple(ctx.projection_matrix),
            tuple(ctx.view_matrix),
            id(target),
            target.size,
        )
        if key != self._last or not self.cached or 0 in target.size:
            self._last = key
            self.direct += 1
            if clear:
                target.clear(color=self._clear, viewport=(0, 0, *target.size))
            self._layers()
            return
        if key != self._holds:
            self._render(target, key)
        fbo = self._fbo
        assert fbo is not None
        # A framebuffer blit (a copy of rows of pixels): a software rasteriser samples a
        # full-window textured quad at twice the cost of drawing the layers themselves. The
        # blit obeys the scissor test, which arcade keeps on at the camera's viewport: off for
        # the copy, so that it covers the whole window as a clear does.
        scissor = gl.glIsEnabled(gl.GL_SCISSOR_TEST)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        ctx.copy_framebuffer(fbo, target, depth=False)
        if scissor:
            gl.glEnable(gl.GL_SCISSOR_TEST)
        target.use(force=True)  # the blit left the texture bound for reading
        self.copies += 1

    def _render(self, target: Framebuffer, key: _Key) -> None:
        """Draw the layers into the texture, as they would be drawn on ``target``."""
        ctx = self._ctx
        size = target.size
        if self._fbo is None or self._fbo.size != size:
            texture = ctx.texture(size, components=4, filter=(NEAREST, NEAREST))
            self._fbo = ctx.framebuffer(color_attachments=[texture])
        viewport = ctx.viewport
        # The target's viewport in pixels: the window's is read in logical units (arcade
        # scales it by the pixel ratio), an offscreen framebuffer's is set in pixels.
        pixels = viewport
        if target.is_default:
            ratio = ctx.window.get_pixel_ratio()
            pixels = (
                int(viewport[0] * ratio),
                int(viewport[1] * ratio),
                int(viewport[2] * ratio),
                int(viewport[3] * ratio),
            )
        with self._fbo.activate():
            self._fbo.clear(color=self._clear)
            self._fbo.viewport = pixels
            self._layers()
        ctx.viewport = viewport
        self._holds = key
