"""The editor reads and writes regular files only (issue 43): a device, a symlink to one, a
FIFO as the level, a FIFO put at the save target while it runs, a file swapped for a symlink
to ``/dev/zero`` before Ctrl+S. Each is refused or saved beside in one line naming the file,
and nothing blocks: every case runs in its own process with a timeout and a 2 GiB memory cap,
so a hang or a read of ``/dev/zero`` fails the test instead of stalling the run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.level import LEVELS_DIR

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_S = 60
MEMORY_CAP = 2 << 30

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _capped() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _python(code: str, folder: Path, *, env: dict[str, str] | None = None) -> str:
    """Run ``code`` in a fresh interpreter in ``folder``; return its stdout (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        preexec_fn=_capped,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def level_file(tmp_path: Path) -> Path:
    target = tmp_path / "level.tmj"
    shutil.copyfile(LEVELS_DIR / "01_patrol.tmj", target)
    return target


def _special(tmp_path: Path, kind: str) -> Path:
    if kind == "fifo":
        fifo = tmp_path / "fifo.tmj"
        os.mkfifo(fifo)
        return fifo
    if kind == "link to /dev/zero":
        link = tmp_path / "zero.tmj"
        link.symlink_to("/dev/zero")
        return link
    return Path(kind)


KINDS = ["/dev/zero", "/dev/urandom", "link to /dev/zero", "fifo"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_edit_model_refuses_to_open_a_device_or_fifo(tmp_path: Path, kind: str) -> None:
    path = _special(tmp_path, kind)
    out = _python(
        f"""
        from game.editor import EditModel
        from game.level import LevelError
        try:
            EditModel.open({str(path)!r})
        except LevelError as err:
            print(err)
        """,
        tmp_path,
    )
    assert out.count("\n") == 1 and str(path) in out
    assert "not a regular file" in out


@pytest.mark.parametrize("display", ["headless", "xvfb"])
@pytest.mark.parametrize("kind", KINDS)
def test_edit_on_the_command_line_refuses_in_one_line(
    tmp_path: Path, kind: str, display: str
) -> None:
    if display == "xvfb" and shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed")
    path = _special(tmp_path, kind)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("ARCADE_HEADLESS", None)
    argv = [sys.executable, "-m", "game", "edit", str(path)]
    if display == "headless":
        env["ARCADE_HEADLESS"] = "1"
    else:
        argv = ["xvfb-run", "-a", *argv]
    done = subprocess.run(
        argv,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        preexec_fn=_capped,
    )
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(path) in errors[0] and "not a regular file" in errors[0]


@pytest.mark.parametrize("swap", ["fifo", "link to /dev/zero"])
def test_a_save_over_a_file_swapped_for_a_fifo_or_device_goes_beside_it(
    level_file: Path, swap: str
) -> None:
    # Given the editor on a level, an edit, and then the file swapped while it runs
    out = _python(
        f"""
        import os
        from pathlib import Path
        from game.editor import EditModel
        from game.level import load_level
        path = Path({str(level_file)!r})
        model = EditModel.open(path)
        name = model.level.paths[0].name
        assert model.set_path_radius(name, 31.0)
        os.unlink(path)
        if {swap!r} == "fifo":
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")
        # When saved (Ctrl+S)
        model.save()
        # Then the edits went beside it, and the notice says why in one line
        print(model.notice)
        print(model.source.name, load_level(model.source).paths[0].radius, model.dirty)
        """,
        level_file.parent,
    )
    notice, saved = out.splitlines()
    assert "level.tmj" in notice and "not a regular file" in notice
    assert saved == "level.edited.tmj 31.0 False"
    # And the FIFO or link is left as it was
    assert level_file.is_symlink() or level_file.is_fifo()


@pytest.mark.parametrize("where", ["the autosave", "a save-as target"])
def test_a_fifo_at_the_autosave_or_a_save_as_target_is_refused(
    level_file: Path, where: str
) -> None:
    fifo = level_file.with_name(
        "level.autosave.tmj" if where == "the autosave" else "elsewhere.tmj"
    )
    os.mkfifo(fifo)
    out = _python(
        f"""
        from game.editor import EditModel
        from game.level import LevelError
        model = EditModel.open({str(level_file)!r})
        assert model.set_path_radius(model.level.paths[0].name, 31.0)
        try:
            if {where!r} == "the autosave":
                model.autosave()
            else:
                model.save({str(fifo)!r})
        except LevelError as err:
            print(err)
        print(model.dirty)
        """,
        level_file.parent,
    )
    error, dirty = out.splitlines()
    assert str(fifo) in error or fifo.name in error
    assert "not a regular file" in error and dirty == "True"
    assert fifo.is_fifo()


def test_a_fifo_at_the_bak_or_the_autosave_is_left_alone(level_file: Path) -> None:
    # Given FIFOs where the .bak and the autosave go
    bak = level_file.with_name("level.tmj.bak")
    autosave = level_file.with_name("level.autosave.tmj")
    os.mkfifo(bak)
    os.mkfifo(autosave)
    # When the level is edited, saved (no .bak is kept then) and its autosave discarded
    out = _python(
        f"""
        from game.editor import EditModel
        from game.level import load_level
        model = EditModel.open({str(level_file)!r})
        assert model.set_path_radius(model.level.paths[0].name, 31.0)
        model.save()
        print(load_level(model.source).paths[0].radius, model.dirty)
        print(model.discard_autosave(), model.notice)
        """,
        level_file.parent,
    )
    saved, discarded = out.splitlines()
    # Then the save went through, nothing blocked, and both FIFOs are still there
    assert saved == "31.0 False"
    assert discarded.startswith("False ") and "not a regular file" in discarded
    assert bak.is_fifo() and autosave.is_fifo()
