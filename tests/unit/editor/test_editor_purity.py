"""The editor model imports no arcade, pymunk or pyglet (checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
def test_editor_imports_no_graphics_or_physics() -> None:
    # Given a fresh interpreter
    code = (
        "import sys, game.editor\n"
        "bad = sorted(m for m in ('arcade', 'pymunk', 'pyglet') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    # When it imports game.editor
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    # Then none of them was loaded
    assert result.returncode == 0, result.stderr
