"""What each behaviour reports in its ``debug`` dict, drawn over a scene. The behaviours the
game's F1 overlay draws too (hide, interpose, formations, agent and wall avoidance, queueing,
matched velocity, orientation) are drawn by its functions (:mod:`game.render.debug_draw`);
the rest, the seeds' drawings, are here, one function per behaviour family, each reading
only the keys its behaviour documents. Rows with NaN (agents a behaviour skipped, e.g. under
:class:`~steering.Masked`) are left out by :class:`~game.lab.canvas.Sketch`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from game.render import debug_draw
from game.render.theme import DEBUG
from steering import Debug
from steering.debug import (
    AlignDebug,
    AvoidDebug,
    CohereDebug,
    EvadeDebug,
    FlowDebug,
    OrientationDebug,
    PathDebug,
    PursueDebug,
    SeparateDebug,
    WanderDebug,
    read,
)

from .canvas import Sketch
from .scene import Scene

__all__ = ["ANNOTATORS", "annotate"]

FloatArray = NDArray[np.float64]


def _get(v: NDArray[np.generic] | None, n: int) -> FloatArray | None:
    """A record's per-agent field as floats of ``n`` rows, or None."""
    if v is None or v.ndim == 0 or v.shape[0] != n:
        return None
    return np.asarray(v, dtype=np.float64)


def _path(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seeds 000/001: position to future point, future to normal point, the target (red while
    steering)."""
    n = pos.shape[0]
    rec = read(PathDebug, debug)
    if rec is None:
        return
    future, normal, target = _get(rec.future, n), _get(rec.normal, n), _get(rec.target, n)
    if future is None or normal is None or target is None:
        return
    steering = rec.steering
    steer = (
        np.asarray(steering, dtype=bool)
        if steering is not None and steering.shape == (n,)
        else np.zeros(n, dtype=bool)
    )
    sk.link(pos, future, DEBUG["future"])
    sk.link(future, normal, DEBUG["normal"])
    sk.link(future, target, DEBUG["future"])
    sk.dot(future, 2.5, DEBUG["future"])
    sk.dot(normal, 2.5, DEBUG["normal"])
    colors = np.where(steer[:, None], DEBUG["target_steer"], DEBUG["target_idle"])
    sk.dot(target, 4.0, colors.astype(np.uint8))


def _predicted(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Pursue and evade: the predicted place each agent steers to or from (red: fleeing)."""
    n = pos.shape[0]
    pursue, evade = read(PursueDebug, debug), read(EvadeDebug, debug)
    for rec, color in ((pursue, "target_idle"), (evade, "target_steer")):
        p = None if rec is None else _get(rec.predicted, n)
        if p is not None:
            sk.link(pos, p, DEBUG["future"])
            sk.dot(p, 3.0, DEBUG[color])


def _wander(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Reynolds' wander: the circle ahead, and the point on it being sought."""
    n = pos.shape[0]
    rec = read(WanderDebug, debug)
    if rec is None:
        return
    centre, target = _get(rec.center, n), _get(rec.target, n)
    if centre is None or target is None:
        return
    r = np.hypot(*(target - centre).T)
    sk.ring(centre, r, DEBUG["separation"])
    sk.link(pos, centre, DEBUG["velocity"])
    sk.link(centre, target, DEBUG["future"])
    sk.dot(target, 3.0, DEBUG["target_steer"])


def _flow(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seed 003: where each agent looks the field up (``FlowDebug.lookup``, ahead with a
    look-ahead time), and the vector it reads there (``FlowDebug.sample``)."""
    n = pos.shape[0]
    rec = read(FlowDebug, debug)
    if rec is None:
        return
    vector, where = _get(rec.sample, n), _get(rec.lookup, n)
    if vector is None or where is None:
        return
    moved = np.hypot(*(where - pos).T) > 0.5
    sk.link(pos[moved], where[moved], DEBUG["future"])
    sk.arrow(where, where + vector * 18.0, DEBUG["normal"], 4.0)


def _group(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seed 004 and flocking: links to the neighbours pushed from, the separation distance
    (half of it round each agent with a neighbour too close), alignment and cohesion."""
    n = pos.shape[0]
    sep = read(SeparateDebug, debug)
    pairs = None if sep is None else sep.pairs
    if pairs is not None and pairs.size:
        p = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        p = p[((p >= 0) & (p < n)).all(axis=1)]
        sk.link(pos[p[:, 0]], pos[p[:, 1]], DEBUG["pair"])
    if sep is not None:
        dist, count = _get(sep.distance, n), _get(sep.neighbours, n)
        if dist is not None and count is not None:
            on = (count > 0) & np.isfinite(dist)
            sk.ring(pos[on], dist[on] / 2.0, DEBUG["separation"], 16)
    align = read(AlignDebug, debug)
    vel = None if align is None else _get(align.velocity, n)
    if vel is not None:
        sk.arrow(pos, pos + vel * 0.3, DEBUG["normal"], 4.0)
    cohere = read(CohereDebug, debug)
    centre = None if cohere is None else _get(cohere.center, n)
    c = None if cohere is None else _get(cohere.neighbours, n)
    if centre is not None and c is not None:
        on = c > 0
        sk.link(pos[on], centre[on], (*DEBUG["target_idle"][:3], 90))


def _avoid(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seed 002: every detection box; the one reacting to a rock thick and orange."""
    rec = read(AvoidDebug, debug)
    box = None if rec is None else rec.box
    n = pos.shape[0]
    if rec is None or box is None or box.shape[0] != n:
        return
    b = np.asarray(box, dtype=np.float64).reshape(n, 4, 2)
    seg = np.concatenate((b, np.roll(b, -1, axis=1)), axis=2)
    rock = _get(rec.obstacle, n)
    hit = rock >= 0 if rock is not None else np.zeros(n, dtype=bool)
    sk.thin(seg[~hit].reshape(-1, 4), DEBUG["box"])
    sk.thick(seg[hit].reshape(-1, 4), DEBUG["box_hit"], 1.6)


#: The Lab's own annotators, in drawing order (before the shared ones).
ANNOTATORS: tuple[Callable[[Sketch, Debug, FloatArray], None], ...] = (
    _flow,
    _group,
    _avoid,
    _path,
    _predicted,
    _wander,
)


def annotate(sk: Sketch, scene: Scene) -> None:
    """Add what every behaviour wrote into the scene's ``debug`` (keys nobody knows are
    ignored), drawn from where the agents were when it was written."""
    debug, pos = scene.debug, scene.debug_pos
    for fn in ANNOTATORS:
        fn(sk, debug, pos)
    a = scene.agents
    debug_draw.draw_behaviours(sk, debug, pos, walls=scene.walls, radius=a.radius)
    orient = read(OrientationDebug, debug)
    desired = None if orient is None else _get(orient.desired, a.n)
    if desired is not None:
        debug_draw.draw_heading(sk, pos, a.heading, a.vel, 2.2 * a.radius, desired)
