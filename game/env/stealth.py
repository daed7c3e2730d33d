"""The game as a Gymnasium environment: one level, the player driven by an agent's actions,
observed through what a player could see (:mod:`game.env.observe`), rewarded for escaping.

The world is the game's own (:class:`~game.world.World`, the same physics, sight and enemies
a player meets); an action is what the keyboard gives (:func:`~game.world.player.key_thrust`,
the rule the game's keys go through) or, with ``continuous=True``, a thrust vector; it is
held for ``hold`` fixed steps. Spaces, units and rewards: docs/env.md.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from game.clock import DT
from game.level import Level
from game.level.schema import MAX_SEED
from game.recording import Recording, keyframes_from_inputs, level_reference, save_recording
from game.world import World
from game.world.player import KEY_DIRECTIONS, KEY_NAMES, key_thrust

from .observe import Observer, observation_size
from .options import (
    DEFAULT_HOLD,
    DEFAULT_RAY_RANGE,
    DEFAULT_RAYS,
    DEFAULT_TIME_COST,
    DEFAULT_TIME_LIMIT,
    RENDER_MODES,
    EnvOptions,
)

__all__ = ["ACTION_KEYS", "ACTION_NAMES", "ACTION_THRUST", "StealthEnv"]

#: The discrete actions as the four direction keys held, (right, left, up, down): none, then
#: the eight directions clockwise from up.
ACTION_KEYS = KEY_DIRECTIONS
#: Each discrete action's name.
ACTION_NAMES = KEY_NAMES
#: Each discrete action's thrust, through the keyboard's own rule.
ACTION_THRUST: tuple[tuple[float, float], ...] = tuple(key_thrust(*keys) for keys in ACTION_KEYS)

#: Reward for reaching an exit, and for being caught.
WIN_REWARD, CAUGHT_REWARD = 1.0, -1.0


class StealthEnv(gym.Env[np.ndarray, Any]):
    """One level of the game as an environment (``steering-game/Stealth-v0``).

    Args:
        level: A level file, a shipped level's name or number (``"08_sentries"``, ``"8"``),
            or a loaded :class:`~game.level.Level`.
        rays: Rays in the ring of sight round the player (1..1440).
        hold: Fixed steps of 1/60 s each action is held.
        continuous: Take a thrust in ``Box(-1, 1, (2,))`` instead of ``Discrete(9)``.
        ray_range: How far a ray sees (px).
        time_limit: Simulated seconds before the episode is truncated.
        time_cost: Reward taken away per simulated second.
        render_mode: None, ``"rgb_array"`` (headless, the screenshot's renderer) or
            ``"human"`` (the game's window).
        render_size: The frame's (width, height) in pixels.

    Raises:
        EnvOptionError: one line naming the bad option.

    Attributes:
        world: The running world (None before the first :meth:`reset`).
        settings: The checked options (:class:`~game.env.options.EnvOptions`).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 15}  # noqa: RUF012

    def __init__(
        self,
        level: str | os.PathLike[str] | Level = "01_patrol",
        *,
        rays: int = DEFAULT_RAYS,
        hold: int = DEFAULT_HOLD,
        continuous: bool = False,
        ray_range: float = DEFAULT_RAY_RANGE,
        time_limit: float = DEFAULT_TIME_LIMIT,
        time_cost: float = DEFAULT_TIME_COST,
        render_mode: str | None = None,
        render_size: tuple[int, int] = (640, 360),
    ) -> None:
        self.settings = o = EnvOptions.of(
            level,
            rays=rays,
            hold=hold,
            continuous=continuous,
            ray_range=ray_range,
            time_limit=time_limit,
            time_cost=time_cost,
            render_mode=render_mode,
            render_size=render_size,
        )
        self.render_mode = o.render_mode
        self.metadata = {**self.metadata, "render_fps": max(1, round(1.0 / (o.hold * DT)))}
        self.action_space: spaces.Space[Any] = (
            spaces.Box(-1.0, 1.0, (2,), dtype=np.float32) if o.continuous else spaces.Discrete(9)
        )
        size = observation_size(o.rays)
        self.observation_space = spaces.Box(-1.0, 1.0, (size,), dtype=np.float32)
        self.world: World | None = None
        self._observer: Observer | None = None
        self._limit = round(o.time_limit / DT)
        self._renderer: Any = None

    # -- the episode -------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new run of the level. The world's seed is ``seed`` itself when it is in
        0..2**32-1 (so a replay file names it), else drawn from the environment's generator."""
        super().reset(seed=seed)
        if seed is not None and 0 <= seed <= MAX_SEED:
            world_seed = int(seed)
        else:
            world_seed = int(self.np_random.integers(0, MAX_SEED, endpoint=True))
        self.world = World(self.settings.level, world_seed)
        self._observer = Observer(self.world, self.settings.rays, self.settings.ray_range)
        obs = self._observer.observe()
        if self.render_mode == "human":
            self.render()
        return obs, self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Hold ``action`` for ``hold`` fixed steps (fewer when the run ends or the time is
        up); reward +1 on escaping, -1 when caught, less ``time_cost`` a simulated second."""
        world, observer = self.world, self._observer
        if world is None or observer is None:
            raise RuntimeError("call reset() before step()")
        thrust = self._thrust(action)
        start = world.frame
        if world.outcome != "running" or start >= self._limit:
            # stepped past the end without a reset: the world stays as it ended, no reward
            ended = world.outcome != "running"
            return observer.observe(), 0.0, ended, not ended, self._info()
        end = min(start + self.settings.hold, self._limit)
        outcome = world.outcome
        while world.frame < end:
            outcome = world.step(thrust)
            if outcome != "running":
                break
        reward = -self.settings.time_cost * (world.frame - start) * DT
        if outcome == "won":
            reward += WIN_REWARD
        elif outcome == "caught":
            reward += CAUGHT_REWARD
        terminated = outcome != "running"
        truncated = not terminated and world.frame >= self._limit
        obs = observer.observe()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, self._info()

    def _thrust(self, action: Any) -> tuple[float, float]:
        if self.settings.continuous:
            a = np.asarray(action, dtype=np.float64).reshape(-1)
            if a.shape != (2,):
                raise ValueError(f"action: expected a thrust (x, y), got shape {a.shape}")
            return (float(np.clip(a[0], -1.0, 1.0)), float(np.clip(a[1], -1.0, 1.0)))
        k = int(action)
        if not 0 <= k < len(ACTION_THRUST) or k != action:
            raise ValueError(f"action: expected an integer in 0..8, got {action!r}")
        return ACTION_THRUST[k]

    def _info(self) -> dict[str, Any]:
        world = self.world
        assert world is not None
        return {"outcome": world.outcome, "time": world.time, "seed": world.seed}

    # -- replays -----------------------------------------------------------------------------

    def save_replay(self, path: str | os.PathLike[str]) -> Path:
        """Write the run so far as a replay file that ``python -m game replay`` and
        ``simulate --inputs`` play (the game's own replay writer).

        Raises:
            RuntimeError: before :meth:`reset`, or for a level given as data with no file.
            OutputError: the file cannot be written.
        """
        world = self.world
        if world is None:
            raise RuntimeError("call reset() before save_replay()")
        level = self.settings.path
        if level is None:
            raise RuntimeError("save_replay: the level has no file to name in a replay")
        out = Path(path)
        recording = Recording(
            tuple(keyframes_from_inputs(world.player.inputs)),
            level_reference(level, out),
            world.seed,
            round(world.time, 6) if world.frame else None,
        )
        return save_recording(out, recording)

    # -- drawing -----------------------------------------------------------------------------

    def render(self) -> np.ndarray | None:
        """The world now: an (H, W, 3) uint8 frame (``rgb_array``), or drawn in the game's
        window (``human``); None without a render mode."""
        if self.render_mode is None or self.world is None:
            return None
        if self._renderer is None:
            from .render import EnvRenderer

            self._renderer = EnvRenderer(self.render_mode, self.settings.render_size)
        frame: np.ndarray | None = self._renderer.draw(self.world, self.settings.hold * DT)
        return frame

    def close(self) -> None:
        """Close the window, if one was opened."""
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
