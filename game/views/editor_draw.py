"""What the editor draws over the live world: node handles, hover and selection, rock rims,
wall lines and corners, spawn points and NPC spawn rectangles, exits, flow regions with their
arrows and corner handles, and its two HUD lines. Built in ``update``, drawn in ``draw``.
"""

from __future__ import annotations

import math

import arcade
import numpy as np

from game.editor import ROCK_KINDS, EditModel, Hit, HitKind
from game.editor.hits import corners, flow_arrow
from game.editor.objects import Ref, rect_of, refs
from game.editor.objects import get as get_object
from game.level import FlowRegion, Level, NpcSpawn, Point
from game.render import theme
from game.render.batch import DiscBatch, LineBatch
from game.render.geometry import rect_outline

from .editor_panel import PANEL_W

__all__ = ["HELP", "EditorLayer", "breakable"]

HELP = (
    "1 select 2 path 3 rock 4 enemy 5 NPC 6 exit 7 flow 8 wall (Shift: box)  right/Del delete  "
    "T NPC area  wheel radius/zoom  Home fit  C close  N path  G grid  Space pause  ^Z ^Y ^S  F5"
)
NODE, SELECTED, HOVER = (200, 230, 240, 255), (255, 220, 90, 255), (255, 120, 90, 255)
ROCK_EDGE, SPAWN, NPC_AREA = (210, 170, 120, 200), (120, 255, 170, 255), (170, 200, 255, 220)
ENEMY, PLAYER = (255, 110, 110, 255), (255, 220, 90, 255)
WALL = (235, 235, 220, 230)


def breakable(text: str) -> str:
    """``text`` with a zero-width space after each ``/``: pyglet wraps only at spaces, and a
    refusal naming a long file path ran past the notice's width (the panel's left edge)."""
    return text.replace("/", "/\u200b")


class EditorLayer:
    """The editor's handles (world space) and HUD (screen space).

    Args:
        ctx: The window's context.
    """

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        self.lines, self.discs = LineBatch(ctx, 1024), DiscBatch(ctx, 1024)
        self.status = arcade.Text("", 12, 0, theme.HUD_TEXT, 13, font_name=theme.FONT, bold=True)
        self.help = arcade.Text(HELP, 12, 12, theme.HUD_DIM, 10, font_name=theme.FONT)
        # The model's notice, wrapped under the top bar: a refusal names file, object and
        # field, and ran off the window's edge at the end of the status line.
        self.notice = arcade.Text(
            "",
            12,
            0,
            SELECTED,
            12,
            font_name=theme.FONT,
            multiline=True,
            width=400,
            anchor_y="top",
        )
        self._size = (0, 0)

    def update(
        self,
        model: EditModel,
        level: Level,
        hover: Hit | None,
        zoom: float,
        status: str,
        size: tuple[int, int],
    ) -> None:
        """Rebuild the handles for ``level`` (the model's, pushable rocks where they are now)
        and set the status line."""
        px = 1.0 / zoom
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
            chosen = model.selection == Ref("obstacles", k)
            ring = (4.0 if rim else 2.0) * px
            color = HOVER if hot else SELECTED if chosen else ROCK_EDGE
            self.discs.add([(rock.x, rock.y)], rock.radius, color, ring)
        if model.path_start is not None:  # the path tool's first click: one node so far
            self.discs.add([model.path_start], 5.0 * px, SELECTED)
        self._walls(model, level, hover, px)
        if hover is not None and hover.kind in (HitKind.NODE, HitKind.SPAWN, HitKind.CORNER):
            self.discs.add([hover.point], 8.0 * px, HOVER, ring=2.5 * px)
        self._objects(model, level, hover, px)
        self.lines.commit()
        self.discs.commit()
        self.status.text = status
        self.status.y = size[1] - 24
        notice = breakable(model.notice)
        if self.notice.text != notice:
            self.notice.text = notice
        width = max(size[0] - PANEL_W - 24, 200)
        if self.notice.width != width:
            self.notice.width = width
        self.notice.y = size[1] - 44
        self._size = size

    def _walls(self, model: EditModel, level: Level, hover: Hit | None, px: float) -> None:
        """Each wall's centre line and corner handles; a hovered wall shows its thickness."""
        for k, wall in enumerate(level.walls):
            pts = np.asarray(wall.points)
            chosen = model.selection == Ref("walls", k)
            hot = hover is not None and hover.wall == k
            if hot and hover is not None and hover.kind is HitKind.WALL:
                self.lines.add_strip(pts, (*HOVER[:3], 90), wall.thickness, wall.closed)
            color = SELECTED if chosen else HOVER if hot else WALL
            self.lines.add_strip(pts, color, (2.5 if chosen else 1.5) * px, wall.closed)
            self.discs.add(pts, 4.0 * px, color)

    def _objects(self, model: EditModel, level: Level, hover: Hit | None, px: float) -> None:
        """Spawn points, rectangles (exits, flows, NPC areas) with corners, flow arrows."""
        for ref in refs(level):
            if ref.field in ("paths", "obstacles", "walls"):
                continue
            item = get_object(level, ref)
            chosen = model.selection == ref
            hot = hover is not None and hover.ref == ref
            rect = rect_of(item)
            if rect is not None:
                base = theme.EXIT_EDGE if ref.field == "exits" else theme.FLOW_PARTICLE
                base = NPC_AREA if isinstance(item, NpcSpawn) else base
                color = SELECTED if chosen else HOVER if hot else base
                outline = rect_outline(rect.left, rect.bottom, rect.width, rect.height)
                self.lines.add(outline, color, (2.5 if chosen else 1.5) * px)
                if chosen or hot:
                    self.discs.add(list(corners(rect)), 4.0 * px, color)
            if isinstance(item, FlowRegion):
                self._arrow(*flow_arrow(item), SELECTED if chosen else theme.FLOW_PARTICLE, px)
            if rect is None or isinstance(item, NpcSpawn):
                point: Point = (getattr(item, "x", 0.0), getattr(item, "y", 0.0))
                color = ENEMY if ref.field == "enemies" else SPAWN
                if ref.field == "player":
                    color = PLAYER
                self.discs.add([point], 6.0 * px, SELECTED if chosen else color, ring=2.0 * px)

    def _arrow(self, tail: Point, tip: Point, color: tuple[int, int, int, int], px: float) -> None:
        """An arrow from ``tail`` to ``tip`` with a head and a grip at the tip."""
        (x0, y0), (x1, y1) = tail, tip
        a = math.atan2(y1 - y0, x1 - x0)
        head = 10.0 * px
        left = (x1 - head * math.cos(a - 0.5), y1 - head * math.sin(a - 0.5))
        right = (x1 - head * math.cos(a + 0.5), y1 - head * math.sin(a + 0.5))
        segments = [(x0, y0, x1, y1), (x1, y1, *left), (x1, y1, *right)]
        self.lines.add(segments, color, 2.0 * px)
        self.discs.add([tip], 4.0 * px, color, ring=1.5 * px)

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
        if self.notice.text:
            bottom = self.notice.y - self.notice.content_height - 6
            right = self.notice.x + (self.notice.width or 0) + 12
            arcade.draw_lrbt_rectangle_filled(0, right, bottom, h - 36, theme.HUD_PANEL)
            self.notice.draw()
