"""The brains' tuning: weights, distances, speeds, sight and turn rates per archetype.

One frozen dataclass per archetype (patrol, sentinel, formation, fish, hider) and one for
what the whole crowd shares, gathered in :class:`Tuning`. The numbers live in one data file,
``resources/tuning.json`` (docs/tuning.md), that :func:`load_tuning` reads and validates with
one-line errors naming the file, the archetype and the field; nothing here holds a value. The
dataclasses are the file's schema: their annotated ranges are checked by pydantic
(:mod:`game.file_schema`).
"""

from __future__ import annotations

import json
import math
import os
import typing
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import ConfigDict, with_config

from game.file_schema import EXTRA, Problem, ValidationError, finite, first_problem, validate
from game.level.errors import LevelError
from game.level.shipped import RESOURCES_DIR
from game.safe_io import one_line
from game.strict_json import (
    JsonFileError,
    describe,
    format_path,
    plain_number,
    read_json_file,
    suggest,
)

__all__ = [
    "TUNING_FILE",
    "CrowdTuning",
    "DetectionTuning",
    "FishTuning",
    "FormationTuning",
    "HiderTuning",
    "PatrolTuning",
    "SentinelTuning",
    "Tuning",
    "TuningError",
    "default_tuning",
    "load_tuning",
    "parse_tuning",
    "turn_rate_rad",
]

#: The shipped tuning.
TUNING_FILE = RESOURCES_DIR / "tuning.json"
#: Files larger than this are refused before they are parsed.
MAX_TUNING_BYTES = 1024 * 1024


#: Every section, and the whole file, refuses a name it does not know.
_strict = with_config(ConfigDict(extra="forbid"))

# The kinds of number a tuning field holds: its range, and its unit for messages.
_Weight = Annotated[float, finite(0.0, 100.0)]
_Fraction = Annotated[float, finite(0.0, 1.0)]
_Speed = Annotated[float, finite(0.0, 1.0, open_low=True)]  # of max speed: above 0
_Seconds = Annotated[float, finite(0.0, 3600.0, "s")]
_Sight = Annotated[float, finite(0.0, 180.0, "deg", open_low=True)]
_Distance = Annotated[float, finite(0.0, 100_000.0, "px")]
_Near = Annotated[float, finite(0.0, 10_000.0, "px")]
#: deg/s; ``null``: no limit (the heading snaps to the velocity).
_TurnRate = Annotated[float, finite(0.0, 1e6, "deg/s", open_low=True, null="no limit")] | None


def turn_rate_rad(deg_per_s: float | None) -> float:
    """A turn rate from the tuning (deg/s, None for no limit) in rad/s (inf for no limit)."""
    return math.inf if deg_per_s is None else math.radians(deg_per_s)


@_strict
@dataclass(frozen=True)
class CrowdTuning:
    """What every non-player agent shares.

    Attributes:
        separation_weight: weight of separation in the prioritised sum.
        goal_weight: weight of the mode's goal in the prioritised sum.
        player_gain: how fast the player's velocity reaches its input velocity (1/s).
        wall_feeler_length: front wall feeler at rest (px; twice as long at full speed).
        wall_feeler_angle: angle of the side feelers from the heading (degrees).
    """

    separation_weight: _Weight
    goal_weight: _Weight
    player_gain: Annotated[float, finite(0.0, 1000.0, "1/s", open_low=True)]
    wall_feeler_length: _Near
    wall_feeler_angle: Annotated[float, finite(0.0, 180.0, "deg")]


@_strict
@dataclass(frozen=True)
class PatrolTuning:
    """An enemy on its path or at its post (``role`` = ``patrol``).

    Attributes:
        patrol_speed: fraction of max speed on patrol (it chases at full speed).
        lose_sight_after: seconds it hunts where it last saw the player before returning.
        leash: an enemy without a path wanders within this distance of its post (px).
        sight_angle: half-angle of its sight cone (degrees; 180 sees all round).
        turn_rate: how fast its heading turns (deg/s); None: it snaps to the velocity.
    """

    patrol_speed: _Speed
    lose_sight_after: _Seconds
    leash: _Distance
    sight_angle: _Sight
    turn_rate: _TurnRate


