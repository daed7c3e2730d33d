"""``python -m game replay FILE.json``: watch a recorded run in the game window.

The file is read and its level loaded before any window opens, so a bad file or level is one
line on stderr and exit status 2. arcade is imported only once they are good.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``replay`` command to an ``argparse`` sub-parsers object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay", help="watch a recorded run (play --record) in the game window"
    )
    parser.add_argument("file", type=Path, help="a replay file (JSON, see the README)")
    parser.add_argument(
        "--level",
        default=None,
        help="play it on this level instead of the file's (a file, or a shipped level's name)",
    )
    parser.add_argument("--debug", action="store_true", help="start with the F1 overlay on")
    parser.add_argument(
        "--speed", type=int, choices=(1, 2, 4, 8), default=1, help="playback speed (1)"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``replay`` with parsed arguments; returns the exit status (2 on bad input)."""
    # Imported here: replay files are validated by pydantic, which every start of
    # ``python -m game`` (its parsers) need not load.
    from game.recording import ReplayError, load_recording, resolve_recording_level

    try:
        recording = load_recording(args.file)
        path = resolve_recording_level(recording, args.level)
    except ReplayError as exc:
        sys.stderr.write(f"replay: error: {exc}\n")
        return 2
    from game.cli_game import no_display

    reason = no_display()
    if reason is not None:
        sys.stderr.write(f"replay: error: {reason}\n")
        return 2
    import arcade

    from game.progress import ProgressStore
    from game.views.app import GameApp, create_window
    from game.views.replay import ReplayView

    try:
        window = create_window()
    except Exception as exc:  # pyglet's display errors have no common base class
        sys.stderr.write(f"replay: error: cannot open the game window: {exc}\n")
        return 2
    app = GameApp(window, progress=ProgressStore(persist=False), levels=[])  # a replay wins nothing
    window.show_view(ReplayView(app, recording, path, debug=args.debug, speed=args.speed))
    arcade.run()
    return 0
