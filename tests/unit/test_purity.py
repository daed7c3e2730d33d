"""The pure layers import no arcade, pymunk or pyglet (checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

import pytest

PURE = ["steering", "game.level", "game.recording"]


@pytest.mark.parametrize("module", PURE)
def test_module_imports_no_graphics_or_physics(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in ('arcade', 'pymunk', 'pyglet') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
