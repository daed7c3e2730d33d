"""A bot that plays like a person at the keyboard, to measure how hard a level is.

:class:`HumanBot` is the :class:`~game.world.autopilot.Autopilot` (plan round the enemies,
arrive at the exit) held back the ways a person is:

* **It reacts late.** The enemies it plans round are where they were :attr:`reaction`
  seconds ago (about 250 ms: a person's reaction time), not where they are.
* **It sees only the screen.** An enemy outside the window's view of the world (the view a
  level opens at, following the player) is not planned round.
* **It presses keys.** Its thrust is one of the eight key directions or nothing, never the
  autopilot's exact lean into a current, and its aim wanders: the direction it wants is off
  by a slowly drifting angle (:attr:`aim_noise` degrees typical, changing over
  :attr:`aim_time` seconds), then rounded to the nearest key.

Its randomness comes from its ``seed``, so a run of a world seed and a bot seed is the same
every time. :func:`play_human` runs one.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from steering.vec import FloatArray

from .autopilot import Autopilot
from .blind import KEY_DIRECTIONS, Run
from .spawn import ENEMY

if TYPE_CHECKING:
    from game.level import Level

    from .world import World

__all__ = ["HumanBot", "play_human"]

#: Below this fraction of full thrust the bot lets go of the keys.
IDLE_THRUST = 0.25


@dataclass(eq=False)
class HumanBot(Autopilot):
    """The autopilot with a person's reaction time, view and keys (see the module).

    Attributes (beyond the autopilot's):
        seed: its own randomness (the aim's drift).
        reaction: how old (s) the enemies' places it plans round are.
        view: (width, height) of the world on screen (px); None: the whole map.
        aim_noise: typical error of its aim (degrees).
        aim_time: how long (s) an aim error lasts before it drifts to another.
    """

    seed: int = 0
    reaction: float = 0.25
    view: tuple[float, float] | None = None
    aim_noise: float = 20.0
    aim_time: float = 0.6
    _seen: deque[tuple[FloatArray, FloatArray]] = field(init=False)
    _rows: NDArray[np.intp] = field(init=False)
    _rng: np.random.Generator = field(init=False)
    _aim: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        world = self.world
        self._rows = np.flatnonzero(world.kind[: world.n] == ENEMY)
        delay = max(0, round(self.reaction / world.dt))
        self._seen = deque(maxlen=delay + 1)
        self._rng = np.random.default_rng(self.seed)
        self._aim = float(self._rng.normal(0.0, math.radians(self.aim_noise)))

    def _observe(self) -> None:
        """Remember what the enemies look like now (copied: the world's arrays change)."""
        a = self.world.agents
        self._seen.append((a.pos[self._rows].copy(), a.vel[self._rows].copy()))

    def _on_screen(self, pos: FloatArray) -> np.ndarray:
        """Which points are inside the view, the camera on the player (kept in the map)."""
        if self.view is None:
            return np.ones(pos.shape[0], dtype=bool)
        level = self.world.level
        size = (level.width_px, level.height_px)
        p = self.world.agents.pos[0]
        inside = np.ones(pos.shape[0], dtype=bool)
        for axis in range(2):
            half = self.view[axis] / 2.0
            if 2.0 * half >= size[axis]:
                continue  # the whole map across: everything is on screen
            centre = min(max(float(p[axis]), half), size[axis] - half)
            inside &= np.abs(pos[:, axis] - centre) <= half
        return inside

    def danger(self) -> FloatArray | None:
        """The autopilot's danger, from the enemies on screen where they were
        :attr:`reaction` seconds ago."""
        if self._rows.size == 0 or self.threat_weight <= 0 or not self._seen:
            return None
        pos, vel = self._seen[0]  # the oldest kept: reaction seconds ago
        keep = self._on_screen(pos)
        if not keep.any():
            return None
        near = self.danger_at(np.concatenate((pos[keep], (pos + vel * self.lead_time)[keep])))
        return near + self.sight_danger(keep, pos[keep])

    def __call__(self, world: World | None = None) -> FloatArray:
        """The keys for the coming step: one of the eight key directions, or none."""
        self._observe()
        # The aim's error drifts (an Ornstein-Uhlenbeck walk with the given typical size).
        dt = self.world.dt
        k = dt / max(self.aim_time, dt)
        sigma = math.radians(self.aim_noise)
        self._aim += -k * self._aim + sigma * math.sqrt(2.0 * k) * float(self._rng.normal())
        u = super().__call__(world)
        if math.hypot(float(u[0]), float(u[1])) < IDLE_THRUST:
            return np.zeros(2)
        angle = math.atan2(float(u[1]), float(u[0])) + self._aim
        return KEY_DIRECTIONS[round(angle / (math.pi / 4)) % 8].copy()


def play_human(
    level: Level,
    seed: int,
    seconds: float = 120.0,
    view: tuple[float, float] | None = None,
    *,
    careless: bool = False,
    watch: Callable[[World], None] | None = None,
) -> Run:
    """One run of the human-like bot on a fresh world of ``level`` (world seed and bot seed
    ``seed``), for at most ``seconds`` (it stops at the outcome). ``careless``: it ignores
    the enemies (no weight on danger), swimming the shortest way seen or not. ``watch`` is
    called with the world after every step."""
    from .world import World

    world = World(level, seed)
    bot = HumanBot(world, seed=seed, view=view)
    if careless:
        bot.threat_weight = bot.sight_weight = 0.0
    for _ in range(max(1, round(seconds / world.dt))):
        world.step(bot())
        if watch is not None:
            watch(world)
        if world.outcome != "running":
            break
    return Run("HumanBot", world.outcome, world.time)