@_strict
@dataclass(frozen=True)
class SentinelTuning:
    """An enemy that keeps between the player and the nearest exit (``role`` = ``sentinel``).

    Attributes:
        ratio: where it stands on the line from the player (0) to the exit (1).
        lose_sight_after: seconds it hunts after losing sight before it interposes again.
        sight_angle: half-angle of its sight cone (degrees); it faces the player.
        turn_rate: how fast it turns to face the player (deg/s); None: at once.
    """

    ratio: _Fraction
    lose_sight_after: _Seconds
    sight_angle: _Sight
    turn_rate: _TurnRate


@_strict
@dataclass(frozen=True)
class FormationTuning:
    """Enemies of a spawn with a ``formation``: a leader and followers holding slots.

    Attributes:
        patrol_speed: the leader's fraction of max speed on patrol (followers catch up at
            full speed).
        lose_sight_after: seconds the formation hunts after losing sight before it re-forms.
        sight_angle: half-angle of each member's sight cone (degrees).
        turn_rate: how fast each member's heading turns (deg/s); None: at once.
    """

    patrol_speed: _Speed
    lose_sight_after: _Seconds
    sight_angle: _Sight
    turn_rate: _TurnRate


@_strict
@dataclass(frozen=True)
class FishTuning:
    """Harmless NPCs (``role`` = ``fish``).

    Attributes:
        flee_distance: they flee the player within this distance (px).
        extra_wander_weight: weight of the wander added on top of a path or current.
        queue_distance: with ``queue``: a slower agent ahead closer than this blocks (px).
        queue_brake: with ``queue``: how hard a blocked fish brakes (0-1 of its velocity).
        queue_weight: with ``queue``: weight of the braking, ranked before the goal.
        avoid_horizon: with ``avoid``: seconds ahead a collision counts.
        avoid_weight: with ``avoid``: weight of the sidestep, ranked before the goal.
        turn_rate: how fast the heading turns (deg/s); None: it snaps to the velocity.
    """

    flee_distance: _Distance
    extra_wander_weight: _Weight
    queue_distance: _Near
    queue_brake: _Fraction
    queue_weight: _Weight
    avoid_horizon: Annotated[float, finite(0.0, 60.0, "s", open_low=True)]
    avoid_weight: _Weight
    turn_rate: _TurnRate


@_strict
@dataclass(frozen=True)
class HiderTuning:
    """NPCs that hide behind rocks (``role`` = ``hider``).

    Attributes:
        panic_distance: they start hiding when the nearest threat (the player or an enemy)
            comes closer than this (px); else they do what fish do, without fleeing.
        calm_distance: they stop hiding once the nearest threat is farther than this (px;
            at least ``panic_distance``), so a hider stays in its spot.
        hide_distance: how far beyond a rock's rim the hiding spot is (px).
        turn_rate: how fast the heading turns (deg/s); None: it snaps to the velocity.
    """

    panic_distance: _Distance
    calm_distance: _Distance
    hide_distance: _Near
    turn_rate: _TurnRate


@_strict
@dataclass(frozen=True)
class DetectionTuning:
    """Being seen (issue 44): the player's detection meter fills while any enemy sees it and
    drains out of sight; full, the player is caught, as by a touch.

    Attributes:
        fill_time: seconds of being seen, far away, that fill the meter from empty.
        near_distance: within this distance of the nearest enemy that sees it (px) the meter
            fills twice as fast (at the distance itself: as fast as far away; between, in
            proportion).
        drain_time: seconds out of sight that empty a full meter.
    """

    fill_time: Annotated[float, finite(0.0, 3600.0, "s", open_low=True)]
    near_distance: _Distance
    drain_time: Annotated[float, finite(0.0, 3600.0, "s", open_low=True)]


@_strict
@dataclass(frozen=True)
class Tuning:
    """Every archetype's tuning (the sections of the file, in this order)."""

    crowd: CrowdTuning
    patrol: PatrolTuning
    sentinel: SentinelTuning
    formation: FormationTuning
    fish: FishTuning
    hider: HiderTuning
    detection: DetectionTuning


