"""Whole-frame time of the game: world step + render update + draw + ``ctx.finish()``.

Runs headless (``ARCADE_HEADLESS=1``, Mesa llvmpipe here) on a level with extra NPCs, at
1280 x 720, debug overlay off and on, the player flown by the autopilot. llvmpipe defers work,
so every frame ends with ``window.ctx.finish()`` before the clock is read. arcade is imported
inside the functions only, after :func:`run_frames` has set ``ARCADE_HEADLESS``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.clock import DT
from game.level import load_level, resolve_level

if TYPE_CHECKING:
    import arcade

    from game.render.bank import TextureBank

__all__ = ["FRAME_SIZE", "FrameReport", "FrameRow", "format_frames", "measure", "run_frames"]

#: Window size of the measurement (px).
FRAME_SIZE = (1280, 720)


@dataclass(frozen=True)
class FrameRow:
    """Medians (ms) of one configuration's frames and of their parts."""

    agents: int
    overlay: bool
    frame_ms: float
    p95_ms: float
    step_ms: float
    update_ms: float
    draw_ms: float

    @property
    def fps(self) -> float:
        """Frames a second at the median frame time."""
        return 1000.0 / self.frame_ms if self.frame_ms > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``fps`` included)."""
        return {**asdict(self), "fps": self.fps}


@dataclass(frozen=True)
class FrameReport:
    """Every configuration measured, and where."""

    renderer: str
    size: tuple[int, int]
    level: str
    frames: int
    warmup: int
    rows: tuple[FrameRow, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "renderer": self.renderer,
            "size": list(self.size),
            "level": self.level,
            "frames": self.frames,
            "warmup": self.warmup,
            "rows": [r.to_json() for r in self.rows],
        }


def measure(
    window: arcade.Window,
    bank: TextureBank,
    level_name: str,
    agents: int,
    overlay: bool,
    frames: int,
    warmup: int,
    tick: Callable[[], None] | None = None,
) -> FrameRow:
    """Median and 95th percentile ms of the frame and of its parts for one configuration.

    Args:
        window: the (hidden, headless) game window.
        bank: the generated textures.
        level_name: a level file or shipped level name.
        agents: agents in the world, the player included (the level's own count at least).
        overlay: draw the debug overlay.
        frames: frames timed, after ``warmup`` untimed ones.
        tick: called after every frame (progress).
    """
    from game.render.stage import LevelStage
    from game.world import Autopilot, World

    level = load_level(resolve_level(level_name))
    world = World(level, extra_npcs=max(agents - level.agent_count, 0), debug=overlay)
    pilot = Autopilot(world)
    stage = LevelStage(world, bank, window, debug=overlay)
    dt = DT
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
        if tick is not None:
            tick()
    a = np.array(rows) * 1000.0
    med = np.median(a, axis=0)
    return FrameRow(
        agents=world.n,
        overlay=overlay,
        frame_ms=float(med[0]),
        p95_ms=float(np.percentile(a[:, 0], 95)),
        step_ms=float(med[1]),
        update_ms=float(med[2]),
        draw_ms=float(med[3]),
    )


def run_frames(
    agents: Sequence[int],
    frames: int = 200,
    warmup: int = 30,
    level_name: str = "sandbox",
    *,
    on_start: Callable[[str, int], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> FrameReport:
    """Open a hidden headless window and measure every size, overlay off then on.

    Args:
        agents: crowd sizes (agents in the world, the player included).
        frames: frames timed per configuration.
        warmup: untimed frames first.
        level_name: a level file or shipped level name.
        on_start: called with a label and the number of frames before each configuration.
        tick: called after every frame.
    """
    if not os.environ.get("ARCADE_HEADLESS"):  # set (and not empty) before arcade loads
        os.environ["ARCADE_HEADLESS"] = "1"
    from game.render.bank import TextureBank
    from game.views.app import create_window

    window = create_window(*FRAME_SIZE, visible=False)
    try:
        bank = TextureBank()
        rows = []
        for n in agents:
            for overlay in (False, True):
                if on_start is not None:
                    label = f"frames {n:,} agents, overlay {'on' if overlay else 'off'}"
                    on_start(label, warmup + frames)
                rows.append(measure(window, bank, level_name, n, overlay, frames, warmup, tick))
        renderer = str(window.ctx.info.RENDERER)
    finally:
        window.close()
    return FrameReport(renderer, FRAME_SIZE, level_name, frames, warmup, tuple(rows))


def format_frames(report: FrameReport) -> str:
    """The report as a Markdown table, with a line saying where it ran."""
    w, h = report.size
    lines = [
        f"Whole frames: renderer {report.renderer}; {w}x{h}; level {Path(report.level).name}; "
        f"{report.frames} frames after {report.warmup} warm-up",
        "",
        "| agents | overlay | frame median ms | frame p95 ms | fps (median) "
        "| world step ms | render update ms | draw + finish ms |",
        "|---:|:---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report.rows:
        lines.append(
            f"| {r.agents:,} | {'on' if r.overlay else 'off'} | {r.frame_ms:.1f} "
            f"| {r.p95_ms:.1f} | {r.fps:.0f} | {r.step_ms:.1f} "
            f"| {r.update_ms:.1f} | {r.draw_ms:.1f} |"
        )
    return "\n".join(lines)
