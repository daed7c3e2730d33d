"""Where a scene goes on screen (pure maths, no arcade): the camera that fits the world beside
the panel, and the screen box the world is clipped to, so that nothing of it (a path's
corridor, an agent leaving over the edge, a followed agent's neighbours) is drawn under the
panel or the caption."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["CAPTION_BAND", "FOLLOW_ZOOM", "MARGIN", "Layout"]

FloatArray = NDArray[np.float64]

#: Screen px kept free at the bottom for the caption when the panel is shown.
CAPTION_BAND = 36
#: Screen px of space round the world.
MARGIN = 8
#: How much closer the camera looks when it follows an agent.
FOLLOW_ZOOM = 2.0


@dataclass(frozen=True)
class Layout:
    """The part of the window a scene is drawn in.

    Attributes:
        width: Window width (px).
        height: Window height (px).
        left: Screen px taken on the left (the panel's width, or 0 when it is hidden).
        bottom: Screen px taken at the bottom (the caption's band, or 0).
    """

    width: int
    height: int
    left: int = 0
    bottom: int = 0

    def fit(
        self, size: tuple[float, float], follow: FloatArray | None = None
    ) -> tuple[FloatArray, float]:
        """Camera centre (world px) and zoom that fit a world of ``size`` into the free area
        with a margin, or frame the point ``follow`` closer (:data:`FOLLOW_ZOOM`)."""
        aw = self.width - self.left - 2 * MARGIN
        ah = self.height - self.bottom - 2 * MARGIN
        w, h = size
        zoom = max(min(aw / w, ah / h), 1e-3)
        centre = np.array([w / 2, h / 2])
        if follow is not None:
            zoom *= FOLLOW_ZOOM
            centre = np.asarray(follow, dtype=np.float64).reshape(2).copy()
        # the free area's centre, as an offset from the window's centre
        offset = np.array(
            [
                self.left + MARGIN + aw / 2 - self.width / 2,
                self.bottom + MARGIN + ah / 2 - self.height / 2,
            ]
        )
        return centre - offset / zoom, zoom

    def clip(
        self, size: tuple[float, float], centre: FloatArray, zoom: float
    ) -> tuple[int, int, int, int]:
        """The screen box (left, bottom, width, height; whole px) to draw the world in: the
        world's rectangle seen by a camera at ``centre`` and ``zoom``, one pixel wider all
        round (its border line stays), inside the free area. Width and height may be 0."""
        w, h = size
        cx = self.width / 2 + (np.array([0.0, w]) - centre[0]) * zoom
        cy = self.height / 2 + (np.array([0.0, h]) - centre[1]) * zoom
        eps = 1e-6  # a border at 308.0000001 px is at 308
        left = max(int(np.floor(cx[0] + eps)) - 1, self.left)
        bottom = max(int(np.floor(cy[0] + eps)) - 1, self.bottom)
        right = min(int(np.ceil(cx[1] - eps)) + 1, self.width)
        top = min(int(np.ceil(cy[1] - eps)) + 1, self.height)
        return left, bottom, max(right - left, 0), max(top - bottom, 0)
