"""The property panel's model: one row per property of the selected object (or of the map),
read from ``game.level.schema``, and the typing and dragging that edit a row. No arcade.

Rows come from the schema's ``CLASSES`` table (``MAP_PROPERTIES`` and the map size when
nothing is selected), so a property added to the schema shows here with no change. Every
change goes through :meth:`EditModel.set_property`, which the loader's checks guard.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from game.level import MAP_PROPERTIES, Level, PropSpec
from game.level.text import plain_number

from .model import EditModel
from .objects import class_of, spec_of

__all__ = ["DRAG_STEP", "FLOW_KIND_PROPS", "Panel", "Row", "format_value", "nudged", "used_props"]

#: Dragging a number by one screen px changes it by this fraction of its size (at least
#: 0.1 for floats and 1 per 4 px for integers).
DRAG_STEP = 0.005
_SIZE_ROWS = ("width", "height")
#: The flow properties each kind of flow uses (docs/levels.md, "Flow regions"); the panel
#: hides the rest (they stay in the file). A property not named for any kind always shows.
FLOW_KIND_PROPS: dict[str, frozenset[str]] = {
    "uniform": frozenset({"kind", "angle", "strength"}),
    "noise": frozenset({"kind", "strength", "cell", "scale", "speed", "seed"}),
    "vortex": frozenset({"kind", "strength", "cell", "clockwise"}),
    "image": frozenset({"kind", "angle", "strength", "cell", "image"}),
}
_FLOW_NAMED = frozenset().union(*FLOW_KIND_PROPS.values())


def used_props(cls: str, item: object, specs: tuple[PropSpec, ...]) -> tuple[PropSpec, ...]:
    """The properties of ``item`` (of schema class ``cls``) that it uses: a flow region only
    those of its kind (:data:`FLOW_KIND_PROPS`); every property for other classes."""
    if cls != "flow":
        return specs
    used = FLOW_KIND_PROPS.get(str(getattr(item, "kind", "")), _FLOW_NAMED)
    return tuple(s for s in specs if s.name in used or s.name not in _FLOW_NAMED)


@dataclass(frozen=True)
class Row:
    """One line of the panel.

    Attributes:
        name: The property's name (``width``/``height`` for the map size in tiles).
        value: The value as shown.
        unit: Its unit, or "".
        range: Its allowed range or choices, as shown ("> 0 .. 10000", "uniform|noise").
        spec: The property, or None for the map size.
        choices: The values a click steps through (enums, booleans, a spawn's path), or ().
    """

    name: str
    value: str
    unit: str
    range: str
    spec: PropSpec | None
    choices: tuple[str, ...] = ()


def format_value(value: object) -> str:
    """A property value as the panel shows and a designer types it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e15 else repr(value)
    if isinstance(value, tuple):
        return ",".join(format_value(v) for v in value)
    if isinstance(value, Path):
        return value.name
    return "" if value is None else str(value)


def _range(spec: PropSpec) -> str:
    if spec.choices:
        return "|".join(spec.choices)
    if spec.kind not in ("float", "int", "floats"):
        return "" if spec.kind == "string" else spec.kind
    sign = ">" if spec.exclusive else ">="
    low = "" if spec.minimum is None else f"{sign} {plain_number(spec.minimum)}"
    high = "" if spec.maximum is None else f"<= {plain_number(spec.maximum)}"
    return " ".join(s for s in (low, high) if s)


def _choices(spec: PropSpec, level: Level) -> tuple[str, ...]:
    if spec.kind == "enum":
        return spec.choices
    if spec.kind == "bool":
        return ("false", "true")
    if spec.kind == "string" and spec.name == "path":
        return ("", *(p.name for p in level.paths))
    return ()


def nudged(spec: PropSpec, value: float, dx: float) -> float | int:
    """A number after a drag of ``dx`` screen px on it, within the property's range.

    Args:
        spec: A ``float`` or ``int`` property.
        value: The value when the drag began.
        dx: How far the cursor moved right (px; left is negative).

    Returns:
        The new value (an exclusive minimum is kept just above).
    """
    if spec.kind == "int":
        new: float = round(value + dx / 4.0)
    else:
        step = max(abs(value) * DRAG_STEP, 0.1)
        new = round(value + dx * step, 1)
    if spec.maximum is not None:
        new = min(new, spec.maximum)
    if spec.minimum is not None:
        low = spec.minimum + (0.1 if spec.exclusive and spec.kind == "float" else 0)
        low += 1 if spec.exclusive and spec.kind == "int" else 0
        new = max(new, low)
    return int(new) if spec.kind == "int" else float(new)


class Panel:
    """The panel's rows for the model's selection, and an edit in progress on one of them.

    Attributes:
        editing: The row being typed into, or None.
        text: What has been typed so far.
        fresh: Whether ``text`` is still the old value, which the first typed character
            replaces (Backspace edits it instead).
    """

    def __init__(self) -> None:
        self.editing: str | None = None
        self.text = ""
        self.fresh = False
        self._drag: tuple[Row, float, float] | None = None

    @staticmethod
    def title(model: EditModel) -> str:
        """The panel's heading: the selected object's class, id and name, or the map."""
        ref = model.selection
        item = model.selected_object
        if ref is None or item is None:
            return "map"
        label = f"{class_of(ref)} {item.id}" if item.id else f"{class_of(ref)} (new)"
        return f"{label} {item.name}".strip()

    @staticmethod
    def rows(model: EditModel) -> list[Row]:
        """Every property of the selected object (or of the map), in the schema's order."""
        level = model.level
        ref, item = model.selection, model.selected_object
        if ref is None or item is None:
            rows = [_row(spec, getattr(level, spec.name), level) for spec in MAP_PROPERTIES]
            tiles = (level.width_px / level.tile_width, level.height_px / level.tile_height)
            rows += [
                Row(name, f"{n:g}", "tiles", ">= 1", None)
                for name, n in zip(_SIZE_ROWS, tiles, strict=True)
            ]
            return rows
        specs = used_props(class_of(ref), item, spec_of(ref))
        return [_row(spec, getattr(item, spec.name, spec.default), level) for spec in specs]

    def row(self, model: EditModel, name: str) -> Row | None:
        """The row called ``name`` for the current selection, or None."""
        return next((r for r in self.rows(model) if r.name == name), None)

    # -- typing ----------------------------------------------------------------------------

    def begin_typing(self, model: EditModel, name: str) -> bool:
        """Start typing a new value for row ``name``: the old value is the starting text,
        and the first typed character replaces it (typing 20 over 1 gives 20, not 120)."""
        row = self.row(model, name)
        if row is None:
            return False
        self.editing, self.text, self.fresh = name, row.value, True
        return True

    def type(self, text: str) -> None:
        """Add typed characters (control characters are ignored)."""
        typed = "".join(c for c in text if c.isprintable())
        if self.editing is not None and typed:
            self.text = typed if self.fresh else self.text + typed
            self.fresh = False

    def backspace(self) -> None:
        """Remove the last character (of the old value too: it can be edited)."""
        self.text, self.fresh = self.text[:-1], False

    def cancel(self) -> bool:
        """Stop typing without a change; True when typing was in progress."""
        was = self.editing is not None
        self.editing, self.text, self.fresh = None, "", False
        return was

    def commit(self, model: EditModel) -> bool:
        """Set the typed value (Enter): one undo step, or refused with the loader's message
        (typing then goes on, so the value can be corrected).

        Returns:
            True when the level changed.
        """
        name = self.editing
        if name is None:
            return False
        row = self.row(model, name)
        if row is None:
            self.cancel()
            return False
        model.notice = ""
        changed = self._set(model, row, self.text)
        if changed or not model.notice:
            self.cancel()
        return changed

    # -- mouse -----------------------------------------------------------------------------

    def click(self, model: EditModel, name: str) -> bool:
        """A click on a row's value: step to the next choice, or start typing.

        Returns:
            True when the level changed.
        """
        row = self.row(model, name)
        if row is None:
            return False
        if row.choices:
            k = row.choices.index(row.value) if row.value in row.choices else -1
            return self._set(model, row, row.choices[(k + 1) % len(row.choices)])
        self.begin_typing(model, name)
        return False

    def begin_drag(self, model: EditModel, name: str, x: float) -> bool:
        """Start dragging on a number's value from screen x; False for other rows."""
        row = self.row(model, name)
        if row is None or not _is_number(row):
            return False
        self.cancel()
        self._drag = (row, float(row.value), x)
        return True

    def drag(self, model: EditModel, x: float) -> bool:
        """Move the value drag to screen x (one undo step for the whole drag).

        Returns:
            True when the level changed.
        """
        if self._drag is None:
            return False
        row, start, x0 = self._drag
        if row.spec is None:
            value = max(1, round(start + (x - x0) / 8.0))
            return self._set(model, row, str(value), merge=True)
        return self._set(model, row, nudged(row.spec, start, x - x0), merge=True)

    def end_drag(self) -> bool:
        """Finish the value drag; True when one was in progress."""
        was = self._drag is not None
        self._drag = None
        return was

    @property
    def dragging(self) -> bool:
        """Whether a value drag is in progress."""
        return self._drag is not None

    # -- setting ---------------------------------------------------------------------------

    @staticmethod
    def _set(model: EditModel, row: Row, value: object, merge: bool = False) -> bool:
        if row.spec is not None:
            return model.set_property(model.selection, row.spec, value, merge=merge)
        level = model.level
        tiles = [level.width_px / level.tile_width, level.height_px / level.tile_height]
        try:
            number = float(str(value))
        except ValueError:
            model.notice = f"map {row.name}: expected a whole number of tiles, got {value!r}"
            return False
        if not (math.isfinite(number) and number.is_integer()):
            model.notice = f"map {row.name}: expected a whole number of tiles, got {value!r}"
            return False
        tiles[_SIZE_ROWS.index(row.name)] = number
        return model.set_map_size(int(tiles[0]), int(tiles[1]))


def _row(spec: PropSpec, value: object, level: Level) -> Row:
    return Row(spec.name, format_value(value), spec.unit, _range(spec), spec, _choices(spec, level))


def _is_number(row: Row) -> bool:
    return row.spec is None or row.spec.kind in ("float", "int")
