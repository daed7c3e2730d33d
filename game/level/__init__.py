"""Levels as Tiled maps: load and validate them, save them without losing anything.

Pure Python (no arcade, no pymunk). Level data is frozen and in world coordinates: x right,
y up, pixels, origin bottom-left. The format is documented in docs/levels.md.
"""

from __future__ import annotations

from game.level.errors import LevelError
from game.level.loader import load_level, loads_level, parse_level, read_raw
from game.level.model import (
    EnemySpawn,
    ExitData,
    FlowRegion,
    Level,
    LevelObject,
    NpcSpawn,
    ObstacleData,
    PathData,
    PlayerSpawn,
    Point,
    Rect,
    WallData,
)
from game.level.saver import save_level
from game.level.schema import (
    CLASSES,
    FLOW_KINDS,
    MAP_PROPERTIES,
    MAX_AGENTS,
    MAX_FLOW_CELLS,
    MAX_OBJECTS,
    MAX_WORLD_PX,
    ClassSpec,
    PropSpec,
)
from game.level.shipped import LEVELS_DIR, RESOURCES_DIR, resolve_level, shipped_levels

__all__ = [
    "CLASSES",
    "FLOW_KINDS",
    "LEVELS_DIR",
    "MAP_PROPERTIES",
    "MAX_AGENTS",
    "MAX_FLOW_CELLS",
    "MAX_OBJECTS",
    "MAX_WORLD_PX",
    "RESOURCES_DIR",
    "ClassSpec",
    "EnemySpawn",
    "ExitData",
    "FlowRegion",
    "Level",
    "LevelError",
    "LevelObject",
    "NpcSpawn",
    "ObstacleData",
    "PathData",
    "PlayerSpawn",
    "Point",
    "PropSpec",
    "Rect",
    "WallData",
    "load_level",
    "loads_level",
    "parse_level",
    "read_raw",
    "resolve_level",
    "save_level",
    "shipped_levels",
]
