"""What the editor draws over the live world: node handles, hover and selection, rock rims,
spawns, exits and flow regions, and its two HUD lines. Built in ``update``, drawn in ``draw``.
"""

from __future__ import annotations

import arcade
import numpy as np

from game.editor import ROCK_KINDS, EditModel, Hit, HitKind
from game.level import Point
from game.render import theme
from game.render.batch import DiscBatch, LineBatch
from game.render.geometry import rect_outline

__all__ = ["HELP", "EditorLayer"]

HELP = (
    "drag node/rock/rim/tube edge  click segment: insert  dbl-click: append  right/Del: delete  "
    "wheel: radius/zoom  C close  N new  G grid  Space pause  ^Z ^Y undo/redo  ^S save  "
    "F5/Tab play"
)
NODE, SELECTED, HOVER = (200, 230, 240, 255), (255, 220, 90, 255), (255, 120, 90, 255)
ROCK_EDGE, SPAWN = (210, 170, 120, 200), (120, 255, 170, 255)


class EditorLayer:
    """The editor's handles (world space) and HUD (screen space).

    Args:
        ctx: The window's context.
    """

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        self.lines, self.discs = LineBatch(ctx, 512), DiscBatch(ctx, 512)
        self.status = arcade.Text("", 12, 0, theme.HUD_TEXT, 13, font_name=theme.FONT, bold=True)
        self.help = arcade.Text(HELP, 12, 12, theme.HUD_DIM, 10, font_name=theme.FONT)
        self._size = (0, 0)

    def update(
        self, model: EditModel, hover: Hit | None, zoom: float, status: str, size: tuple[int, int]
    ) -> None:
        """Rebuild the handles for the model's level, and set the status line."""
        level, px = model.level, 1.0 / zoom
        for path in level.paths:
            pts = np.asarray(path.points)
            color = SELECTED if path.name == model.selected else NODE
            if hover is not None and hover.path == path.name and hover.kind is not HitKind.NODE:
                tube = 2.0 * np.asarray(path.segment_radii)
                self.lines.add_strip(pts, (*HOVER[:3], 90), tube, path.closed)
            self.lines.add_strip(pts, color, 2.0 * px, path.closed)
            self.discs.add(pts, 5.0 * px, color)
        for k, rock in enumerate(level.obstacles):
            hot = hover is not None and hover.kind in ROCK_KINDS and hover.index == k
            rim = hot and hover is not None and hover.kind is HitKind.RIM
            ring = (4.0 if rim else 2.0) * px
            self.discs.add([(rock.x, rock.y)], rock.radius, HOVER if hot else ROCK_EDGE, ring)
        if hover is not None and hover.kind is HitKind.NODE:
            self.discs.add([hover.point], 8.0 * px, HOVER, ring=2.5 * px)
        spawns: list[Point] = [(level.player.x, level.player.y)]
        spawns += [(s.x, s.y) for s in level.enemies] + [(s.x, s.y) for s in level.npcs]
        self.discs.add(spawns, 6.0 * px, SPAWN, ring=2.0 * px)
        for rect, color, width in [(e.rect, theme.EXIT_EDGE, 2.0) for e in level.exits] + [
            (f.rect, theme.FLOW_PARTICLE, 1.0) for f in level.flows
        ]:
            outline = rect_outline(rect.left, rect.bottom, rect.width, rect.height)
            self.lines.add(outline, color, width * px)
        self.lines.commit()
        self.discs.commit()
        self.status.text = status
        self.status.y = size[1] - 24
        self._size = size

    def draw_world(self, zoom: float) -> None:
        """Draw the handles (under the world camera). Changes nothing."""
        self.lines.draw(1.0 / zoom)
        self.discs.draw()

    def draw_hud(self) -> None:
        """Draw the status and help lines (under a screen camera). Changes nothing."""
        w, h = self._size
        arcade.draw_lrbt_rectangle_filled(0, w, h - 36, h, theme.HUD_PANEL)
        arcade.draw_lrbt_rectangle_filled(0, w, 0, 32, theme.HUD_PANEL)
        self.status.draw()
        self.help.draw()
