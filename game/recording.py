"""Recorded runs: the replay file format (read, validate, write), the player's thrust per step
from its keyframes, and the recorder the game uses for ``play --record``. No arcade here.

A replay file is JSON: ``{"level": "...", "seed": N, "seconds": S, "inputs": [[t, x, y], ...]}``
(``seconds`` optional), or a bare list of keyframes. Each keyframe's thrust ``(x, y)`` is held
from step ``round(t / DT)`` until the next keyframe; before the first one the thrust is zero.
The world is deterministic, so the same file and seed give the same run, bit for bit.
"""

from __future__ import annotations

import bisect
import json
import logging
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from game.clock import DT
from game.file_schema import (
    EXTRA,
    Problem,
    ValidationError,
    finite,
    first_problem,
    integer,
    text,
    validate,
)
from game.level import LevelError, load_level, resolve_level
from game.level.schema import MAX_SEED
from game.level.shipped import LEVELS_DIR
from game.level.text import plain_number
from game.safe_io import OutputError, atomic_write, one_line
from game.strict_json import (
    JsonFileError,
    JsonPath,
    dumps_strict,
    kind_of,
    read_json_file,
    show,
)

if TYPE_CHECKING:
    from game.world import World

__all__ = [
    "KEYFRAME_FIELDS",
    "MAX_KEYFRAMES",
    "MAX_REPLAY_BYTES",
    "MAX_REPLAY_SECONDS",
    "THRUST_TOLERANCE",
    "InputScript",
    "Keyframe",
    "Recording",
    "ReplayError",
    "RunRecorder",
    "keyframes_from_inputs",
    "level_reference",
    "load_recording",
    "parse_recording",
    "recording_json",
    "resolve_recording_level",
    "save_recording",
    "step_of",
]

log = logging.getLogger(__name__)

#: The longest run a replay file may describe (simulated seconds): one hour, as ``simulate``.
MAX_REPLAY_SECONDS = 3600.0
#: Most keyframes in a file: one per step of the longest run, and one more.
MAX_KEYFRAMES = round(MAX_REPLAY_SECONDS / DT) + 1
#: Largest replay file read (bytes): the most keyframes at about 70 bytes each.
MAX_REPLAY_BYTES = 16 * 2**20
#: A thrust may be this much longer than 1 (rounding in a file written by hand or by a tool).
THRUST_TOLERANCE = 1e-6
#: Names of a keyframe's three numbers, as error messages call them.
KEYFRAME_FIELDS = ("t", "thrust_x", "thrust_y")

#: A keyframe's time: from the start of the run, within the longest run.
_Time = Annotated[
    float, finite(0.0, MAX_REPLAY_SECONDS, range_words=f"in 0..{MAX_REPLAY_SECONDS:g} s")
]
#: One component of a keyframe's thrust (its length is checked with both).
_Thrust = Annotated[float, finite()]
#: The keyframes, ``[t, thrust_x, thrust_y]`` each: the ``inputs`` of a file, or all of one.
_Rows = Annotated[list[tuple[_Time, _Thrust, _Thrust]], Field(max_length=MAX_KEYFRAMES)]


