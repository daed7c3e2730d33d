"""Progress bars of the long command-line runs (bench, simulate, the curve): tqdm on stderr,
drawn only on a terminal, so pipes and CI logs get no bar and no carriage returns."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Never, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["is_terminal", "progress_bar"]


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is an open terminal (a closed or odd stream counts as not one)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or the stream is closed
        return False


def progress_bar(
    total: float | None = None,
    *,
    desc: str = "",
    unit: str = "it",
    file: TextIO | None = None,
    delay: float = 0.0,
    leave: bool = True,
    bar_format: str | None = None,
) -> tqdm[Never]:
    """A tqdm bar on ``file`` (stderr by default), disabled unless it is a terminal.

    A disabled bar takes every call and draws nothing, so callers need no branch of their own.

    Args:
        total: the count at 100 % (None: unknown yet; ``bar.reset(total)`` sets it later).
        desc: the text before the bar (``{desc}`` in ``bar_format``).
        unit: what is counted (tqdm's rate shows it).
        file: the stream; None: ``sys.stderr`` as it is when called (tests swap it).
        delay: seconds before the bar first appears; a run that ends sooner shows nothing.
        leave: keep the last state on screen when closed (False: erase the line).
        bar_format: tqdm's format string; None: tqdm's own.
    """
    # Imported here: tqdm takes some 50 ms to load, and every ``python -m game`` builds the
    # parsers of the commands that use it.
    from tqdm import tqdm

    # No monitor thread: it wakes every 10 s, and the bench times code while a bar is open.
    tqdm.monitor_interval = 0
    stream = sys.stderr if file is None else file
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        file=stream,
        delay=delay,
        leave=leave,
        bar_format=bar_format,
        disable=not is_terminal(stream),
        # Every update checks the clock (redraws stay at tqdm's ten a second): steps here take
        # milliseconds or more, and tqdm's adaptive step count would lag when they slow down
        # (the bench goes from quick jobs to seconds-long ones).
        miniters=0,
    )
