"""Blind strategies: ways to play a level that look at nothing but the map, to check a level
needs thought.

Issue 15's curve: from level 3 on, no level is won by holding one direction toward the exit,
nor by running along the map's edges to the exit. Each strategy here is a player input like
the keyboard's: a thrust of length 1 in one of the eight key directions (or zero).

* :class:`HoldToward`: one key direction held for the whole run; :func:`strategies` tries all
  eight, named by how far each turns from the key direction nearest the way to the exit.
* :class:`FollowEdges`: run to the nearest map edge, then along the edges (clockwise or
  counter-clockwise) to the point of the edge nearest the exit, then straight into the exit.
* :class:`ZigZag`: toward the exit in a zig-zag, the two key directions either side of the
  way to it in turn (switching every second, or every three).
* :class:`~game.world.dash.Dash` (its own module, as it plans with the autopilot): the
  straight dash of issue 44, the shortest way round rocks and walls; :func:`every_strategy`
  lists it with these.

:func:`play` runs one strategy on a fresh world and returns how it ended.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from game.clock import DT
from steering.vec import FloatArray

if TYPE_CHECKING:
    from game.level import Level

    from .world import World

__all__ = [
    "KEY_DIRECTIONS",
    "FollowEdges",
    "HoldToward",
    "Run",
    "ZigZag",
    "key_direction",
    "nearest_exit_centre",
    "play",
    "strategies",
]

_DIAG = math.sqrt(0.5)
#: The eight key directions (unit vectors, y up), counter-clockwise from east.
KEY_DIRECTIONS: FloatArray = np.array(
    [
        [1, 0],
        [_DIAG, _DIAG],
        [0, 1],
        [-_DIAG, _DIAG],
        [-1, 0],
        [-_DIAG, -_DIAG],
        [0, -1],
        [_DIAG, -_DIAG],
    ]
)

Strategy = Callable[["World"], FloatArray]


def key_direction(v: FloatArray) -> int:
    """The index in :data:`KEY_DIRECTIONS` of the key direction nearest ``v`` (0 for zero)."""
    if not np.any(v):
        return 0
    return round(math.atan2(float(v[1]), float(v[0])) / (math.pi / 4)) % 8


def nearest_exit_centre(world: World) -> FloatArray:
    """The centre of the exit nearest the player (by straight-line distance to its rect)."""
    p = world.player_pos
    best, best_d = np.zeros(2), math.inf
    for e in world.level.exits:
        r = e.rect
        cx = min(max(float(p[0]), r.left), r.right)
        cy = min(max(float(p[1]), r.bottom), r.top)
        d = math.hypot(cx - float(p[0]), cy - float(p[1]))
        if d < best_d:
            best_d = d
            best = np.array([(r.left + r.right) / 2, (r.bottom + r.top) / 2])
    return best


@dataclass(eq=False)
class HoldToward:
    """Hold one key direction for the whole run: ``turn`` eighths of a turn from the key
    direction nearest the way to the exit (as seen from the start)."""

    turn: int = 0
    _key: int | None = field(default=None, init=False)

    def __call__(self, world: World) -> FloatArray:
        """The thrust for this step."""
        if self._key is None:
            to_exit = nearest_exit_centre(world) - world.player_pos
            self._key = (key_direction(to_exit) + self.turn) % 8
        return KEY_DIRECTIONS[self._key].copy()


@dataclass(eq=False)
class FollowEdges:
    """Run to the nearest map edge, then along the edges to the exit.

    The ring is the map's rectangle inset by ``margin`` plus the player's radius. The player
    heads for a point ``lookahead`` px ahead of its own position along the ring (in the
    ``clockwise`` sense or the other), with the key direction nearest that point, until it is
    within ``lookahead`` of the ring point nearest the exit; then it heads for the exit.
    """

    clockwise: bool
    margin: float = 6.0
    lookahead: float = 48.0

    def __call__(self, world: World) -> FloatArray:
        """The thrust for this step."""
        w, h = world.level.width_px, world.level.height_px
        inset = self.margin + float(world.agents.radius[0])
        ring = _Ring(inset, inset, w - inset, h - inset)
        p = world.player_pos
        goal = nearest_exit_centre(world)
        s_goal = ring.param(goal)
        s = ring.param(p)
        off_ring = math.hypot(*(ring.point(s) - p))
        along = ring.gap(s, s_goal, self.clockwise)
        if along <= self.lookahead and off_ring <= self.lookahead:
            aim = goal
        else:
            step = -self.lookahead if self.clockwise else self.lookahead
            aim = ring.point(s + step)
        return KEY_DIRECTIONS[key_direction(aim - p)].copy()


@dataclass(eq=False)
class ZigZag:
    """Toward the nearest exit in a zig-zag: the key directions one eighth of a turn either
    side of the way to it, in turn, each held ``period`` seconds; within ``near`` px of the
    exit, straight in."""

    period: float = 1.0
    near: float = 120.0

    def __call__(self, world: World) -> FloatArray:
        """The thrust for this step."""
        to_exit = nearest_exit_centre(world) - world.player_pos
        if math.hypot(*to_exit) <= self.near:
            return KEY_DIRECTIONS[key_direction(to_exit)].copy()
        angle = math.atan2(float(to_exit[1]), float(to_exit[0]))
        side = 1.0 if int(world.time / self.period) % 2 == 0 else -1.0
        return KEY_DIRECTIONS[round((angle + side * math.pi / 4) / (math.pi / 4)) % 8].copy()


class _Ring(NamedTuple):
    """A rectangle's outline parametrised by arc length, counter-clockwise from its
    bottom-left corner."""

    left: float
    bottom: float
    right: float
    top: float

    @property
    def perimeter(self) -> float:
        return 2.0 * ((self.right - self.left) + (self.top - self.bottom))

    def param(self, p: FloatArray) -> float:
        """Arc length of the ring's point nearest ``p``."""
        x = min(max(float(p[0]), self.left), self.right)
        y = min(max(float(p[1]), self.bottom), self.top)
        w, h = self.right - self.left, self.top - self.bottom
        d = {
            "bottom": y - self.bottom,
            "right": self.right - x,
            "top": self.top - y,
            "left": x - self.left,
        }
        side = min(d, key=lambda k: d[k])
        if side == "bottom":
            return x - self.left
        if side == "right":
            return w + (y - self.bottom)
        if side == "top":
            return w + h + (self.right - x)
        return 2 * w + h + (self.top - y)

    def point(self, s: float) -> FloatArray:
        """The ring's point at arc length ``s`` (taken modulo the perimeter)."""
        w, h = self.right - self.left, self.top - self.bottom
        s %= self.perimeter
        if s < w:
            return np.array([self.left + s, self.bottom])
        s -= w
        if s < h:
            return np.array([self.right, self.bottom + s])
        s -= h
        if s < w:
            return np.array([self.right - s, self.top])
        s -= w
        return np.array([self.left, self.top - s])

    def gap(self, s: float, goal: float, clockwise: bool) -> float:
        """Arc length from ``s`` to ``goal`` going the given way round."""
        d = (s - goal) if clockwise else (goal - s)
        return d % self.perimeter


