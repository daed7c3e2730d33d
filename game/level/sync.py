"""Bring live steering paths in line with edited level data using the fewest node edits.

Agents keep their progress along a steering :class:`~steering.Path` across
``move_node``, ``insert_node``, ``delete_node``, ``set_closed`` and radius edits (the path
records how arc lengths map), but not across a wholesale ``set_nodes`` with a different node
count. So a mirror of the editor's level must turn "the nodes are now these" into those small
edits: a dragged node becomes one ``move_node``, an inserted node one ``insert_node``.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import replace
from difflib import SequenceMatcher

import numpy as np
from numpy.typing import ArrayLike

from game.level import Level, Point
from steering import Path, PathSet

from .changes import Change, PathChanged, PathRemoved, RockChanged, RockRemoved

__all__ = ["apply_changes", "apply_to_paths", "sync_path"]


_Op = tuple[str, int, Point]


def _plan(current: list[Point], target: list[Point]) -> list[_Op]:
    """Node edits that turn ``current`` into ``target``: moves and inserts, deletions last.

    The node lists are aligned (longest matching runs, as ``difflib`` does); unmatched runs
    become moves of the nodes they pair up, then inserts or deletes. Deleting last keeps the
    path at two nodes or more on the way.
    """
    blocks = SequenceMatcher(None, current, target, autojunk=False).get_opcodes()
    ops: list[_Op] = []
    # Right to left, so the indices of the runs still to do do not shift; each run that
    # inserts nodes shifts the deletions already noted to its right.
    deletions: list[int] = []
    for tag, i1, i2, j1, j2 in reversed(blocks):
        if tag == "equal":
            continue
        old_n, new_n = i2 - i1, j2 - j1
        for k in range(min(old_n, new_n)):
            if current[i1 + k] != target[j1 + k]:
                ops.append(("move", i1 + k, target[j1 + k]))
        for k in range(old_n, new_n):
            ops.append(("insert", i1 + k, target[j1 + k]))
        deletions = [d + max(new_n - old_n, 0) for d in deletions]
        deletions.extend(range(i1 + new_n, i2))
    ops.extend(("delete", d, (0.0, 0.0)) for d in sorted(deletions, reverse=True))
    return ops


def _passes_through_a_point(nodes: list[Point], ops: list[_Op]) -> bool:
    """Whether applying ``ops`` to ``nodes`` ever leaves every node on one spot (a path of
    length 0, across which followers' progress cannot be carried)."""
    state = list(nodes)
    for op, i, xy in ops:
        if op == "move":
            state[i] = xy
        elif op == "insert":
            state.insert(i, xy)
        else:
            del state[i]
        if len(set(state)) < 2:
            return True
    return False


def sync_path(path: Path, nodes: ArrayLike, *, closed: bool, radius: float | ArrayLike) -> int:
    """Edit ``path`` in place until it has ``nodes``, ``closed`` and ``radius``.

    The old and new node lists are aligned (longest matching runs, as ``difflib`` does);
    unmatched runs become moves of the nodes they pair up, then inserts, then deletes, so
    followers' progress is carried across every step: a dragged node is one ``move_node``,
    an inserted node one ``insert_node``. The path never has fewer than two nodes on the way,
    and never passes through a state where all its nodes coincide (then the new nodes are
    all inserted before the old ones are deleted).

    Args:
        path: The steering path to edit.
        nodes: The nodes it should have, (M, 2), M >= 2.
        closed: Whether it should loop.
        radius: Its radius (px): one for every segment, or one per segment of the result.

    Returns:
        How many edits were made (0 when it already matched).

    Raises:
        ValueError: if ``nodes`` has fewer than two points or a non-finite value, or
            ``radius`` is not positive or not one per segment (the path is left unchanged
            in that case).
    """
    try:
        array = np.asarray(nodes, dtype=np.float64).reshape(-1, 2)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"nodes: cannot read as (M, 2) points ({exc})") from exc
    target = [(float(x), float(y)) for x, y in array.tolist()]
    if len(target) < 2 or not np.isfinite(array).all():
        raise ValueError(f"nodes: need at least two finite points, got {len(target)}")
    radii = np.asarray(radius, dtype=np.float64)
    if not (np.isfinite(radii).all() and (radii > 0).all()):
        raise ValueError(f"radius: must be finite and > 0, got {radius!r}")
    segments = len(target) if closed else len(target) - 1
    if radii.ndim > 1 or (radii.ndim == 1 and radii.shape[0] != segments):
        raise ValueError(f"radius: expected one value or {segments}, got shape {radii.shape}")
    current = [(float(x), float(y)) for x, y in path.nodes]
    ops: list[_Op] = []
    if current != target:
        ops = _plan(current, target)
        if len(set(target)) >= 2 and _passes_through_a_point(current, ops):
            m = len(current)
            ops = [("insert", m + k, xy) for k, xy in enumerate(target)]
            ops += [("delete", i, (0.0, 0.0)) for i in range(m - 1, -1, -1)]
    for op, i, xy in ops:
        if op == "move":
            path.move_node(i, xy)
        elif op == "insert":
            path.insert_node(i, xy)
        else:
            path.delete_node(i)
    edits = len(ops)
    if path.closed != bool(closed):
        path.set_closed(bool(closed))
        edits += 1
    if not np.array_equal(path.radii, np.broadcast_to(radii, (segments,))):
        path.set_radius(radii)
        edits += 1
    return edits


