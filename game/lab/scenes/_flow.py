"""What the flow-field seed scenes share (seed 003): the canvas, the grid and 120 vehicles.

The seed's sketches are 640 x 360 with a grid resolution of 20 px (32 x 18 cells), 120
vehicles at random places with max speed ``random.uniform(2, 5)`` px/frame and max force
``random.uniform(0.1, 0.5)`` px/frame^2, wrapping round the edges.
"""

from __future__ import annotations

import numpy as np

from game.lab import FloatArray, Param, Scene, seed_force, seed_speed
from steering import AgentGroup, Debug, FollowFlow

__all__ = ["COLS", "FLOW_PARAMS", "HEIGHT", "RESOLUTION", "ROWS", "VEHICLES", "WIDTH", "FlowScene"]

WIDTH, HEIGHT, RESOLUTION = 640.0, 360.0, 20.0
COLS, ROWS = int(WIDTH // RESOLUTION), int(HEIGHT // RESOLUTION)
VEHICLES = 120
SPEED_RANGE = (seed_speed(2), seed_speed(5))
FORCE_RANGE = (seed_force(0.1), seed_force(0.5))

#: Shared live parameters: a scale on every vehicle's own limits, and Reynolds' look-ahead.
FLOW_PARAMS = (
    Param("speed_scale", "speed x", 1.0, 0.1, 3.0, 0.1),
    Param("force_scale", "force x", 1.0, 0.1, 3.0, 0.1),
    Param("predict", "look-ahead time", 0.0, 0.0, 1.0, 0.05, "s"),
)


class FlowScene(Scene):
    """A flow-field scene: set ``self.field`` in :meth:`setup` via :meth:`vehicles`."""

    trail = 6
    agent_noun = "vehicle"

    def vehicles(self) -> AgentGroup:
        """The seed's 120 vehicles, their own random limits kept as the base of the scales."""
        rng = self.rng
        pos = rng.uniform((0, 0), (WIDTH, HEIGHT), (VEHICLES, 2))
        self.base_speed = rng.uniform(*SPEED_RANGE, VEHICLES)
        self.base_force = rng.uniform(*FORCE_RANGE, VEHICLES)
        return AgentGroup.create(
            pos, max_speed=self.base_speed, max_force=self.base_force, radius=4.0
        )

    def apply_limits(self) -> None:
        self.agents.max_speed[:] = self.base_speed * self.p["speed_scale"]
        self.agents.max_force[:] = self.base_force * self.p["force_scale"]

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        assert self.field is not None
        follow = FollowFlow(self.field, predict_time=self.p["predict"], bilinear=False)
        return follow(self.agents, dt, debug)

    def after_step(self, dt: float) -> None:
        self.wrap_edges()


def grid_points() -> FloatArray:
    """(ROWS * COLS, 2) cell corners (the seed's ``j * resolution, i * resolution``)."""
    j, i = np.meshgrid(np.arange(COLS), np.arange(ROWS))
    return np.stack((j.ravel() * RESOLUTION, i.ravel() * RESOLUTION), axis=1).astype(float)
