"""Every command of the README with bad arguments and bad files, through ``python -m game`` in a
subprocess: one line on stderr, exit status 2, within seconds, and no file changed or left
behind."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import Image

from game.level.shipped import LEVELS_DIR, REPO_ROOT
from tests.helpers.level import exit_, make_map, player, point, prop, rect

#: A refusal must come quickly (the import of numpy and scipy included).
TIMEOUT_S = 30.0


@dataclass
class Case:
    """One bad invocation: its arguments, the files it needs, and what the line must say."""

    name: str
    argv: list[str]
    says: str
    setup: Callable[[Path], None] = lambda _d: None
    module: str = "game"
    env: dict[str, str | None] = field(default_factory=dict)


def _level(folder: Path, objects: list[dict[str, object]], name: str = "bad.tmj") -> Path:
    path = folder / name
    path.write_text(json.dumps(make_map(objects)))
    return path


def _image_level(image: Callable[[Path], None]) -> Callable[[Path], None]:
    """A level with an image flow region; its image is made by ``image`` (in the work dir)."""

    def setup(folder: Path) -> None:
        image(folder / "flow.png")
        region = rect(
            3,
            "flow",
            200,
            100,
            256,
            256,
            [prop("kind", "string", "image"), prop("image", "file", "flow.png")],
        )
        _level(folder, [player(), exit_(), region])

    return setup


def _big_png(path: Path) -> None:
    Image.new("1", (20_000, 20_000)).save(path, optimize=True)


def _dense_npcs(folder: Path) -> None:
    crowd = rect(3, "npc", 600, 300, 1, 1, [prop("count", "int", 9990)])
    _level(folder, [player(), exit_(), crowd])


def _dense_enemies(folder: Path) -> None:
    crowd = point(3, "enemy", 600, 300, [prop("count", "int", 9990)])
    _level(folder, [player(), exit_(), crowd])


def _loop(folder: Path) -> None:
    (folder / "bad.tmj").symlink_to(folder / "bad.tmj")


def _fifo(folder: Path) -> None:
    os.mkfifo(folder / "bad.tmj")


def _a_file(folder: Path) -> None:
    (folder / "afile").write_text("not a folder")


def _a_dir(folder: Path) -> None:
    (folder / "out.npz").mkdir()
    (folder / "out.png").mkdir()
    (folder / "out.json").mkdir()


def _replay(content: str, name: str = "run.json") -> Callable[[Path], None]:
    """A replay file with this text."""

    def setup(folder: Path) -> None:
        (folder / name).write_text(content)

    return setup


def _big_replay(folder: Path) -> None:
    with (folder / "run.json").open("wb") as fh:
        fh.truncate(17 * 2**20)


NO_DISPLAY = {"DISPLAY": None, "WAYLAND_DISPLAY": None, "ARCADE_HEADLESS": None}
SIM_RUN = ["simulate", "--inputs", "run.json"]

CASES = [
    # -- arguments
    Case("play without a level", ["play"], "required: level"),
    Case("edit with two levels", ["edit", "1", "2"], "unrecognized arguments: 2"),
    Case("screenshot size 0x0", ["screenshot", "1", "--out", "s.png", "--size", "0x0"], "size"),
    Case("screenshot seconds -1", ["screenshot", "1", "--out", "s.png", "--seconds", "-1"], "-1"),
    Case("demo agents abc", ["demo", "--agents", "abc"], "not an integer"),
    Case("demo seed -1", ["demo", "--seed", "-1"], "0..4,294,967,295"),
    Case("demo too many agents", ["demo", "--agents", "10000000"], "1..100,000"),
    Case("simulate huge seed", ["simulate", "1", "--seed", "9" * 23], "0..4,294,967,295"),
    Case("simulate seconds nan", ["simulate", "1", "--seconds", "nan"], "--seconds"),
    Case("bench unknown flag", ["bench", "--bogus"], "--bogus"),
    Case("play unknown flag", ["play", "1", "--bogus"], "--bogus"),
    Case("edit unknown flag", ["edit", "1", "--bogus"], "--bogus"),
    Case("demo unknown flag", ["demo", "--bogus"], "--bogus"),
    Case("simulate unknown flag", ["simulate", "1", "--bogus"], "--bogus"),
    Case("screenshot unknown flag", ["screenshot", "1", "--out", "s.png", "--bogus"], "--bogus"),
    Case("top-level unknown flag", ["--bogus"], "--bogus"),
    Case("unknown command", ["fly"], "invalid choice"),
    Case("level check unknown flag", ["check", "--bogus"], "--bogus", module="game.level"),
    Case("level without command", [], "required", module="game.level"),
    # -- no display
    Case("the game without a display", [], "xvfb-run", env=NO_DISPLAY),
    Case("play without a display", ["play", "1"], "xvfb-run", env=NO_DISPLAY),
    Case("edit without a display", ["edit", "1"], "xvfb-run", env=NO_DISPLAY),
    # -- outputs
    Case("screenshot into a folder", ["screenshot", "1", "--out", "."], "extension"),
    Case("screenshot unknown extension", ["screenshot", "1", "--out", "s.xyz"], ".xyz"),
    Case("screenshot no extension", ["screenshot", "1", "--out", "shot"], "extension none"),
    Case(
        "screenshot onto a directory",
        ["screenshot", "1", "--out", "out.png"],
        "is a directory",
        _a_dir,
    ),
    Case(
        "screenshot under a file",
        ["screenshot", "1", "--out", "afile/s.png"],
        "afile",
        _a_file,
    ),
    Case(
        "trace under a file",
        ["simulate", "1", "--trace", "afile/t.npz"],
        "afile",
        _a_file,
    ),
    Case("trace onto a directory", ["simulate", "1", "--trace", "out.npz"], "directory", _a_dir),
    Case("trace wrong extension", ["simulate", "1", "--trace", "t.txt"], ".npz"),
    Case(
        "trace too large",
        ["simulate", "sandbox", "--agents", "100000", "--seconds", "3600", "--trace", "t.npz"],
        "GB",
    ),
    Case("bench json onto a directory", ["bench", "--json", "out.json"], "directory", _a_dir),
    Case("bench profile under a file", ["bench", "--profile", "afile/p.txt"], "afile", _a_file),
    Case("trace name too long", ["simulate", "1", "--trace", "a" * 300 + ".npz"], "too long"),
    Case("json name too long", ["bench", "--json", "b" * 300 + ".json"], "too long"),
    Case("screenshot name too long", ["screenshot", "1", "--out", "c" * 300 + ".png"], "too long"),
    Case("bench steps unbounded", ["bench", "--steps", "10000000000"], "1..100,000"),
    Case(
        "edit with a display that is not there",
        ["edit", "1"],
        "cannot open the editor window",
        env={"DISPLAY": ":99", "ARCADE_HEADLESS": None, "WAYLAND_DISPLAY": None},
    ),
    # -- level files
    Case(
        "image that is text",
        ["simulate", "bad.tmj"],
        "cannot be decoded",
        _image_level(lambda p: p.write_text("not a png")),
    ),
    Case(
        "image that is empty",
        ["screenshot", "bad.tmj", "--out", "s.png"],
        "empty file",
        _image_level(lambda p: p.write_bytes(b"")),
    ),
    Case(
        "image 20000 px a side",
        ["check", "bad.tmj"],
        "at most 4,096 px",
        _image_level(_big_png),
        module="game.level",
    ),
    Case("level is a folder", ["simulate", "."], "is a directory"),
    Case("level name with an escape", ["simulate", "esc\x1b[2J.tmj"], "\\x1b"),
    Case("level is a symlink loop", ["simulate", "bad.tmj"], "symbolic link loop", _loop),
    Case("level is a FIFO", ["check", "bad.tmj"], "not a regular file", _fifo, "game.level"),
    Case("npcs packed in 1 x 1 px", ["check", "bad.tmj"], "do not fit", _dense_npcs, "game.level"),
    Case("enemies at one point", ["simulate", "bad.tmj"], "do not fit", _dense_enemies),
    # -- replay files (simulate --inputs, replay) and play --record
    Case("replay not JSON", SIM_RUN, "run.json: not JSON", _replay("{level")),
    Case(
        "replay unknown key",
        ["replay", "run.json"],
        'field "speed": unknown key',
        _replay('{"level": "1", "seed": 0, "inputs": [], "speed": 2}'),
    ),
    Case(
        "replay missing seed",
        SIM_RUN,
        'field "seed": missing',
        _replay('{"level": "1", "inputs": []}'),
    ),
    Case(
        "replay NaN thrust",
        ["simulate", "1", "--inputs", "run.json"],
        'keyframe 1, field "thrust_y": NaN',
        _replay("[[0, 1, 0], [1, 0, NaN]]"),
    ),
    Case(
        "replay time backwards",
        ["simulate", "1", "--inputs", "run.json"],
        'keyframe 2, field "t": time goes backwards',
        _replay("[[0, 1, 0], [2, 0, 1], [1, 0, 0]]"),
    ),
    Case(
        "replay negative time",
        ["replay", "run.json", "--level", "1"],
        'keyframe 0, field "t"',
        _replay("[[-1, 1, 0]]"),
    ),
    Case(
        "replay thrust too long",
        ["simulate", "1", "--inputs", "run.json"],
        'keyframe 0, field "thrust"',
        _replay("[[0, 1, 1]]"),
    ),
    Case(
        "replay wrong type",
        ["simulate", "1", "--inputs", "run.json"],
        'keyframe 0, field "t": must be a number',
        _replay('[["0", 1, 0]]'),
    ),
    Case("replay too big", SIM_RUN, "at most 16,777,216", _big_replay),
    Case(
        "replay unknown level",
        ["replay", "run.json"],
        'field "level": atlantis: no such level',
        _replay('{"level": "atlantis", "seed": 0, "inputs": []}'),
    ),
    Case(
        "replay bare list without a level",
        ["replay", "run.json"],
        "names no level",
        _replay("[]"),
    ),
    Case("replay file missing", ["replay", "nope.json"], "nope.json: cannot read"),
    Case("replay is a folder", ["simulate", "--inputs", "."], "is a directory"),
    Case(
        "replay without a display",
        ["replay", "run.json"],
        "xvfb-run",
        _replay('{"level": "1", "seed": 0, "inputs": []}'),
        env=NO_DISPLAY,
    ),
    Case("inputs with autopilot", [*SIM_RUN, "--autopilot"], "--inputs and --autopilot"),
    Case("record wrong extension", ["play", "1", "--record", "r.txt"], ".json"),
    Case("record onto a directory", ["play", "1", "--record", "out.json"], "directory", _a_dir),
]


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A scratch folder under levels/ (flow images must live there), removed afterwards."""
    folder = LEVELS_DIR / f".robust-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _snapshot(*folders: Path) -> dict[str, tuple[int, int]]:
    """Every file with its size and time, every folder (a probe for writability made and
    removed in a folder changes only the folder's own time)."""
    out: dict[str, tuple[int, int]] = {}
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            for name in dirs:
                out[str(Path(root) / name)] = (0, 0)
            for name in files:
                info = (Path(root) / name).lstat()
                out[str(Path(root) / name)] = (info.st_size, info.st_mtime_ns)
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(case: Case, workdir: Path) -> None:
    # Given the files the case needs, and a progress file of its own
    case.setup(workdir)
    env = dict(os.environ)
    env["STEERING_GAME_PROGRESS"] = str(workdir / "progress.json")
    env.setdefault("ARCADE_HEADLESS", "1")
    for key, value in case.env.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    before = _snapshot(workdir, LEVELS_DIR)
    # When the command runs
    proc = subprocess.run(
        [sys.executable, "-m", case.module, *case.argv],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    # Then one line on stderr says what is wrong, with exit status 2, and no file changed
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert case.says in lines[0]
    assert "Traceback" not in proc.stderr
    assert _snapshot(workdir, LEVELS_DIR) == before


def test_shipped_level_names_with_spaces_are_found() -> None:
    for name in ("rock field", "Moving Paths", "rock-field"):
        proc = subprocess.run(
            [sys.executable, "-m", "game.level", "check", name],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert ": ok," in proc.stdout
