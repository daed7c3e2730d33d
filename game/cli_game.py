"""The game's commands: ``play LEVEL``, ``screenshot LEVEL --out FILE.png`` and the window.

``add_parsers(subparsers)`` adds the commands to ``python -m game``'s parser and
``run(args)`` runs one; ``run_window(level=None)`` opens the game (the title view, or a level
directly). arcade is imported only inside them: ``screenshot`` must set ``ARCADE_HEADLESS``
before arcade loads.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.cli_common import bounded_float
from game.level import LevelError, load_level, resolve_level
from game.level.text import shown
from game.render.camera import ZOOM_MAX, ZOOM_MIN
from game.safe_io import OutputError, atomic_write, check_output

if TYPE_CHECKING:
    import arcade
    from PIL import Image

    from game.views.level import LevelView

__all__ = ["add_parsers", "parse_size", "render_level", "run", "run_window", "screenshot"]

log = logging.getLogger(__name__)

#: What ``screenshot --out`` writes, by extension (PIL format names).
IMAGE_SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".bmp": "BMP", ".webp": "WEBP"}
#: Frames of camera easing, trails and plankton run before a screenshot is taken.
SETTLE_FRAMES = 90


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> (1280, 720); argparse type for ``--size``."""
    match = re.fullmatch(r"\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, got {text!r}")
    w, h = int(match.group(1)), int(match.group(2))
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size must be 64..8192 px per side, got {text!r}")
    return w, h


def add_parsers(subparsers: Any) -> None:
    """Add ``play`` and ``screenshot`` to an ``argparse`` sub-parser collection."""
    play = subparsers.add_parser("play", help="open a level in the game window")
    play.add_argument("level", help="a level file, or a shipped level's name or number")
    play.add_argument("--debug", action="store_true", help="start with the F1 overlay on")
    play.add_argument(
        "--record",
        type=Path,
        default=None,
        help="keep the latest run's inputs in this replay file (.json; see `replay`)",
    )
    play.set_defaults(game_command="play")

    shot = subparsers.add_parser(
        "screenshot", help="render a level headless after S seconds of autopilot, to a PNG"
    )
    shot.add_argument("level", help="a level file, or a shipped level's name or number")
    shot.add_argument(
        "--out",
        required=True,
        type=Path,
        help="image to write: .png (or .jpg, .bmp, .webp); its folder must exist",
    )
    shot.add_argument(
        "--seconds", type=bounded_float(0.0, 3600.0), default=3.0, help="simulated seconds (3)"
    )
    shot.add_argument("--debug", action="store_true", help="draw the debug overlay")
    shot.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH (1280x720)")
    shot.add_argument(
        "--zoom",
        type=bounded_float(ZOOM_MIN, ZOOM_MAX),
        default=None,
        help=f"screen px per world px, {ZOOM_MIN:g} to {ZOOM_MAX:g} (default: as the level"
        " opens, the whole map)",
    )
    shot.set_defaults(game_command="screenshot")


def _load(name: str) -> Path | None:
    """The level's file after checking that it loads; None (and one line on stderr) if not."""
    try:
        path = resolve_level(name)
        load_level(path)
    except LevelError as err:
        print(f"error: {err}", file=sys.stderr)
        return None
    return path


