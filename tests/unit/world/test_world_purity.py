"""The world imports no graphics: it runs with no window and no OpenGL."""

from __future__ import annotations

import subprocess
import sys


def test_world_imports_no_arcade_or_pyglet() -> None:
    code = (
        "import sys, game.world, game.cli_simulate\n"
        "bad = sorted(m for m in ('arcade', 'pyglet', 'OpenGL') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
