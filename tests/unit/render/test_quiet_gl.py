"""The game's process runs without pyglet's per-call GL error check; the tests keep it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import sys
from game.perf import quiet_gl
first = quiet_gl()
import arcade
import pyglet
import pyglet.gl
from pyglet.gl import lib
window = arcade.Window(64, 64, visible=False)
arcade.get_window().clear()
checked = getattr(pyglet.gl.glClear, "errcheck", None) is lib.errcheck
print(first, quiet_gl(), pyglet.options["debug_gl"], checked)
"""


def test_quiet_gl_drops_the_per_call_check_before_arcade_loads_and_not_after() -> None:
    env = {**os.environ, "ARCADE_HEADLESS": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    # First call takes effect; once pyglet's GL is loaded it is too late and says so; the
    # GL functions carry no error check
    assert out.stdout.split() == ["True", "False", "False", "False"]


def test_main_called_from_code_keeps_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a process where pyglet's GL is not loaded yet (as the tests may be)
    import pyglet

    from game import perf
    from game.__main__ import main

    monkeypatch.setitem(pyglet.options, "debug_gl", True)
    calls: list[bool] = []
    monkeypatch.setattr(perf, "quiet_gl", lambda: calls.append(True) or True)
    # When code calls the command line with its own arguments
    assert main(["lab", "--list"]) == 0
    # Then the check stays on: only the program itself (no arguments given) drops it
    assert calls == []
    assert pyglet.options["debug_gl"] is True
