"""The level editor's model: hit testing, edits, undo/redo, saving and autosave, no arcade.

:class:`EditModel` holds the level being edited; the editor view (``game/views/editor.py``)
turns mouse and keys into its commands and draws its level. A live world follows the edits
through :meth:`EditModel.subscribe` and :func:`apply_changes` (or :func:`apply_to_paths`),
which edit steering paths node by node so that agents keep their progress along them.
"""

from __future__ import annotations

from game.editor.files import (
    AUTOSAVE_SUFFIX,
    autosave_path_for,
    is_autosave,
    newer_autosave,
    used_ids,
)
from game.editor.geometry import (
    ROCK_GAP,
    SegmentPoint,
    clamp_point,
    max_free_radius,
    nearest_on_polyline,
    overlapping_rocks,
    place_rock,
    snap_point,
)
from game.editor.hits import OBJECT_KINDS, PATH_KINDS, ROCK_KINDS, Hit, HitKind, hit_test
from game.editor.model import (
    CREATABLE,
    HISTORY_LIMIT,
    MAX_PATH_RADIUS,
    MIN_PATH_RADIUS,
    MIN_ROCK_RADIUS,
    NEW_PATH_LENGTH,
    WHEEL_FACTOR,
    EditModel,
    Step,
)
from game.level.changes import (
    Change,
    Listener,
    ObjectsChanged,
    PathChanged,
    PathRemoved,
    RockChanged,
    RockRemoved,
    diff_levels,
)
from game.level.sync import apply_changes, apply_to_paths, sync_path

__all__ = [
    "AUTOSAVE_SUFFIX",
    "CREATABLE",
    "HISTORY_LIMIT",
    "MAX_PATH_RADIUS",
    "MIN_PATH_RADIUS",
    "MIN_ROCK_RADIUS",
    "NEW_PATH_LENGTH",
    "OBJECT_KINDS",
    "PATH_KINDS",
    "ROCK_GAP",
    "ROCK_KINDS",
    "WHEEL_FACTOR",
    "Change",
    "EditModel",
    "Hit",
    "HitKind",
    "Listener",
    "ObjectsChanged",
    "PathChanged",
    "PathRemoved",
    "RockChanged",
    "RockRemoved",
    "SegmentPoint",
    "Step",
    "apply_changes",
    "apply_to_paths",
    "autosave_path_for",
    "clamp_point",
    "diff_levels",
    "hit_test",
    "is_autosave",
    "max_free_radius",
    "nearest_on_polyline",
    "newer_autosave",
    "overlapping_rocks",
    "place_rock",
    "snap_point",
    "sync_path",
    "used_ids",
]
