"""The level editor view: the live world (agents following the paths being edited) drawn
under the handles, the HUD and the property panel. All edit logic is in the model
(:class:`game.editor.EditModel`); mouse and keys are mapped in :mod:`game.views.editor_input`;
this view forwards changes to the world and draws. Every control is listed in docs/editor.md."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import arcade

from game.editor import Change, EditModel
from game.editor.hits import followed
from game.editor.panel import Panel
from game.editor.tools import Tool
from game.level import Level
from game.level.text import shown
from game.render import theme
from game.render.scene import WorldRenderer
from game.safe_io import raise_if_terminated
from game.world import World

from .editor_draw import EditorLayer
from .editor_input import PICK_PX, EditorInput, fit_camera, rescued
from .editor_panel import PanelLayer
from .level import LevelView

if TYPE_CHECKING:
    from .app import GameApp

__all__ = ["PICK_PX", "EditorView", "PlaytestView", "fit_camera", "rescue_on_exit"]

PAN_PX_PER_S = 600.0


class EditorView(EditorInput):
    """Edit a level while its world runs underneath (its mouse and keys: :class:`EditorInput`).

    Args:
        app: Shared services (textures, sounds, progress).
        model: The edit model (kept across play-tests, so is its undo history).
        world: A running world of the same level to keep (from the level view), or None.
    """

    def __init__(self, app: GameApp, model: EditModel, world: World | None = None) -> None:
        super().__init__(app.window, background_color=theme.BACKGROUND)
        self.app, self.model = app, model
        self.world = world if world is not None and world.level == model.level else None
        self.renderer: WorldRenderer | None = None
        self._rebuild_world()
        self.camera = arcade.Camera2D(window=app.window)
        fit_camera(self.camera, model.level, app.window.get_size())
        self.screen = arcade.Camera2D(window=app.window)
        self.running, self.panning = True, False
        self.tool = Tool.SELECT
        self.hover = None
        self.mouse = (-1e9, -1e9)  # no cursor yet: nothing hovered (not the world's origin)
        self.keys = set()
        self._last_click = (-1.0, 0.0, 0.0)
        self._redraw = False  # after an edit that needs a new drawing, done once per frame
        self._press = None  # a press on a panel value
        self._wall_press = None  # the wall tool's press: (selected wall, x, y)
        self._drag_to = None  # the drag's next cursor place, applied once per frame
        self.caption = ""  # the window title it set (headless windows ignore titles)
        self._forsake = None
        self._leave_asked = None
        self.layer = EditorLayer(app.window.ctx)
        self.panel = Panel()
        self.panel_layer = PanelLayer()
        model.subscribe(self._on_changes)
        if model.autosave_offered is not None:
            model.notice = "a newer autosave exists: R recovers it, D discards it"

    # -- world ------------------------------------------------------------------------------

    def _rebuild_world(self) -> None:
        """The world (a fresh one unless one was handed over) and its drawing."""
        self.world = World(self.model.level) if self.world is None else self.world
        # The player here is only its start marker: the enemies must not hunt it.
        self.world.player.ghost = True
        self.renderer = WorldRenderer(self.world, self.app.bank, self.window.ctx)

    def _on_changes(self, changes: Sequence[Change]) -> None:
        """Mirror edits into the running world (:meth:`World.edit`), live: nothing restarts,
        agents that remain keep where they are. A new drawing (exits, flows, walls, agents
        added or removed) is made once per frame, in :meth:`on_update`."""
        world = self.world
        assert world is not None
        if world.edit(changes, self.model.level) == "redraw":
            self._redraw = True

    def shown_level(self) -> Level:
        """The model's level with pushable rocks where the running world has pushed them, so
        their handles follow them."""
        level, world = self.model.level, self.world
        if world is None or not any(o.dynamic for o in level.obstacles):
            return level
        live = world.physics.rock_centres()
        if live.shape[0] != len(level.obstacles):
            return level
        rocks = tuple(
            replace(o, x=round(float(live[k, 0]), 2), y=round(float(live[k, 1]), 2))
            if o.dynamic
            else o
            for k, o in enumerate(level.obstacles)
        )
        return replace(level, obstacles=rocks)

    # -- lifecycle --------------------------------------------------------------------------

    def play_test(self) -> None:
        """Play the edited level (F5 or Tab); the same keys come back here."""
        self.window.show_view(PlaytestView(self))

    def _on_close(self) -> bool:
        """The window is closing: unsaved work to the autosave; when that fails the window
        stays open and says why (True stops the close), once."""
        return self.keep_unsaved("close")

    def on_show_view(self) -> None:
        """Resize cameras; autosave on window close while shown."""
        self.camera.match_window(position=False)
        self.screen.match_window(position=True)
        self.window.push_handlers(on_close=self._on_close)

    def on_hide_view(self) -> None:
        """Stop listening for the window closing (the play-test listens in its place); the
        title is set again when the editor shows again (the next view sets its own)."""
        self.window.remove_handlers(on_close=self._on_close)
        self.keys.clear()
        self.caption = ""

    # -- time -------------------------------------------------------------------------------

    @rescued
    def on_fixed_update(self, delta_time: float) -> None:
        """The simulation keeps running while editing (Space pauses it)."""
        raise_if_terminated()  # SIGTERM's exception can be lost in a physics callback
        if self.running and self.world is not None:
            self.world.step((0.0, 0.0))

    @rescued
    def on_update(self, delta_time: float) -> None:
        """Pan with the arrows; a new drawing or world after edits; the handles, the HUD,
        the panel and the title."""
        k = arcade.key
        px = ((k.RIGHT in self.keys) - (k.LEFT in self.keys)) * PAN_PX_PER_S
        py = ((k.UP in self.keys) - (k.DOWN in self.keys)) * PAN_PX_PER_S
        if px or py:
            cx, cy = self.camera.position
            z = self.camera.zoom
            self.camera.position = (cx + px * delta_time / z, cy + py * delta_time / z)
        self.flush_drag()
        if self._redraw:
            self._redraw = False
            self._rebuild_world()
        if self.renderer is not None:
            start = self.model.level.player
            self.renderer.player_at = (start.x, start.y)  # the fish marks the start
            self.renderer.update(delta_time, 1.0 / self.camera.zoom)
        m = self.model
        if m.dragging is None and not self.panel.dragging:
            self.hover = self._hit()  # the hover ring follows what moved under the cursor
        elif self.hover is not None:
            self.hover = followed(self.shown_level(), self.hover)  # and the dragged handle
        name = shown(m.source.name) if m.source else "untitled"
        caption = f"{name}{' *' if m.dirty else ''} - editor"
        if caption != self.caption:
            self.caption = caption
            self.window.set_caption(caption)
        flags = ("unsaved changes" if m.dirty else "", "grid" if m.snap else "")
        paused = "" if self.running else "paused"
        tool = f"tool: {self.tool.value}"
        status = "   ".join(s for s in (caption, tool, *flags, paused) if s)
        size = self.window.get_size()
        self.layer.update(m, self.shown_level(), self.hover, self.camera.zoom, status, size)
        self.panel_layer.update(m, self.panel, size)

    @rescued
    def on_draw(self) -> None:
        """The live world, the handles, the HUD and the panel. Changes nothing."""
        self.clear()
        self.camera.use()
        if self.renderer is not None:
            self.renderer.draw(1.0 / self.camera.zoom)
        self.layer.draw_world(self.camera.zoom)
        self.screen.use()
        self.layer.draw_hud()
        self.panel_layer.draw()


class PlaytestView(LevelView):
    """The edited level played at once (unsaved edits included); Tab, F5 or Esc go back to
    the editor, with its undo history."""

    def __init__(self, editor: EditorView, attempt: int = 0) -> None:
        source = editor.model.source or Path("untitled.tmj")
        super().__init__(
            editor.app, source, level=editor.model.level, show_result=False, attempt=attempt
        )
        self.editor = editor

    def rescue(self) -> None:
        """After a crash in the play-test: the editor's unsaved work to its autosave."""
        self.editor.rescue()

    def on_show_view(self) -> None:
        """The editor's unsaved work is kept on a window close here too."""
        super().on_show_view()
        self.window.push_handlers(on_close=self.editor._on_close)

    def on_hide_view(self) -> None:
        """Stop listening for the window closing."""
        self.window.remove_handlers(on_close=self.editor._on_close)
        super().on_hide_view()

    @rescued
    def on_update(self, delta_time: float) -> None:
        """The level view's update (a crash writes the editor's autosave first)."""
        super().on_update(delta_time)

    @rescued
    def on_draw(self) -> None:
        """The level view's frame (a crash writes the editor's autosave first)."""
        super().on_draw()

    @rescued
    def on_fixed_update(self, delta_time: float) -> None:
        """Step the world; a finished play-test records no best time and stays on screen."""
        if self.world.outcome == "running":
            thrust = self.thrust()
            self.stage.clock.note(thrust, self.world.time)
            outcome = self.world.step(thrust)
            if outcome != "running":
                self.app.sounds.play(outcome)
                self.stage.hud.show_message(f"{outcome}: Tab returns to the editor")

    @rescued
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Back to the editor, or the level's own keys."""
        k = arcade.key
        if symbol in (k.TAB, k.F5, k.ESCAPE):
            self.window.show_view(self.editor)
        else:
            super().on_key_press(symbol, modifiers)

    def restart(self) -> None:
        """Play the edited level again, on the next world seed (as the game's restart)."""
        self.window.show_view(PlaytestView(self.editor, self.attempt + 1))


@contextlib.contextmanager
def rescue_on_exit(window: arcade.Window) -> Iterator[None]:
    """Around the event loop: anything that ends it by an exception (a crash, Ctrl+C,
    SIGTERM) while the editor or its play-test is shown writes the editor's autosave first."""
    try:
        yield
    except BaseException:
        view = window.current_view
        if isinstance(view, EditorView | PlaytestView):
            view.rescue()
        raise
