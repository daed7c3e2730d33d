"""The Lab's text: the parameter panel on the left, the followed agent's numbers, the keys,
and the caption line, as ``arcade.Text`` objects made once per scene and updated in place."""

from __future__ import annotations

import arcade
import numpy as np
import pyglet

from game.render import theme

from .scene import Scene

__all__ = ["KEYS", "PANEL_WIDTH", "ROW", "Panel", "keys_help"]

PANEL_WIDTH = 300
#: Room for a line of text on the panel (px).
TEXT_WIDTH = PANEL_WIDTH - 28
ROW = 22
#: Below this window width the panel is hidden (small screenshots show the scene and caption).
MIN_PANEL_WINDOW = 800
KEYS = (
    "Up/Down select   Left/Right or +/- change",
    "drag a value with the mouse",
    "mouse: target   click: follow an agent",
    "Space pause  .  step  R reset  F1 notes:",  # + on / off
    "N / P next / previous scene   Esc list",
)


def keys_help(scene: type[Scene]) -> tuple[str, ...]:
    """The keys' help for ``scene``: :data:`KEYS`, and what a click on empty ground does."""
    hint = scene.click_help()
    if not hint:
        return KEYS
    return (*KEYS[:2], f"mouse: target   click: {hint}", *KEYS[3:])


HIGHLIGHT = (60, 140, 180, 120)
PANEL = (4, 12, 22, 200)


def _text(
    batch: pyglet.graphics.Batch,
    size: float,
    color: tuple[int, int, int, int],
    *,
    bold: bool = False,
    anchor_x: str = "left",
) -> arcade.Text:
    return arcade.Text(
        "", 0, 0, color, size, font_name=theme.FONT, batch=batch, bold=bold, anchor_x=anchor_x
    )


class Panel:
    """Everything written on screen for one scene.

    Args:
        scene: The scene whose parameters are listed.
        width: Window width (px).
        height: Window height (px).
    """

    def __init__(self, scene: Scene, width: int, height: int) -> None:
        self.scene = scene
        self.batch = pyglet.graphics.Batch()
        b = self.batch
        self.title = _text(b, 16, theme.HUD_TEXT, bold=True)
        #: Where the scene comes from (a seed example's source), under the title; "" if none.
        self.subtitle = _text(b, 10, theme.HUD_DIM)
        self.state = _text(b, 11, theme.HUD_DIM)
        self.labels = [_text(b, 12, theme.HUD_TEXT) for _ in scene.p]
        self.values = [_text(b, 12, theme.HUD_GOOD, anchor_x="right") for _ in scene.p]
        self.info = [_text(b, 11, theme.HUD_TEXT) for _ in range(5)]
        keys = keys_help(type(scene))
        self.keys = [_text(b, 10, theme.HUD_DIM) for _ in keys]
        self.caption = arcade.Text(
            scene.caption_text(), 0, 0, theme.HUD_TEXT, 12, font_name=theme.FONT, italic=True
        )
        self.title.text = scene.title
        while self.title.content_width > TEXT_WIDTH and self.title.font_size > 10:
            self.title.font_size -= 1  # a long title, smaller (once per scene)
        self.subtitle.text = scene.source
        while self.subtitle.content_width > TEXT_WIDTH and self.subtitle.font_size > 8:
            self.subtitle.font_size -= 1
        for t, line in zip(self.keys, keys, strict=True):
            t.text = line
        self.f1 = next(t for t in self.keys if "F1" in t.text)
        self.f1_text = self.f1.text
        self.layout(width, height)

    @property
    def shown(self) -> bool:
        """Whether the panel fits (small windows show only the caption)."""
        return self.width >= MIN_PANEL_WINDOW

    def layout(self, width: int, height: int) -> None:
        """Place the texts for a window of this size."""
        self.width, self.height = width, height
        left, right = 14, PANEL_WIDTH - 14
        self.title.position = (left, height - 30)
        if self.subtitle.text:
            self.subtitle.position = (left, height - 47)
            self.state.position = (left, height - 64)
        else:
            self.state.position = (left, height - 50)
        for k, (lab, val) in enumerate(zip(self.labels, self.values, strict=True)):
            y = self.row_y(k)
            lab.position = (left, y)
            val.position = (right, y)
        top = self.row_y(len(self.labels)) - 12
        for k, t in enumerate(self.info):
            t.position = (left, top - k * 18)
        for k, t in enumerate(self.keys):
            t.position = (left, 14 + (len(self.keys) - 1 - k) * 16)
        x0 = PANEL_WIDTH + 12 if self.shown else 8
        self.caption.position = (x0, 14)

    def row_y(self, k: int) -> float:
        """Baseline of parameter row ``k``."""
        return self.height - 84 - k * ROW

    def row_at(self, x: float, y: float) -> int | None:
        """The parameter row under screen point (x, y), or None."""
        if not self.shown or x > PANEL_WIDTH:
            return None
        for k in range(len(self.labels)):
            base = self.row_y(k)
            if base - 6 <= y <= base + ROW - 6:
                return k
        return None

    def update(self, paused: bool, annotations: bool, follow: int | None) -> None:
        """Refresh the values, the caption (it reads them), the state line and the followed
        agent's numbers."""
        s = self.scene
        caption = s.caption_text()
        if caption != self.caption.text:  # a new layout only when a value changed
            self.caption.text = caption
        for t, v, p in zip(self.labels, self.values, s.p, strict=True):
            t.text = p.label
            v.text = p.text()
        run = "paused" if paused else "running"
        self.state.text = f"{run}   t {s.time:.1f} s   frame {s.frame}"
        self.f1.text = f"{self.f1_text} {'on' if annotations else 'off'}"
        lines = ["click an agent to follow it", "", "", "", ""]
        if follow is not None and follow < s.agents.n:
            a = s.agents
            v, f = a.vel[follow], s.force[follow]
            lines = [
                s.agent_label(follow),
                f"pos ({a.pos[follow, 0]:.1f}, {a.pos[follow, 1]:.1f}) px",
                f"vel ({v[0]:.1f}, {v[1]:.1f})  speed {float(np.hypot(*v)):.1f} px/s",
                f"force ({f[0]:.0f}, {f[1]:.0f})  |f| {float(np.hypot(*f)):.0f} px/s²",
                f"max speed {a.max_speed[follow]:.0f}  max force {a.max_force[follow]:.0f}",
            ]
        for t, line in zip(self.info, lines, strict=True):
            t.text = line

    def draw(self) -> None:
        """Draw the panel (under a screen-space camera). Changes nothing."""
        if self.shown:
            arcade.draw_lrbt_rectangle_filled(0, PANEL_WIDTH, 0, self.height, PANEL)
            y = self.row_y(self.scene.p.selected)
            arcade.draw_lrbt_rectangle_filled(6, PANEL_WIDTH - 6, y - 6, y + ROW - 8, HIGHLIGHT)
            self.batch.draw()
            self.caption.draw()
        # a small window (a picture for the docs) shows the scene alone
