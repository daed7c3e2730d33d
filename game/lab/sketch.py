"""A scene as shapes to draw (pure NumPy): the world's paths, rocks, walls and field, the
agents as triangles, trails, the scene's marks and, with annotations on, what each behaviour
reported in its ``debug`` dict (:mod:`game.lab.annotate`). :mod:`game.lab.draw` uploads a
:class:`Sketch` to the GPU in a few batches."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from game.render.geometry import arrow_segments, polyline_segments, rect_outline

from .scene import Rgba, Scene

__all__ = ["COLORS", "Sketch", "circle_segments", "sketch_scene"]

FloatArray = NDArray[np.float64]
Color = Rgba | NDArray[np.uint8]

#: The Lab's colours (RGBA); annotation colours follow the seeds (red while steering).
COLORS: dict[str, Rgba] = {
    "border": (70, 130, 160, 255),
    "path_band": (28, 66, 88, 255),
    "path_line": (120, 190, 210, 200),
    "rock": (96, 80, 66, 255),
    "rock_edge": (150, 125, 100, 255),
    "wall": (170, 200, 220, 255),
    "field": (120, 170, 210, 110),
    "agent": (120, 230, 210, 255),
    "agent_alt": (255, 120, 90, 255),
    "selected": (255, 230, 120, 255),
    "trail": (220, 235, 255, 90),
    "target": (255, 220, 90, 230),
    "future": (255, 255, 255, 210),
    "normal": (120, 200, 255, 230),
    "idle": (120, 255, 140, 230),
    "steer": (255, 60, 60, 255),
    "box": (255, 230, 120, 120),
    "box_hit": (255, 130, 60, 235),
    "link": (220, 140, 255, 170),
    "ring": (200, 160, 255, 90),
    "velocity": (255, 255, 255, 120),
    "force": (255, 120, 200, 200),
    "spot": (120, 255, 140, 200),
}


def circle_segments(centres: ArrayLike, radius: ArrayLike, sides: int = 24) -> FloatArray:
    """Outlines of circles as (K * sides, 4) segments."""
    c = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (c.shape[0],))
    t = np.linspace(0.0, 2.0 * math.pi, sides + 1)
    ring = np.stack((np.cos(t), np.sin(t)), axis=1)
    pts = c[:, None, :] + ring[None] * r[:, None, None]
    return np.concatenate((pts[:, :-1], pts[:, 1:]), axis=2).reshape(-1, 4)


def _rows(a: ArrayLike, width: int) -> FloatArray:
    return np.asarray(a, dtype=np.float64).reshape(-1, width)


@dataclass
class Sketch:
    """Shapes in world px, in drawing order: bands and rocks under the agents; hairlines,
    strokes and dots over them.

    Attributes:
        bands: (segments (K, 4), colour, width): wide lines (path corridors, walls).
        rocks: (centres (K, 2), radii, colour): filled discs under the agents.
        lines: (segments (K, 4), colour): one-pixel lines (field, trails, annotations).
        strokes: (segments (K, 4), colour, width): thick lines over the agents.
        dots: (centres (K, 2), radii, colour, ring thickness (0: filled)).
        triangles: (3N, 2) agent triangle vertices; ``triangle_colors`` (3N, 4).
    """

    bands: list[tuple[FloatArray, Color, float]] = field(default_factory=list)
    rocks: list[tuple[FloatArray, FloatArray, Color]] = field(default_factory=list)
    lines: list[tuple[FloatArray, Color]] = field(default_factory=list)
    strokes: list[tuple[FloatArray, Color, float]] = field(default_factory=list)
    dots: list[tuple[FloatArray, FloatArray, Color, float]] = field(default_factory=list)
    triangles: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))
    triangle_colors: NDArray[np.uint8] = field(default_factory=lambda: np.zeros((0, 4), np.uint8))

    def line(self, segments: ArrayLike, color: Color) -> None:
        """One-pixel segments; rows with a non-finite coordinate are left out."""
        s = _rows(segments, 4)
        ok = np.isfinite(s).all(axis=1)
        if ok.any():
            c = color if isinstance(color, tuple) else np.asarray(color)[ok]
            self.lines.append((s[ok], c))

    def link(self, a: ArrayLike, b: ArrayLike, color: Color) -> None:
        """Lines from points ``a`` to points ``b`` (row by row)."""
        self.line(np.concatenate((_rows(a, 2), _rows(b, 2)), axis=1), color)

    def arrow(self, tails: ArrayLike, heads: ArrayLike, color: Color, head: float = 5.0) -> None:
        """Arrows from tails to heads."""
        t, h = _rows(tails, 2), _rows(heads, 2)
        ok = np.isfinite(t).all(axis=1) & np.isfinite(h).all(axis=1)
        if ok.any():
            self.line(arrow_segments(t[ok], h[ok], head), color)

    def ring(self, centres: ArrayLike, radius: ArrayLike, color: Color, sides: int = 24) -> None:
        """Circle outlines as hairlines."""
        c = _rows(centres, 2)
        r = np.broadcast_to(np.asarray(radius, dtype=np.float64), (c.shape[0],))
        ok = np.isfinite(c).all(axis=1) & np.isfinite(r) & (r > 0)
        if ok.any():
            self.line(circle_segments(c[ok], r[ok], sides), color)

    def dot(self, centres: ArrayLike, radius: float, color: Color, ring: float = 0.0) -> None:
        """Discs (or rings ``ring`` thick) over the agents; non-finite centres left out."""
        c = _rows(centres, 2)
        ok = np.isfinite(c).all(axis=1)
        if ok.any():
            col = color if isinstance(color, tuple) else np.asarray(color)[ok]
            self.dots.append((c[ok], np.full(int(ok.sum()), radius), col, ring))

    def stroke(self, segments: ArrayLike, color: Color, width: float) -> None:
        """Thick segments over the agents."""
        s = _rows(segments, 4)
        s = s[np.isfinite(s).all(axis=1)]
        if s.size:
            self.strokes.append((s, color, width))


def agent_triangles(pos: FloatArray, heading: FloatArray, radius: FloatArray) -> FloatArray:
    """(3N, 2) vertices: a dart per agent pointing along its heading (Processing's vehicle)."""
    h = heading
    n = np.stack((-h[:, 1], h[:, 0]), axis=1)
    r = radius[:, None]
    tip = pos + h * r * 1.3
    left = pos - h * r * 0.9 + n * r * 0.8
    right = pos - h * r * 0.9 - n * r * 0.8
    return np.stack((tip, left, right), axis=1).reshape(-1, 2)


def _world(sk: Sketch, scene: Scene, visible: tuple[float, float, float, float]) -> None:
    w, h = scene.size
    sk.line(rect_outline(0.0, 0.0, w, h), COLORS["border"])
    for path in scene.paths:
        seg = polyline_segments(path.nodes, path.closed)
        if seg.shape[0]:
            sk.bands.append((seg, COLORS["path_band"], float(2.0 * np.max(path.radii))))
            sk.line(seg, COLORS["path_line"])
    fld = scene.field
    if fld is not None:
        c = fld.cell_centres().reshape(-1, 2)
        v = fld.vectors.reshape(-1, 2)
        left, bottom, right, top = visible
        on = (c[:, 0] >= left) & (c[:, 0] <= right) & (c[:, 1] >= bottom) & (c[:, 1] <= top)
        half = v[on] * (fld.cell / 3.0)  # the seed draws each vector resolution / 3 long
        sk.arrow(c[on] - half, c[on] + half, COLORS["field"], fld.cell * 0.18)
    obs = scene.obstacles
    if obs is not None and obs.radii.size:
        sk.rocks.append((obs.centers.reshape(-1, 2), obs.radii.reshape(-1), COLORS["rock"]))
        sk.ring(obs.centers, obs.radii, COLORS["rock_edge"], 32)
    if scene.walls is not None and scene.walls.start.size:
        seg = np.concatenate((scene.walls.start, scene.walls.end), axis=1)
        sk.bands.append((seg, COLORS["wall"], 4.0))


def _trails(sk: Sketch, scene: Scene) -> None:
    seg = scene.trails.segments(scene.agents.pos)
    if seg.shape[0] == 0:
        return
    # a wrap round the edges is not a stroke across the screen
    short = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]) < 0.25 * min(scene.size)
    sk.line(seg[short], COLORS["trail"])


