"""The level editor view: mouse and keys into :class:`game.editor.EditModel`, the live world
(agents following the paths being edited) drawn under the handles, and the property panel.
All edit logic is in the model; this view maps input, forwards changes to the world and
draws. Every control is listed in docs/editor.md."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import arcade

from game.editor import OBJECT_KINDS, PATH_KINDS, ROCK_KINDS, Change, EditModel, Hit, HitKind
from game.editor.hits import hit_test
from game.editor.panel import Panel
from game.editor.tools import TOOL_FIELD, Tool
from game.level import Level, LevelError
from game.render import theme
from game.render.scene import WorldRenderer
from game.world import World

from .app import GameApp
from .editor_draw import EditorLayer
from .editor_panel import PANEL_W, PanelLayer
from .level import LevelView

__all__ = ["PICK_PX", "EditorView", "PlaytestView", "fit_camera", "open_editor", "run_editor"]

log = logging.getLogger(__name__)

#: How close (screen px) the cursor must be to a handle, a line or a rim.
PICK_PX = 8.0
DOUBLE_CLICK_S = 0.35
PAN_PX_PER_S = 600.0
ZOOM_STEP, ZOOM_MIN, ZOOM_MAX = 1.15, 0.02, 6.0
#: Screen px kept free around the level by Home (and above/below for the HUD bars).
FIT_MARGIN, HUD_TOP, HUD_BOTTOM = 16.0, 36.0, 32.0
_TOOL_KEYS = {getattr(arcade.key, f"KEY_{k + 1}"): tool for k, tool in enumerate(Tool)}
#: What a point handle drag starts from; a creating tool presses through everything else.
_HANDLES = frozenset({HitKind.NODE, HitKind.SPAWN, HitKind.CORNER, HitKind.ARROW})


def fit_camera(camera: arcade.Camera2D, level: Level, size: tuple[int, int]) -> None:
    """Zoom and centre ``camera`` so the whole level shows between the HUD bars, left of the
    property panel."""
    w, h = size
    area_w = max(w - PANEL_W - 2 * FIT_MARGIN, 1.0)
    area_h = max(h - HUD_TOP - HUD_BOTTOM - 2 * FIT_MARGIN, 1.0)
    zoom = min(area_w / level.width_px, area_h / level.height_px, ZOOM_MAX)
    camera.zoom = zoom
    area_cx, area_cy = (w - PANEL_W) / 2, HUD_BOTTOM + (h - HUD_TOP - HUD_BOTTOM) / 2
    camera.position = (
        level.width_px / 2 + (w / 2 - area_cx) / zoom,
        level.height_px / 2 + (h / 2 - area_cy) / zoom,
    )


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
        self.camera = arcade.Camera2D(window=app.window)
        fit_camera(self.camera, model.level, app.window.get_size())
        self.screen = arcade.Camera2D(window=app.window)
        self.running, self.panning = True, False
        self.tool = Tool.SELECT
        self.hover: Hit | None = None
        self.mouse = (0.0, 0.0)
        self.keys: set[int] = set()
        self._last_click = (-1.0, 0.0, 0.0)
        self._redo_world = ""  # "redraw" or "restart" after an edit, done once per frame
        self._press: tuple[str, float] | None = None  # a press on a panel value
        self.caption = ""  # the window title it set (headless windows ignore titles)
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
        self.renderer = WorldRenderer(self.world, self.app.bank, self.window.ctx)

    def _on_changes(self, changes: Sequence[Change]) -> None:
        """Mirror edits into the running world (:meth:`World.edit`), live and without a
        rebuild; a new drawing (exits, flows) or a new world (spawns added or removed) is
        made once per frame, in :meth:`on_update`."""
        world = self.world
        assert world is not None
        need = world.edit(changes, self.model.level)
        if need == "restart" or not self._redo_world:
            self._redo_world = need or self._redo_world

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

    # -- coordinates ------------------------------------------------------------------------

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        """World point under the screen pixel (x, y)."""
        p = self.camera.unproject((x, y))
        return (float(p[0]), float(p[1]))

    def _hit(self) -> Hit | None:
        return hit_test(
            self.shown_level(), *self.mouse, PICK_PX / self.camera.zoom, self.model.selected
        )

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
        if self.panel.dragging or self._press is not None:
            if self._press is not None and abs(x - self._press[1]) > 3:
                self.panel.begin_drag(self.model, *self._press)
                self._press = None
            self.panel.drag(self.model, x)
        elif self.model.dragging is not None:
            self.model.update_drag(*self.mouse)
        else:
            self.hover = self._hit()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Left: the tool (drag, create, append on double-click); right: delete; middle: pan."""
        self.mouse = wx, wy = self.to_world(x, y)
        if self.panel_layer.contains(x, y):
            row = self.panel_layer.row_at(x, y)
            if row is not None and button == arcade.MOUSE_BUTTON_LEFT:
                self._press = (row.name, float(x))
            return
        if self.panel.editing is not None:
            self.panel.commit(self.model)
        hit = self.hover = self._hit()
        m = self.model
        if button == arcade.MOUSE_BUTTON_MIDDLE:
            self.panning = True
        elif button == arcade.MOUSE_BUTTON_RIGHT:
            self._delete(hit)
        elif button == arcade.MOUSE_BUTTON_LEFT:
            now, (t0, x0, y0) = time.monotonic(), self._last_click
            double = now - t0 < DOUBLE_CLICK_S and abs(x - x0) + abs(y - y0) < 6
            self._last_click = (now, float(x), float(y))
            field = TOOL_FIELD.get(self.tool)
            empty = hit is None or hit.kind in (HitKind.AREA, HitKind.TUBE)
            if field is not None and (hit is None or hit.kind not in _HANDLES):
                if hit is not None and hit.kind in PATH_KINDS and field == "enemies":
                    m.select(hit.path)  # an enemy placed on a path patrols it
                m.begin_create(field, wx, wy)
            elif empty and m.selected and (double or self.tool is Tool.PATH):
                m.append_node(m.selected, wx, wy)
            elif empty and self.tool is Tool.PATH:
                m.new_path(wx, wy)
            elif hit is None:
                m.select_object(None)
            elif not m.begin_drag(hit, wx, wy) and hit.kind in PATH_KINDS:
                m.select(hit.path)

    def _delete(self, hit: Hit | None) -> None:
        """Delete the node or object under the cursor (path lines are not deleted by a click:
        select the path and press Del)."""
        if hit is None:
            return
        if hit.kind is HitKind.NODE:
            self.model.delete_node(hit.path, hit.index)
        elif hit.ref is not None and hit.kind in OBJECT_KINDS | ROCK_KINDS:
            self.model.delete(hit.ref)
        self.hover = self._hit()

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        """Pan with the middle button, else move the drag."""
        if self.panning:
            cx, cy = self.camera.position
            self.camera.position = (cx - dx / self.camera.zoom, cy - dy / self.camera.zoom)
        else:
            self.on_mouse_motion(x, y, dx, dy)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """End the drag: one undo step (a click on a panel value types or cycles it)."""
        if button == arcade.MOUSE_BUTTON_MIDDLE:
            self.panning = False
        elif self._press is not None:
            self.panel.click(self.model, self._press[0])
            self._press = None
        elif self.panel.end_drag():
            pass
        elif self.model.dragging is not None:
            self.model.update_drag(*self.to_world(x, y))
            self.model.end_drag()
        self.hover = self._hit()

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """Over a path or rock: its radius; over empty water: zoom."""
        self.mouse = self.to_world(x, y)
        hit = self._hit()
        if hit is not None and hit.kind in PATH_KINDS:
            self.model.scale_path_radius(hit.path, scroll_y)
        elif hit is not None and hit.kind in ROCK_KINDS:
            self.model.scale_rock_radius(hit.index, scroll_y)
        else:
            self._zoom(ZOOM_STEP**scroll_y, x, y)

    # -- keys -------------------------------------------------------------------------------

    def on_text(self, text: str) -> None:
        """Typed characters go to the panel row being edited."""
        self.panel.type(text)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """The editor's keys (see docs/editor.md); while a value is typed, only Enter, Esc
        and Backspace."""
        k, m = arcade.key, self.model
        if self.panel.editing is not None:
            if symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
                self.panel.commit(m)
            elif symbol == k.ESCAPE:
                self.panel.cancel()
            elif symbol == k.BACKSPACE:
                self.panel.backspace()
            return
        ctrl, shift = modifiers & k.MOD_CTRL, modifiers & k.MOD_SHIFT
        target = m.selected or (self.hover.path if self.hover is not None else "")
        self.keys.add(symbol)
        if ctrl and (symbol == k.Y or (symbol == k.Z and shift)):
            m.redo()
        elif ctrl and symbol == k.Z:
            m.undo()
        elif ctrl and symbol == k.S:
            self.save()
        elif symbol in _TOOL_KEYS:
            self.tool = _TOOL_KEYS[symbol]
        elif symbol == k.HOME:
            fit_camera(self.camera, m.level, self.window.get_size())
        elif symbol == k.SPACE:
            self.running = not self.running
        elif symbol == k.G:
            m.toggle_snap()
        elif symbol == k.C and target:
            m.toggle_closed(target)
        elif symbol == k.N:
            m.new_path(*self.mouse)
        elif symbol == k.T and m.selection is not None:
            m.toggle_area(m.selection)
        elif symbol in (k.DELETE, k.BACKSPACE):
            self._delete_key()
        elif symbol == k.R and m.autosave_offered is not None:
            self._guard(m.recover_autosave)
        elif symbol == k.D and m.autosave_offered is not None:
            if m.discard_autosave():
                m.notice = "autosave discarded"
        elif symbol in (k.F5, k.TAB):
            self.window.show_view(PlaytestView(self))
        elif symbol == k.ESCAPE:
            self._escape()
        elif symbol in (k.PLUS, k.EQUAL, k.MINUS):
            f = ZOOM_STEP if symbol != k.MINUS else 1 / ZOOM_STEP
            self._zoom(f, self.window.width / 2, self.window.height / 2)

    def _delete_key(self) -> None:
        """Del: the node under the cursor, else the selected object."""
        hover, m = self.hover, self.model
        if hover is not None and hover.kind is HitKind.NODE:
            m.delete_node(hover.path, hover.index)
        elif m.selection is not None:
            m.delete(m.selection)
        self.hover = self._hit()

    def _escape(self) -> None:
        """Esc: cancel the drag, else back to the select tool, else leave."""
        if self.model.cancel_drag():
            return
        if self.tool is not Tool.SELECT:
            self.tool = Tool.SELECT
        else:
            self.leave()

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
        """Pan with the arrows; a new drawing or world after edits; the handles, the HUD,
        the panel and the title."""
        k = arcade.key
        px = ((k.RIGHT in self.keys) - (k.LEFT in self.keys)) * PAN_PX_PER_S
        py = ((k.UP in self.keys) - (k.DOWN in self.keys)) * PAN_PX_PER_S
        if px or py:
            cx, cy = self.camera.position
            z = self.camera.zoom
            self.camera.position = (cx + px * delta_time / z, cy + py * delta_time / z)
        if self._redo_world:
            if self._redo_world == "restart":
                self.world = None
            self._redo_world = ""
            self._rebuild_world()
        if self.renderer is not None:
            self.renderer.update(delta_time)
        m = self.model
        if m.dragging is None and not self.panel.dragging:
            self.hover = self._hit()  # the hover ring follows what moved under the cursor
        name = m.source.name if m.source else "untitled"
        caption = f"{name}{' *' if m.dirty else ''} - editor"
        if caption != self.caption:
            self.caption = caption
            self.window.set_caption(caption)
        flags = ("unsaved changes" if m.dirty else "", "grid" if m.snap else "")
        paused = "" if self.running else "paused"
        tool = f"tool: {self.tool.value}"
        status = "   ".join(s for s in (caption, tool, *flags, paused, m.notice) if s)
        size = self.window.get_size()
        self.layer.update(m, self.shown_level(), self.hover, self.camera.zoom, status, size)
        self.panel_layer.update(m, self.panel, size)

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