class _ReplayFile(BaseModel):
    """The object form of a replay file, its schema (:class:`Recording` is what it gives)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    level: Annotated[str, text(4096, must="a level's file or name (text, 1..4096 characters)")]
    seed: Annotated[int, integer(0, MAX_SEED, must=f"an integer in 0..{MAX_SEED:,}")]
    inputs: _Rows
    seconds: (
        Annotated[
            float,
            finite(
                0.0,
                MAX_REPLAY_SECONDS,
                open_low=True,
                range_words=f"in (0, {MAX_REPLAY_SECONDS:g}]",
            ),
        ]
        | None
    ) = None


#: The keys of the object form, in the order messages list them.
_KEYS = tuple(_ReplayFile.model_fields)


class ReplayError(ValueError):
    """A replay file cannot be read or is invalid. The message is one line:
    ``FILE: keyframe 3, field "t": what is wrong``.

    Attributes:
        reason: What is wrong, without the location.
        file: The replay file, or None.
        keyframe: Index of the keyframe at fault (0-based), or None.
        field: The key or keyframe field at fault, or None.
    """

    def __init__(
        self,
        reason: str,
        *,
        file: str | os.PathLike[str] | None = None,
        keyframe: int | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = reason
        self.file = os.fspath(file) if file is not None else None
        self.keyframe = keyframe
        self.field = field
        where = [f"keyframe {keyframe}"] if keyframe is not None else []
        if field is not None:
            where.append(f"field {json.dumps(field, ensure_ascii=False)}")
        parts = [p for p in (self.file, ", ".join(where)) if p]
        super().__init__(one_line(": ".join([*parts, reason])))


class Keyframe(NamedTuple):
    """From ``t`` on, the player's thrust is ``(x, y)``."""

    t: float
    """Simulated seconds from the start of the run (>= 0)."""
    x: float
    """Thrust to the right (a unit key direction's x, or 0)."""
    y: float
    """Thrust upward."""


@dataclass(frozen=True)
class Recording:
    """A run as its inputs.

    Attributes:
        keyframes: The player's thrust changes, by time.
        level: The level as the file names it (None for a bare list of keyframes).
        seed: The world's seed (None: the level's own).
        seconds: How long the run lasted (None: not said; runs stop when decided).
        source: The file it was read from, if any (a relative ``level`` is found beside it).
    """

    keyframes: tuple[Keyframe, ...]
    level: str | None = None
    seed: int | None = None
    seconds: float | None = None
    source: Path | None = None


def step_of(t: float) -> int:
    """The step a keyframe at ``t`` seconds applies from: ``round(t / DT)``."""
    return round(t / DT)


class InputScript:
    """The player's thrust at every step, from keyframes (each held until the next; zero
    before the first; of two keyframes on one step the later wins).

    Args:
        keyframes: In time order.
    """

    def __init__(self, keyframes: Sequence[Keyframe]) -> None:
        self._steps = [step_of(k.t) for k in keyframes]
        self._thrust = [(float(k.x), float(k.y)) for k in keyframes]

    def thrust(self, step: int) -> tuple[float, float]:
        """The thrust of step ``step`` (0 is the first step of the run)."""
        k = bisect.bisect_right(self._steps, step) - 1
        return self._thrust[k] if k >= 0 else (0.0, 0.0)


def keyframes_from_inputs(inputs: Sequence[tuple[float, float]]) -> list[Keyframe]:
    """Keyframes for a world's per-step inputs (:attr:`~game.world.player.Player.inputs`): one
    where the thrust changes (the run starts with no thrust), at ``t = step * DT`` rounded to 6
    decimals (which :func:`step_of` maps back to the same step)."""
    out: list[Keyframe] = []
    last = (0.0, 0.0)
    for k, u in enumerate(inputs):
        x, y = float(u[0]), float(u[1])
        if (x, y) != last:
            out.append(Keyframe(round(k * DT, 6), x, y))
            last = (x, y)
    return out


# -- reading ---------------------------------------------------------------------------------


def load_recording(path: str | os.PathLike[str]) -> Recording:
    """Read and validate a replay file.

    Raises:
        ReplayError: naming the file, the keyframe and the field at fault.
    """
    file = Path(path)
    try:
        data = read_json_file(file, max_bytes=MAX_REPLAY_BYTES, what="replay file")
    except JsonFileError as exc:
        keyframe, field = _where(exc.at)
        raise ReplayError(_json_reason(exc), file=file, keyframe=keyframe, field=field) from exc
    return parse_recording(data, file)


def _json_reason(exc: JsonFileError) -> str:
    """The strict reader's reason in this file's words (``not JSON: line 1 column 2: ...``)."""
    if exc.line is not None:
        return f"not JSON: line {exc.line} column {exc.column}: {exc.detail}"
    return exc.reason.replace("invalid JSON", "not JSON", 1)


