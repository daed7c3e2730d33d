"""Every shipped level survives a round trip through the real Tiled map editor (tmj → tmx → tmj).

Runs when ``tiled`` is on PATH (Debian package ``tiled``; CI installs it), headless through
Qt's offscreen platform; skipped with a reason otherwise.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from game.level import LEVELS_DIR, load_level, loads_level, shipped_levels
from game.level.shipped import REPO_ROOT

TILED = shutil.which("tiled")

pytestmark = pytest.mark.skipif(
    TILED is None, reason="the Tiled map editor is not installed (apt-get install tiled)"
)


def _tiled(tmp_path: Path, fmt: str, source: Path, target: Path) -> None:
    """Convert a map with ``tiled --export-map`` without a display."""
    assert TILED is not None
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    runtime = tmp_path / "xdg-runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    result = subprocess.run(
        [TILED, "--export-map", fmt, str(source), str(target)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert target.is_file(), result.stderr


def _round_trip(tmp_path: Path, source: Path) -> Path:
    """tmj → tmx → tmj through Tiled, in ``tmp_path``; returns the final file."""
    tmx = tmp_path / (source.stem + ".tmx")
    back = tmp_path / (source.stem + ".back.tmj")
    _tiled(tmp_path, "tmx", source, tmx)
    _tiled(tmp_path, "json", tmx, back)
    return back


@pytest.mark.parametrize("path", shipped_levels(), ids=lambda p: p.name)
def test_shipped_level_round_trips_through_tiled(tmp_path: Path, path: Path) -> None:
    # Given a shipped level
    original = load_level(path)
    # When Tiled converts it to TMX and back to JSON in another folder
    back = _round_trip(tmp_path, path)
    # Then the level data is the same (Level's == ignores the source path)
    again = load_level(back)
    assert again == original
    assert again.source != original.source


def test_docs_minimal_example_round_trips_through_tiled(tmp_path: Path) -> None:
    text = (REPO_ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", text.split("## A minimal level", 1)[1], re.S)
    assert example is not None
    source = tmp_path / "example.tmj"
    source.write_text(example.group(1), encoding="utf-8")
    original = loads_level(example.group(1), LEVELS_DIR / "example.tmj")
    assert load_level(_round_trip(tmp_path, source)) == original


def test_a_level_written_compactly_opens_in_tiled(tmp_path: Path) -> None:
    # Given a level as the saver writes it when indented it would be over the size limit
    # (one line, no spaces: issue 43)
    import json

    from game.level.write import dumps_map

    source = LEVELS_DIR / "10_sandbox.tmj"
    compact = tmp_path / "10_sandbox.tmj"
    compact.write_text(dumps_map(json.loads(source.read_text("utf-8")), compact=True), "utf-8")
    assert compact.read_text("utf-8").count("\n") == 1
    # When Tiled converts it to TMX and back
    back = _round_trip(tmp_path, compact)
    # Then it loads as the indented file does
    assert load_level(back) == load_level(source)
