"""What each behaviour reports in its ``debug`` dict, as shapes: a thin layer, one function per
behaviour family, each reading only the keys that behaviour documents (so the shared overlay's
functions can replace them one by one). Rows with NaN (agents a behaviour skipped, e.g. under
:class:`~game.steering.Masked`) are left out by :class:`~game.lab.sketch.Sketch`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from game.steering import Debug

from .sketch import COLORS, Sketch, circle_segments

__all__ = ["ANNOTATORS", "annotate"]

FloatArray = NDArray[np.float64]


def _get(debug: Debug, key: str, n: int) -> FloatArray | None:
    """A per-agent float array of ``n`` rows, or None."""
    v = debug.get(key)
    if v is None or v.ndim == 0 or v.shape[0] != n:
        return None
    return np.asarray(v, dtype=np.float64)


def _path(sk: Sketch, debug: Debug, pos: FloatArray, prefix: str = "path") -> None:
    """Seeds 000/001: position to future point, future to normal point, the target (red while
    steering)."""
    n = pos.shape[0]
    future, normal = _get(debug, f"{prefix}.future", n), _get(debug, f"{prefix}.normal", n)
    target = _get(debug, f"{prefix}.target", n)
    if future is None or normal is None or target is None:
        return
    steering = debug.get(f"{prefix}.steering")
    steer = (
        np.asarray(steering, dtype=bool)
        if steering is not None and steering.shape == (n,)
        else np.zeros(n, dtype=bool)
    )
    sk.link(pos, future, COLORS["future"])
    sk.link(future, normal, COLORS["normal"])
    sk.link(future, target, COLORS["future"])
    sk.dot(future, 2.5, COLORS["future"])
    sk.dot(normal, 2.5, COLORS["normal"])
    colors = np.where(steer[:, None], COLORS["steer"], COLORS["idle"]).astype(np.uint8)
    sk.dot(target, 4.0, colors)


def _targets(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Pursue, evade, interpose, offset pursuit: the point each agent steers by (seek's and
    arrive's target is the scene's own mark)."""
    n = pos.shape[0]
    for key in ("pursue.predicted", "evade.predicted", "interpose.point", "offset.slot"):
        p = _get(debug, key, n)
        if p is not None:
            sk.link(pos, p, COLORS["future"])
            sk.dot(p, 3.0, COLORS["steer"] if key == "evade.predicted" else COLORS["idle"])