def run(args: argparse.Namespace) -> int | None:
    """Run the ``play`` or ``screenshot`` command in ``args``; returns the exit status."""
    command = getattr(args, "game_command", None) or getattr(args, "command", None)
    if command == "play":
        if args.record is not None:
            try:
                check_output(args.record, suffixes=(".json",), what="--record")
            except OutputError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
        return run_window(args.level, debug=args.debug, record=args.record)
    if command == "screenshot":
        try:
            check_output(args.out, suffixes=IMAGE_SUFFIXES, what="--out")
        except OutputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        path = _load(args.level)
        if path is None:
            return 2
        try:
            screenshot(
                path, args.out, args.seconds, debug=args.debug, size=args.size, zoom=args.zoom
            )
        except OutputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:  # no OpenGL context: pyglet's errors share no base class
            if "pyglet" not in type(exc).__module__ and "GL" not in type(exc).__name__:
                raise
            print(f"error: cannot render headless: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
        return 0
    print(f"error: unknown game command {command!r}", file=sys.stderr)
    return 2


def no_display() -> str | None:
    """Why a window cannot open here (no X or Wayland display and no headless mode), or
    None."""
    if os.environ.get("ARCADE_HEADLESS") or sys.platform in ("win32", "darwin"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "no display to open the game window on: run it under `xvfb-run -a python -m game` "
        "for a virtual one; `python -m game screenshot LEVEL --out F.png` renders without one"
    )


def run_window(level: str | None = None, *, debug: bool = False, record: Path | None = None) -> int:
    """Open the game window: the title view, or ``level`` directly; returns when it closes.

    With ``record``, the latest run's inputs are kept in that replay file (see
    :class:`game.recording.RunRecorder`).
    """
    path = None
    if level is not None:
        path = _load(level)
        if path is None:
            return 2
    reason = no_display()
    if reason is not None:
        print(f"error: {reason}", file=sys.stderr)
        return 2
    import arcade

    from game.views.app import GameApp, create_window

    try:
        window = create_window()
    except Exception as exc:  # pyglet's display errors have no common base class
        print(f"error: cannot open the game window: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    from game.recording import RunRecorder

    app = GameApp(window, recorder=RunRecorder(record) if record is not None else None)
    if path is None:
        app.show_title()
    else:
        app.play(path, debug=debug)
    from game.views.editor import rescue_on_exit

    with rescue_on_exit(window):  # the editor (opened with Tab) keeps its work on a crash
        arcade.run()
    if app.recorder is not None:
        app.recorder.save()  # the run the window was closed on
    return 0


def screenshot(
    path: Path,
    out: Path,
    seconds: float = 3.0,
    *,
    debug: bool = False,
    size: tuple[int, int] = (1280, 720),
    zoom: float | None = None,
) -> Path:
    """Render ``path`` headless after ``seconds`` of the autopilot playing and save a PNG
    (at ``zoom``, or the zoom the level opens at).

    The run stops early when the outcome is decided. Returns the file written.

    Raises:
        OutputError: if the image cannot be written (an old file there is kept).
    """
    if not os.environ.get("ARCADE_HEADLESS"):  # set (and not empty) before arcade loads
        os.environ["ARCADE_HEADLESS"] = "1"
    from game.views.app import create_window

    window = create_window(*size, visible=False)
    try:
        image, view = render_level(window, path, seconds, debug=debug, zoom=zoom)
        encoded = io.BytesIO()
        image.save(encoded, format=IMAGE_SUFFIXES[out.suffix.lower()])
        atomic_write(out, encoded.getvalue())
        log.info(
            "screenshot of %s after %.2f s (%s) written to %s",
            shown(path.name),
            view.world.time,
            view.world.outcome,
            out,
        )
    finally:
        window.close()
    return out


def render_level(
    window: arcade.Window,
    path: Path,
    seconds: float,
    *,
    debug: bool = False,
    zoom: float | None = None,
) -> tuple[Image.Image, LevelView]:
    """Play ``path`` with the autopilot for ``seconds`` in ``window`` and grab the frame (at
    ``zoom``, or the zoom the level opens at: the whole map).

    Returns:
        The RGB image of the whole window and the level view (its world, its stage's camera).
    """
    import arcade

    from game.progress import ProgressStore
    from game.views.app import GameApp
    from game.views.level import LevelView

    app = GameApp(window, progress=ProgressStore(persist=False), levels=[], zoom=zoom)
    view = LevelView(app, path, debug=debug, autopilot=True, show_result=False)
    window.show_view(view)
    dt = window.fixed_delta_time
    steps = round(seconds / dt)
    settle_from = max(steps - SETTLE_FRAMES, 0)
    for k in range(steps):
        if view.world.outcome != "running":
            break
        if k == settle_from:
            view.stage.overlay.reset()  # trails start here, not at the spawn
        view.on_fixed_update(dt)
        if k >= settle_from:
            view.on_update(dt)
    view.stage.snap_camera()
    view.on_update(dt)
    window.clear()
    view.on_draw()
    width, height = window.get_framebuffer_size()
    image = arcade.get_image(0, 0, width, height, components=3)
    return image, view
