"""The level editor view: mouse and keys into :class:`game.editor.EditModel`, the live world
(agents following the paths being edited) drawn under the handles. All edit logic is in the
model; this view maps input, forwards changes to the world and draws."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import arcade

from game.editor import PATH_KINDS, ROCK_KINDS, Change, EditModel, Hit, HitKind
from game.level import LevelError
from game.render import theme
from game.render.scene import WorldRenderer
from game.world import World

from .app import GameApp
from .editor_draw import EditorLayer
from .level import LevelView

__all__ = ["PICK_PX", "EditorView", "PlaytestView", "open_editor", "run_editor"]

log = logging.getLogger(__name__)

#: How close (screen px) the cursor must be to a handle, a line or a rim.
PICK_PX = 8.0
DOUBLE_CLICK_S = 0.35
PAN_PX_PER_S = 600.0
ZOOM_STEP, ZOOM_MIN, ZOOM_MAX = 1.15, 0.25, 6.0


class EditorView(arcade.View):
    """Edit a level while its world runs underneath.

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
        level = model.level
        self.camera = arcade.Camera2D(window=app.window)
        self.camera.position = (level.width_px / 2, level.height_px / 2)
        self.screen = arcade.Camera2D(window=app.window)
        self.running, self.panning = True, False
        self.hover: Hit | None = None
        self.mouse = (0.0, 0.0)
        self.keys: set[int] = set()
        self._last_click = (-1.0, 0.0, 0.0)
        self.caption = ""  # the window title it set (headless windows ignore titles)
        self.layer = EditorLayer(app.window.ctx)
        model.subscribe(self._on_changes)
        if model.newer_autosave() is not None:
            model.notice = "a newer autosave exists: R recovers it, D discards it"

    # -- world ------------------------------------------------------------------------------

    def _rebuild_world(self) -> None:
        """The world (a fresh one unless one was handed over) and its drawing."""
        self.world = World(self.model.level) if self.world is None else self.world
        self.renderer = WorldRenderer(self.world, self.app.bank, self.window.ctx)

    def _on_changes(self, changes: Sequence[Change]) -> None:
        """Mirror edits into the running world (:meth:`World.edit`), live and without a
        rebuild: paths node by node (agents keep their progress), drifting paths through
        their drift, rocks in the pymunk space."""
        world = self.world
        assert world is not None
        world.edit(changes, self.model.level)

    # -- coordinates ------------------------------------------------------------------------

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        """World point under the screen pixel (x, y)."""
        p = self.camera.unproject((x, y))
        return (float(p[0]), float(p[1]))

    def _pick(self) -> float:
        return PICK_PX / self.camera.zoom

    def _zoom(self, factor: float, x: float, y: float) -> None:
        """Zoom keeping the world point under screen (x, y) where it is."""
        wx, wy = self.to_world(x, y)
        old = self.camera.zoom
        new = min(max(old * factor, ZOOM_MIN), ZOOM_MAX)
        cx, cy = self.camera.position
        self.camera.zoom = new
        self.camera.position = (wx - (wx - cx) * old / new, wy - (wy - cy) * old / new)

    # -- mouse ------------------------------------------------------------------------------

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Hover (or continue a drag)."""
        self.mouse = self.to_world(x, y)
        if self.model.dragging is not None:
            self.model.update_drag(*self.mouse)
        else:
            self.hover = self.model.hit_test(*self.mouse, self._pick())

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Left: drag, insert, append (double-click); right: delete; middle: pan."""
        self.mouse = wx, wy = self.to_world(x, y)
        hit = self.hover = self.model.hit_test(wx, wy, self._pick())
        if button == arcade.MOUSE_BUTTON_MIDDLE:
            self.panning = True
        elif button == arcade.MOUSE_BUTTON_RIGHT:
            if hit is not None and hit.kind is HitKind.NODE:
                self.model.delete_node(hit.path, hit.index)
        elif button == arcade.MOUSE_BUTTON_LEFT:
            now, (t0, x0, y0) = time.monotonic(), self._last_click
            double = now - t0 < DOUBLE_CLICK_S and abs(x - x0) + abs(y - y0) < 6
            self._last_click = (now, float(x), float(y))
            if hit is None and double and self.model.selected:
                self.model.append_node(self.model.selected, wx, wy)
            elif hit is None:
                self.model.select("")
            else:
                self.model.begin_drag(hit, wx, wy)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        """Pan with the middle button, else move the drag."""
        if self.panning:
            cx, cy = self.camera.position
            self.camera.position = (cx - dx / self.camera.zoom, cy - dy / self.camera.zoom)
        else:
            self.on_mouse_motion(x, y, dx, dy)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """End the drag: one undo step."""
        if button == arcade.MOUSE_BUTTON_MIDDLE:
            self.panning = False
        elif self.model.dragging is not None:
            self.model.update_drag(*self.to_world(x, y))
            self.model.end_drag()

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """Over a path or rock: its radius; over empty water: zoom."""
        hit = self.model.hit_test(*self.to_world(x, y), self._pick())
        if hit is not None and hit.kind in PATH_KINDS:
            self.model.scale_path_radius(hit.path, scroll_y)
        elif hit is not None and hit.kind in ROCK_KINDS:
            self.model.scale_rock_radius(hit.index, scroll_y)
        else:
            self._zoom(ZOOM_STEP**scroll_y, x, y)

    # -- keys -------------------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """The editor's keys (see :data:`HELP`)."""
        k, m = arcade.key, self.model
        ctrl, shift = modifiers & k.MOD_CTRL, modifiers & k.MOD_SHIFT
        target = m.selected or (self.hover.path if self.hover is not None else "")
        self.keys.add(symbol)
        if ctrl and (symbol == k.Y or (symbol == k.Z and shift)):
            m.redo()
        elif ctrl and symbol == k.Z:
            m.undo()
        elif ctrl and symbol == k.S:
            self.save()
        elif symbol == k.SPACE:
            self.running = not self.running
        elif symbol == k.G:
            m.toggle_snap()
        elif symbol == k.C and target:
            m.toggle_closed(target)
        elif symbol == k.N:
            m.new_path(*self.mouse)
        elif symbol in (k.DELETE, k.BACKSPACE) and self.hover and self.hover.kind is HitKind.NODE:
            m.delete_node(self.hover.path, self.hover.index)
        elif symbol == k.R and m.newer_autosave() is not None:
            self._guard(m.recover_autosave)
        elif symbol == k.D and m.newer_autosave() is not None:
            if m.discard_autosave():
                m.notice = "autosave discarded"
        elif symbol in (k.F5, k.TAB):
            self.window.show_view(PlaytestView(self))
        elif symbol == k.ESCAPE:
            if not m.cancel_drag():
                self.leave()
        elif symbol in (k.PLUS, k.EQUAL, k.MINUS):
            f = ZOOM_STEP if symbol != k.MINUS else 1 / ZOOM_STEP
            self._zoom(f, self.window.width / 2, self.window.height / 2)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """Stop panning that way."""
        self.keys.discard(symbol)

    def _guard(self, action: Callable[[], object]) -> None:
        """Run a file action; a level error becomes the notice instead of a crash."""
        try:
            action()
        except LevelError as err:
            self.model.notice = f"failed: {err}"
            log.warning("%s", err)

    def save(self) -> None:
        """Save through the level saver (atomic, .bak kept)."""
        self._guard(self.model.save)

    def leave(self) -> None:
        """Back to the title; unsaved work goes to the autosave first."""
        self._guard(self.model.autosave)
        self.app.show_title(self.model.source)

    def _on_close(self) -> None:
        self._guard(self.model.autosave)

    def on_show_view(self) -> None:
        """Resize cameras; autosave on window close while shown."""
        self.camera.match_window(position=False)
        self.screen.match_window(position=True)
        self.window.push_handlers(on_close=self._on_close)

    def on_hide_view(self) -> None:
        """Stop listening for the window closing."""
        self.window.remove_handlers(on_close=self._on_close)
        self.keys.clear()

    # -- time -------------------------------------------------------------------------------

    def on_fixed_update(self, delta_time: float) -> None:
        """The simulation keeps running while editing (Space pauses it)."""
        if self.running and self.world is not None:
            self.world.step((0.0, 0.0))

    def on_update(self, delta_time: float) -> None:
        """Pan with the arrows; rebuild the handles, the HUD and the title."""
        k = arcade.key
        px = ((k.RIGHT in self.keys) - (k.LEFT in self.keys)) * PAN_PX_PER_S
        py = ((k.UP in self.keys) - (k.DOWN in self.keys)) * PAN_PX_PER_S
        if px or py:
            cx, cy = self.camera.position
            z = self.camera.zoom
            self.camera.position = (cx + px * delta_time / z, cy + py * delta_time / z)
        if self.renderer is not None:
            self.renderer.update(delta_time)
        m = self.model
        name = m.source.name if m.source else "untitled"
        caption = f"{name}{' *' if m.dirty else ''} - editor"
        if caption != self.caption:
            self.caption = caption
            self.window.set_caption(caption)
        flags = ("unsaved changes" if m.dirty else "", "grid" if m.snap else "")
        paused = "" if self.running else "paused"
        status = "   ".join(s for s in (caption, *flags, paused, m.notice) if s)
        self.layer.update(m, self.hover, self.camera.zoom, status, self.window.get_size())

    def on_draw(self) -> None:
        """The live world, the handles, the HUD. Changes nothing."""
        self.clear()
        self.camera.use()
        if self.renderer is not None:
            self.renderer.draw(1.0 / self.camera.zoom)
        self.layer.draw_world(self.camera.zoom)
        self.screen.use()
        self.layer.draw_hud()


