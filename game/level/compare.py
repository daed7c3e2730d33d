"""Say how two levels differ, field by field: which object (by id), which field, old and new.

Used to check that a level survives a round trip (through Tiled, or a save and a load)
unchanged; the source path is not compared, as ``Level ==`` does not compare it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from game.level.model import Level, LevelObject

__all__ = ["OBJECT_FIELDS", "level_differences", "object_differences"]

#: The level's fields that hold objects, in the order they are compared.
OBJECT_FIELDS = ("flows", "paths", "obstacles", "walls", "exits", "enemies", "npcs")
#: Longest value shown in a difference (characters).
_SHOWN = 120


def _show(value: object) -> str:
    """A value for a difference line: exact (``repr``), cut short when long."""
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _label(item: LevelObject) -> str:
    """``object 3 "path-1"``, or ``object 3`` for an object without a name."""
    return f'object {item.id} "{item.name}"' if item.name else f"object {item.id}"


def _value_difference(name: str, old: object, new: object) -> str:
    """One field's difference; for two lists of one length, the first item that differs."""
    if isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return f"{name}[{index}] {_show(a)} -> {_show(b)}"
    if isinstance(old, tuple) and isinstance(new, tuple):
        return f"{name} has {len(old)} items -> {len(new)}: {_show(old)} -> {_show(new)}"
    return f"{name} {_show(old)} -> {_show(new)}"


def object_differences(old: LevelObject, new: LevelObject) -> list[str]:
    """How one object changed: ``field old -> new`` for each field that differs.

    Args:
        old: The object before.
        new: The object after (of the same class).

    Returns:
        One line per differing field (a different class is one line).
    """
    if type(old) is not type(new):
        return [f"class {type(old).__name__} -> {type(new).__name__}"]
    lines: list[str] = []
    for f in fields(old):
        a, b = getattr(old, f.name), getattr(new, f.name)
        if a != b:
            lines.append(_value_difference(f.name, a, b))
    return lines


def _objects(field: str, old: tuple[Any, ...], new: tuple[Any, ...]) -> list[str]:
    """The differences between two tuples of objects, matched by id."""
    lines: list[str] = []
    before = {item.id: item for item in old}
    after = {item.id: item for item in new}
    for item in old:
        if item.id not in after:
            lines.append(f"{field}: {_label(item)} is missing after the round trip")
    for item in new:
        if item.id not in before:
            lines.append(f"{field}: {_label(item)} is new after the round trip")
    kept_old = [item.id for item in old if item.id in after]
    kept_new = [item.id for item in new if item.id in before]
    if kept_old != kept_new:
        lines.append(f"{field}: order of ids {kept_old} -> {kept_new}")
    for item in old:
        if item.id in after:
            lines += [
                f"{field}: {_label(item)}: {d}" for d in object_differences(item, after[item.id])
            ]
    return lines


def level_differences(old: Level, new: Level) -> list[str]:
    """Every difference between two levels that matters in play, one line each.

    Map fields read ``map: seed 1 -> 2``; objects are matched by id across a field and read
    ``paths: object 3 "path-1": radius 24.0 -> 24.5``; a missing, new or reordered object is
    one line. ``source`` is not compared.

    Args:
        old: The level before (the original).
        new: The level after (e.g. loaded from Tiled's export).

    Returns:
        The differences; empty exactly when ``old == new``.
    """
    lines: list[str] = []
    for f in fields(Level):
        if not f.compare or f.name in OBJECT_FIELDS or f.name == "player":
            continue
        a, b = getattr(old, f.name), getattr(new, f.name)
        if a != b:
            lines.append(f"map: {_value_difference(f.name, a, b)}")
    lines += [f"player: {d}" for d in object_differences(old.player, new.player)]
    for name in OBJECT_FIELDS:
        lines += _objects(name, getattr(old, name), getattr(new, name))
    return lines
