"""How a level becomes a world's parts: its paths, walls, bodies, the enemies' minds and the
crowd's brain, each made once from the level, its roster and the tuning by
:class:`~game.world.world.World`'s constructor (and again after an edit that needs them)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from game.level import Level
from steering import (
    AgentGroup,
    AvoidObstacles,
    AvoidWalls,
    Contain,
    DriftingPath,
    Obstacles,
    Path,
    PathSet,
    Walls,
)
from steering.vec import FloatArray

from .brains import CrowdBrain, EnemyMinds, Mode
from .currents import Currents
from .physics import ENEMY_TYPE, NPC_TYPE, PLAYER_TYPE, Physics, PhysicsSettings
from .spawn import ENEMY, PLAYER, Archetype, Roster
from .tuning import FormationTuning, PatrolTuning, SentinelTuning, Tuning, turn_rate_rad

__all__ = [
    "level_paths",
    "level_walls",
    "make_brain",
    "make_minds",
    "make_physics",
    "patrol_pace",
    "turn_rates",
]


def level_paths(level: Level, seed: int) -> PathSet:
    """The level's paths as one editable registry, in level order; drifting ones get their
    drift, seeded from ``seed`` and their slot."""
    paths = PathSet()
    for k, pd in enumerate(level.paths):
        paths[pd.name] = Path(pd.points, closed=pd.closed, radius=pd.radii or pd.radius)
        if pd.drift > 0:
            drift = DriftingPath(
                pd.points, (pd.drift, pd.drift), pd.drift_speed, seed=seed * 7919 + k
            )
            paths.set_drift(pd.name, drift)
    return paths


def level_walls(level: Level) -> tuple[Walls, FloatArray]:
    """The level's walls as straight segments (the steering core's :class:`Walls`) and (W,)
    each segment's thickness (px)."""
    segs = [(seg, wd.thickness) for wd in level.walls for seg in wd.segments]
    walls = Walls.create(np.array([sg for sg, _ in segs]).reshape(-1, 2, 2))
    return walls, np.array([t for _, t in segs], dtype=np.float64)


def make_physics(
    level: Level,
    roster: Roster,
    agents: AgentGroup,
    walls: Walls,
    wall_thickness: FloatArray,
    settings: PhysicsSettings | None,
) -> Physics:
    """The pymunk side of a world: the roster's agents as bodies (where ``agents`` has them),
    the level's rocks and its walls."""
    obs = level.obstacles
    centres = np.array([(o.x, o.y) for o in obs], dtype=np.float64).reshape(-1, 2)
    radii = np.array([o.radius for o in obs], dtype=np.float64)
    dynamic = np.array([o.dynamic for o in obs], dtype=bool)
    rock_mass = np.array([o.mass for o in obs], dtype=np.float64)
    types = np.where(
        roster.kind == PLAYER, PLAYER_TYPE, np.where(roster.kind == ENEMY, ENEMY_TYPE, NPC_TYPE)
    )
    return Physics(
        (level.width_px, level.height_px),
        agents.pos,
        agents.radius,
        agents.mass,
        types,
        centres,
        radii,
        rock_mass,
        dynamic,
        settings,
        walls.segments,
        wall_thickness / 2,
        np.array([o.id for o in obs], dtype=np.int64),
    )


def make_minds(roster: Roster, tuning: Tuning) -> tuple[NDArray[np.int8], EnemyMinds]:
    """(N,) every agent's first mode (enemies patrol their path or wander, sentinels guard,
    formation followers keep their slot; others none until the think system sets it) and the
    enemies' minds (sight, its cone and memory from their archetype's tuning)."""
    mode = np.full(roster.n, Mode.NONE, dtype=np.int8)
    enemies = np.flatnonzero(roster.kind == ENEMY)
    arch = roster.archetype[enemies]
    sentinel = arch == Archetype.SENTINEL
    follower = roster.leader[enemies] >= 0
    mode[enemies] = np.where(roster.path[enemies] >= 0, Mode.PATROL, Mode.WANDER)
    mode[enemies[sentinel]] = Mode.GUARD
    mode[enemies[follower]] = Mode.FORM
    per_arch: dict[Archetype, PatrolTuning | SentinelTuning | FormationTuning] = {
        Archetype.PATROL: tuning.patrol,
        Archetype.SENTINEL: tuning.sentinel,
        Archetype.FORMATION: tuning.formation,
    }
    angle = np.array([per_arch[Archetype(a)].sight_angle for a in arch.tolist()])
    minds = EnemyMinds(
        enemies,
        roster.sight[enemies],
        roster.path[enemies] >= 0,
        half_angle=np.radians(angle).reshape(-1),
        lose_after=np.array(
            [per_arch[Archetype(a)].lose_sight_after for a in arch.tolist()]
        ).reshape(-1),
        sentinel=sentinel,
        follower=follower,
        squad=roster.squad[enemies],
    )
    return mode, minds


def patrol_pace(roster: Roster, tuning: Tuning) -> FloatArray:
    """(N,) the fraction of max speed each agent patrols at."""
    return np.where(
        roster.archetype == Archetype.FORMATION,
        tuning.formation.patrol_speed,
        tuning.patrol.patrol_speed,
    )


def make_brain(
    level: Level,
    obstacles: Obstacles,
    walls: Walls,
    wall_thickness: FloatArray,
    paths: PathSet,
    currents: Currents,
    rng: np.random.Generator,
    tuning: Tuning,
) -> CrowdBrain:
    """The crowd's steering over the level's rectangle, rocks, walls, paths and currents."""
    w, h = level.width_px, level.height_px
    return CrowdBrain(
        contain=Contain(0.0, 0.0, w, h),
        avoid=AvoidObstacles(obstacles),
        walls=_wall_avoidance(walls, wall_thickness, tuning),
        paths=paths,
        currents=currents,
        rng=rng,
        tuning=tuning,
        drag=currents.drag,  # issue 15: patrols hold their route in a current
        bounds=(0.0, 0.0, w, h),  # issue 15: fish turn back from the map's edges
    )


def _wall_avoidance(walls: Walls, thickness: FloatArray, tuning: Tuning) -> AvoidWalls | None:
    """Feelers against the level's walls (None without walls): the skin starts where the
    thickest wall's surface is, so agents keep clear of every wall's face."""
    if len(walls) == 0:
        return None
    crowd = tuning.crowd
    return AvoidWalls(
        walls,
        feeler_length=crowd.wall_feeler_length,
        feeler_angle=crowd.wall_feeler_angle,
        margin=4.0 + float(thickness.max()) / 2,
    )


def turn_rates(archetype: NDArray[np.int8], tuning: Tuning) -> FloatArray:
    """(N,) each agent's max turn rate (rad/s; inf: none) from its archetype's tuning."""
    rates = {
        Archetype.PLAYER: None,
        Archetype.PATROL: tuning.patrol.turn_rate,
        Archetype.SENTINEL: tuning.sentinel.turn_rate,
        Archetype.FORMATION: tuning.formation.turn_rate,
        Archetype.FISH: tuning.fish.turn_rate,
        Archetype.HIDER: tuning.hider.turn_rate,
    }
    table = np.array([turn_rate_rad(rates[a]) for a in Archetype])
    return np.asarray(table[archetype], dtype=np.float64)
