"""Containment in a rectangle (:class:`Contain`): its record, its per-agent function and its
place in composites."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from . import _kern as kern
from ._checks import finite, non_negative
from .agents import AgentGroup
from .base import DEFAULT_GAIN
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .vec import FloatArray

__all__ = ["Contain", "ContainRecord", "contain_agent", "contain_row"]


class ContainRecord(NamedTuple):
    """:class:`Contain`'s parameters for one call."""

    left: float
    """The rectangle's edges, px."""
    bottom: float
    right: float
    top: float
    margin: float
    """px kept inside the edges beyond the agent's radius."""
    lookahead: float
    """s of velocity added to the position before the test."""
    gain: float
    """1/s."""


@row_function
def contain_agent(i: int, a: AgentCols, p: ContainRecord) -> tuple[float, float]:
    """Agent ``i``'s containment force (see :class:`Contain`): zero while its predicted
    position is inside, else back in at max speed, keeping the velocity along the wall."""
    vx, vy = a.vel[i, 0], a.vel[i, 1]
    x = a.pos[i, 0] + vx * p.lookahead
    y = a.pos[i, 1] + vy * p.lookahead
    pad = a.radius[i] + p.margin
    # +1 below the low wall, -1 above the high one, per coordinate.
    push_x = (1.0 if x < p.left + pad else 0.0) - (1.0 if x > p.right - pad else 0.0)
    push_y = (1.0 if y < p.bottom + pad else 0.0) - (1.0 if y > p.top - pad else 0.0)
    if push_x == 0.0 and push_y == 0.0:
        return 0.0, 0.0
    # Keep the tangential part of the velocity: turn along the wall, not stop at it.
    vmax = a.max_speed[i]
    wx = push_x * vmax if push_x != 0.0 else vx
    wy = push_y * vmax if push_y != 0.0 else vy
    dx, dy = kern.set_length(wx, wy, vmax)
    return kern.steer(dx, dy, vx, vy, p.gain, a.max_force[i])


@row_function
def contain_row(i: int, a: AgentCols, p: ContainRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s containment force in a composite."""
    return contain_agent(i, a, p)


@dataclass
class Contain(RowPart):
    """Stay inside an axis-aligned rectangle: steer back before the predicted position leaves.

    The prediction looks ``lookahead`` seconds ahead, plus the agent's radius and ``margin``;
    past an edge the desired velocity points straight back in at max speed. Zero force well
    inside, so it combines with anything.

    Raises:
        TypeError, ValueError: for an edge that is not a finite number, edges that make no
            rectangle (left >= right or bottom >= top), or a negative lookahead.
    """

    ROW = contain_row
    ROW_RECORD = ContainRecord

    left: float
    bottom: float
    right: float
    top: float
    margin: float = 16.0
    lookahead: float = 0.5
    gain: float = DEFAULT_GAIN

    CHECKS = checks(
        "Contain",
        left=finite,
        bottom=finite,
        right=finite,
        top=finite,
        margin=finite,
        lookahead=non_negative,
        gain=finite,
    )

    def check_together(self, name: str, value: Any) -> None:
        """The box must have left < right and bottom < top (checked once all four are set)."""
        box = {k: self.__dict__.get(k) for k in ("left", "bottom", "right", "top")}
        if name not in box:
            return
        box[name] = value
        left, bottom, right, top = box.values()
        if left is None or bottom is None or right is None or top is None:
            return  # being made: the last of the four checks
        if not (left < right and bottom < top):
            raise ValueError(
                f"Contain: expected left < right and bottom < top, got left={left}, "
                f"bottom={bottom}, right={right}, top={top}"
            )

    def kept(self, agents: AgentGroup, record: ContainRecord) -> bool:
        """The record holds until a setting is assigned."""
        return record is self.__dict__.get("_record")

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> ContainRecord:
        """This call's record: the fields as they are (checked when the behaviour is made),
        kept until one is assigned."""
        record: ContainRecord | None = self.__dict__.get("_record")
        if record is None:
            record = ContainRecord(
                self.left, self.bottom, self.right, self.top, self.margin, self.lookahead, self.gain
            )
            self.__dict__["_record"] = record
        return record
