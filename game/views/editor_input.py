"""The editor view's input: mouse and keys into :class:`game.editor.EditModel` commands, the
camera's pan and zoom, and the property panel's presses (every control is in docs/editor.md)."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import arcade

from game.editor import OBJECT_KINDS, PATH_KINDS, ROCK_KINDS, EditModel, Hit, HitKind
from game.editor.hits import hit_test
from game.editor.panel import Panel
from game.editor.tools import TOOL_FIELD, Tool
from game.level import Level, LevelError

from .editor_panel import PANEL_W, PanelLayer

if TYPE_CHECKING:
    from .app import GameApp

__all__ = ["LEAVE_ASKS", "PICK_PX", "EditorInput", "fit_camera"]

log = logging.getLogger(__name__)

#: How close (screen px) the cursor must be to a handle, a line or a rim.
PICK_PX = 8.0
DOUBLE_CLICK_S = 0.35
ZOOM_STEP, ZOOM_MIN, ZOOM_MAX = 1.15, 0.02, 6.0
#: Screen px kept free around the level by Home (and above/below for the HUD bars).
FIT_MARGIN, HUD_TOP, HUD_BOTTOM = 16.0, 36.0, 32.0
#: What the first Esc says when it would leave unsaved changes.
LEAVE_ASKS = "unsaved changes: Ctrl+S saves them, Esc again leaves them in the autosave"
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


Handler = TypeVar("Handler", bound=Callable[..., Any])


def rescued(handler: Handler) -> Handler:
    """An editor event handler that, when it raises, writes the autosave before the error
    goes on (see :meth:`EditorInput.rescue`)."""

    @functools.wraps(handler)
    def run(self: Any, *args: Any) -> Any:
        try:
            return handler(self, *args)
        except BaseException as exc:  # a crash, and Ctrl+C or SIGTERM in a handler
            if not getattr(exc, "editor_rescued", False):  # once, by the innermost handler
                self.rescue()
                with contextlib.suppress(AttributeError, TypeError):
                    exc.editor_rescued = True  # type: ignore[attr-defined]
            raise

    return cast("Handler", run)


class EditorInput(arcade.View):
    """The editor view's mouse and key handlers; :class:`~game.views.editor.EditorView` sets
    the attributes below and provides :meth:`shown_level` and :meth:`play_test`."""

    app: GameApp
    model: EditModel
    camera: arcade.Camera2D
    panel: Panel
    panel_layer: PanelLayer
    tool: Tool
    hover: Hit | None
    mouse: tuple[float, float]
    keys: set[int]
    running: bool
    panning: bool
    _last_click: tuple[float, float, float]
    _press: tuple[str, float] | None  # a press on a panel value
    _wall_press: tuple[int | None, float, float] | None  # the wall tool's press
    _drag_to: tuple[float, float] | None  # where the drag goes at the next frame
    # After a failed autosave: the action refused and the level then (the same action on the
    # same level goes ahead); None otherwise.
    _forsake: tuple[str, Level] | None
    # The level when Esc last asked before leaving with unsaved changes (Esc again on the
    # same level leaves); None when it has not asked.
    _leave_asked: Level | None

    def shown_level(self) -> Level:
        """The level as drawn, where the cursor hits things."""
        raise NotImplementedError

    def play_test(self) -> None:
        """Play the edited level."""
        raise NotImplementedError

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

    @rescued
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Hover (or continue a drag)."""
        self.mouse = self.to_world(x, y)
        if self.panel.dragging or self._press is not None:
            if self._press is not None and abs(x - self._press[1]) > 3:
                self.panel.begin_drag(self.model, *self._press)
                self._press = None
            self.panel.drag(self.model, x)
        elif self.model.dragging is not None:
            # Once per frame (flush_drag): an edit can rebuild the world, and a burst of
            # motion events each doing that left the handle a second behind the cursor.
            self._drag_to = self.mouse
        else:
            self.hover = self._hit()

    def flush_drag(self) -> None:
        """Move the drag in progress to where the cursor last went (once per frame)."""
        if self._drag_to is not None and self.model.dragging is not None:
            self.model.update_drag(*self._drag_to)
        self._drag_to = None

    @rescued
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
            wall = m.selection.index if m.selection and m.selection.field == "walls" else None
            if self.tool is Tool.WALL and (hit is None or hit.kind not in _HANDLES):
                # A drag draws a new wall; a click extends the selected wall (on release).
                if m.begin_wall(wx, wy, rect=bool(modifiers & arcade.key.MOD_SHIFT)):
                    self._wall_press = (wall, float(x), float(y))
            elif double and hit is not None and hit.kind is HitKind.WALL:
                assert hit.wall is not None
                m.insert_wall_node(hit.wall, hit.index, wx, wy)
            elif empty and double and wall is not None:
                m.append_wall_node(wall, wx, wy)
            elif field is not None and (hit is None or hit.kind not in _HANDLES):
                if hit is not None and hit.kind in PATH_KINDS and field == "enemies":
                    m.select(hit.path)  # an enemy placed on a path patrols it
                m.begin_create(field, wx, wy)
            elif empty and m.selected and (double or self.tool is Tool.PATH):
                m.append_node(m.selected, wx, wy)
            elif empty and self.tool is Tool.PATH:
                m.click_path(wx, wy)
            elif hit is None:
                m.select_object(None)
            elif not m.begin_drag(hit, wx, wy) and hit.kind in PATH_KINDS:
                m.select(hit.path)

    def _delete(self, hit: Hit | None) -> None:
        """Delete the node or object under the cursor (path lines are not deleted by a click:
        select the path and press Del)."""
        if hit is None:
            return
        if hit.kind is HitKind.NODE and hit.wall is not None:
            self.model.delete_wall_node(hit.wall, hit.index)
        elif hit.kind is HitKind.NODE:
            self.model.delete_node(hit.path, hit.index)
        elif hit.ref is not None and hit.kind in OBJECT_KINDS | ROCK_KINDS:
            self.model.delete(hit.ref)
        self.hover = self._hit()

    @rescued
    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        """Pan with the middle button, else move the drag."""
        if self.panning:
            cx, cy = self.camera.position
            self.camera.position = (cx - dx / self.camera.zoom, cy - dy / self.camera.zoom)
        else:
            self.on_mouse_motion(x, y, dx, dy)

    @rescued
    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """End the drag: one undo step (a click on a panel value types or cycles it)."""
        if button == arcade.MOUSE_BUTTON_MIDDLE:
            self.panning = False
        elif self._press is not None:
            self.panel.click(self.model, self._press[0])
            self._press = None
        elif self.panel.end_drag() or self._extends_wall(x, y):
            pass
        elif self.model.dragging is not None:
            self.model.update_drag(*self.to_world(x, y))
            self.model.end_drag()
        self._wall_press = self._drag_to = None
        self.hover = self._hit()

    def _extends_wall(self, x: float, y: float) -> bool:
        """A click of the wall tool with a wall selected adds a corner to that wall's end
        (instead of the new wall its press began)."""
        press = self._wall_press
        if press is None or press[0] is None or abs(x - press[1]) + abs(y - press[2]) >= 4:
            return False
        self.model.cancel_drag()
        self.model.append_wall_node(press[0], *self.to_world(x, y))
        return True

    @rescued
    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """Over a path or rock: its radius; over a wall: its thickness; else zoom."""
        self.mouse = self.to_world(x, y)
        hit = self._hit()
        if hit is not None and hit.wall is not None:
            self.model.scale_wall_thickness(hit.wall, scroll_y)
        elif hit is not None and hit.kind in PATH_KINDS:
            self.model.scale_path_radius(hit.path, scroll_y)
        elif hit is not None and hit.kind in ROCK_KINDS:
            self.model.scale_rock_radius(hit.index, scroll_y)
        else:
            self._zoom(ZOOM_STEP**scroll_y, x, y)

    # -- keys -------------------------------------------------------------------------------

    @rescued
    def on_text(self, text: str) -> None:
        """Typed characters go to the panel row being edited."""
        self.panel.type(text)

    @rescued
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
            m.path_start = None
        elif symbol == k.HOME:
            fit_camera(self.camera, m.level, self.window.get_size())
        elif symbol == k.SPACE:
            self.running = not self.running
        elif symbol == k.G:
            m.toggle_snap()
        elif symbol == k.C and (wall := self._wall_in_focus()) is not None:
            m.toggle_wall_closed(wall)
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
            self.play_test()
        elif symbol == k.ESCAPE:
            self._escape()
        elif symbol in (k.PLUS, k.EQUAL, k.MINUS):
            f = ZOOM_STEP if symbol != k.MINUS else 1 / ZOOM_STEP
            self._zoom(f, self.window.width / 2, self.window.height / 2)

    def _delete_key(self) -> None:
        """Del: the node under the cursor, else the selected object."""
        hover, m = self.hover, self.model
        if hover is not None and hover.kind is HitKind.NODE and hover.wall is not None:
            m.delete_wall_node(hover.wall, hover.index)
        elif hover is not None and hover.kind is HitKind.NODE:
            m.delete_node(hover.path, hover.index)
        elif m.selection is not None:
            m.delete(m.selection)
        self.hover = self._hit()

    def _wall_in_focus(self) -> int | None:
        """The selected wall, else the wall under the cursor, else None."""
        ref = self.model.selection
        if ref is not None and ref.field == "walls":
            return ref.index
        return self.hover.wall if self.hover is not None and not self.model.selected else None

    def _escape(self) -> None:
        """Esc: cancel the drag, else back to the select tool, else leave."""
        if self.model.cancel_drag():
            return
        if self.model.path_start is not None:
            self.model.path_start = None
            return
        if self.tool is not Tool.SELECT:
            self.tool = Tool.SELECT
        else:
            self.leave()

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """Stop panning that way."""
        self.keys.discard(symbol)

    # -- file actions -----------------------------------------------------------------------

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
        self._forsake = None

    def keep_unsaved(self, action: str) -> bool:
        """Before ``action`` ("leave", "close") ends the editor: put unsaved work in the
        autosave. When that fails, say why in one line and keep the editor open (True); the
        same action asked again, with nothing edited or saved since, goes ahead without it
        (False)."""
        m = self.model
        if not m.dirty:
            return False
        try:
            m.autosave()
        except LevelError as err:
            if self._forsake == (action, m.level):  # asked before, nothing edited since
                log.warning("%s without the unsaved edits (the autosave failed)", action)
                return False
            self._forsake = (action, m.level)
            again = "Esc" if action == "leave" else "close the window"
            m.notice = (
                f"unsaved edits kept: the autosave failed ({err}); "
                f"Ctrl+S saves, {again} again to {action} without them"
            )
            log.warning("%s", m.notice)
            return True
        self._forsake = None
        return False

    def leave(self) -> None:
        """Back to the title. With unsaved changes the first Esc asks, once: a notice says
        Ctrl+S saves and Esc again leaves (nothing edited since); then the unsaved work goes
        to the autosave first (see :meth:`keep_unsaved`: a failed autosave keeps the editor
        open)."""
        m = self.model
        if m.dirty and self._leave_asked != m.level:
            self._leave_asked = m.level
            m.notice = LEAVE_ASKS
            return
        if self.keep_unsaved("leave"):
            return
        self.app.show_title(self.model.source)

    def rescue(self) -> None:
        """After a crash in one of the editor's frames or events: the autosave first, so the
        error is reported with the edits on disk. Never raises."""
        try:
            self.model.autosave()
        except Exception:  # the crash itself is what gets reported
            log.exception("the autosave after a crash failed")
