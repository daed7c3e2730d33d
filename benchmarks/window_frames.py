"""Whole frames of any level in a real window, zoomed out to the whole map: the frame rate over
some seconds, the 95th-percentile frame, and the split of a frame into world, render update and
draw. Issue 24's frame table.

Run under a real display, for example Xvfb (Mesa llvmpipe here):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python -m benchmarks.window_frames \\
        [LEVEL ...] [--seconds 10] [--size 1280x800] [--no-blank] [--player circles|autopilot] \\
        [--extra-npcs K] [--debug]

``--extra-npcs 798 --debug sandbox`` is the sandbox at 1,000 agents with the F1 overlay on;
``--extra-npcs 9798 sandbox`` the sandbox at 10,000 agents (the level holds 202).

Each level plays in the game's own window and loop (``arcade.run``: fixed updates at 60 Hz,
drawing at up to 60 fps, as in play) with the player swimming slow circles (or the autopilot
driving it: its planning then counts in "world") and the camera zoomed so the whole map is in
view (below the game's own zoom limit when the map needs it).
The run never ends: a catch or a win is ignored, so that all the seconds are play. The first
line is a blank arcade window on the same display, the ceiling any level can reach.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.perf import quiet_gl, tune_allocator

# The process the game runs in (python -m game): before arcade imports pyglet's GL.
quiet_gl()
tune_allocator()

import arcade  # noqa: E402
import pyglet  # noqa: E402

from game.cli_common import bounded_float, bounded_int, one_line_errors  # noqa: E402
from game.level import LevelError, resolve_level, shipped_levels  # noqa: E402
from game.views.app import GameApp, create_window  # noqa: E402
from game.views.level import LevelView  # noqa: E402
from game.views.sound import Sounds  # noqa: E402


class Meter:
    """Frame stamps and per-frame sums of the timed parts."""

    def __init__(self) -> None:
        self.stamps: list[float] = []
        self.parts: dict[str, list[float]] = {"world": [], "update": [], "draw": []}
        self._frame = {"world": 0.0, "update": 0.0, "draw": 0.0}

    def timed(self, part: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            t0 = time.perf_counter()
            out = handler(*args)
            self._frame[part] += time.perf_counter() - t0
            if part == "draw":  # a frame ends when it is drawn
                self.stamps.append(time.perf_counter())
                for name, seconds in self._frame.items():
                    self.parts[name].append(seconds * 1000.0)
                    self._frame[name] = 0.0
            return out

        return run


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def measure(window: arcade.Window, view: arcade.View, seconds: float) -> dict[str, float]:
    """Show ``view`` (its handlers already wrapped) for ``seconds`` in the game loop."""
    meter: Meter = view.meter  # type: ignore[attr-defined]
    window.show_view(view)

    def until_done(dt: float) -> None:
        # Counted from the first frame drawn, not from now: a first frame that compiles
        # kernels (a cold cache) takes seconds, and the run would then end before the warm-up.
        if meter.stamps and time.perf_counter() - meter.stamps[0] >= seconds + 1.0:
            pyglet.clock.unschedule(until_done)
            pyglet.app.exit()

    pyglet.clock.schedule_interval(until_done, 0.05)  # 1 s warm-up, then the seconds
    arcade.run()
    start = meter.stamps[0] + 1.0
    keep = [k for k, t in enumerate(meter.stamps) if t >= start]
    stamps = [meter.stamps[k] for k in keep]
    gaps = [(b - a) * 1000.0 for a, b in itertools.pairwise(stamps)]
    fps = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 else 0.0
    out = {"fps": fps, "p95_ms": _p95(gaps) if gaps else 0.0}
    for name, values in meter.parts.items():
        kept = [values[k] for k in keep]
        out[f"{name}_ms"] = statistics.median(kept) if kept else 0.0
    return out


class Blank(arcade.View):
    """A view that only clears the window."""

    def on_draw(self) -> None:
        self.clear()


def wrap(view: arcade.View, meter: Meter) -> None:
    """Time the view's fixed updates (the world), updates and draws: the view becomes an
    instance of a subclass whose handlers time its own (pyglet keeps handlers as bound
    methods, so instance attributes would not do)."""
    base = type(view)
    timed: dict[str, Any] = {}
    for name, part in (("on_fixed_update", "world"), ("on_update", "update"), ("on_draw", "draw")):
        if hasattr(base, name):
            timed[name] = _timed_method(getattr(base, name), part)
    view.meter = meter  # type: ignore[attr-defined]
    view.__class__ = type(f"Timed{base.__name__}", (base,), timed)


def _timed_method(plain: Callable[..., Any], part: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any) -> Any:
        return self.meter.timed(part, lambda *a: plain(self, *a))(*args)

    return method


def level_view(
    app: GameApp, path: Path, player: str, extra_npcs: int = 0, debug: bool = False
) -> LevelView:
    view = LevelView(
        app,
        path,
        autopilot=player == "autopilot",
        show_result=False,
        extra_npcs=extra_npcs,
        debug=debug,
    )
    world = view.world
    step = world.step

    def endless(thrust: Any = (0.0, 0.0)) -> str:
        if player == "circles":  # swims slow circles, as a player holding keys would
            k = world.frame
            thrust = (math.cos(k / 120.0), math.sin(k / 90.0))
        step(thrust)
        world.outcome = "running"  # a catch or a win is ignored: all the seconds are play
        return "running"

    world.step = endless  # type: ignore[method-assign]
    rig = view.stage.rig
    # The whole map in the play area (the window between the HUD's bars), so the camera
    # holds still as a player's zoomed-out view does.
    view_w, view_h = rig.view_size
    rig.zoom = min(view_w / world.level.width_px, view_h / world.level.height_px)
    view.stage.snap_camera()
    return view


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("levels", nargs="*", help="levels (default: every shipped level)")
    parser.add_argument("--seconds", type=bounded_float(0.0, 3600.0, open_low=True), default=10.0)
    parser.add_argument("--size", type=parse_size_px, default=(1280, 800))
    parser.add_argument("--no-blank", action="store_true")
    parser.add_argument(
        "--player",
        choices=("circles", "autopilot"),
        default="circles",
        help="who swims: slow circles (the frame a player gets) or the autopilot, whose "
        "route planning then counts in the world's time",
    )
    parser.add_argument(
        "--extra-npcs",
        type=bounded_int(0, 100_000),
        default=0,
        help="fish added to each level (the sandbox at 1,000 or 10,000 agents)",
    )
    parser.add_argument("--debug", action="store_true", help="with the F1 overlay on")
    one_line_errors(parser)
    args = parser.parse_args()
    try:
        paths = [resolve_level(name) for name in args.levels] or shipped_levels()
    except LevelError as exc:
        parser.error(str(exc))
    window = create_window(*args.size, visible=True)
    app = GameApp(window, sounds=Sounds(muted=True))
    print(
        f"{'level':>18} {'fps':>6} {'p95 ms':>7} {'world ms':>9} {'update ms':>10} "
        f"{'draw ms':>8}  ({args.size[0]}x{args.size[1]}, {args.seconds:g} s each)"
    )
    rows: list[tuple[str, arcade.View]] = []
    if not args.no_blank:
        rows.append(("blank window", Blank(window)))
    for path in paths:
        lv = level_view(app, path, args.player, args.extra_npcs, args.debug)
        rows.append((f"{path.stem} ({lv.world.n:,})", lv))
    for name, view in rows:
        meter = Meter()
        wrap(view, meter)
        r = measure(window, view, args.seconds)
        print(
            f"{name:>18} {r['fps']:>6.1f} {r['p95_ms']:>7.1f} {r['world_ms']:>9.2f} "
            f"{r['update_ms']:>10.2f} {r['draw_ms']:>8.2f}",
            flush=True,
        )
    window.close()
    return 0


def parse_size_px(text: str) -> tuple[int, int]:
    """``WxH`` in pixels."""
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


if __name__ == "__main__":
    raise SystemExit(main())
