"""Wall avoidance: three feelers ahead of each agent; a crossing pushes along the wall's normal."""

from __future__ import annotations

from game.lab import FloatArray, Param, Scene
from steering import AgentGroup, AvoidWalls, Debug, TruncatedRunningSum, Walls, Wander

#: A room with two inner walls.
ROOM = [[(20, 20), (620, 20), (620, 340), (20, 340)]]
INNER = [[(220, 20), (220, 220)], [(420, 340), (420, 140)], [(300, 110), (360, 170)]]


class WallsScene(Scene):
    title = "Walls and feelers"
    caption = (
        "Wall avoidance (Buckland): three feelers, force along the wall normal scaled by how "
        "far a feeler crosses"
    )
    PARAMS = (
        Param("length", "feeler length", 60, 5, 200, 5, "px"),
        Param("angle", "feeler angle", 35, 0, 90, 5, "deg"),
        Param("max_speed", "max speed", 120, 20, 400, 10, "px/s"),
        Param("max_force", "max force", 600, 20, 3000, 20, "px/s²"),
    )
    trail = 30

    def setup(self) -> AgentGroup:
        room = Walls.from_polylines(ROOM, closed=True)
        inner = Walls.from_polylines(INNER)
        self.walls = Walls.create([*room.segments, *inner.segments])
        pos = [(100, 100), (120, 280), (320, 60), (320, 300), (520, 80), (520, 280)]
        return AgentGroup.create(pos, self.rng.normal(0, 60, (6, 2)), radius=7)

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        assert self.walls is not None
        avoid = AvoidWalls(self.walls, feeler_length=self.p["length"], feeler_angle=self.p["angle"])
        return TruncatedRunningSum([avoid, Wander(self.rng)])(self.agents, dt, debug)


SCENE = WallsScene
