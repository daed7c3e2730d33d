"""The level format as data: every class, its shapes and its properties, and the size limits.

The loader, the saver, the editor's panel, docs/levels.md (its test) and the property tests all
read these tables, so a new property is added here once.

Why these tables and not the pydantic schemas of the game's own files (:mod:`game.file_schema`):
a Tiled object's properties are not a JSON object of fields but a list of ``{name, type,
value}`` entries, and what a value may be depends on Tiled's declared type as much as on the
value (an ``int`` property holding a fraction is rounded by Tiled itself, ``qlonglong`` is an
untyped whole number, a ``floats`` list is a string, a ``file`` is checked under the game's
folders and decoded). A model per class would hold the ranges, but those rules, the list's
shape and the object's id, name and class in every message would still be our code beside it;
and the same rows give the editor's panel its ranges and units, and the docs their table.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CLASSES",
    "CLASS_ORDER",
    "DEFAULT_LAYER",
    "ENEMY_ROLES",
    "FLOW_KINDS",
    "FORMATIONS",
    "MAP_PROPERTIES",
    "MAX_AGENTS",
    "MAX_FILE_BYTES",
    "MAX_FLOW_CELLS",
    "MAX_HIDE_WORK",
    "MAX_JSON_CONTAINERS",
    "MAX_LAYER_DEPTH",
    "MAX_OBJECTS",
    "MAX_PATH_NODES",
    "MAX_PATH_POINTS",
    "MAX_ROCK_OVERLAPS",
    "MAX_SEED",
    "MAX_SPAWN_WALL_WORK",
    "MAX_SPAWN_WORK",
    "MAX_WALL_POINTS",
    "MAX_WORLD_PX",
    "NPC_ROLES",
    "ClassSpec",
    "PropSpec",
]

#: Neither side of the world may be longer than this (px).
MAX_WORLD_PX = 100_000
#: At most this many objects in all object layers together.
MAX_OBJECTS = 10_000
#: At most this many agents (the player plus every enemy and NPC ``count``).
MAX_AGENTS = 10_000
#: At most this many flow-field cells over all flow regions.
MAX_FLOW_CELLS = 1_000_000
#: At most this many points in one path.
MAX_PATH_POINTS = 10_000
#: At most this many points in all walls together (each segment is a body in the physics and
#: a row in the steering's wall index, and the autopilot rasterises every one).
MAX_WALL_POINTS = 20_000
#: At most this many nodes in all paths together (drifting nodes move every step, and the
#: editor draws and hit-tests every node).
MAX_PATH_NODES = 20_000
#: At most this many pairs of overlapping rocks of which one at least is pushable: the physics
#: solves every overlapping pair of bodies every step (a pile of 1,000 pushable rocks on one
#: spot is 499,500 pairs, 11.8 s for one simulated second).
MAX_ROCK_OVERLAPS = 1_000
#: Hiders weigh every rock against every rock for each distinct threat they hide from:
#: ``min(hiders, enemies + 1) x rocks x rocks`` is at most this (a level with no hider pays
#: nothing).
MAX_HIDE_WORK = 10_000_000
#: Spawning checks every place it tries against every wall segment: ``agents placed by spawns
#: x wall segments`` is at most this.
MAX_SPAWN_WALL_WORK = 5_000_000
#: Each spawn object places its agents apart from every agent placed before it:
#: ``spawn objects (enemy and npc) x agents`` is at most this (1,000 one-agent spawns, or 100
#: spawns of 10,000 agents in all).
MAX_SPAWN_WORK = 1_000_000
#: A level file holds at most this many JSON objects and arrays (``{`` and ``[``, counted in
#: the text before it is decoded): a key the game ignores may not hold ten million ``{}``.
MAX_JSON_CONTAINERS = 250_000
#: Group layers nest at most this deep.
MAX_LAYER_DEPTH = 32
#: Files larger than this are refused before they are parsed.
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Seeds are unsigned 32-bit integers (NumPy and opensimplex both accept them).
MAX_SEED = 2**32 - 1

#: The kinds of flow region.
FLOW_KINDS = ("uniform", "noise", "vortex", "image")
#: What an enemy does (``patrol``: its path or its post; ``sentinel``: between the player and
#: the nearest exit).
ENEMY_ROLES = ("patrol", "sentinel")
#: How an enemy spawn of several holds together (``none``: each on its own).
FORMATIONS = ("none", "line", "column", "wedge", "circle")
#: What an NPC does (``fish``: school, follow, flee; ``hider``: hide behind rocks).
NPC_ROLES = ("fish", "hider")


@dataclass(frozen=True)
class PropSpec:
    """One Tiled custom property of a class (or of the map).

    Attributes:
        name: The property name, also the field name on the level data class.
        kind: ``float``, ``int``, ``bool``, ``string``, ``enum``, ``file`` or ``floats``
            (numbers separated by commas in a Tiled string property, read as a tuple).
        default: The value when the property is absent.
        minimum: The smallest allowed value (numbers, and each of ``floats``), or None.
        exclusive: True when ``minimum`` itself is not allowed (``> minimum``).
        maximum: The largest allowed value (numbers only), or None.
        choices: The allowed strings of an ``enum``.
        unit: The unit, for the docs (``px``, ``px/s``, ...).
        doc: One line for the docs.
    """

    name: str
    kind: str
    default: float | int | bool | str | tuple[float, ...]
    minimum: float | None = None
    exclusive: bool = False
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    doc: str = ""

    @property
    def tiled_type(self) -> str:
        """The Tiled property type written for this property."""
        return {"enum": "string", "floats": "string"}.get(self.kind, self.kind)


@dataclass(frozen=True)
class ClassSpec:
    """One object class: which Tiled shapes it may have and its properties.

    Attributes:
        name: The class name as written in Tiled (``type`` or ``class``).
        shapes: Allowed shapes: ``point``, ``rect``, ``ellipse``, ``polyline``, ``polygon``.
        props: The custom properties, in documentation order.
        doc: One line for the docs.
    """

    name: str
    shapes: tuple[str, ...]
    props: tuple[PropSpec, ...]
    doc: str = ""

    def prop(self, name: str) -> PropSpec:
        """Return the property called ``name``.

        Raises:
            KeyError: if the class has no such property.
        """
        for spec in self.props:
            if spec.name == name:
                return spec
        raise KeyError(name)


def _pos(name: str, default: float, maximum: float, unit: str, doc: str) -> PropSpec:
    """A float property that must be > 0."""
    return PropSpec(name, "float", default, 0.0, True, maximum, unit=unit, doc=doc)


def _nonneg(name: str, default: float, maximum: float, unit: str, doc: str) -> PropSpec:
    """A float property that must be >= 0."""
    return PropSpec(name, "float", default, 0.0, False, maximum, unit=unit, doc=doc)


_COUNT = PropSpec(
    "count", "int", 1, 1, False, MAX_AGENTS, unit="agents", doc="how many agents spawn here"
)
_SEED = PropSpec("seed", "int", 0, 0, False, MAX_SEED, doc="random seed, 0 to 4294967295")

CLASSES: dict[str, ClassSpec] = {
    "path": ClassSpec(
        "path",
        ("polyline", "polygon"),
        (
            _pos("radius", 20.0, 10_000.0, "px", "half width of the corridor agents keep to"),
            PropSpec(
                "radii",
                "floats",
                (),
                0.0,
                True,
                10_000.0,
                unit="px",
                doc="one half width per segment, separated by commas; overrides radius",
            ),
            _nonneg("drift", 0.0, 10_000.0, "px", "how far each node wanders by itself; 0: fixed"),
            _nonneg("drift_speed", 0.5, 1_000.0, "1/s", "how fast drifting nodes move"),
        ),
        "a route that enemies and NPCs follow; polyline = open, polygon = closed loop",
    ),
    "obstacle": ClassSpec(
        "obstacle",
        ("ellipse",),
        (
            PropSpec("dynamic", "bool", False, doc="true: a pushable rock; false: fixed"),
            _pos("mass", 10.0, 1_000_000.0, "kg", "mass of a pushable rock"),
        ),
        "a circular rock (ellipse with width == height)",
    ),
    "wall": ClassSpec(
        "wall",
        ("polyline", "polygon", "rect"),
        (_pos("thickness", 12.0, 1_000.0, "px", "how thick the wall is"),),
        "a solid wall: polyline = open, polygon = closed, rectangle = a block",
    ),
    "player": ClassSpec(
        "player",
        ("point",),
        (
            _pos("max_speed", 220.0, 10_000.0, "px/s", "top speed"),
            _pos("radius", 14.0, 1_000.0, "px", "collision radius"),
        ),
        "where the player starts; exactly one",
    ),
    "exit": ClassSpec("exit", ("rect",), (), "reaching it wins the level; at least one"),
    "enemy": ClassSpec(
        "enemy",
        ("point",),
        (
            PropSpec("path", "string", "", doc="name of the path to patrol; empty: guard the spot"),
            _COUNT,
            _pos("max_speed", 180.0, 10_000.0, "px/s", "top speed"),
            _pos("max_force", 400.0, 1_000_000.0, "px/s^2", "top steering acceleration"),
            _pos("radius", 14.0, 1_000.0, "px", "collision radius"),
            _nonneg("sight", 250.0, 100_000.0, "px", "how far it sees the player; 0: never chases"),
            _nonneg("separation", 40.0, 10_000.0, "px", "distance kept from other enemies"),
            PropSpec(
                "role",
                "enum",
                "patrol",
                choices=ENEMY_ROLES,
                doc="patrol: its path or post; sentinel: between the player and the nearest exit",
            ),
            PropSpec(
                "formation",
                "enum",
                "none",
                choices=FORMATIONS,
                doc="the first enemy leads, the others hold slots around it; needs count > 1",
            ),
            _pos("spacing", 50.0, 10_000.0, "px", "distance between neighbouring formation slots"),
            _nonneg(
                "scatter",
                0.0,
                10_000.0,
                "px",
                "its start and post are drawn per world seed within this radius of the point; "
                "0: exactly here",
            ),
            _nonneg(
                "phase",
                0.0,
                1.0,
                "",
                "with a path: it starts a seeded part of this fraction of the path's length "
                "further along it; 0: nearest the point, 1: anywhere on it",
            ),
        ),
        "an enemy spawn point",
    ),
    "npc": ClassSpec(
        "npc",
        ("point", "rect"),
        (
            _COUNT,
            _pos("max_speed", 120.0, 10_000.0, "px/s", "top speed"),
            _pos("max_force", 300.0, 1_000_000.0, "px/s^2", "top steering acceleration"),
            _pos("radius", 8.0, 1_000.0, "px", "collision radius"),
            _nonneg("separation", 24.0, 10_000.0, "px", "distance kept from neighbours"),
            PropSpec("path", "string", "", doc="name of a path to follow; empty: none"),
            PropSpec("wander", "bool", True, doc="add a random wander to the steering"),
            PropSpec(
                "role",
                "enum",
                "fish",
                choices=NPC_ROLES,
                doc="fish: school, follow, flee; hider: hide behind rocks from the player and "
                "enemies",
            ),
            PropSpec(
                "queue", "bool", False, doc="wait behind slower fish ahead (gates, corridors)"
            ),
            PropSpec("avoid", "bool", False, doc="sidestep agents on a collision course (crowds)"),
        ),
        "a harmless agent spawn: a point, or a rectangle that its agents fill",
    ),
    "flow": ClassSpec(
        "flow",
        ("rect",),
        (
            PropSpec("kind", "enum", "uniform", choices=FLOW_KINDS, doc="how the current moves"),
            PropSpec(
                "angle",
                "float",
                0.0,
                -1_000_000.0,
                False,
                1_000_000.0,
                unit="deg",
                doc="direction of a uniform current: 0 = +x, counter-clockwise",
            ),
            _nonneg("strength", 80.0, 100_000.0, "px/s", "speed of the current"),
            PropSpec("cell", "float", 32.0, 1.0, False, 100_000.0, unit="px", doc="grid cell size"),
            _pos("scale", 0.05, 1_000.0, "1/cell", "noise frequency"),
            _nonneg("speed", 0.0, 1_000.0, "1/s", "noise change per second; 0: static"),
            _SEED,
            PropSpec("clockwise", "bool", False, doc="vortex turns clockwise"),
            PropSpec("image", "file", "", doc="grayscale image under resources/ or levels/"),
        ),
        "a region of moving water that pushes everything in it",
    ),
}

#: Classes in the order the saver writes new objects and the docs list them.
CLASS_ORDER = ("flow", "path", "obstacle", "wall", "player", "exit", "enemy", "npc")

#: The object layer a new object goes to when no object of its class exists yet.
DEFAULT_LAYER = {
    "flow": "flows",
    "path": "paths",
    "obstacle": "rocks",
    "wall": "walls",
    "player": "spawns",
    "exit": "spawns",
    "enemy": "spawns",
    "npc": "spawns",
}

#: Custom properties of the map itself.
MAP_PROPERTIES: tuple[PropSpec, ...] = (
    PropSpec("title", "string", "", doc="shown in the level menu and HUD"),
    PropSpec("seed", "int", 0, 0, False, MAX_SEED, doc="seed for all randomness of the level"),
    PropSpec("hint", "string", "", doc="one sentence shown when the level starts"),
)
