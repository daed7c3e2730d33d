"""The editor's tools: what a left click in empty water does. Pure data; the view maps the
number keys to them (see docs/editor.md)."""

from __future__ import annotations

import enum

__all__ = ["TOOL_FIELD", "Tool"]


class Tool(enum.Enum):
    """A mode of the left mouse button; every tool still drags handles it presses on."""

    SELECT = "select"
    """Click selects, drag moves what it holds, click in empty water selects the map."""
    PATH = "path"
    """Click in empty water starts a new path, or adds a node to the selected one."""
    ROCK = "rock"
    """Press and drag out a new rock's radius."""
    ENEMY = "enemy"
    """Click places an enemy spawn (on the selected path)."""
    NPC = "npc"
    """Click places an NPC spawn point; drag draws an NPC spawn rectangle."""
    EXIT = "exit"
    """Drag draws an exit."""
    FLOW = "flow"
    """Drag draws a flow region (then drag its arrow for angle and strength)."""
    WALL = "wall"
    """Drag draws a straight wall (Shift: a rectangle wall); a click adds a corner to the end
    of the selected wall, or makes a wall of the default size."""


#: The level field each creating tool adds to.
TOOL_FIELD: dict[Tool, str] = {
    Tool.ROCK: "obstacles",
    Tool.ENEMY: "enemies",
    Tool.NPC: "npcs",
    Tool.EXIT: "exits",
    Tool.FLOW: "flows",
}
