"""What a world was built with: the options that do not change while it runs (an edit that
rebuilds the world builds it again with the same ones)."""

from __future__ import annotations

from dataclasses import dataclass

from .physics import PhysicsSettings
from .tuning import Tuning

__all__ = ["WorldOptions"]


@dataclass(frozen=True, eq=False)
class WorldOptions:
    """A world's build options (see :class:`~game.world.world.World` for each).

    Attributes:
        seed: the seed of every random generator (spawn scatter, wander).
        extra_npcs: NPCs added to the level's NPC spawn areas.
        stagger: each non-player agent's steering is recomputed every ``stagger``-th step.
        settings: pymunk tuning (None: the defaults).
        tuning: the brains' tuning per archetype.
    """

    seed: int
    extra_npcs: int
    stagger: int
    settings: PhysicsSettings | None
    tuning: Tuning
