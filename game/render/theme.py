"""The game's look in one place: colours (RGBA 0-255), line widths and font settings.

Theme "deep water": a dark blue sea, teal route tubes, pale plankton drifting in currents,
brown boulders, a gold submersible for the player, crimson hunters that flare orange when they
give chase, and silver-teal fish.
"""

from __future__ import annotations

__all__ = [
    "BACKGROUND",
    "DEBUG",
    "EXIT_EDGE",
    "EXIT_FILL",
    "FLOW_PARTICLE",
    "FLOW_TINT",
    "FONT",
    "GRID",
    "HUD_BAR",
    "HUD_DIM",
    "HUD_GOOD",
    "HUD_PANEL",
    "HUD_TEXT",
    "HUD_WARN",
    "NPC_TINTS",
    "OUTSIDE",
    "PATH_ARROW",
    "PATH_CENTRE",
    "PATH_EDGE",
    "PATH_FILL",
    "PLAYER_GLOW",
    "SIGHT_CALM",
    "SIGHT_HUNT",
    "TRAIL",
    "WALL",
    "WALL_EDGE",
    "WALL_FILL",
    "WALL_RIDGE",
    "Rgba",
]

Rgba = tuple[int, int, int, int]

#: Open water (the clear colour) and the dark beyond the level's walls.
BACKGROUND: Rgba = (11, 30, 50, 255)
OUTSIDE: Rgba = (4, 10, 18, 255)
#: A faint grid every few tiles so motion reads even in empty water.
GRID: Rgba = (20, 46, 70, 255)
#: The level's edge (a wall).
WALL: Rgba = (70, 130, 160, 255)
#: The level's walls (reef stone): a pale rim, a warm stone body, a lighter ridge line.
WALL_EDGE: Rgba = (196, 214, 206, 255)
WALL_FILL: Rgba = (98, 88, 80, 255)
WALL_RIDGE: Rgba = (140, 128, 114, 255)

#: Route tubes: opaque (joins overlap; see geometry.tube_triangles), edge drawn first.
PATH_EDGE: Rgba = (30, 78, 98, 255)
PATH_FILL: Rgba = (18, 52, 72, 255)
PATH_CENTRE: Rgba = (90, 170, 190, 150)
PATH_ARROW: Rgba = (120, 205, 220, 200)

#: Currents: a faint tint over the region and drifting plankton.
FLOW_TINT: Rgba = (60, 140, 200, 22)
FLOW_PARTICLE: Rgba = (170, 225, 255, 200)

#: Exits.
EXIT_FILL: Rgba = (60, 220, 140, 70)
EXIT_EDGE: Rgba = (120, 255, 180, 230)

#: Enemies' sight cones: (centre, rim) colours, a torch beam fading outward; warmer while
#: they hunt.
SIGHT_CALM: tuple[Rgba, Rgba] = ((255, 230, 150, 58), (255, 230, 150, 14))
SIGHT_HUNT: tuple[Rgba, Rgba] = ((255, 110, 70, 80), (255, 110, 70, 22))

PLAYER_GLOW: Rgba = (255, 220, 90, 60)
TRAIL: Rgba = (200, 220, 255, 90)

#: Fish colours (multiplied into the pale fish texture), picked per agent.
NPC_TINTS: tuple[Rgba, ...] = (
    (120, 230, 210, 255),
    (150, 210, 240, 255),
    (200, 235, 225, 255),
    (110, 200, 230, 255),
    (235, 230, 170, 255),
)

#: HUD.
FONT: tuple[str, ...] = ("DejaVu Sans", "Arial", "calibri")
HUD_TEXT: Rgba = (225, 240, 250, 255)
HUD_DIM: Rgba = (150, 180, 200, 255)
HUD_WARN: Rgba = (255, 120, 90, 255)
HUD_GOOD: Rgba = (120, 255, 170, 255)
HUD_PANEL: Rgba = (4, 12, 22, 170)
#: The HUD's bars above and below the world (opaque: the world is not drawn under them).
HUD_BAR: Rgba = (6, 16, 28, 255)

#: Debug overlay colours (seed conventions: red while steering).
DEBUG: dict[str, Rgba] = {
    "future": (255, 255, 255, 200),
    "normal": (120, 200, 255, 220),
    "target_idle": (120, 255, 140, 230),
    "target_steer": (255, 60, 60, 255),
    "path_radius": (120, 200, 255, 70),
    "box": (255, 230, 120, 110),
    "box_hit": (255, 130, 60, 230),
    "rock_hit": (255, 90, 50, 220),
    "flow": (160, 220, 255, 130),
    "separation": (200, 160, 255, 60),
    "pair": (220, 140, 255, 170),
    "trail": (230, 240, 255, 110),
    "sight": (255, 90, 60, 40),
    "velocity": (255, 255, 255, 140),
    # the steering vocabulary's behaviours (game.render.debug_draw)
    "heading": (90, 240, 255, 220),
    "heading_desired": (255, 170, 255, 170),
    "hide_spot": (150, 210, 255, 150),
    "hide_chosen": (90, 255, 190, 240),
    "interpose": (255, 220, 80, 240),
    "slot": (190, 255, 110, 210),
    "approach": (255, 180, 70, 220),
    "threat": (255, 70, 70, 230),
    "feeler": (255, 240, 170, 110),
    "feeler_hit": (255, 120, 60, 230),
    "wall_hit": (255, 50, 50, 255),
    "queue_brake": (255, 70, 70, 220),
    "queue_ahead": (255, 150, 150, 170),
}
