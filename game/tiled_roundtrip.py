"""Check that a level survives the Tiled map editor unchanged in play.

Tiled (``tiled --export-map``, run headless) rewrites the level as JSON, and as TMX and back
to JSON, as a designer saving it in Tiled would. Each result must load as the same
:class:`~game.level.Level` (apart from its source path) and play the same: the same trace,
step for step, as ``python -m game simulate`` with the level's seed and no input.
``python -m tools.tiled_roundtrip`` is the command line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from game.level import Level, LevelError, load_level
from game.level.compare import level_differences

__all__ = [
    "DEFAULT_SECONDS",
    "ROUTES",
    "RoundTripError",
    "export_map",
    "find_tiled",
    "play_trace",
    "round_trip",
    "trace_differences",
    "work_folder",
]

#: Simulated seconds each version of the level is played for.
DEFAULT_SECONDS = 10.0
#: The ways through Tiled: the formats each export step writes, in order. ``json`` is one
#: export (Tiled reads the map and writes it again); ``tmx`` goes to Tiled's XML and back.
ROUTES: dict[str, tuple[str, ...]] = {"json": ("json",), "tmx": ("tmx", "json")}
#: Longest a single Tiled export may take (s).
TILED_TIMEOUT = 120.0


class RoundTripError(Exception):
    """The check could not run (no Tiled, Tiled failed, no room for its files): one line."""


def find_tiled() -> str | None:
    """The ``tiled`` executable on PATH, or None when Tiled is not installed."""
    return shutil.which("tiled")


def export_map(tiled: str, fmt: str, source: Path, target: Path, runtime: Path) -> None:
    """Convert ``source`` to ``target`` in format ``fmt`` with ``tiled --export-map``,
    headless (Qt's offscreen platform).

    Args:
        tiled: The Tiled executable.
        fmt: A Tiled map format (``json``, ``tmx``).
        source: The map to read.
        target: The file to write; keep it beside ``source``, as Tiled rewrites relative
            file paths (a flow region's image) from the target's folder.
        runtime: A private folder for Qt's runtime files.

    Raises:
        RoundTripError: if Tiled fails, times out or writes nothing.
    """
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(runtime))
    # Absolute paths: Tiled rewrites relative file properties wrongly from relative ones.
    command = [tiled, "--export-map", fmt, str(source.resolve()), str(target.resolve())]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=TILED_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise RoundTripError(f"tiled took over {TILED_TIMEOUT:g} s to export {source}") from exc
    except OSError as exc:
        raise RoundTripError(f"cannot run {tiled}: {exc.strerror or exc}") from exc
    if done.returncode != 0 or not target.is_file():
        said = [
            line.strip()
            for line in done.stderr.splitlines()
            if line.strip() and not line.startswith("QStandardPaths")
        ]
        reason = said[-1] if said else f"exit status {done.returncode}"
        raise RoundTripError(f"tiled could not export {source} as {fmt}: {reason}")


def play_trace(level: Level, seconds: float = DEFAULT_SECONDS) -> dict[str, NDArray[np.generic]]:
    """Play ``level`` as ``simulate`` does with no input and the level's seed, recording every
    frame.

    Args:
        level: The level.
        seconds: Simulated seconds; the run stops early when the outcome is decided.

    Returns:
        The trace's arrays (see :mod:`game.world.trace`).
    """
    from game.world import DT, TraceRecorder, World  # the world is only needed to play

    world = World(level)
    trace = TraceRecorder(world)
    idle = np.zeros(2)
    for _ in range(max(1, round(seconds / DT))):
        world.step(idle)
        trace.after_step(world)
        if world.outcome != "running":
            break
    trace.finish(world)
    return trace.arrays()


def trace_differences(
    old: dict[str, NDArray[np.generic]], new: dict[str, NDArray[np.generic]]
) -> list[str]:
    """How two traces differ: one line per array, naming the first frame that differs.

    Args:
        old: The original level's trace.
        new: The round-tripped level's trace.

    Returns:
        The differences; empty when every array is identical.
    """
    lines: list[str] = []
    for key in sorted(set(old) | set(new)):
        if key not in old or key not in new:
            lines.append(f"trace: {key} only in the {'original' if key in old else 'export'}")
            continue
        a, b = old[key], new[key]
        if a.shape != b.shape:
            lines.append(f"trace: {key} has shape {a.shape} -> {b.shape}")
        elif not np.array_equal(a, b):
            if a.ndim == 0 or a.dtype.kind not in "fiu":
                lines.append(f"trace: {key} {a.tolist()!r} -> {b.tolist()!r}")
                continue
            differs = np.any((a != b).reshape(len(a), -1), axis=1)
            frame = int(np.argmax(differs))
            gap = float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))
            when = (
                f"frame {frame}" if key in ("pos", "vel", "obstacle_pos", "t") else f"row {frame}"
            )
            lines.append(f"trace: {key} differs from {when} on (largest difference {gap:g})")
    return lines


def _route(tiled: str, route: str, source: Path, folder: Path, runtime: Path) -> Path:
    """Export ``source`` through the formats of ``route`` into ``folder``; the final file."""
    current = source
    for step, fmt in enumerate(ROUTES[route]):
        suffix = ".tmj" if fmt == "json" else f".{fmt}"
        target = folder / f"{source.stem}.{route}{step}{suffix}"
        export_map(tiled, fmt, current, target, runtime)
        current = target
    return current


def work_folder(path: str | os.PathLike[str]) -> Path:
    """Make a new hidden folder beside the level for Tiled's files (Tiled rewrites relative
    paths from the folder it writes to, so it must be beside the level).

    Raises:
        RoundTripError: if the folder cannot be made.
    """
    source = Path(path)
    try:
        return Path(tempfile.mkdtemp(prefix=f".{source.stem}.tiled-", dir=source.parent))
    except OSError as exc:
        raise RoundTripError(
            f"cannot make a folder beside {source} for Tiled's files: {exc.strerror or exc}"
        ) from exc


def round_trip(
    path: str | os.PathLike[str],
    *,
    seconds: float = DEFAULT_SECONDS,
    routes: Sequence[str] = tuple(ROUTES),
    folder: Path | None = None,
    tiled: str | None = None,
) -> list[str]:
    """Send a level through Tiled and list every way the result differs in play.

    Args:
        path: The level file.
        seconds: Simulated seconds each version is played for.
        routes: Which of :data:`ROUTES` to take.
        folder: Where Tiled's files go, kept afterwards (from :func:`work_folder`); when
            None, a :func:`work_folder` removed afterwards.
        tiled: The Tiled executable; found on PATH when None.

    Returns:
        One line per difference, each starting with its route (``json: paths: object 3
        "path-1": radius 24.0 -> 24.5``); empty when the level survives every route.

    Raises:
        LevelError: if the level itself does not load.
        RoundTripError: if Tiled is missing or fails, or the folder cannot be made.
    """
    source = Path(path)
    unknown = [r for r in routes if r not in ROUTES]
    if unknown:
        raise RoundTripError(f"unknown route {unknown[0]!r} (one of {', '.join(ROUTES)})")
    original = load_level(source)
    exe = tiled or find_tiled()
    if exe is None:
        raise RoundTripError("the Tiled map editor is not installed (apt-get install tiled)")
    work = folder if folder is not None else work_folder(source)
    lines: list[str] = []
    try:
        runtime = work / "runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        expected = play_trace(original, seconds)
        for route in routes:
            exported = _route(exe, route, source, work, runtime)
            try:
                again = load_level(exported)
            except LevelError as exc:
                lines.append(f"{route}: the exported map does not load: {exc}")
                continue
            lines += [f"{route}: {d}" for d in level_differences(original, again)]
            played = play_trace(again, seconds)
            lines += [f"{route}: {d}" for d in trace_differences(expected, played)]
    finally:
        if folder is None:
            shutil.rmtree(work, ignore_errors=True)
    return lines
