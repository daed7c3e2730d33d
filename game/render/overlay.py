"""The F1 debug overlay: what the seeds draw, for every agent, from the world's debug arrays.

Path following (seeds 000/001): future position, normal point, target (red while steering),
path radius; obstacle avoidance (seed 002): each detection box and the rock it reacts to;
flow (seed 003): field arrows on the grid; separation (seed 004): radius and links to the
neighbours pushed away from; short history trails; heading against velocity; and the steering
vocabulary's behaviours when the world's debug holds their keys (drawn by
:mod:`game.render.debug_draw`, re-exported here for scenes without a world). Everything goes
into a few batches (one draw call per batch), rebuilt in :meth:`DebugOverlay.update`, never one
call per agent.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from steering.debug import AvoidDebug, OrientationDebug, PathDebug, SeparateDebug, read

from . import theme
from .batch import DiscBatch, HairlineBatch, LineBatch
from .debug_draw import (
    Pen,
    draw_avoid_agents,
    draw_avoid_walls,
    draw_behaviours,
    draw_formation,
    draw_heading,
    draw_hide,
    draw_interpose,
    draw_match_velocity,
    draw_queue,
)
from .geometry import arrow_segments, box_segments, circle_segments, polyline_segments
from .trails import Trails

if TYPE_CHECKING:
    import arcade

    from game.world import World

__all__ = [
    "DebugOverlay",
    "Pen",
    "circle_segments",
    "draw_avoid_agents",
    "draw_avoid_walls",
    "draw_behaviours",
    "draw_formation",
    "draw_heading",
    "draw_hide",
    "draw_interpose",
    "draw_match_velocity",
    "draw_queue",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: At most this many field arrows (the densest grids are thinned).
MAX_FLOW_ARROWS = 6000
#: Zoomed out below this, trails join every second sample (below half of it, every third:
#: the stride is ``ceil(TRAIL_ZOOM / zoom)``).
TRAIL_ZOOM = 0.75


def _inside(points: FloatArray, rect: tuple[float, float, float, float]) -> NDArray[np.bool_]:
    left, bottom, right, top = rect
    return np.asarray(
        (points[:, 0] >= left)
        & (points[:, 0] <= right)
        & (points[:, 1] >= bottom)
        & (points[:, 1] <= top)
    )


class DebugOverlay:
    """Batched debug drawing for one world.

    Args:
        ctx: The window's context.
    """

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        self.hairlines = HairlineBatch(ctx, 16384)
        self.lines = LineBatch(ctx, 1024)
        self.dots = DiscBatch(ctx, 1024)
        self.pen = Pen(self.hairlines, self.lines, self.dots)
        self.trails = Trails(length=10, every=6)
        self.enabled = False
        self.zoom = 1.0

    def reset(self) -> None:
        """Forget the trails (a new world)."""
        self.trails.reset()

    def update(self, world: World, visible: tuple[float, float, float, float], zoom: float) -> None:
        """Rebuild the batches from the world's last step.

        Args:
            world: The world (its ``debug`` dict must have been collected).
            visible: (left, bottom, right, top) of the visible world; only agents and field
                cells near it are drawn.
            zoom: Camera zoom (keeps lines about the same width on screen).
        """
        pos = world.agents.pos
        self.trails.update(pos)
        if not self.enabled:
            return
        self.zoom = max(zoom, 1e-3)
        px = 1.0 / max(zoom, 1e-3)  # one screen pixel in world units
        self.pen.px = px
        debug = world.steering.debug
        rows = world.steering.debug_rows if debug else np.arange(1, world.n, dtype=np.intp)
        show = _inside(pos, visible)
        radius = world.agents.radius

        self._paths(world, px)
        self._flow(world, visible, px)
        self._trails(pos, show)
        if rows.size:
            self._separation(world, debug, rows, show)
            self._avoidance(world, debug, rows, show, px)
            self._path_following(debug, rows, pos, show, px)
            draw_behaviours(self.pen, debug, pos[rows], radius=radius[rows], show=show[rows])
        # heading against velocity for everyone on screen, the player included
        orient = read(OrientationDebug, debug)
        desired = None if orient is None else orient.desired
        full = None
        if desired is not None and np.shape(desired) == (rows.size, 2):
            full = np.zeros_like(pos)
            full[rows] = desired
        draw_heading(
            self.pen, pos, world.agents.heading, world.agents.vel, 2.2 * radius, full, show
        )
        self.hairlines.commit()
        self.lines.commit()
        self.dots.commit()

    # -- parts -------------------------------------------------------------------------------

    def _thin(self, segments: FloatArray, color: ArrayLike) -> None:
        self.hairlines.add(segments, color)

    def _thick(self, segments: FloatArray, color: ArrayLike) -> None:
        self.lines.add(segments, color, 2.4 / self.zoom)

    def _paths(self, world: World, px: float) -> None:
        """Each path's radii: the corridor's two borders and a ring at every node (the wider
        of its two segments')."""
        for path in world.paths.values():
            seg = polyline_segments(path.nodes, path.closed)
            if seg.shape[0] == 0:
                continue
            d = seg[:, 2:] - seg[:, :2]
            length = np.hypot(d[:, 0], d[:, 1])
            n = np.stack((-d[:, 1], d[:, 0]), axis=1) / np.where(length > 0, length, 1.0)[:, None]
            r = path.radii
            off = np.concatenate((n, n), axis=1) * r[:, None]
            before = np.roll(r, 1) if path.closed else np.concatenate((r[:1], r))
            after = r if path.closed else np.concatenate((r, r[-1:]))
            color = theme.DEBUG["path_radius"]
            self._thin(seg + off, color)
            self._thin(seg - off, color)
            self._thin(circle_segments(path.nodes, np.maximum(before, after), 24), color)

    def _flow(self, world: World, visible: tuple[float, float, float, float], px: float) -> None:
        """Seed 003: an arrow per grid cell along the field (cells on screen only)."""
        for current in world.currents.items:
            fld = current.field
            centres = fld.cell_centers().reshape(-1, 2)
            vec = fld.vectors.reshape(-1, 2)
            keep = np.flatnonzero(_inside(centres, visible))
            if keep.size > MAX_FLOW_ARROWS:
                keep = keep[:: keep.size // MAX_FLOW_ARROWS + 1]
            c = centres[keep]
            v = vec[keep]
            half = v * (fld.cell * 0.4)
            self._thin(arrow_segments(c - half, c + half, fld.cell * 0.18), theme.DEBUG["flow"])

    def _trails(self, pos: FloatArray, show: NDArray[np.bool_]) -> None:
        """Seed 001: each agent's recent positions, fading with age."""
        rows = np.flatnonzero(show)
        # Zoomed out, every second or third sample: the same line in half the segments.
        stride = max(1, math.ceil(TRAIL_ZOOM / self.zoom - 1e-9))
        seg = self.trails.segments(pos, rows, stride)
        if seg.shape[0] == 0:
            return
        k = seg.shape[0] // max(rows.size, 1)
        alpha = np.linspace(20, theme.DEBUG["trail"][3], k).astype(np.uint8)
        colors = np.empty((seg.shape[0], 4), np.uint8)
        colors[:, :3] = theme.DEBUG["trail"][:3]
        colors[:, 3] = np.repeat(alpha, rows.size)
        self._thin(seg, colors)

    def _separation(
        self,
        world: World,
        debug: dict[str, NDArray[np.generic]],
        rows: IntArray,
        show: NDArray[np.bool_],
    ) -> None:
        """Seed 004: separation radius, and links between neighbours that push apart."""
        pos = world.agents.pos
        rec = read(SeparateDebug, debug)
        if rec is None:
            return
        raw = rec.distance
        count = rec.neighbours
        if raw is not None and raw.shape[0] == rows.size:
            dist = np.asarray(raw, dtype=np.float64)
            on = show[rows] & np.isfinite(dist) & (dist > 0)
            if count is not None and count.shape[0] == rows.size:
                on &= np.asarray(count) > 0  # only agents with a neighbour too close now
            # the distance is kept centre to centre: half of it round each agent touches;
            # a side per screen pixel of radius, 5 to 10 (zoomed out, a small circle is a
            # few pixels across)
            r = dist[on] / 2.0
            sides = int(np.clip(np.ceil(float(r.max(initial=0.0)) * self.zoom), 5, 10))
            self._thin(circle_segments(pos[rows[on]], r, sides), theme.DEBUG["separation"])
        pairs = rec.pairs
        if pairs is not None and pairs.size:
            p = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
            p = p[(p >= 0).all(1) & (p < rows.size).all(1)]
            a, b = rows[p[:, 0]], rows[p[:, 1]]
            on = show[a] | show[b]
            self._thin(np.concatenate((pos[a[on]], pos[b[on]]), axis=1), theme.DEBUG["pair"])

    def _avoidance(
        self,
        world: World,
        debug: dict[str, NDArray[np.generic]],
        rows: IntArray,
        show: NDArray[np.bool_],
        px: float,
    ) -> None:
        """Seed 002: every detection box; the rock an agent reacts to, ringed and linked."""
        rec = read(AvoidDebug, debug)
        box = None if rec is None else rec.box
        if rec is None or box is None or box.shape[0] != rows.size:
            return
        rock = rec.obstacle
        hit = (
            np.asarray(rock, dtype=np.intp) >= 0
            if rock is not None and rock.shape[0] == rows.size
            else np.zeros(rows.size, dtype=bool)
        )
        on = show[rows] & np.isfinite(np.asarray(box, np.float64)).all(axis=(1, 2))
        quiet = on & ~hit
        self._thin(box_segments(np.asarray(box)[quiet]), theme.DEBUG["box"])
        busy = np.flatnonzero(on & hit)
        if busy.size == 0 or rock is None:
            return
        self._thick(box_segments(np.asarray(box)[busy]), theme.DEBUG["box_hit"])
        rid = np.asarray(rock, dtype=np.intp)[busy]
        ok = rid < world.obstacle_pos.shape[0]
        busy, rid = busy[ok], rid[ok]
        centres = world.obstacle_pos[rid]
        self._thick(
            circle_segments(centres, world.obstacle_radius[rid] + 3 * px, 24),
            theme.DEBUG["rock_hit"],
        )
        self._thin(
            np.concatenate((world.agents.pos[rows[busy]], centres), axis=1), theme.DEBUG["rock_hit"]
        )

    def _path_following(
        self,
        debug: dict[str, NDArray[np.generic]],
        rows: IntArray,
        pos: FloatArray,
        show: NDArray[np.bool_],
        px: float,
    ) -> None:
        """Seeds 000/001: future position, normal point and target (red while steering)."""
        rec = read(PathDebug, debug)
        if rec is None:
            return
        future, normal, target = rec.future, rec.normal, rec.target
        if future is None or normal is None or target is None or future.shape[0] != rows.size:
            return
        f = np.asarray(future, np.float64)
        nrm = np.asarray(normal, np.float64)
        tgt = np.asarray(target, np.float64)
        on = show[rows] & np.isfinite(f).all(1) & np.isfinite(nrm).all(1) & np.isfinite(tgt).all(1)
        steering = rec.steering
        steer = (
            np.asarray(steering, dtype=bool)
            if steering is not None and steering.shape[0] == rows.size
            else np.zeros(rows.size, dtype=bool)
        )
        idx = np.flatnonzero(on)
        p = pos[rows[idx]]
        self._thin(np.concatenate((p, f[idx]), axis=1), theme.DEBUG["future"])
        self._thin(np.concatenate((f[idx], nrm[idx]), axis=1), theme.DEBUG["normal"])
        self.dots.add(f[idx], 2.5 * px, theme.DEBUG["future"])
        self.dots.add(nrm[idx], 2.5 * px, theme.DEBUG["normal"])
        colors = np.where(
            steer[idx, None],
            np.array(theme.DEBUG["target_steer"]),
            np.array(theme.DEBUG["target_idle"]),
        )
        self.dots.add(tgt[idx], 3.5 * px, colors)
        red = idx[steer[idx]]
        self._thin(np.concatenate((pos[rows[red]], tgt[red]), axis=1), theme.DEBUG["target_steer"])

    # -- draw --------------------------------------------------------------------------------

    def draw(self) -> None:
        """Draw the overlay (under the world camera). Changes nothing."""
        if not self.enabled:
            return
        self.hairlines.draw()
        self.lines.draw(1.0 / self.zoom)
        self.dots.draw()
