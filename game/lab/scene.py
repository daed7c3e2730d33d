"""The Lab's scene framework: what every scene shares, so that a scene file only builds its
agents and calls the steering core. Pure NumPy (no arcade): scenes run and are tested without
a window; :mod:`game.lab.sketch` turns a scene into shapes and :mod:`game.views.lab` draws them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.clock import DT
from game.render.trails import Trails
from steering import AgentGroup, Debug, FlowField, Obstacles, Path, Walls, integrate

from .params import Param, Params

__all__ = ["FloatArray", "Mark", "Rgba", "Scene", "place_obstacles", "seed_force", "seed_speed"]

FloatArray = NDArray[np.float64]
Rgba = tuple[int, int, int, int]

#: Frames per second of the seeds' sketches: their px/frame become px/s times this.
SEED_FPS = 60.0


def seed_speed(px_per_frame: float) -> float:
    """A seed's speed in px/frame as px/s (the seeds run at 60 frames a second)."""
    return px_per_frame * SEED_FPS


def seed_force(px_per_frame2: float) -> float:
    """A seed's force (an acceleration in px/frame^2) as px/s^2."""
    return px_per_frame2 * SEED_FPS * SEED_FPS


@dataclass
class Mark:
    """Something a scene wants drawn that no behaviour reports: the mouse target, a hunter, a
    slowing radius.

    Attributes:
        points: (K, 2) centres.
        radius: Disc radius (px).
        color: RGBA.
        ring: An outline instead of a filled disc.
    """

    points: FloatArray
    radius: float
    color: Rgba
    ring: bool = False


def place_obstacles(
    rng: np.random.Generator,
    count: int,
    size: tuple[float, float],
    min_radius: float,
    max_radius: float,
    *,
    border: float = 10.0,
    gap: float = 20.0,
    tries: int = 2000,
    keep_clear: Sequence[tuple[float, float, float]] = (),
    status_band: float = 0.0,
) -> Obstacles:
    """Buckland's ``CreateObstacles`` (seed 002): random radii and places, none overlapping.

    Each obstacle is at least ``border`` from the edges and ``gap`` from every other one;
    after ``tries`` failed attempts for one obstacle placement stops (as in the seed).
    ``keep_clear`` holds (x, y, r) circles no obstacle may touch (where agents start);
    ``status_band`` px at the bottom stay free (the seed keeps 40 px for its status line).
    """
    centres: list[tuple[float, float]] = []
    radii: list[float] = []
    w, h = size
    for _ in range(count):
        for _attempt in range(tries):
            r = float(rng.integers(int(min_radius), int(max_radius)))
            x = float(rng.uniform(r + border, w - r - border))
            y = float(rng.uniform(r + border + status_band, h - r - border))
            others = [(cx, cy, cr + gap) for (cx, cy), cr in zip(centres, radii, strict=True)]
            if all(math.hypot(x - cx, y - cy) >= r + cr for cx, cy, cr in [*others, *keep_clear]):
                centres.append((x, y))
                radii.append(r)
                break
        else:
            break
    if not centres:
        return Obstacles.empty()
    return Obstacles.create(centres, radii)


