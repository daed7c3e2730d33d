"""A scene as shapes to draw (pure NumPy): the world's paths, rocks, walls and field, the
agents as triangles, trails, the scene's marks and, with annotations on, what each behaviour
reported in its ``debug`` dict (:mod:`game.lab.annotate`), all on a
:class:`~game.lab.canvas.Sketch`."""

from __future__ import annotations

import numpy as np

from game.render.geometry import polyline_segments, rect_outline

from .annotate import annotate
from .canvas import FloatArray, Sketch
from .scene import Rgba, Scene

__all__ = ["COLORS", "Sketch", "sketch_scene"]

#: The Lab's own colours (RGBA): the world, the agents, the selected agent. What behaviours
#: report is drawn in the overlay's colours (:data:`game.render.theme.DEBUG`).
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
    "velocity": (255, 255, 255, 160),
    "force": (255, 120, 200, 220),
}

#: The selected agent's velocity and force arrows are this many radii long at its limits.
ARROW_RADII = 4.0

#: The dart's back corners, in radii along and across the heading: on the agent's circle (0.8
#: squared plus 0.6 squared is 1), as the tip is.
DART_BACK, DART_SIDE = 0.8, 0.6


def agent_triangles(pos: FloatArray, heading: FloatArray, radius: FloatArray) -> FloatArray:
    """(3N, 2) vertices: a dart per agent pointing along its heading (Processing's vehicle),
    its three corners on the agent's circle: drawn exactly as big as the radius the
    behaviours use, so agents kept ``2 * radius`` apart never look as if they overlap."""
    h = heading
    n = np.stack((-h[:, 1], h[:, 0]), axis=1)
    r = radius[:, None]
    tip = pos + h * r
    left = pos - h * r * DART_BACK + n * r * DART_SIDE
    right = pos - h * r * DART_BACK - n * r * DART_SIDE
    return np.stack((tip, left, right), axis=1).reshape(-1, 2)


def _world(sk: Sketch, scene: Scene, visible: tuple[float, float, float, float]) -> None:
    w, h = scene.size
    sk.thin(rect_outline(0.0, 0.0, w, h), COLORS["border"])
    for path in scene.paths:
        seg = polyline_segments(path.nodes, path.closed)
        if seg.shape[0]:
            sk.bands.append((seg, COLORS["path_band"], float(2.0 * np.max(path.radii))))
            sk.thin(seg, COLORS["path_line"])
    fld = scene.field
    if fld is not None:
        c = fld.cell_centers().reshape(-1, 2)
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
    sk.thin(seg[short], COLORS["trail"])


def sketch_scene(
    scene: Scene,
    *,
    annotations: bool = True,
    selected: int | None = None,
    visible: tuple[float, float, float, float] | None = None,
    px: float = 1.0,
) -> Sketch:
    """Everything to draw for ``scene`` now.

    Args:
        scene: The scene.
        annotations: Draw what the behaviours report (F1).
        selected: An agent to highlight (the one the camera follows): its velocity and force.
        visible: (left, bottom, right, top) of the visible world (field arrows outside it are
            left out); None: the whole world.
        px: World px per screen pixel (1 / camera zoom).
    """
    sk = Sketch(px=px)
    w, h = scene.size
    _world(sk, scene, visible if visible is not None else (-w, -h, 2 * w, 2 * h))
    if scene.trail:
        _trails(sk, scene)
    a = scene.agents
    if annotations and scene.debug_pos.shape == a.pos.shape:
        annotate(sk, scene)
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
        # at the agent's limits, a few radii long: readable whatever the world's scale
        reach = ARROW_RADII * a.radius[selected]
        v = a.vel[selected] / max(float(a.max_speed[selected]), 1e-9)
        f = scene.force[selected] / max(float(a.max_force[selected]), 1e-9)
        sk.arrow(p, p + v * reach, COLORS["velocity"], 4.0 * px)
        sk.arrow(p, p + f * reach, COLORS["force"], 4.0 * px)
    sk.triangle_colors = np.repeat(colors, 3, axis=0)
    return sk