def _where(at: JsonPath) -> tuple[int | None, str | None]:
    """The keyframe and field a JSON path points at, in either form of the file."""
    if at[:1] == ("inputs",):
        rows = at[1:]
        if not rows or not isinstance(rows[0], int):  # "inputs" is not a list of keyframes
            return None, "inputs"
    elif at and isinstance(at[0], int):  # a bare list of keyframes
        rows = at
    else:
        return None, (str(at[0]) if at else None)
    index = rows[1] if len(rows) > 1 else None
    field = KEYFRAME_FIELDS[index] if isinstance(index, int) and index < 3 else None
    return int(rows[0]), field


def parse_recording(data: Any, file: Path | None = None) -> Recording:
    """Validate decoded JSON as a recording (an object, or a bare list of keyframes).

    Raises:
        ReplayError: naming ``file``, the keyframe and the field at fault.
    """
    kind: Any = _Rows if isinstance(data, list) else _ReplayFile
    if not isinstance(data, list | dict):
        raise ReplayError(
            f"expected an object with {', '.join(_KEYS[:3])} or a list of keyframes, "
            f"got {kind_of(data)}",
            file=file,
        )
    try:
        valid = validate(kind, data)
    except ValidationError as err:
        raise _schema_error(_row_first(err, kind), file) from None
    if isinstance(valid, list):
        return Recording(_keyframes(valid, file), source=file)
    keyframes = _keyframes(valid.inputs, file)
    return Recording(keyframes, valid.level, valid.seed, valid.seconds, file)


#: Errors that say a keyframe is not three numbers (one missing, or one too many).
_ROW_SHAPE = frozenset({"missing", "too_long", "too_short"})


def _row_first(err: ValidationError, kind: Any) -> Problem:
    """The problem to report: the schema's first, except that a keyframe of the wrong length
    is reported as such before a bad number in it (``[["x", 1]]``: not three numbers)."""
    problem = first_problem(err, kind)
    keyframe, _ = _where(problem.at)
    if keyframe is None or problem.kind in EXTRA:
        return problem
    for item in err.errors(include_url=False):
        at = tuple(item["loc"])
        if item["type"] in _ROW_SHAPE and _where(at)[0] == keyframe:
            row = at[:-1] if item["type"] == "missing" else at
            # the input of each of these errors is the keyframe as the file wrote it
            return Problem(row, "missing", item["input"], "missing", {}, False)
    return problem


def _schema_error(problem: Problem, file: Path | None) -> ReplayError:
    """The schema's problem as one line naming the keyframe and the field."""
    at, kind, value = problem.at, problem.kind, problem.value
    keyframe, field = _where(at)
    if kind in EXTRA:
        return ReplayError(f"unknown key; the keys are {', '.join(_KEYS)}", file=file, field=field)
    reason = problem.reason
    if at in ((), ("inputs",)) and kind != "missing":
        field = "inputs"
        if kind == "too_long" and isinstance(value, list):
            reason = f"{len(value):,} keyframes; at most {MAX_KEYFRAMES:,}"
        else:
            reason = f"must be a list of [t, thrust_x, thrust_y], got {kind_of(value)}"
    elif keyframe is not None and (field is None or kind == "missing"):
        field = None  # the keyframe itself is not three numbers
        reason = f"must be [t, thrust_x, thrust_y], got {show(value)}"
    elif kind == "float_type" and reason != "number too large":
        reason = f"must be a number, got {show(value)}"
    return ReplayError(reason, file=file, keyframe=keyframe, field=field)


def _keyframes(rows: list[tuple[float, float, float]], file: Path | None) -> tuple[Keyframe, ...]:
    """Keyframes from rows the schema checked, in time order and each thrust at most 1 long
    (rules between the numbers, which the schema does not state)."""
    out = tuple(map(Keyframe._make, rows))
    for i in range(len(out)):
        t, x, y = out[i]
        if i and t < out[i - 1].t:
            raise ReplayError(
                f"time goes backwards: {plain_number(t)} s after {plain_number(out[i - 1].t)} s",
                file=file,
                keyframe=i,
                field="t",
            )
        length = math.hypot(x, y)
        if length > 1.0 + THRUST_TOLERANCE:
            raise ReplayError(
                f"thrust ({plain_number(x)}, {plain_number(y)}) is {plain_number(length)} "
                "long; at most 1",
                file=file,
                keyframe=i,
                field="thrust",
            )
    return out


