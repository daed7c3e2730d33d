"""steering.arcade.sync_sprites against arcade's per-sprite setters, side by side, headless.

Run: ``python -m benchmarks.sprite_sync``. Both paths fill a SpriteList from the same agents;
the script checks that the buffers arcade uploads are equal, then times each (median of 5
blocks) at 10, 1,000 and 10,000 sprites.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

import numpy as np

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade

import steering as st
from steering.arcade import sync_sprites


def _median_call(fn: Callable[[], None], calls: int) -> float:
    blocks = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        blocks.append((time.perf_counter() - t0) / calls)
    return statistics.median(blocks)


def _sprites(n: int) -> arcade.SpriteList:
    sprites = arcade.SpriteList()
    for _ in range(n):
        sprites.append(arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))
    return sprites


def main() -> None:
    window = arcade.Window(200, 200, visible=False)
    for n in (10, 1_000, 10_000):
        rng = np.random.default_rng(n)
        agents = st.AgentGroup.create(rng.uniform(0, 200, (n, 2)), rng.normal(0, 50, (n, 2)))
        fast, slow = _sprites(n), _sprites(n)
        sync_sprites(fast, agents)
        sync_sprites(slow, agents, sprite_attributes=True)
        a = np.frombuffer(fast._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)[:n]
        b = np.frombuffer(slow._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)[:n]
        assert np.array_equal(a, b)
        t_fast = _median_call(lambda s=fast, g=agents: sync_sprites(s, g), 20)
        t_slow = _median_call(
            lambda s=slow, g=agents: sync_sprites(s, g, sprite_attributes=True), 3
        )
        print(
            f"{n:>6} sprites: buffer {t_fast * 1e6:8.1f} µs, arcade setters "
            f"{t_slow * 1e6:8.1f} µs ({t_slow / t_fast:.0f}x)"
        )
    window.close()


if __name__ == "__main__":
    main()
