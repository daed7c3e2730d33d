"""Everything drawn while a level runs, put together: the world under a following camera, the
debug overlay over it and the HUD on top in screen space.

A level view owns one :class:`LevelStage`; it calls :meth:`LevelStage.update` from
``on_update`` (camera, animations, batches) and :meth:`LevelStage.draw` from ``on_draw``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade
import numpy as np

from game.clock import RunClock
from game.world import ENEMY, Mode

from . import theme
from .bank import TextureBank
from .camera import ZOOM_MAX, ZOOM_MIN, CameraRig, level_opening_zoom
from .endmark import EndMark
from .hud import Hud, play_area
from .markers import Markers
from .overlay import DebugOverlay
from .scene import WorldRenderer

if TYPE_CHECKING:
    from game.world import World

__all__ = ["LevelStage", "run_state"]


def run_state(world: World) -> tuple[str, theme.Rgba]:
    """A word or two about the run for the HUD, and its colour."""
    if world.outcome == "won":
        return "escaped!", theme.HUD_GOOD
    if world.outcome == "caught":
        return "caught", theme.HUD_WARN
    meter = detection_bar(world.player.detection)
    if world.minds.sighted.any():
        return f"SEEN {meter}", theme.HUD_WARN
    hunters = int(np.count_nonzero((world.kind == ENEMY) & (world.mode == Mode.PURSUE)))
    if hunters:
        who = "hunted!" if hunters == 1 else f"hunted by {hunters}!"
        return (f"{who} {meter}" if world.player.detection > 0 else who), theme.HUD_WARN
    if world.player.detection > 0:
        return f"hidden {meter}", theme.HUD_DIM
    return "unseen", theme.HUD_DIM


def detection_bar(level: float, cells: int = 10) -> str:
    """The detection meter as text: ``[#####-----]`` (full: caught)."""
    full = min(max(round(level * cells), 0), cells)
    return "[" + "#" * full + "-" * (cells - full) + "]"


class LevelStage:
    """The drawing side of a level view.

    Args:
        world: The running world.
        bank: Shared textures.
        window: The window (its size and context).
        debug: Start with the overlay on.
        zoom: the zoom the player chose, or None to open fitted (:meth:`fit_view`).
    """

    def __init__(
        self,
        world: World,
        bank: TextureBank,
        window: arcade.Window,
        debug: bool = False,
        zoom: float | None = None,
    ) -> None:
        self.world = world
        ctx = window.ctx
        w, h = window.get_size()
        level = world.level
        self.renderer = WorldRenderer(world, bank, ctx)
        self.overlay = DebugOverlay(ctx)
        self.end_mark = EndMark(ctx)
        self.hud = Hud(level.title or (level.source.stem if level.source else ""), level.hint, w, h)
        #: The run's time as shown: it starts on the player's first move.
        self.clock = RunClock()
        #: EXIT labels and the player's halo, kept readable at every zoom.
        self.markers = Markers(level.exits)
        self.camera = arcade.Camera2D(window=window)
        self.screen = arcade.Camera2D(window=window)
        self.rig = CameraRig((level.width_px, level.height_px), (float(w), float(h)))
        self._fit_camera(w, h)
        self.set_debug(debug)
        #: Whether the zoom is the opening fit (kept fitted when the window changes size),
        #: not one the player chose.
        self.fitted = zoom is None
        if zoom is None:
            self.fit_view()
        else:
            self.set_zoom(zoom)
        self.update(0.0)

    def _player(self) -> tuple[float, float]:
        p = self.world.player_pos
        return (float(p[0]), float(p[1]))

    def _apply_camera(self) -> None:
        self.camera.position = self.rig.center
        self.camera.zoom = self.rig.zoom

    @property
    def debug(self) -> bool:
        """Whether the overlay is on."""
        return self.overlay.enabled

    def set_debug(self, on: bool) -> None:
        """Turn the overlay (and the world's collection of debug arrays) on or off."""
        self.overlay.enabled = on
        self.world.steering.debug_enabled = on

    def zoom_by(self, steps: int) -> None:
        """Zoom in (positive) or out (negative)."""
        self.fitted = False
        self.rig.zoom_by(steps)
        self._apply_camera()

    def set_zoom(self, zoom: float) -> None:
        """Use ``zoom`` (within the rig's limits), the view centred on the player at once (a
        restarted level keeps the zoom the player chose)."""
        self.fitted = False
        self.rig.zoom = min(max(float(zoom), ZOOM_MIN), ZOOM_MAX)
        self.snap_camera()

    def fit_view(self) -> None:
        """Zoom to the whole map, or to the player and the nearest exit when the map is too
        big to read whole (:func:`~game.render.camera.opening_zoom`); the camera on the
        player at once."""
        self.fitted = True
        self.rig.zoom = level_opening_zoom(self.world.level, self.rig.view_size, self._player())
        self.snap_camera()

    def _fit_camera(self, width: int, height: int) -> None:
        """Map the world into the screen between the HUD's bars (issue 15: the HUD hid the
        player at the top edge and the exits under the title)."""
        area = play_area(width, height)
        self.camera.update_values(arcade.LBWH(*area), viewport=True, projection=True)
        self.rig.resize(area[2], area[3])

    @property
    def viewport(self) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) of the screen the world is drawn in."""
        return tuple(float(v) for v in self.camera.viewport.lbwh)  # type: ignore[return-value]

    def resize(self, width: int, height: int) -> None:
        """The window changed size."""
        self.camera.match_window()
        self.screen.match_window(position=True)
        self._fit_camera(width, height)
        self.hud.layout(width, height)
        if self.fitted:
            self.fit_view()
        self._apply_camera()

    def snap_camera(self) -> None:
        """Put the camera on the player at once (no easing)."""
        self.rig.snap(self._player())
        self._apply_camera()

    def update(self, dt: float) -> None:
        """Move the camera, advance animations and rebuild the batches (not the world)."""
        self.rig.follow(self._player(), dt)
        self._apply_camera()
        visible = self.rig.visible_rect(64.0)
        self.renderer.update(dt, 1.0 / self.rig.zoom)
        self.overlay.update(self.world, visible, self.rig.zoom)
        self.end_mark.update(self.world, dt)
        self.markers.update(
            self.project,
            self.rig.zoom,
            self._player(),
            float(self.world.agents.radius[0]),
            dt,
            show_halo=self.world.outcome == "running",
            area_top=self.viewport[1] + self.viewport[3],
        )
        state, color = run_state(self.world)
        waiting = self.clock.started is None and self.world.outcome == "running"
        self.hud.update(dt, self.seconds, state, color, waiting=waiting)

    @property
    def seconds(self) -> float:
        """The run's time (s): from the player's first move (:class:`~game.clock.RunClock`)."""
        return self.clock.seconds(self.world.time)

    def project(self, point: tuple[float, float]) -> tuple[float, float]:
        """Screen pixel (x right, y up) of a world point."""
        p = self.camera.project(point)
        return (float(p[0]), float(p[1]))

    def draw(self) -> None:
        """Clear the window and draw the level, the overlay and the HUD (the frame's clear is
        the renderer's: its cached backdrop covers the window). Changes nothing."""
        self.camera.use()
        self.renderer.draw(1.0 / self.rig.zoom, clear=True)
        self.overlay.draw()
        self.end_mark.draw()
        self.screen.use()
        self.markers.draw()
        self.hud.draw()