class TuningError(LevelError):
    """A tuning file cannot be read or is invalid; one line naming the file, the archetype
    and the field: ``resources/tuning.json: archetype "patrol", field "leash": ...``."""

    def __init__(
        self,
        reason: str,
        *,
        file: str | os.PathLike[str] | None = None,
        archetype: str | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(reason, file=file, field=field)
        self.archetype = archetype
        where = [os.fspath(file)] if file is not None else []
        parts = []
        if archetype is not None:
            parts.append(f"archetype {json.dumps(archetype)}")
        if field is not None:
            parts.append(f"field {json.dumps(field)}")
        if parts:
            where.append(", ".join(parts))
        head = ": ".join(where)
        ValueError.__init__(self, one_line(f"{head}: {reason}" if head else reason))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle support."""
        return (_rebuild, (self.reason, self.file, self.archetype, self.field))


def _rebuild(reason: str, file: str | None, archetype: str | None, fld: str | None) -> TuningError:
    return TuningError(reason, file=file, archetype=archetype, field=fld)


def _without_comments(data: object) -> object:
    """``data`` without the ``comment`` keys the file may have at the top and per archetype."""
    if not isinstance(data, dict):
        return data
    return {
        name: {k: v for k, v in raw.items() if k != "comment"} if isinstance(raw, dict) else raw
        for name, raw in data.items()
        if name != "comment"
    }


def parse_tuning(data: object, file: str | os.PathLike[str] | None = None) -> Tuning:
    """Validate decoded tuning JSON: every archetype and every field present, each in range.

    Raises:
        TuningError: naming the file, the archetype and the field.
    """
    path = Path(file) if file is not None else None
    try:
        tuning = validate(Tuning, _without_comments(data))
    except ValidationError as err:
        raise _schema_error(first_problem(err, Tuning), path) from None
    hider = tuning.hider
    if hider.calm_distance < hider.panic_distance:
        raise TuningError(
            f"must be at least panic_distance ({plain_number(hider.panic_distance)} px), got "
            f"{plain_number(hider.calm_distance)}",
            file=path,
            archetype="hider",
            field="calm_distance",
        )
    return tuning


def _schema_error(problem: Problem, path: Path | None) -> TuningError:
    """The schema's problem as one line naming the archetype and the field."""
    at, kind = problem.at, problem.kind
    if not at:
        got = describe(problem.value)
        return TuningError(f"expected a JSON object of archetypes, got {got}", file=path)
    arch = str(at[0])
    if len(at) == 1:
        reason = problem.reason
        if kind in EXTRA:
            known = [f.name for f in fields(Tuning)]
            reason = f"unknown archetype (known: {', '.join(known)}){suggest(arch, known)}"
        elif kind == "dataclass_type":
            reason = f"expected an object of fields, got {describe(problem.value)}"
        return TuningError(reason, file=path, archetype=arch)
    name = format_path(at[1:])
    reason = problem.reason
    if kind in EXTRA:
        section = typing.get_type_hints(Tuning).get(arch)
        known = [f.name for f in fields(section)] if section is not None else []
        reason = f"unknown field{suggest(name, known)}"
    elif kind == "missing":
        null = problem.words.get("null", "none")
        reason = "missing (a number is required)"
        if problem.nullable:
            reason = f"missing (a number, or null for {null}, is required)"
    return TuningError(reason, file=path, archetype=arch, field=name)


def load_tuning(path: str | os.PathLike[str] = TUNING_FILE) -> Tuning:
    """Read and validate a tuning file (the shipped ``resources/tuning.json`` by default).

    Raises:
        TuningError: if it cannot be read or is invalid (one line, naming file, archetype
            and field).
    """
    file = Path(path)
    try:
        data = read_json_file(file, max_bytes=MAX_TUNING_BYTES, what="tuning file")
    except JsonFileError as exc:
        raise _located(exc, file) from exc
    return parse_tuning(data, file)


def _located(exc: JsonFileError, file: Path) -> TuningError:
    """The strict reader's error, its JSON path read as archetype and field."""
    arch = exc.at[0] if exc.at and isinstance(exc.at[0], str) else None
    field = format_path(exc.at[1:]) if arch is not None and len(exc.at) > 1 else None
    if arch is None and exc.at:  # the file is a list: no archetype to name
        return TuningError(f"at {format_path(exc.at)}: {exc.reason}", file=file)
    return TuningError(exc.reason, file=file, archetype=arch, field=field)


@lru_cache(maxsize=1)
def default_tuning() -> Tuning:
    """The shipped tuning, read once."""
    return load_tuning(TUNING_FILE)
