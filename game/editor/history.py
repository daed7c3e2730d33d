"""Undo history of the edit model: steps of whole levels, with wheel notches merged."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from game.level import Level

__all__ = ["HISTORY_LIMIT", "History", "Step"]

#: How many undo steps are kept.
HISTORY_LIMIT = 500


@dataclass(frozen=True)
class Step:
    """One undoable step: the whole level before and after it.

    Levels are frozen and share every object an edit did not touch, so a step costs little
    more than the objects it changed; undo and redo restore exactly the level they saved.

    Attributes:
        label: What the step did, for the HUD ("move node", ...).
        before: The level before the step.
        after: The level after it.
        merge_key: Consecutive steps with the same key (wheel notches on one path) merge.
    """

    label: str
    before: Level
    after: Level
    merge_key: Hashable | None = None


class History:
    """The undo and redo stacks.

    Args:
        limit: How many undo steps to keep (at least one).
    """

    def __init__(self, limit: int = HISTORY_LIMIT) -> None:
        self.undo_steps: list[Step] = []
        self.redo_steps: list[Step] = []
        #: Whether the next step with the last step's merge key merges into it.
        self.merge_open = False
        self.limit = max(int(limit), 1)

    @property
    def undo_labels(self) -> tuple[str, ...]:
        """Labels of the undo steps, oldest first."""
        return tuple(step.label for step in self.undo_steps)

    @property
    def redo_labels(self) -> tuple[str, ...]:
        """Labels of the redo steps, next first."""
        return tuple(step.label for step in reversed(self.redo_steps))

    def commit(
        self, label: str, before: Level, after: Level, merge_key: Hashable | None = None
    ) -> bool:
        """Record a step from ``before`` to ``after``; a step with the same merge key as the
        last one, with nothing in between, merges into it (and a merged step that comes back
        to where it began disappears).

        Returns:
            True when a step was recorded.
        """
        if (
            merge_key is not None
            and self.merge_open
            and self.undo_steps
            and self.undo_steps[-1].merge_key == merge_key
        ):
            before = self.undo_steps.pop().before
        self.merge_open = merge_key is not None
        if after == before:
            # Nothing to record; a merge that came back to its start closes the merging, so
            # the next notch cannot merge into an older, unrelated step.
            self.merge_open = False
            return False
        self.undo_steps.append(Step(label, before, after, merge_key))
        del self.undo_steps[: max(len(self.undo_steps) - self.limit, 0)]
        self.redo_steps.clear()
        return True

    def undo(self) -> Step | None:
        """Move the last step to the redo stack and return it (None when there is none)."""
        return _move_last(self.undo_steps, self.redo_steps)

    def redo(self) -> Step | None:
        """Move the last undone step back to the undo stack and return it (None when none)."""
        return _move_last(self.redo_steps, self.undo_steps)


def _move_last(source: list[Step], target: list[Step]) -> Step | None:
    """Pop the last step of ``source`` onto ``target`` and return it (None when empty)."""
    if not source:
        return None
    step = source.pop()
    target.append(step)
    return step
