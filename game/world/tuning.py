"""The brains' tuning: weights, distances, speeds, sight and turn rates per archetype.

One frozen dataclass per archetype (patrol, sentinel, formation, fish, hider) and one for
what the whole crowd shares, gathered in :class:`Tuning`. The numbers live in one data file,
``resources/tuning.json`` (docs/tuning.md), that :func:`load_tuning` reads and validates with
one-line errors naming the file, the archetype and the field; nothing here holds a value.
"""

from __future__ import annotations

import difflib
import json
import math
import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from game.level.errors import LevelError
from game.level.shipped import RESOURCES_DIR
from game.safe_io import one_line
from game.strict_json import JsonFileError, describe, format_path, read_json_file

__all__ = [
    "TUNING_FILE",
    "CrowdTuning",
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


def _num(
    low: float, high: float, unit: str = "", *, open_low: bool = False, none: bool = False
) -> Any:
    """A tuning field: its range (``open_low``: ``> low``), unit, and whether ``null``
    (no limit) is allowed."""
    return field(metadata={"low": low, "high": high, "unit": unit, "open": open_low, "none": none})


def turn_rate_rad(deg_per_s: float | None) -> float:
    """A turn rate from the tuning (deg/s, None for no limit) in rad/s (inf for no limit)."""
    return math.inf if deg_per_s is None else math.radians(deg_per_s)


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

    separation_weight: float = _num(0.0, 100.0)
    goal_weight: float = _num(0.0, 100.0)
    player_gain: float = _num(0.0, 1000.0, "1/s", open_low=True)
    wall_feeler_length: float = _num(0.0, 10_000.0, "px")
    wall_feeler_angle: float = _num(0.0, 180.0, "deg")


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

    patrol_speed: float = _num(0.0, 1.0, open_low=True)
    lose_sight_after: float = _num(0.0, 3600.0, "s")
    leash: float = _num(0.0, 100_000.0, "px")
    sight_angle: float = _num(0.0, 180.0, "deg", open_low=True)
    turn_rate: float | None = _num(0.0, 1e6, "deg/s", open_low=True, none=True)


@dataclass(frozen=True)
class SentinelTuning:
    """An enemy that keeps between the player and the nearest exit (``role`` = ``sentinel``).

    Attributes:
        ratio: where it stands on the line from the player (0) to the exit (1).
        lose_sight_after: seconds it hunts after losing sight before it interposes again.
        sight_angle: half-angle of its sight cone (degrees); it faces the player.
        turn_rate: how fast it turns to face the player (deg/s); None: at once.
    """

    ratio: float = _num(0.0, 1.0)
    lose_sight_after: float = _num(0.0, 3600.0, "s")
    sight_angle: float = _num(0.0, 180.0, "deg", open_low=True)
    turn_rate: float | None = _num(0.0, 1e6, "deg/s", open_low=True, none=True)


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

    patrol_speed: float = _num(0.0, 1.0, open_low=True)
    lose_sight_after: float = _num(0.0, 3600.0, "s")
    sight_angle: float = _num(0.0, 180.0, "deg", open_low=True)
    turn_rate: float | None = _num(0.0, 1e6, "deg/s", open_low=True, none=True)


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

    flee_distance: float = _num(0.0, 100_000.0, "px")
    extra_wander_weight: float = _num(0.0, 100.0)
    queue_distance: float = _num(0.0, 10_000.0, "px")
    queue_brake: float = _num(0.0, 1.0)
    queue_weight: float = _num(0.0, 100.0)
    avoid_horizon: float = _num(0.0, 60.0, "s", open_low=True)
    avoid_weight: float = _num(0.0, 100.0)
    turn_rate: float | None = _num(0.0, 1e6, "deg/s", open_low=True, none=True)


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

    panic_distance: float = _num(0.0, 100_000.0, "px")
    calm_distance: float = _num(0.0, 100_000.0, "px")
    hide_distance: float = _num(0.0, 10_000.0, "px")
    turn_rate: float | None = _num(0.0, 1e6, "deg/s", open_low=True, none=True)


@dataclass(frozen=True)
class Tuning:
    """Every archetype's tuning (the sections of the file, in this order)."""

    crowd: CrowdTuning
    patrol: PatrolTuning
    sentinel: SentinelTuning
    formation: FormationTuning
    fish: FishTuning
    hider: HiderTuning


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


_CLASSES: dict[str, Any] = {
    "crowd": CrowdTuning,
    "patrol": PatrolTuning,
    "sentinel": SentinelTuning,
    "formation": FormationTuning,
    "fish": FishTuning,
    "hider": HiderTuning,
}


def _suggest(word: str, choices: list[str]) -> str:
    match = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f'; did you mean "{match[0]}"?' if match else ""


def _value(raw: object, spec: Any, file: Path | None, arch: str) -> float | None:
    """One checked number (or None where ``null`` is allowed)."""
    meta = spec.metadata

    def fail(reason: str) -> TuningError:
        return TuningError(reason, file=file, archetype=arch, field=spec.name)

    if raw is None:
        if meta["none"]:
            return None
        raise fail("expected a number, got null")
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        extra = " or null (no limit)" if meta["none"] else ""
        raise fail(f"expected a number{extra}, got {describe(raw)}")
    value = float(raw)
    if not math.isfinite(value):
        raise fail("must be a finite number")
    low, high, unit = meta["low"], meta["high"], meta["unit"]
    unit = f" {unit}" if unit else ""
    if (value <= low) if meta["open"] else (value < low):
        raise fail(f"must be {'>' if meta['open'] else '>='} {low:g}{unit}, got {value:g}")
    if value > high:
        raise fail(f"must be at most {high:g}{unit}, got {value:g}")
    return value


def parse_tuning(data: object, file: str | os.PathLike[str] | None = None) -> Tuning:
    """Validate decoded tuning JSON: every archetype and every field present, each in range.

    Raises:
        TuningError: naming the file, the archetype and the field.
    """
    path = Path(file) if file is not None else None
    if not isinstance(data, dict):
        raise TuningError(f"expected a JSON object of archetypes, got {describe(data)}", file=path)
    known = list(_CLASSES)
    for name in data:
        if name not in _CLASSES and name != "comment":
            raise TuningError(
                f"unknown archetype (known: {', '.join(known)}){_suggest(name, known)}",
                file=path,
                archetype=name,
            )
    sections: dict[str, object] = {}
    for name, cls in _CLASSES.items():
        if name not in data:
            raise TuningError("missing", file=path, archetype=name)
        raw = data[name]
        if not isinstance(raw, dict):
            raise TuningError(
                f"expected an object of fields, got {describe(raw)}", file=path, archetype=name
            )
        specs = {f.name: f for f in fields(cls)}
        for key in raw:
            if key not in specs and key != "comment":
                raise TuningError(
                    f"unknown field{_suggest(key, list(specs))}",
                    file=path,
                    archetype=name,
                    field=key,
                )
        values = {}
        for key, spec in specs.items():
            if key not in raw:
                raise TuningError(
                    "missing (a number is required)", file=path, archetype=name, field=key
                )
            values[key] = _value(raw[key], spec, path, name)
        sections[name] = cls(**values)
    tuning = Tuning(**sections)  # type: ignore[arg-type]
    hider = tuning.hider
    if hider.calm_distance < hider.panic_distance:
        raise TuningError(
            f"must be at least panic_distance ({hider.panic_distance:g} px), got "
            f"{hider.calm_distance:g}",
            file=path,
            archetype="hider",
            field="calm_distance",
        )
    return tuning


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