class PlaytestView(LevelView):
    """The edited level played at once (unsaved edits included); Tab, F5 or Esc go back to
    the editor, with its undo history."""

    def __init__(self, editor: EditorView) -> None:
        source = editor.model.source or Path("untitled.tmj")
        super().__init__(editor.app, source, level=editor.model.level, show_result=False)
        self.editor = editor

    def on_fixed_update(self, delta_time: float) -> None:
        """Step the world; a finished play-test records no best time and stays on screen."""
        if self.world.outcome == "running":
            outcome = self.world.step(self.thrust())
            if outcome != "running":
                self.app.sounds.play(outcome)
                self.stage.hud.show_message(f"{outcome}: Tab returns to the editor")

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Back to the editor, or the level's own keys."""
        k = arcade.key
        if symbol in (k.TAB, k.F5, k.ESCAPE):
            self.window.show_view(self.editor)
        else:
            super().on_key_press(symbol, modifiers)

    def restart(self) -> None:
        """Play the edited level again."""
        self.window.show_view(PlaytestView(self.editor))


def open_editor(window: arcade.Window, level_path: Path, world: World | None = None) -> None:
    """Open the editor on ``level_path`` (the level view's Tab), keeping its running world.

    Raises:
        LevelError: if the level cannot be loaded.
    """
    app = getattr(window.current_view, "app", None)
    app = app if isinstance(app, GameApp) else GameApp(window)
    window.show_view(EditorView(app, EditModel.open(level_path), world))


def run_editor(level_path: Path) -> int:
    """Open the game window on the editor (for ``python -m game edit LEVEL``).

    Raises:
        LevelError: if the level cannot be loaded.
    """
    from .app import create_window

    model = EditModel.open(level_path)
    try:
        window = create_window()
    except Exception as exc:  # pyglet's display errors have no common base class
        print(f"error: cannot open the editor window: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    window.show_view(EditorView(GameApp(window), model))
    arcade.run()
    return 0
