"""``python -m game lab [NAME] [--list] [--screenshot OUT.png --seconds S]``.

The Lab itself (:mod:`game.lab`, and so the steering core) is imported only when the command
runs, so building the parser stays light; arcade only inside the commands that draw:
``--screenshot`` sets ``ARCADE_HEADLESS`` before arcade loads, and ``--list`` needs no OpenGL.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.cli_common import bounded_float
from game.clock import DT
from game.safe_io import OutputError, atomic_write, check_output

if TYPE_CHECKING:
    import arcade
    from PIL import Image

    from game.lab import Scene

__all__ = ["add_parser", "render_scene", "run", "screenshot"]

log = logging.getLogger(__name__)

#: What ``--screenshot`` writes, by extension (PIL format names).
IMAGE_SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".bmp": "BMP", ".webp": "WEBP"}


def add_parser(subparsers: Any) -> None:
    """Add ``lab`` to an ``argparse`` sub-parser collection."""
    from game.cli_game import parse_size

    lab = subparsers.add_parser(
        "lab", help="the Lab: every steering behaviour and seed example, live"
    )
    lab.add_argument("name", nargs="?", help="open this scene directly (see --list)")
    lab.add_argument("--list", action="store_true", help="list the scenes with their captions")
    lab.add_argument(
        "--screenshot",
        type=Path,
        metavar="OUT.png",
        help="render scene NAME headless to an image (.png, .jpg, .bmp, .webp)",
    )
    lab.add_argument(
        "--seconds",
        type=bounded_float(0.0, 600.0),
        default=3.0,
        help="simulated seconds before the screenshot, up to 600 (default 3)",
    )
    lab.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH (1280x720)")
    lab.add_argument("--no-notes", action="store_true", help="annotations (F1) off")


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Run the ``lab`` command; returns the exit status."""
    from game.lab import SceneNotFoundError, find_scene, scene_classes

    if args.list:
        classes = scene_classes()
        width = max(len(c.name) for c in classes)
        for c in classes:
            print(f"{c.name:<{width}}  {c.default_caption()}")
        return 0
    try:
        cls = find_scene(args.name) if args.name is not None else None
    except SceneNotFoundError as err:
        return _error(str(err))
    if args.screenshot is not None:
        if cls is None:
            return _error("lab --screenshot needs a scene NAME (see python -m game lab --list)")
        try:
            check_output(args.screenshot, suffixes=IMAGE_SUFFIXES, what="--screenshot")
            screenshot(cls, args.screenshot, args.seconds, size=args.size, notes=not args.no_notes)
        except OutputError as exc:
            return _error(str(exc))
        except Exception as exc:  # no OpenGL context: pyglet's errors share no base class
            if "pyglet" not in type(exc).__module__ and "GL" not in type(exc).__name__:
                raise
            return _error(f"cannot render headless: {type(exc).__name__}: {exc}")
        return 0
    return _window(cls, notes=not args.no_notes)


def _window(cls: type[Scene] | None, *, notes: bool) -> int:
    from game.cli_game import no_display

    reason = no_display()
    if reason is not None:
        return _error(reason)
    import arcade

    from game.views.app import GameApp, create_window

    try:
        window = create_window()
    except Exception as exc:  # pyglet's display errors have no common base class
        return _error(f"cannot open the game window: {type(exc).__name__}: {exc}")
    app = GameApp(window)
    app.show_lab(cls.name if cls is not None else None)
    if not notes:
        view = window.current_view
        if view is not None and hasattr(view, "annotations"):
            view.annotations = False
    arcade.run()
    return 0


def screenshot(
    cls: type[Scene],
    out: Path,
    seconds: float = 3.0,
    *,
    size: tuple[int, int] = (1280, 720),
    notes: bool = True,
) -> Path:
    """Run scene ``cls`` headless for ``seconds`` and write the frame to ``out`` (atomically).

    Raises:
        OutputError: if the image cannot be written (an old file there is kept).
    """
    if not os.environ.get("ARCADE_HEADLESS"):  # set (and not empty) before arcade loads
        os.environ["ARCADE_HEADLESS"] = "1"
    from game.views.app import create_window

    window = create_window(*size, visible=False)
    try:
        image = render_scene(window, cls, seconds, notes=notes)
        encoded = io.BytesIO()
        image.save(encoded, format=IMAGE_SUFFIXES[out.suffix.lower()])
        atomic_write(out, encoded.getvalue())
        log.info("screenshot of lab scene %s after %.2f s written to %s", cls.name, seconds, out)
    finally:
        window.close()
    return out


def render_scene(
    window: arcade.Window, cls: type[Scene], seconds: float, *, notes: bool = True
) -> Image.Image:
    """Run a fresh ``cls`` for ``seconds`` of fixed steps in ``window`` and grab the frame."""
    import arcade

    from game.views.lab import LabView

    view = LabView(window, cls, annotations=notes)
    window.show_view(view)
    for _ in range(round(seconds / DT)):
        view.on_fixed_update(DT)
    view.snap()
    window.clear()
    view.on_draw()
    width, height = window.get_framebuffer_size()
    return arcade.get_image(0, 0, width, height, components=3)
