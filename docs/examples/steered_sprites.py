"""500 steered sprites in an arcade game: they flock round the mouse, away from each other and
off the window's edges. The steering core does all 500 in a few NumPy calls per step.

Run: ``python docs/examples/steered_sprites.py`` (needs a display; ``xvfb-run -a`` without one).
"""

from __future__ import annotations

import arcade
import numpy as np

from steering import (
    AgentGroup,
    Align,
    Contain,
    Seek,
    Separate,
    TruncatedRunningSum,
    Weighted,
    integrate,
)

WIDTH, HEIGHT, COUNT, DT = 1024, 640, 500, 1 / 60


class SteeredSprites(arcade.View):
    """The whole game: a crowd of sprites steered every fixed step."""

    def __init__(self, window: arcade.Window) -> None:
        super().__init__(window, background_color=(11, 30, 50, 255))
        rng = np.random.default_rng(1)
        pos = rng.uniform((0, 0), (WIDTH, HEIGHT), (COUNT, 2))
        self.agents = AgentGroup.create(
            pos, rng.normal(0, 60, (COUNT, 2)), max_speed=140, max_force=400, radius=6
        )
        self.mouse = np.array([WIDTH / 2, HEIGHT / 2])
        self.sprites = arcade.SpriteList()
        for x, y in pos:
            self.sprites.append(arcade.SpriteSolidColor(14, 6, x, y, (120, 230, 210, 255)))

    def steering(self) -> TruncatedRunningSum:
        """Contain first, then separate, then align and seek the mouse with what is left."""
        return TruncatedRunningSum(
            [
                Contain(0, 0, WIDTH, HEIGHT, margin=20),
                Weighted(Separate(14.0), 2.0),
                Align(40.0),
                Weighted(Seek(self.mouse), 0.4),
            ]
        )

    def on_fixed_update(self, delta_time: float) -> None:
        force = self.steering()(self.agents, DT)
        integrate(self.agents, force, DT)  # velocity += force / mass * dt, limited
        angles = np.degrees(np.arctan2(self.agents.heading[:, 1], self.agents.heading[:, 0]))
        for sprite, (x, y), a in zip(self.sprites, self.agents.pos, angles, strict=True):
            sprite.position = (float(x), float(y))
            sprite.angle = -float(a)  # arcade's angles turn clockwise

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse[:] = (x, y)

    def on_draw(self) -> None:
        self.clear()
        self.sprites.draw()


def main() -> None:
    window = arcade.Window(WIDTH, HEIGHT, "500 steered sprites", fixed_rate=DT)
    window.show_view(SteeredSprites(window))
    arcade.run()


if __name__ == "__main__":
    main()
