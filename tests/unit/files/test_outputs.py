"""Files the game writes: atomic on a full disk, through symlinks, never over what is not a
regular file, and the editor's autosave never crashes a key."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from game.editor.model import EditModel
from game.level import LevelError, load_level, save_level
from game.level.shipped import LEVELS_DIR
from game.safe_io import OutputError, atomic_write, check_output, set_aside
from game.world import TraceRecorder, World

ROOT = Path(__file__).resolve().parents[3]


def _no_space(*_args: object, **_kwargs: object) -> None:
    raise OSError(28, "No space left on device")


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_full_disk_keeps_the_old_file_and_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    monkeypatch.setattr(os, failing, _no_space)
    with pytest.raises(OutputError, match=r"out\.json: No space left"):
        atomic_write(target, b"new content")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert _names(tmp_path) == ["out.json"]


def test_a_writer_that_fails_halfway_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "trace.npz"
    target.write_bytes(b"good trace")

    def half(handle: object) -> None:
        handle.write(b"partial")  # type: ignore[attr-defined]
        _no_space()

    with pytest.raises(OutputError):
        atomic_write(target, half)
    assert target.read_bytes() == b"good trace"
    assert _names(tmp_path) == ["trace.npz"]


def test_a_trace_on_a_full_disk_keeps_the_good_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a good trace on disk and a new run
    world = World(load_level(LEVELS_DIR / "01_patrol.tmj"))
    rec = TraceRecorder(world)
    for _ in range(3):
        world.step(np.zeros(2))
        rec.after_step(world)
    out = tmp_path / "t.npz"
    rec.save(out)
    good = out.read_bytes()
    # When the disk fills up while the new trace is written
    world.step(np.zeros(2))
    rec.after_step(world)
    monkeypatch.setattr(os, "fsync", _no_space)
    with pytest.raises(OutputError):
        rec.save(out)
    monkeypatch.undo()
    # Then the good trace is still there, whole, and nothing else
    assert out.read_bytes() == good
    assert _names(tmp_path) == ["t.npz"]


def test_writes_go_through_a_symlink_to_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    atomic_write(link, b"new")
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.parametrize("kind", ["dir", "fifo", "loop"])
def test_what_is_not_a_regular_file_is_never_replaced(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "out.png"
    if kind == "dir":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(target)
    with pytest.raises(OutputError) as err:
        check_output(target, suffixes=(".png",))
    assert "out.png" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(OutputError):
        atomic_write(target, b"x")
    assert _names(tmp_path) == ["out.png"]
    assert not target.is_file()


def test_check_output_refuses_a_missing_folder_without_creating_it(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="does not exist"):
        check_output(tmp_path / "no" / "such" / "x.npz")
    assert _names(tmp_path) == []


def test_set_aside_never_overwrites_an_earlier_one(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    for text in ("one", "two"):
        path.write_text(text)
        set_aside(path)
    assert (tmp_path / "p.json.corrupt").read_text() == "one"
    assert (tmp_path / "p.json.corrupt.1").read_text() == "two"


# -- the editor and the level file --------------------------------------------------------


@pytest.fixture
def level_copy(tmp_path: Path) -> Path:
    path = tmp_path / "real" / "level.tmj"
    path.parent.mkdir()
    shutil.copy(LEVELS_DIR / "01_patrol.tmj", path)
    return path


def test_saving_through_a_symlink_writes_the_target_and_keeps_the_link(
    tmp_path: Path, level_copy: Path
) -> None:
    # Given a level reached through a symlink
    link = tmp_path / "link.tmj"
    link.symlink_to(level_copy)
    level = load_level(link)
    # When it is saved with a new title
    save_level(replace(level, title="Through the link"))
    # Then the link is still a link, the real file has the title, and its backup is beside it
    assert link.is_symlink()
    assert load_level(level_copy).title == "Through the link"
    assert (level_copy.parent / "level.tmj.bak").is_file()
    assert _names(tmp_path) == ["link.tmj", "real"]


def test_an_autosave_that_is_a_folder_never_crashes_save(level_copy: Path) -> None:
    # Given an editor whose autosave name is taken by a folder
    model = EditModel.open(level_copy)
    blocker = level_copy.with_name("level.autosave.tmj")
    blocker.mkdir()
    path = model.level.paths[0]
    model.toggle_closed(path.name)
    # When Ctrl+S saves and then discards the autosave
    model.save()
    # Then the level is saved, the folder is left alone and the notice says so
    assert load_level(level_copy).paths[0].closed is not path.closed
    assert blocker.is_dir()
    assert "folder" in model.notice
    assert model.newer_autosave() is None  # a folder is never offered as an autosave
    # And an autosave into it is a level error (the view shows it), not a crash
    model.toggle_closed(path.name)
    with pytest.raises(LevelError, match="directory"):
        model.autosave()


def test_discard_autosave_on_a_read_only_folder_is_a_notice(
    level_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = EditModel.open(level_copy)
    auto = level_copy.with_name("level.autosave.tmj")
    auto.write_text(json.dumps({}))

    def read_only(*_a: object, **_k: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(Path, "unlink", read_only)
    assert model.discard_autosave() is False
    assert "Read-only" in model.notice
    monkeypatch.undo()
    assert auto.exists()


def test_check_output_finds_a_full_disk_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a disk with room for a file's name but not one byte of it
    monkeypatch.setattr(os, "fsync", _no_space)
    # When an output is checked, Then it is refused now, and the probe is gone
    with pytest.raises(OutputError, match="No space left"):
        check_output(tmp_path / "t.npz", suffixes=(".npz",))
    monkeypatch.undo()
    assert _names(tmp_path) == []


def test_a_file_name_too_long_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="too long"):
        check_output(tmp_path / ("x" * 300 + ".png"))


# -- writes that were killed (issue 27) --------------------------------------------------------


def _dead_pid() -> int:
    """The id of a process that has just exited (not reused this soon)."""
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(child.stdout)


def test_the_next_write_removes_the_temp_files_of_killed_writers(tmp_path: Path) -> None:
    # Given what a SIGKILLed write leaves: its temporary file beside the target, and one of a
    # writer that is still running, and one of an older version without a writer id
    target = tmp_path / "trace.json"
    target.write_bytes(b"old")
    dead = tmp_path / f".trace.json.{_dead_pid()}.k3x9ab_7.tmp"
    live = tmp_path / f".trace.json.{os.getppid()}.a1b2c3d4.tmp"
    legacy = tmp_path / ".trace.json.q8w7e6r5.tmp"
    fresh_legacy = tmp_path / ".trace.json.z1x2c3v4.tmp"
    other = tmp_path / f".other.json.{_dead_pid()}.k3x9ab_7.tmp"
    # a temporary of the target "trace.json.old", which shares the prefix, old and dead
    longer = tmp_path / f".trace.json.old.{_dead_pid()}.k3x9ab_7.tmp"
    for f in (dead, live, legacy, fresh_legacy, other, longer):
        f.write_bytes(b"x" * 1000)
    old = time.time() - 3600
    for f in (dead, live, legacy, other, longer):  # all but one are an hour old
        os.utime(f, (old, old))
    young_dead = tmp_path / f".trace.json.{_dead_pid()}.n0w0n0w0.tmp"
    young_dead.write_bytes(b"x")
    # When the same target is written again
    atomic_write(target, b"new")
    # Then the killed writers' temporaries are gone, the running writer's stays, and nothing
    # of another target is touched
    assert target.read_bytes() == b"new"
    assert not dead.exists() and not legacy.exists()
    assert live.exists() and fresh_legacy.exists() and other.exists() and longer.exists()
    assert young_dead.exists()  # written in the last minute: maybe a writer elsewhere


def test_sigterm_during_a_long_write_removes_the_temp_and_exits_143(tmp_path: Path) -> None:
    # Given a command-line process in the middle of a slow atomic write
    target = tmp_path / "big.bin"
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from game.safe_io import Terminated, atomic_write, exit_cleanly_on_sigterm\n"
        "exit_cleanly_on_sigterm()\n"
        "def slow(handle):\n"
        "    handle.write(b'x' * 1000)\n"
        "    handle.flush()\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(30)\n"
        "try:\n"
        f"    atomic_write(Path({str(target)!r}), slow)\n"
        "except Terminated:\n"
        "    sys.exit(143)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=ROOT, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "writing"
    assert list(tmp_path.glob(".big.bin.*.tmp"))  # the temporary file is there
    # When it is sent SIGTERM
    proc.send_signal(signal.SIGTERM)
    # Then it ends with 143 and leaves neither the temporary file nor a target
    assert proc.wait(timeout=20) == 143
    assert not list(tmp_path.glob(".big.bin.*.tmp")) and not target.exists()


def test_check_output_refuses_a_name_too_long_for_the_writes_temporary_file(
    tmp_path: Path,
) -> None:
    # Given the longest name whose temporary file (".NAME.PID.XXXXXXXX.tmp") still fits
    # (issue 43: the probe had a short name, so 246-250 characters passed, then the write
    # failed after the whole run)
    most = os.pathconf(tmp_path, "PC_NAME_MAX")
    fits = most - len(f"..{os.getpid()}.12345678.tmp")
    ok, too_long = tmp_path / ("a" * (fits - 4) + ".png"), tmp_path / ("a" * (fits - 3) + ".png")
    # When both are checked, Then the first passes and is written, the second is refused
    # up front though the file system would hold its own name
    assert check_output(ok, suffixes=(".png",)) == ok
    atomic_write(ok, b"x")
    assert len(too_long.name) < most
    with pytest.raises(OutputError) as err:
        check_output(too_long, suffixes=(".png",))
    assert "\n" not in str(err.value)
    assert _names(tmp_path) == [ok.name]
