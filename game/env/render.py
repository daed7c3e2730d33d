"""Drawing an environment's world: headless frames (``rgb_array``, the screenshot's path:
``ARCADE_HEADLESS`` and the level's own stage) or the game's window (``human``). arcade is
imported here only, when a render mode asks for it."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from game.world import World

__all__ = ["EnvRenderer"]


class EnvRenderer:
    """A window (hidden for ``rgb_array``) and the level stage that draws a world in it: the
    process's arcade window when it has one (its size then), else a new one.

    Args:
        mode: ``"rgb_array"`` or ``"human"``.
        size: The window's (width, height) in pixels.
    """

    def __init__(self, mode: str, size: tuple[int, int]) -> None:
        if mode == "rgb_array" and "arcade" not in sys.modules:
            # set before arcade loads (any value turns it on); a process that already drew in
            # a real window keeps it
            os.environ.setdefault("ARCADE_HEADLESS", "1")
        import arcade

        from game.render.bank import TextureBank
        from game.views.window import create_window

        self.mode = mode
        try:  # arcade keeps one window a process: draw in it when there is one
            self.window = arcade.get_window()
            self.owned = False
        except RuntimeError:
            self.window = create_window(size[0], size[1], visible=mode == "human")
            self.owned = True
        self.bank = TextureBank()
        self.stage: Any = None

    def draw(self, world: World, dt: float) -> np.ndarray | None:
        """Draw ``world`` (a new stage for a new world); the frame for ``rgb_array``."""
        import arcade

        from game.render.stage import LevelStage

        window = self.window
        window.switch_to()
        if self.stage is None or self.stage.world is not world:
            self.stage = LevelStage(world, self.bank, window)
            self.stage.snap_camera()
        clock = self.stage.clock
        if clock.started is None:  # the HUD's time starts on the first move, as in play
            for k, thrust in enumerate(world.player.inputs):
                if thrust != (0.0, 0.0):
                    clock.note(thrust, k * world.dt)
                    break
        self.stage.update(dt)
        window.clear()
        self.stage.draw()
        if self.mode == "human":
            window.flip()
            window.dispatch_events()
            return None
        width, height = window.get_framebuffer_size()
        image = arcade.get_image(0, 0, width, height, components=3)
        return np.asarray(image, dtype=np.uint8)

    def close(self) -> None:
        """Close the window (when this renderer opened it)."""
        if self.owned:
            self.window.close()