class Scene:
    """One interactive example: agents, the shared data they steer by, and live parameters.

    A scene file subclasses this, sets the class attributes and writes :meth:`setup` (build
    the agents, paths, obstacles...) and :meth:`steer` (call the core, return the forces);
    :meth:`after_step` is optional. The framework steps it at the fixed ``dt`` (:data:`DT`),
    applies the ``max_speed`` / ``max_force`` parameters when the scene has them, keeps
    trails, and handles clicks on obstacles.

    Class attributes:
        title: Short name shown in the list, in a learner's words (no seed numbers).
        source: Where it comes from ("Seed 003 · Nature of Code, Exercise 5.6"), shown as a
            subtitle under the title; "" for the behaviour scenes.
        caption: One line: what the scene shows, in plain words. A
            parameter's value is written as a field, ``{key}``, never as a number: the
            caption shown (:meth:`caption_text`) reads the live value, with its unit.
        size: The world's width and height (px); the view fits it to the window.
        PARAMS: The live parameters (copied per scene instance; read them as ``self.p[key]``).
        obstacle_clicks: A click adds an obstacle, or removes the one under the mouse.
        click_hint: What a click on empty ground does, for the keys' help ("" when nothing;
            scenes with ``obstacle_clicks`` need not set it).
        trail: History samples kept per agent (0: no trails).
        face_velocity: Headings follow velocities after each step (False: the scene's
            orientation behaviours turn them).
        agent_noun: What one agent is called ("vehicle" where the sliders say "vehicle 1").
        agent_names: Names of the first agents, where the sliders name them ("hunter").
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    source: ClassVar[str] = ""
    caption: ClassVar[str] = ""
    size: ClassVar[tuple[float, float]] = (640.0, 360.0)
    PARAMS: ClassVar[tuple[Param, ...]] = ()
    obstacle_clicks: ClassVar[bool] = False
    click_hint: ClassVar[str] = ""
    click_radius: ClassVar[float] = 24.0
    trail: ClassVar[int] = 0
    face_velocity: ClassVar[bool] = True
    agent_noun: ClassVar[str] = "agent"
    agent_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.p = Params(self.PARAMS)
        w, h = self.size
        self.target: FloatArray = np.array([w * 0.75, h * 0.5])
        self.reset()

    @classmethod
    def default_caption(cls) -> str:
        """The caption with the parameters' default values (the list shows it)."""
        return cls.caption.format_map({p.key: p.text() for p in cls.PARAMS})

    def caption_text(self) -> str:
        """The caption with the parameters' current values (it follows the sliders)."""
        return self.caption.format_map({p.key: p.text() for p in self.p})

    def agent_label(self, k: int) -> str:
        """What agent ``k`` (an index, from 0) is called on screen: its name, else its noun
        and its number counted from 1, as a person counts and as the sliders do."""
        if 0 <= k < len(self.agent_names):
            return self.agent_names[k]
        return f"{self.agent_noun} {k + 1}"

    # -- what a scene file writes ----------------------------------------------------------------

    def setup(self) -> AgentGroup:
        """Build the agents (and paths, obstacles, walls, field) from scratch; called by reset."""
        raise NotImplementedError

    def steer(self, dt: float, debug: Debug) -> FloatArray:
        """Return the (N, 2) steering forces for this step (write the core's debug output)."""
        raise NotImplementedError

    def after_step(self, dt: float) -> None:
        """After the agents moved: wrap them round, move a target... (default: nothing)."""

    # -- the framework -------------------------------------------------------------------------

    def reset(self) -> None:
        """Start again from the same seed; parameters keep their current values."""
        self.rng = np.random.default_rng(self.seed)
        self.time = 0.0
        self.frame = 0
        self.paths: list[Path] = []
        self.obstacles: Obstacles | None = None
        self.walls: Walls | None = None
        self.field: FlowField | None = None
        self.colors: NDArray[np.uint8] | None = None
        self.marks: list[Mark] = []
        self.agents = self.setup()
        self.force: FloatArray = np.zeros((self.agents.n, 2))
        self.debug: Debug = {}
        #: Where the agents were when the behaviours wrote :attr:`debug` (annotations are
        #: drawn from there: an agent that wrapped round the edge has no line across).
        self.debug_pos: FloatArray = self.agents.pos.copy()
        self.trails = Trails(length=max(self.trail, 2), every=2)

    def step(self, dt: float = DT) -> None:
        """Advance one fixed step: steer, integrate, then :meth:`after_step`."""
        self.apply_limits()
        self.marks = []
        debug: Debug = {}
        before = self.agents.pos.copy()
        force = self.steer(dt, debug)
        integrate(self.agents, force, dt, face_velocity=self.face_velocity)
        self.after_step(dt)
        self.force, self.debug, self.debug_pos = force, debug, before
        self.time += dt
        self.frame += 1
        if self.trail:
            self.trails.update(self.agents.pos)

    def apply_limits(self) -> None:
        """Copy the ``max_speed`` and ``max_force`` parameters (if any) into every agent."""
        if "max_speed" in self.p:
            self.agents.max_speed[:] = self.p["max_speed"]
        if "max_force" in self.p:
            self.agents.max_force[:] = self.p["max_force"]

    def mark(self, points: ArrayLike, radius: float, color: Rgba, *, ring: bool = False) -> None:
        """Draw ``points`` this frame (the mouse target, a hunter, a radius)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        self.marks.append(Mark(pts, radius, color, ring))

    def wrap_edges(self) -> None:
        """Leave one side, come back on the other (the seeds' ``check_edges``)."""
        w, h = self.size
        np.mod(self.agents.pos, (w, h), out=self.agents.pos)

    def set_target(self, xy: ArrayLike) -> None:
        """The mouse moved to ``xy`` (world px): the scene's target follows it."""
        self.target = np.asarray(xy, dtype=np.float64).reshape(2).copy()

    def agent_at(self, xy: ArrayLike, slack: float = 6.0) -> int | None:
        """The agent under ``xy`` (within its radius plus ``slack``), or None."""
        if self.agents.n == 0:
            return None
        d = np.hypot(*(self.agents.pos - np.asarray(xy, dtype=np.float64)).T)
        k = int(np.argmin(d))
        return k if d[k] <= self.agents.radius[k] + slack else None

    @classmethod
    def click_help(cls) -> str:
        """What a click on empty ground does ("" when nothing)."""
        return cls.click_hint or ("add / remove a rock" if cls.obstacle_clicks else "")

    def click(self, xy: ArrayLike) -> bool:
        """A click on empty ground: add an obstacle, or remove the one under ``xy``.

        Returns:
            Whether the click did something (only scenes with ``obstacle_clicks``).
        """
        if not self.obstacle_clicks:
            return False
        p = np.asarray(xy, dtype=np.float64).reshape(2)
        obs = self.obstacles if self.obstacles is not None else Obstacles.empty()
        centres, radii = obs.centers.reshape(-1, 2), obs.radii.reshape(-1)
        inside = np.hypot(*(centres - p).T) <= radii
        if inside.any():
            keep = ~inside
            centres, radii = centres[keep], radii[keep]
        else:
            r = self.p.get("rock", self.click_radius)
            centres, radii = np.vstack((centres, p)), np.append(radii, r)
        self.obstacles = Obstacles.create(centres, radii) if radii.size else Obstacles.empty()
        return True

    def finite(self) -> bool:
        """Every position, velocity, heading and force is finite."""
        a = self.agents
        return bool(
            np.isfinite(a.pos).all()
            and np.isfinite(a.vel).all()
            and np.isfinite(a.heading).all()
            and np.isfinite(self.force).all()
        )