def resolve_recording_level(recording: Recording, override: str | None = None) -> Path:
    """The level file a recording plays on, checked to load.

    ``level`` (or ``override``) is first a path relative to the replay file's folder; failing
    that, it is resolved as the command line resolves a level: a path (absolute or from the
    working folder), or a shipped level's name, stem or number.

    Raises:
        ReplayError: naming the file and field ``level`` (no level, or one that cannot load).
    """
    name = override if override is not None else recording.level
    if name is None:
        raise ReplayError(
            "a bare list of keyframes names no level: give one on the command line",
            file=recording.source,
            field="level",
        )
    try:
        beside = recording.source.parent / name if recording.source is not None else None
        path = beside if beside is not None and os.path.lexists(beside) else resolve_level(name)
        load_level(path)
    except (LevelError, OSError) as err:
        if override is not None:
            raise ReplayError(str(err)) from err
        raise ReplayError(str(err), file=recording.source, field="level") from err
    return path


# -- writing ---------------------------------------------------------------------------------


def level_reference(level: Path, out: Path) -> str:
    """How a replay file at ``out`` names ``level``: a shipped level by its file stem (so the
    file plays in any checkout), any other level by its path relative to ``out``'s folder."""
    level = level.resolve()
    if level.parent == LEVELS_DIR.resolve():
        return level.stem
    try:
        return os.path.relpath(level, out.resolve().parent)
    except ValueError:  # another drive (Windows)
        return str(level)


def recording_json(recording: Recording) -> str:
    """A recording as the file's text: the header on one line, then one keyframe a line."""
    head: dict[str, Any] = {"level": recording.level, "seed": recording.seed}
    if recording.seconds is not None:
        head["seconds"] = recording.seconds
    # One encoding of every keyframe, then a line break between rows (rows hold only numbers,
    # so "], [" is always between two rows): one encoder call, not one per keyframe.
    rows = dumps_strict([list(k) for k in recording.keyframes], indent=None, end="")[1:-1]
    body = "[\n  " + rows.replace("], [", "],\n  [") + "\n]" if rows else "[]"
    return dumps_strict(head, indent=None, end="")[:-1] + f', "inputs": {body}}}\n'


def save_recording(path: Path, recording: Recording) -> Path:
    """Write ``recording`` to ``path`` atomically (the strict JSON writer's pieces, laid out
    one keyframe a line, through the one atomic writer).

    Raises:
        OutputError: one line naming the file (an old file there is kept).
        JsonFileError: for a keyframe that is not finite (nothing is written).
    """
    return atomic_write(path, recording_json(recording).encode("utf-8"))


class RunRecorder:
    """Keeps the latest run's inputs in a replay file (``play --record``).

    The game calls :meth:`start` when a run starts and :meth:`save` when it ends, is left or
    paused, and when the window closes; :meth:`start` saves the run before it first. The file
    always holds the latest run that took a step.

    Args:
        out: The replay file.
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        self._run: tuple[Path, World] | None = None
        self._saved_frame = -1

    def start(self, level: Path, world: World) -> None:
        """A new run of ``level`` begins in ``world`` (the previous run is saved first)."""
        self.save()
        self._run = (level, world)
        self._saved_frame = -1

    def save(self) -> bool:
        """Write the current run if it took a step since the last write; True if written.

        A failure is logged (the game goes on); the old file is kept.
        """
        if self._run is None:
            return False
        level, world = self._run
        if world.frame == 0 or world.frame == self._saved_frame:
            return False
        recording = Recording(
            tuple(keyframes_from_inputs(world.player.inputs)),
            level_reference(level, self.out),
            world.seed,
            round(world.time, 6),
        )
        try:
            save_recording(self.out, recording)
        except OutputError as exc:
            log.warning("run not recorded: %s", exc)
            return False
        self._saved_frame = world.frame
        return True