class Run(NamedTuple):
    """How one strategy's run ended."""

    name: str
    """The strategy's name."""
    outcome: str
    """``won``, ``caught`` or ``running`` (time ran out)."""
    seconds: float
    """Simulated seconds until the outcome (or the limit)."""


def strategies() -> dict[str, Callable[[], Strategy]]:
    """Every blind strategy by name, each a factory of a fresh policy."""
    out: dict[str, Callable[[], Strategy]] = {
        "hold toward exit": lambda: HoldToward(0),
        "hold toward exit, one key left": lambda: HoldToward(1),
        "hold toward exit, one key right": lambda: HoldToward(-1),
    }
    for turn in (2, -2, 3, -3, 4):  # the other five key directions
        side = "left" if turn > 0 else "right"
        name = "hold away from exit" if turn == 4 else f"hold {abs(turn)} keys {side} of exit"
        out[name] = functools.partial(HoldToward, turn)
    out["edges clockwise"] = lambda: FollowEdges(clockwise=True)
    out["edges counter-clockwise"] = lambda: FollowEdges(clockwise=False)
    out["zig-zag 1 s"] = lambda: ZigZag(1.0)
    out["zig-zag 3 s"] = lambda: ZigZag(3.0)
    return out


def play(level: Level, policy: Strategy, seconds: float = 120.0, seed: int | None = None) -> Run:
    """Run ``policy`` on a fresh world of ``level`` for at most ``seconds``."""
    from .world import World

    world = World(level, level.seed if seed is None else seed)
    for _ in range(max(1, round(seconds / DT))):
        world.step(policy(world))
        if world.outcome != "running":
            break
    return Run(type(policy).__name__, world.outcome, world.time)
