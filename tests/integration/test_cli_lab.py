"""``python -m game lab``: --list, one-line errors, headless screenshots written atomically."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.__main__ import main
from game.lab import scene_classes


def test_list_prints_every_scene_with_its_caption(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(scene_classes())
    for line, cls in zip(lines, scene_classes(), strict=True):
        assert line.startswith(cls.name) and line.endswith(cls.default_caption())


def test_an_unknown_scene_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "no-such-scene", "--list"]) == 0  # --list wins
    capsys.readouterr()
    assert main(["lab", "no-such-scene", "--screenshot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no scene 'no-such-scene'" in err


def test_screenshot_needs_a_name_and_a_writable_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lab", "--screenshot", str(tmp_path / "a.png")]) == 2
    assert "needs a scene NAME" in capsys.readouterr().err
    assert main(["lab", "seek", "--screenshot", str(tmp_path / "no" / "a.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err
    assert main(["lab", "seek", "--screenshot", str(tmp_path / "a.txt")]) == 2
    assert "extension" in capsys.readouterr().err


@pytest.mark.slow
def test_screenshot_writes_a_png_headless(tmp_path: Path) -> None:
    out = tmp_path / "seek.png"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "lab",
            "seek",
            "--screenshot",
            str(out),
            "--seconds",
            "0.5",
            "--size",
            "480x300",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    from PIL import Image

    with Image.open(out) as im:
        assert im.size == (480, 300)
