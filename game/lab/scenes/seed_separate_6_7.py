"""Seed 004, NoC Example 6.7: separation alone; a click adds a vehicle."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from game.lab import FloatArray, Param, Scene, seed_force, seed_speed
from steering import AgentGroup, Debug, Separate

#: Seed 004: 100 vehicles on a 320 x 240 canvas; ``desiredseparation = 20`` (later ``r * 2``,
#: so r = 10 here: vehicles as far apart as the separation just touch; the scene keeps every
#: radius at half the separation slider). Max speed and force are not in the seed: The Nature
#: of Code's vehicle has 3 px/frame and 0.2 px/frame^2.
WIDTH, HEIGHT = 320.0, 240.0
VEHICLES = 100
SEPARATION = 20.0
MAX_SPEED = seed_speed(3)
MAX_FORCE = seed_force(0.2)


class Separate67(Scene):
    title = "Separation: keeping apart"
    source = "Seed 004 · Nature of Code, Example 6.7"
    caption = (
        "Each steers away from neighbours closer than {separation}, nearer ones pushing "
        "harder (1/d), averaged"
    )
    click_hint = "add a vehicle"
    agent_noun = "vehicle"
    size = (WIDTH, HEIGHT)
    PARAMS: ClassVar[tuple[Param, ...]] = (
        # at least 4 px: a vehicle is drawn at half of it (radius 0 would be invisible)
        Param("separation", "desired separation", SEPARATION, 4, 80, 2, "px"),
        Param("max_speed", "max speed", MAX_SPEED, 10, 400, 10, "px/s"),
        Param("max_force", "max force", MAX_FORCE, 10, 3000, 20, "px/s²"),
        Param("fov", "field of view", 360, 30, 360, 10, "deg"),
    )

    def setup(self) -> AgentGroup:
        pos = self.rng.uniform((0, 0), (WIDTH, HEIGHT), (VEHICLES, 2))
        return AgentGroup.create(pos, radius=self.radius())

    def radius(self) -> float:
        """Every vehicle's radius: half the desired separation (the seed's ``r * 2``)."""
        return self.p["separation"] / 2.0

    def apply_limits(self) -> None:
        super().apply_limits()
        self.agents.radius[:] = self.radius()

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        return Separate(self.p["separation"], fov=self.p["fov"])(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        self.wrap_edges()

    def click(self, xy: object) -> bool:
        self.agents.add(np.asarray(xy, dtype=float).reshape(1, 2), radius=self.radius())
        self.force = np.zeros((self.agents.n, 2))
        return True


SCENE = Separate67
