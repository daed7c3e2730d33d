"""Render the screenshots of docs/editor.md headless (``ARCADE_HEADLESS=1``).

Usage: ``ARCADE_HEADLESS=1 python -m tools.editor_shots [OUT_DIR]`` (default docs/editor/).
Each shot opens the editor on a level, sets up one situation through the edit model, runs
a few frames and saves the window.
"""

from __future__ import annotations

import logging
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import arcade

from game.editor import EditModel
from game.editor.blank import create_level_file
from game.editor.objects import Ref
from game.editor.tools import Tool
from game.level import resolve_level
from game.views.app import GameApp, create_window
from game.views.editor import EditorView

OUT = Path(__file__).resolve().parents[1] / "docs" / "editor"
logger = logging.getLogger("editor_shots")


def _frames(window: arcade.Window, n: int) -> None:
    for _ in range(n):
        window.dispatch_event("on_fixed_update", 1 / 60)
        window.dispatch_event("on_update", 1 / 60)
        window.dispatch_event("on_draw")
        window.dispatch_events()


def _new_level(view: EditorView) -> None:
    m = view.model
    m.create("obstacles", 480.0, 200.0)
    m.begin_create("flows", 620.0, 80.0)
    m.update_drag(860.0, 260.0)
    m.end_drag()
    m.select("path-1")
    m.create("enemies", 420.0, 320.0)
    m.select_object(Ref("enemies", 0))
    view.tool = Tool.ENEMY


def _flow(view: EditorView) -> None:
    view.model.select_object(Ref("flows", 2))
    view.mouse = (0.0, 0.0)


def _npc_area(view: EditorView) -> None:
    view.model.select_object(Ref("npcs", 0))


def _walls(view: EditorView) -> None:
    """Gate's walls: one selected (its corners and thickness in the panel), the wall tool on,
    and the cursor on another wall, which shows its thickness."""
    m = view.model
    m.select_object(Ref("walls", 0))
    view.tool = Tool.WALL
    other = m.level.walls[1]
    (ax, ay), (bx, by) = other.points[:2]
    view.mouse = ((ax + bx) / 2, (ay + by) / 2)
    view.hover = view._hit()


SHOTS: list[tuple[str, str | None, Callable[[EditorView], None]]] = [
    ("new_level.png", None, _new_level),
    ("walls.png", "gate", _walls),
    ("flow_selected.png", "currents", _flow),
    ("npc_area.png", "swarm", _npc_area),
]


def main(out: Path = OUT) -> int:
    """Render every shot into ``out``."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    out.mkdir(parents=True, exist_ok=True)
    window = create_window(1280, 720, visible=False)
    app = GameApp(window)
    with tempfile.TemporaryDirectory() as tmp:
        for name, level, setup in SHOTS:
            if level is None:
                path = Path(tmp) / "fresh.tmj"
                create_level_file(path, (30, 20))
            else:
                path = resolve_level(level)
            view = EditorView(app, EditModel.open(path))
            window.show_view(view)
            setup(view)
            _frames(window, 40)
            arcade.get_image().convert("RGB").save(out / name)
            logger.info("wrote %s", out / name)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
