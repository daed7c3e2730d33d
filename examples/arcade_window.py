"""A flock in an arcade window: one SpriteList, filled from the agents without a Python loop.

Run: ``python examples/arcade_window.py`` (``pip install ./packages/steering arcade``).
The mouse is the flock's target. ``--frames N`` closes the window after N frames (the tests
run it headless with ``ARCADE_HEADLESS=1``).
"""

from __future__ import annotations

import argparse

import arcade
import numpy as np

import steering as st
from steering.arcade import sync_sprites

WIDTH, HEIGHT = 960, 640
DT = 1.0 / 60.0


class Flock(arcade.Window):
    def __init__(self, n: int, frames: int | None) -> None:
        super().__init__(WIDTH, HEIGHT, "steering: a flock", fixed_rate=DT)
        self.frames_left = frames
        rng = np.random.default_rng(5)
        self.agents = st.AgentGroup.create(
            rng.uniform((0, 0), (WIDTH, HEIGHT), (n, 2)),
            rng.normal(0.0, 60.0, (n, 2)),
            max_speed=140.0,
            world_size=(WIDTH, HEIGHT),  # a torus: what leaves one edge comes back at the other
        )
        self.seek = st.Seek((WIDTH / 2, HEIGHT / 2))
        self.steer = st.WeightedSum(
            [
                st.Weighted(st.Separate(18.0), 1.5),
                st.Weighted(st.Align(40.0), 1.0),
                st.Weighted(st.Cohere(40.0), 0.8),
                st.Weighted(self.seek, 0.3),
            ]
        )
        self.sprites = arcade.SpriteList()
        texture = arcade.make_soft_circle_texture(12, arcade.color.LIGHT_GREEN, outer_alpha=255)
        for _ in range(n):
            self.sprites.append(arcade.Sprite(texture))
        sync_sprites(self.sprites, self.agents)

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        self.seek.target = (x, y)

    def on_fixed_update(self, delta_time: float) -> None:
        st.step(self.agents, self.steer, DT)  # forces / mass move the agents; the sprites follow

    def on_update(self, delta_time: float) -> None:
        if self.frames_left is not None:
            self.frames_left -= 1
            if self.frames_left <= 0:
                self.close()

    def on_draw(self) -> None:
        self.clear()
        sync_sprites(self.sprites, self.agents)
        self.sprites.draw()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--agents", type=int, default=600)
    parser.add_argument("--frames", type=int, default=None)
    args = parser.parse_args(argv)
    Flock(args.agents, args.frames)
    arcade.run()


if __name__ == "__main__":
    main()
