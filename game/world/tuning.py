"""The brains' tuning: weights, distances, speeds, sight and turn rates per archetype.

One frozen dataclass per archetype (patrol, sentinel, formation, fish, hider) and one for
what the whole crowd shares, gathered in :class:`Tuning`. The world reads every number from
here; the values live in ``resources/tuning.json`` (see :mod:`game.world.tuning_file`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "CrowdTuning",
    "FishTuning",
    "FormationTuning",
    "HiderTuning",
    "PatrolTuning",
    "SentinelTuning",
    "Tuning",
    "turn_rate_rad",
]


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

    separation_weight: float = 1.5
    goal_weight: float = 1.0
    player_gain: float = 8.0
    wall_feeler_length: float = 60.0
    wall_feeler_angle: float = 35.0


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

    patrol_speed: float = 0.6
    lose_sight_after: float = 2.0
    leash: float = 200.0
    sight_angle: float = 180.0
    turn_rate: float | None = None


@dataclass(frozen=True)
class SentinelTuning:
    """An enemy that keeps between the player and the nearest exit (``role`` = ``sentinel``).

    Attributes:
        ratio: where it stands on the line from the player (0) to the exit (1).
        lose_sight_after: seconds it hunts after losing sight before it interposes again.
        sight_angle: half-angle of its sight cone (degrees); it faces the player.
        turn_rate: how fast it turns to face the player (deg/s); None: at once.
    """

    ratio: float = 0.7
    lose_sight_after: float = 1.5
    sight_angle: float = 40.0
    turn_rate: float | None = 120.0


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

    patrol_speed: float = 0.5
    lose_sight_after: float = 2.5
    sight_angle: float = 60.0
    turn_rate: float | None = 240.0


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

    flee_distance: float = 110.0
    extra_wander_weight: float = 0.35
    queue_distance: float = 30.0
    queue_brake: float = 0.8
    queue_weight: float = 1.0
    avoid_horizon: float = 1.5
    avoid_weight: float = 1.0
    turn_rate: float | None = None


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

    panic_distance: float = 260.0
    calm_distance: float = 420.0
    hide_distance: float = 24.0
    turn_rate: float | None = 540.0


@dataclass(frozen=True)
class Tuning:
    """Every archetype's tuning."""

    crowd: CrowdTuning = CrowdTuning()
    patrol: PatrolTuning = PatrolTuning()
    sentinel: SentinelTuning = SentinelTuning()
    formation: FormationTuning = FormationTuning()
    fish: FishTuning = FishTuning()
    hider: HiderTuning = HiderTuning()