def sketch_scene(
    scene: Scene,
    *,
    annotations: bool = True,
    selected: int | None = None,
    visible: tuple[float, float, float, float] | None = None,
) -> Sketch:
    """Everything to draw for ``scene`` now.

    Args:
        scene: The scene.
        annotations: Draw what the behaviours report (F1).
        selected: An agent to highlight (the one the camera follows): its velocity and force.
        visible: (left, bottom, right, top) of the visible world (field arrows outside it are
            left out); None: the whole world.
    """
    from .annotate import annotate

    sk = Sketch()
    w, h = scene.size
    _world(sk, scene, visible if visible is not None else (-w, -h, 2 * w, 2 * h))
    if scene.trail:
        _trails(sk, scene)
    a = scene.agents
    if annotations and scene.debug_pos.shape == a.pos.shape:
        annotate(sk, scene.debug, scene.debug_pos)
    for m in scene.marks:
        if m.ring:
            sk.ring(m.points, m.radius, m.color, 40)
        else:
            sk.dot(m.points, m.radius, m.color)
    sk.triangles = agent_triangles(a.pos, a.heading, a.radius)
    base = np.asarray(COLORS["agent"], np.uint8)
    colors = np.broadcast_to(base, (a.n, 4)) if scene.colors is None else scene.colors
    colors = np.array(colors, dtype=np.uint8)
    if selected is not None and 0 <= selected < a.n:
        colors[selected] = COLORS["selected"]
        p = a.pos[selected]
        sk.ring(p, a.radius[selected] * 2.2, COLORS["selected"])
        sk.arrow(p, p + a.vel[selected] * 0.5, COLORS["velocity"])
        sk.arrow(p, p + scene.force[selected] * 0.1, COLORS["force"])
    sk.triangle_colors = np.repeat(colors, 3, axis=0)
    return sk
