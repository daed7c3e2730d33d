"""``python -m game.level`` and the level tools in a subprocess: ``check`` and ``list``, one
line and status 2 for a bad file, escaped file names, the rock-field and round-trip tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game.editor.blank import create_level_file
from game.level import LEVELS_DIR, load_level, resolve_level, shipped_levels
from game.level.shipped import REPO_ROOT
from game.level.text import printable_title, shown
from tests.helpers.level import poly, prop, valid_map, write

SHIPPED = shipped_levels()
TOOLS = REPO_ROOT / "tools"
TOOL = REPO_ROOT / "tools" / "tiled_roundtrip.py"
ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )


def _titled(title: str, hint: str = "") -> dict[str, object]:
    props = [prop("title", "string", title)]
    if hint:
        props.append(prop("hint", "string", hint))
    return valid_map(props=props)


def test_check_command_summarises_good_files() -> None:
    result = _run("-m", "game.level", "check", "1", "patrol")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("ok") == 2


def test_check_command_reports_one_line_and_status_2(tmp_path: Path) -> None:
    raw = valid_map()
    raw["layers"][0]["objects"][0]["properties"] = [{"name": "radius", "type": "float", "value": 0}]
    bad = write(tmp_path, raw)
    result = _run("-m", "game.level", "check", str(bad))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert str(bad) in lines[0] and '"radius"' in lines[0] and "object 1" in lines[0]
    assert "Traceback" not in result.stderr


def test_check_command_unknown_name() -> None:
    result = _run("-m", "game.level", "check", "atlantis")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_list_command() -> None:
    result = _run("-m", "game.level", "list")
    assert result.returncode == 0
    assert result.stdout.split() == [str(p.relative_to(REPO_ROOT)) for p in SHIPPED]


def test_rockfield_tool_rerun_changes_nothing(tmp_path: Path) -> None:
    copy = tmp_path / "03_rockfield.tmj"
    copy.write_bytes((LEVELS_DIR / "03_rockfield.tmj").read_bytes())
    result = _run(str(TOOLS / "make_rockfield.py"), str(copy))
    assert result.returncode == 0, result.stderr
    assert json.loads(copy.read_text()) == json.loads((LEVELS_DIR / "03_rockfield.tmj").read_text())


def test_rockfield_tool_reports_a_bad_level_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tmj"
    bad.write_text("{", encoding="utf-8")
    result = _run(str(TOOLS / "make_rockfield.py"), str(bad))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_check_command_counts_walls() -> None:
    result = _run("-m", "game.level", "check", "gate")
    assert result.returncode == 0, result.stderr
    walls = len(load_level(resolve_level("gate")).walls)
    assert walls > 0 and f" {walls} walls, " in result.stdout


def test_check_prints_one_line_for_a_lone_surrogate_and_exits_2(tmp_path: Path) -> None:
    # The crash of issue 27: UnicodeEncodeError from `python -m game.level check`
    path = write(tmp_path, _titled("Pa\ud800trol"))
    run = subprocess.run(
        [sys.executable, "-m", "game.level", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 2, run.stderr
    lines = run.stdout.splitlines() + run.stderr.splitlines()
    assert len([ln for ln in lines if "half of a UTF-16 pair" in ln]) == 1, lines
    assert "Traceback" not in run.stderr


def test_a_file_name_that_is_not_utf8_is_shown_escaped_and_a_new_level_gets_a_title(
    tmp_path: Path,
) -> None:
    name = os.fsdecode(b"caf\xe9.tmj")  # a Latin-1 name on a UTF-8 file system
    assert shown(tmp_path / name).endswith("caf\\xe9.tmj")
    assert printable_title(Path(name).stem) == "caf\ufffd"
    level = create_level_file(tmp_path / name)  # crashed in the saver before
    assert load_level(tmp_path / name) == level
    run = subprocess.run(
        [sys.executable, "-m", "game.level", "check", os.fsencode(tmp_path / name)],
        capture_output=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert b"caf\\xe9.tmj: ok" in run.stdout


def test_the_tool_refuses_a_bad_level_in_one_line(tmp_path: Path) -> None:
    # Given a level whose radius is a string
    route = poly(5, "path", 100, 100, [(0, 0), (300, 0)], False, name="route")
    route["properties"] = [prop("radius", "string", "wide")]
    bad = tmp_path / "bad.tmj"
    bad.write_text(json.dumps(valid_map([route])), encoding="utf-8")
    # When the tool checks it
    done = subprocess.run(
        [sys.executable, str(TOOL), str(bad)], capture_output=True, text=True, timeout=60
    )
    # Then it exits 2 with one line naming the file, the object and the field
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("tiled_roundtrip: error: ")
    assert str(bad) in line and 'object 5 "route"' in line and 'field "radius"' in line