def _wander(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Reynolds' wander: the circle ahead, and the point on it being sought."""
    n = pos.shape[0]
    centre, target = _get(debug, "wander.centre", n), _get(debug, "wander.target", n)
    if centre is None or target is None:
        return
    r = np.hypot(*(target - centre).T)
    sk.ring(centre, r, COLORS["ring"])
    sk.link(pos, centre, COLORS["velocity"])
    sk.link(centre, target, COLORS["future"])
    sk.dot(target, 3.0, COLORS["steer"])


def _flow(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seed 003: where each agent looks the field up (``flow.lookup``, ahead with a
    look-ahead time), and the vector it reads there (``flow.sample``)."""
    n = pos.shape[0]
    vector, where = _get(debug, "flow.sample", n), _get(debug, "flow.lookup", n)
    if vector is None or where is None:
        return
    moved = np.hypot(*(where - pos).T) > 0.5
    sk.link(pos[moved], where[moved], COLORS["future"])
    sk.arrow(where, where + vector * 18.0, COLORS["normal"], 4.0)


def _group(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seed 004 and flocking: links to the neighbours pushed from, the separation distance
    (half of it round each agent with a neighbour too close), alignment and cohesion."""
    n = pos.shape[0]
    pairs = debug.get("separate.pairs")
    if pairs is not None and pairs.size:
        p = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
        p = p[((p >= 0) & (p < n)).all(axis=1)]
        sk.link(pos[p[:, 0]], pos[p[:, 1]], COLORS["link"])
    dist, count = _get(debug, "separate.distance", n), _get(debug, "separate.count", n)
    if dist is not None and count is not None:
        on = (count > 0) & np.isfinite(dist)
        sk.ring(pos[on], dist[on] / 2.0, COLORS["ring"], 16)
    vel = _get(debug, "align.velocity", n)
    if vel is not None:
        sk.arrow(pos, pos + vel * 0.3, COLORS["normal"], 4.0)
    centre = _get(debug, "cohere.centre", n)
    c = _get(debug, "cohere.count", n)
    if centre is not None and c is not None:
        on = c > 0
        sk.link(pos[on], centre[on], (*COLORS["idle"][:3], 90))


def _avoid(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Seed 002: every detection box; the one reacting to a rock thick and orange."""
    box = debug.get("avoid.box")
    n = pos.shape[0]
    if box is None or box.shape[0] != n:
        return
    b = np.asarray(box, dtype=np.float64).reshape(n, 4, 2)
    seg = np.concatenate((b, np.roll(b, -1, axis=1)), axis=2)
    rock = _get(debug, "avoid.obstacle", n)
    hit = rock >= 0 if rock is not None else np.zeros(n, dtype=bool)
    sk.line(seg[~hit].reshape(-1, 4), COLORS["box"])
    sk.stroke(seg[hit].reshape(-1, 4), COLORS["box_hit"], 1.6)


def _hide(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Buckland's hide: every hiding spot, and the one each agent runs to."""
    spots = debug.get("hide.spots")
    if spots is not None and spots.size:
        sk.dot(np.asarray(spots, dtype=np.float64).reshape(-1, 2), 3.0, COLORS["spot"], 1.2)
    spot = _get(debug, "hide.spot", pos.shape[0])
    if spot is not None:
        sk.link(pos, spot, COLORS["idle"])
        sk.dot(spot, 3.5, COLORS["idle"])


def _avoid_agents(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """OpenSteer's unaligned avoidance: each agent's and its threat's places at closest
    approach, joined."""
    n = pos.shape[0]
    threat = _get(debug, "avoidagents.threat", n)
    me, other = _get(debug, "avoidagents.point", n), _get(debug, "avoidagents.threat_point", n)
    if threat is None or me is None or other is None:
        return
    on = threat >= 0
    sk.link(pos[on], me[on], COLORS["future"])
    sk.link(me[on], other[on], COLORS["steer"])
    sk.dot(me[on], 2.5, COLORS["steer"])


def _walls(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Buckland's feelers, and where one crosses a wall."""
    tips = debug.get("walls.feelers")
    n = pos.shape[0]
    if tips is None or tips.shape[0] != n:
        return
    t = np.asarray(tips, dtype=np.float64).reshape(n, -1, 2)
    k = t.shape[1]
    sk.link(np.repeat(pos, k, axis=0), t.reshape(-1, 2), COLORS["box"])
    hit = _get(debug, "walls.hit", n)
    if hit is not None:
        sk.dot(hit, 3.5, COLORS["steer"])


def _queue(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Reynolds' queueing: a red ring on each agent braking for the one ahead, linked."""
    n = pos.shape[0]
    ahead = _get(debug, "queue.ahead", n)
    braking = debug.get("queue.braking")
    if ahead is None or braking is None or braking.shape != (n,):
        return
    on = np.asarray(braking, dtype=bool) & (ahead >= 0)
    idx = ahead[on].astype(np.intp)
    sk.link(pos[on], pos[idx], COLORS["steer"])
    sk.line(circle_segments(pos[on], 10.0, 12), COLORS["steer"])


def _orientation(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Face / look where you are going: the heading each agent turns toward."""
    want = _get(debug, "orientation.desired", pos.shape[0])
    if want is not None:
        sk.arrow(pos, pos + want * 30.0, COLORS["idle"], 5.0)


def _match(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Match velocity: the velocity each agent steers to."""
    v = _get(debug, "match.velocity", pos.shape[0])
    if v is not None:
        sk.arrow(pos, pos + v * 0.3, COLORS["idle"], 4.0)


#: Every annotator, in drawing order.
ANNOTATORS: tuple[Callable[[Sketch, Debug, FloatArray], None], ...] = (
    _flow,
    _group,
    _avoid,
    _walls,
    _path,
    _targets,
    _wander,
    _hide,
    _avoid_agents,
    _queue,
    _orientation,
    _match,
)


def annotate(sk: Sketch, debug: Debug, pos: FloatArray) -> None:
    """Add what every behaviour wrote into ``debug`` (keys it does not know are ignored)."""
    for fn in ANNOTATORS:
        fn(sk, debug, pos)
