"""The Lab view: a list of scenes, and one scene running with its parameters, its annotations
and a camera that can follow an agent. Keys and mouse become calls on the scene; the
simulation steps in ``on_fixed_update`` only."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import numpy as np

from game.clock import DT
from game.lab.draw import Painter
from game.lab.layout import CAPTION_BAND, Layout
from game.lab.panel import PANEL_WIDTH, Panel
from game.lab.registry import scene_classes
from game.lab.scene import Scene
from game.lab.sketch import sketch_scene
from game.render import theme

from .menu import Menu
from .window import set_caption

__all__ = ["LIST_KEYS", "LabView"]

#: Camera easing (1/s).
STIFFNESS = 6.0
LIST_ROW = 23.0
#: Where the list's second column (the scene's name for ``python -m game lab NAME``) starts.
NAME_COLUMN = 320
#: The list's keys, shown under it.
LIST_KEYS = "Up/Down choose   Enter or click: open   Esc back"


class LabView(arcade.View):
    """The Lab.

    Args:
        window: The window.
        scene: A scene class to open at once (None: the list).
        on_exit: Called by Esc on the list (None: close the window).
        annotations: Start with the annotations (F1) on.
    """

    def __init__(
        self,
        window: arcade.Window,
        scene: type[Scene] | None = None,
        *,
        on_exit: Callable[[], None] | None = None,
        annotations: bool = True,
    ) -> None:
        super().__init__(window, background_color=theme.BACKGROUND)
        self.classes = scene_classes()
        self.on_exit = on_exit
        self.annotations = annotations
        self.menu = Menu([c.title for c in self.classes], 0, 0, LIST_ROW, 12)
        # the names in a column of their own (spaces do not align a proportional font)
        self.names = [
            arcade.Text(c.name, 0, 0, theme.HUD_DIM, 12, font_name=theme.FONT) for c in self.classes
        ]
        self.heading = arcade.Text(
            "THE LAB: every behaviour, the basics first, then the seed examples",
            0,
            0,
            theme.HUD_TEXT,
            20,
            font_name=theme.FONT,
            bold=True,
        )
        self.blurb = arcade.Text("", 0, 0, theme.HUD_DIM, 12, font_name=theme.FONT, italic=True)
        self.list_keys = arcade.Text(LIST_KEYS, 0, 0, theme.HUD_DIM, 11, font_name=theme.FONT)
        self.world_cam = arcade.Camera2D(window=window)
        self.gui_cam = arcade.Camera2D(window=window)
        self.painter = Painter(window.ctx)
        self.scene: Scene | None = None
        self.panel: Panel | None = None
        self.paused = False
        self.step_once = False
        self.follow: int | None = None
        self.drag: tuple[int, float, float] | None = None
        self.cam = np.zeros(2)
        self.zoom = 1.0
        if scene is not None:
            self.open(scene)
        self.on_resize(*window.get_size())

    def on_show_view(self) -> None:
        """The window's title names this view."""
        set_caption(self.window, "Lab")

    # -- scenes --------------------------------------------------------------------------------

    def open(self, cls: type[Scene]) -> None:
        """Run a fresh instance of ``cls``."""
        self.scene = cls()
        self.panel = Panel(self.scene, *self.window.get_size())
        self.menu.selected = self.classes.index(cls) if cls in self.classes else 0
        self.follow, self.drag, self.paused = None, None, False
        self.cam, self.zoom = self._goal()

    def close_scene(self) -> None:
        """Back to the list."""
        self.scene, self.panel = None, None

    def layout(self) -> Layout:
        """The part of the window beside the panel and above the caption."""
        width, height = self.window.get_size()
        shown = self.panel is not None and self.panel.shown
        return Layout(width, height, PANEL_WIDTH if shown else 0, CAPTION_BAND if shown else 0)

    def _goal(self) -> tuple[np.ndarray, float]:
        """Camera centre and zoom that fit the world (or frame the followed agent)."""
        assert self.scene is not None
        follow = None
        if self.follow is not None and self.follow < self.scene.agents.n:
            follow = self.scene.agents.pos[self.follow]
        return self.layout().fit(self.scene.size, follow)

    def world_point(self, x: float, y: float) -> np.ndarray:
        """Screen (x, y) as world px."""
        p = self.world_cam.unproject((x, y))
        return np.array([p[0], p[1]], dtype=np.float64)

    # -- arcade events -------------------------------------------------------------------------

    def on_resize(self, width: int, height: int) -> None:
        """Lay out the list, the panel and the cameras."""
        self.gui_cam.match_window(position=True)
        self.world_cam.match_window(scissor=False)  # on_update sets the clip
        self.heading.position = (40, height - 50)
        self.blurb.position = (40, 24)
        self.list_keys.position = (40, 50)
        self.menu.place(60, height - 90)
        for k, t in enumerate(self.names):
            t.position = (60 + NAME_COLUMN, height - 90 - k * LIST_ROW)
        if self.panel is not None:
            self.panel.layout(width, height)

    def on_fixed_update(self, delta_time: float) -> None:
        """Step the scene at the game's fixed step (not while paused, except for ``.``)."""
        if self.scene is not None and (not self.paused or self.step_once):
            self.scene.step(DT)
            self.step_once = False

    def on_update(self, delta_time: float) -> None:
        """Move the camera; rebuild what is drawn from the scene's state."""
        if self.scene is None or self.panel is None:
            c = self.classes[self.menu.selected] if self.classes else None
            caption = c.default_caption() if c is not None else ""
            if c is not None and c.source:
                caption = f"{c.source}: {caption}"
            self.blurb.text = caption
            return
        if self.follow is not None and self.follow >= self.scene.agents.n:
            self.follow = None
        goal, zoom = self._goal()
        k = 1.0 - float(np.exp(-STIFFNESS * max(delta_time, 0.0)))
        self.cam += (goal - self.cam) * k
        self.zoom += (zoom - self.zoom) * k
        self.world_cam.position = (float(self.cam[0]), float(self.cam[1]))
        self.world_cam.zoom = self.zoom
        box = self.layout().clip(self.scene.size, self.cam, self.zoom)
        self.world_cam.scissor = arcade.LBWH(*box)
        width, height = self.window.get_size()
        hw, hh = width / 2 / self.zoom, height / 2 / self.zoom
        visible = (self.cam[0] - hw, self.cam[1] - hh, self.cam[0] + hw, self.cam[1] + hh)
        sketch = sketch_scene(
            self.scene,
            annotations=self.annotations,
            selected=self.follow,
            visible=visible,
            px=1.0 / self.zoom,
        )
        self.painter.update(sketch)
        self.panel.update(self.paused, self.annotations, self.follow)

    def snap(self) -> None:
        """Put the camera where it is going at once (screenshots)."""
        if self.scene is not None:
            self.cam, self.zoom = self._goal()
            self.on_update(0.0)

    def on_draw(self) -> None:
        """Draw the scene and the panel, or the list. Changes nothing."""
        self.clear()
        if self.scene is not None and self.panel is not None:
            self.world_cam.use()
            self.painter.draw()
            self.gui_cam.use()
            self.panel.draw()
            return
        self.gui_cam.use()
        self.heading.draw()
        self.menu.draw()
        for t in self.names:
            t.draw()
        self.blurb.draw()
        self.list_keys.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """List: arrows, Enter, Esc. Scene: see :data:`game.lab.panel.KEYS`."""
        k = arcade.key
        if self.scene is None:
            if symbol in (k.UP, k.DOWN):
                self.menu.move(-1 if symbol == k.UP else 1)
            elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER, k.SPACE) and self.classes:
                self.open(self.classes[self.menu.selected])
            elif symbol == k.ESCAPE:
                self.on_exit() if self.on_exit is not None else self.window.close()
            return
        p = self.scene.p
        if symbol in (k.UP, k.DOWN):
            p.move(-1 if symbol == k.UP else 1)
        elif symbol in (k.LEFT, k.MINUS, k.NUM_SUBTRACT):
            p.nudge(-1)
        elif symbol in (k.RIGHT, k.PLUS, k.EQUAL, k.NUM_ADD):
            p.nudge(1)
        elif symbol == k.SPACE:
            self.paused = not self.paused
        elif symbol == k.PERIOD:
            self.paused, self.step_once = True, True
        elif symbol == k.R:
            self.scene.reset()
            self.follow = None
        elif symbol == k.F1:
            self.annotations = not self.annotations
        elif symbol in (k.N, k.P, k.PAGEDOWN, k.PAGEUP) and self.classes:
            step = 1 if symbol in (k.N, k.PAGEDOWN) else -1
            self.open(self.classes[(self.menu.selected + step) % len(self.classes)])
        elif symbol == k.ESCAPE:
            self.close_scene()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The mouse is the scene's target (outside the panel)."""
        if self.scene is not None and self.panel is not None:
            if not (self.panel.shown and x <= PANEL_WIDTH):
                self.scene.set_target(self.world_point(x, y))
        elif self.scene is None:
            row = round((self.menu.top + 6 - y) / LIST_ROW)
            if 0 <= row < len(self.menu):
                self.menu.selected = row

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Panel row: select and start a drag. World: follow an agent, else the scene's
        click (an obstacle), else stop following. List: open the row."""
        if self.scene is None:
            self.on_mouse_motion(x, y, 0, 0)
            if self.classes:
                self.open(self.classes[self.menu.selected])
            return
        assert self.panel is not None
        row = self.panel.row_at(x, y)
        if row is not None:
            self.scene.p.selected = row
            self.drag = (row, float(x), self.scene.p.items[row].value)
            return
        if self.panel.shown and x <= PANEL_WIDTH:
            return
        xy = self.world_point(x, y)
        hit = self.scene.agent_at(xy)
        if hit is not None:
            self.follow = None if hit == self.follow else hit
        elif not self.scene.click(xy):
            self.follow = None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        """Drag a parameter's value; elsewhere the target follows."""
        if self.scene is not None and self.drag is not None:
            row, x0, start = self.drag
            self.scene.p.items[row].drag(start, x - x0)
        else:
            self.on_mouse_motion(x, y, dx, dy)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """End a drag."""
        self.drag = None
