"""Whole-frame time of the game: world step + render update + draw + ``ctx.finish()``.

Runs headless (``ARCADE_HEADLESS=1``, Mesa llvmpipe here) on the sandbox level with extra NPCs
to reach 300 and 1,000 agents, at 1280 x 720, debug overlay off and on. llvmpipe defers work,
so every frame ends with ``window.ctx.finish()`` before the clock is read.

    .venv/bin/python benchmarks/frame.py [--agents 300 1000] [--frames 200] [--level 7]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before arcade is imported
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from game.level import load_level, resolve_level
from game.perf import tune_allocator


def measure(
    level_name: str, agents: int, overlay: bool, frames: int, warmup: int, size: tuple[int, int]
) -> dict[str, float]:
    """Median and 95th percentile ms of the frame and of its parts for one configuration."""
    import arcade

    from game.render.bank import TextureBank
    from game.render.stage import LevelStage
    from game.world import Autopilot, World

    window = arcade.get_window()
    level = load_level(resolve_level(level_name))
    extra = max(agents - level.agent_count, 0)
    world = World(level, extra_npcs=extra, debug=overlay)
    pilot = Autopilot(world)
    stage = LevelStage(world, _bank(TextureBank), window, debug=overlay)
    dt = 1.0 / 60.0
    rows: list[tuple[float, float, float, float]] = []
    for k in range(warmup + frames):
        t0 = time.perf_counter()
        if world.outcome == "running":
            world.step(pilot())
        t1 = time.perf_counter()
        stage.update(dt)
        t2 = time.perf_counter()
        window.clear()
        stage.draw()
        window.flip()
        window.ctx.finish()
        t3 = time.perf_counter()
        if k >= warmup:
            rows.append((t3 - t0, t1 - t0, t2 - t1, t3 - t2))
    a = np.array(rows) * 1000.0
    med = np.median(a, axis=0)
    return {
        "agents": float(world.n),
        "frame": float(med[0]),
        "p95": float(np.percentile(a[:, 0], 95)),
        "step": float(med[1]),
        "update": float(med[2]),
        "draw": float(med[3]),
    }


_BANK: list[object] = []


def _bank(factory: type) -> object:
    if not _BANK:
        _BANK.append(factory())
    return _BANK[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--level", default="7")
    args = parser.parse_args(argv)
    tune_allocator()
    size = (1280, 720)

    from game.views.app import create_window

    window = create_window(*size, visible=False)
    print(
        f"renderer: {window.ctx.info.RENDERER}; {size[0]}x{size[1]}; level {args.level}; "
        f"{args.frames} frames after {args.warmup} warm-up"
    )
    print(
        "| agents | overlay | frame median ms | frame p95 ms | fps (median) "
        "| world step ms | render update ms | draw + finish ms |"
    )
    print("|---:|:---:|---:|---:|---:|---:|---:|---:|")
    for n in args.agents:
        for overlay in (False, True):
            r = measure(args.level, n, overlay, args.frames, args.warmup, size)
            print(
                f"| {int(r['agents']):,} | {'on' if overlay else 'off'} | {r['frame']:.1f} "
                f"| {r['p95']:.1f} | {1000.0 / r['frame']:.0f} | {r['step']:.1f} "
                f"| {r['update']:.1f} | {r['draw']:.1f} |",
                flush=True,
            )
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