def apply_changes(
    paths: MutableMapping[str, Path],
    changes: Sequence[Change],
    time: float = 0.0,
) -> bool:
    """Apply the path events of an edit to a name -> steering path mapping, in place.

    A changed path is synced with :func:`sync_path`; a new name gets a new path; a removed
    one is dropped from the mapping. When ``paths`` is a :class:`~steering.PathSet`
    (a world's registry), a path that drifts gets a new drift base at the edited nodes, and
    its nodes go to where that base puts them at ``time`` (the drift then moves them every
    step with the same count).

    Args:
        paths: The steering paths by name (for example a world's registry).
        changes: Events from :class:`~game.editor.EditModel` listeners.
        time: The world's time (s), for drifting paths.

    Returns:
        Whether a rock changed (rocks are for the physics, which this does not touch).
    """
    rocks = False
    drifts = paths.drifts if isinstance(paths, PathSet) else {}
    for change in changes:
        if isinstance(change, PathChanged):
            nodes: ArrayLike = change.nodes
            drift = drifts.get(change.name)
            if drift is not None and isinstance(paths, PathSet):
                drift = replace(drift, base=change.nodes)
                paths.set_drift(change.name, drift)
                nodes = drift.nodes_at(time)
            mirror = paths.get(change.name)
            if mirror is None:
                radius = change.radii or change.radius
                paths[change.name] = Path(nodes, closed=change.closed, radius=radius)
            else:
                sync_path(mirror, nodes, closed=change.closed, radius=change.radii or change.radius)
        elif isinstance(change, PathRemoved):
            paths.pop(change.name, None)
        elif isinstance(change, RockChanged | RockRemoved):
            rocks = True
    return rocks


def apply_to_paths(paths: MutableMapping[str, Path], level: Level) -> int:
    """Make a name -> steering path mapping match every path of ``level``, in place.

    Existing paths are edited with :func:`sync_path` (never replaced, so agents keep their
    progress); paths new to the mapping are created; names the level no longer has are
    dropped.

    Args:
        paths: The steering paths by name.
        level: The level they should match.

    Returns:
        How many edits and additions were made.
    """
    count = 0
    names = set()
    for data in level.paths:
        names.add(data.name)
        mirror = paths.get(data.name)
        if mirror is None:
            paths[data.name] = Path(data.points, closed=data.closed, radius=data.segment_radii)
            count += 1
        else:
            count += sync_path(mirror, data.points, closed=data.closed, radius=data.segment_radii)
    for name in [n for n in paths if n not in names]:
        del paths[name]
        count += 1
    return count
