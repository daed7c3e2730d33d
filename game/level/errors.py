"""The one exception a level file can raise: it names the file, the object and the field."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from game.level.text import shown
from game.safe_io import one_line

__all__ = ["NO_ID", "LevelError", "Where", "describe"]

logger = logging.getLogger("game.level")

#: Object names (and classes and fields) longer than this are shortened in messages, so a
#: message stays one short line.
_NAME_LIMIT = 60


def describe(
    file: str | os.PathLike[str] | None = None,
    object_id: int | None = None,
    object_name: str | None = None,
    object_class: str | None = None,
    field: str | None = None,
) -> str:
    """Return the "where" part of a message: ``FILE: object 3 "guard" (enemy), field "sight"``.

    Args:
        file: The level file.
        object_id: The Tiled object id, when the problem is inside an object.
        object_name: The object's name (may be empty).
        object_class: The object's class, when known.
        field: The key or property at fault.

    Returns:
        The location, without a trailing colon; "" when nothing is known.
    """
    parts: list[str] = []
    if file is not None:
        parts.append(shown(file))
    where: list[str] = []
    if object_id is not None:
        name = object_name if object_name is not None else ""
        if len(name) > _NAME_LIMIT:
            name = name[:_NAME_LIMIT] + "..."
        label = "object without an id" if object_id == NO_ID else f"object {object_id}"
        text = f"{label} {json.dumps(name, ensure_ascii=False)}"
        if object_class:
            cut = object_class[:_NAME_LIMIT] + "..." if len(object_class) > _NAME_LIMIT else ""
            text += f" ({cut or object_class})"
        where.append(text)
    elif field is not None:
        where.append("map")
    if field is not None:
        cut = field[:_NAME_LIMIT] + "..." if len(field) > _NAME_LIMIT else field
        where.append(f"field {json.dumps(cut, ensure_ascii=False)}")
    if where:
        parts.append(", ".join(where))
    return ": ".join(parts)


#: ``object_id`` of an object whose id is missing or not a number.
NO_ID = -(2**63)


class LevelError(ValueError):
    """A level file cannot be read, is invalid, or cannot be saved.

    The message is one line: ``FILE: object ID "NAME" (CLASS), field "FIELD": what is wrong``.
    The parts are also available as attributes for tools that want them.

    Attributes:
        reason: What is wrong, without the location.
        file: The level file, or None.
        object_id: The Tiled object id, or None when the problem is not inside an object.
        object_name: The object's name, or None.
        object_class: The object's class, or None.
        field: The JSON key or Tiled property at fault, or None.
    """

    def __init__(
        self,
        reason: str,
        *,
        file: str | os.PathLike[str] | None = None,
        object_id: int | None = None,
        object_name: str | None = None,
        object_class: str | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = reason
        self.file = os.fspath(file) if file is not None else None
        self.object_id = object_id
        self.object_name = object_name
        self.object_class = object_class
        self.field = field
        where = describe(file, object_id, object_name, object_class, field)
        message = f"{where}: {reason}" if where else reason
        # One line, always: command line tools print exactly this.
        super().__init__(one_line(message))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle support (keyword-only arguments are not replayed by default)."""
        return (
            _rebuild,
            (
                self.reason,
                self.file,
                self.object_id,
                self.object_name,
                self.object_class,
                self.field,
            ),
        )


def _rebuild(
    reason: str,
    file: str | None,
    object_id: int | None,
    object_name: str | None,
    object_class: str | None,
    field: str | None,
) -> LevelError:
    """Recreate a pickled LevelError."""
    return LevelError(
        reason,
        file=file,
        object_id=object_id,
        object_name=object_name,
        object_class=object_class,
        field=field,
    )


@dataclass(frozen=True)
class Where:
    """Where in a level file a problem is: the file, and the object when the problem is in one.

    Raised errors and logged warnings name it in one line (:func:`describe`).
    """

    file: Path | None
    object_id: int | None = None
    object_name: str | None = None
    object_class: str | None = None

    def error(self, reason: str, field: str | None = None) -> LevelError:
        """Build the error for a problem at this place."""
        return LevelError(
            reason,
            file=self.file,
            object_id=self.object_id,
            object_name=self.object_name,
            object_class=self.object_class,
            field=field,
        )

    def warn(self, reason: str, field: str | None = None) -> None:
        """Log a warning at this place."""
        where = describe(self.file, self.object_id, self.object_name, self.object_class, field)
        logger.warning("%s: %s", where, reason)
