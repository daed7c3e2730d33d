"""The progress bars of the long runs (:mod:`game.progress_bar`): drawn on a terminal only."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from game.progress_bar import is_terminal, progress_bar

REPO = Path(__file__).resolve().parents[2]


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_is_drawn_in_place() -> None:
    # Given a bar on a terminal
    out = Terminal()
    bar = progress_bar(4, desc="runs", file=out)
    # When it counts to the end
    for _ in range(4):
        bar.update()
    bar.close()
    # Then it was redrawn over its own line and left there, finished
    text = out.getvalue()
    assert text.startswith("\r") and "runs" in text and "4/4" in text
    assert text.endswith("\n") and text.count("\n") == 1


def test_a_stream_that_is_not_a_terminal_gets_nothing() -> None:
    # Given a bar on a stream that is not a terminal (a log, a pipe)
    out = io.StringIO()
    bar = progress_bar(4, desc="runs", file=out)
    for _ in range(4):
        bar.update()
    bar.set_description_str("still nothing")
    bar.refresh()
    bar.clear()
    bar.close()
    # Then not a character was written
    assert out.getvalue() == ""


def test_in_a_pipe_stderr_holds_no_bar_and_no_carriage_return() -> None:
    # When a process draws a bar on its stderr, which is a pipe
    code = (
        "from game.progress_bar import progress_bar\n"
        "bar = progress_bar(50, desc='runs')\n"
        "for _ in range(50):\n"
        "    bar.update()\n"
        "bar.close()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    # Then stderr is empty
    assert result.returncode == 0
    assert result.stderr == ""


def test_a_delayed_bar_stays_hidden_when_the_run_ends_sooner() -> None:
    out = Terminal()
    bar = progress_bar(4, file=out, delay=60.0)
    bar.update(4)
    bar.close()
    assert out.getvalue() == ""


def test_a_closed_stream_is_not_a_terminal() -> None:
    out = io.StringIO()
    out.close()  # its isatty() raises now
    assert not is_terminal(out)
    assert is_terminal(Terminal())


def test_the_command_line_loads_tqdm_only_when_a_bar_is_made() -> None:
    code = (
        "import sys\n"
        "from game.__main__ import _parser\n"
        "_parser()\n"
        "assert 'tqdm' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
