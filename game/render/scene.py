"""Draws a running world: water, currents, route tubes, exits, rocks and every agent.

:class:`WorldRenderer` builds its SpriteLists and batches once per world; :meth:`update`
(called from a view's ``on_update``) copies positions and animations into them, and
:meth:`draw` only issues draw calls, in world coordinates under the view's camera.
"""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING, Any

import arcade
import numpy as np
from numpy.typing import NDArray

from game.world import ENEMY, NPC, Mode
from game.world.sight import enemy_sight
from steering.path import changes as path_changes

from . import theme
from .backdrop import Backdrop
from .bank import TextureBank
from .batch import HairlineBatch, LineBatch, TriangleBatch
from .geometry import (
    convex_fan,
    packed_chevrons,
    packed_path_segments,
    rect_outline,
    rect_triangles,
)
from .particles import ARROW_PARTS, FlowParticles

if TYPE_CHECKING:
    from game.world import World

__all__ = ["GRID_STEP", "WorldRenderer", "facing_angles"]

#: Spacing of the faint grid lines (px).
GRID_STEP = 128.0
#: The backdrop is cached when current tints cover at least this fraction of the map.
BACKDROP_TINT = 0.5
#: Width of the flow streaks (world px, at zoom 1 and closer).
STREAK_WIDTH = 1.6
#: Zoomed out by a factor z, the flow arrows are z ** ARROW_GROWTH longer.
ARROW_GROWTH = 0.6
#: Border drawn round the tube (px) and how fast the direction chevrons march (px/s).
TUBE_EDGE = 3.0
#: The pale rim drawn round every wall (px each side).
WALL_RIM = 2.5
CHEVRON_SPACING = 90.0
CHEVRON_SPEED = 28.0

IntArray = NDArray[np.intp]


def facing_angles(heading: NDArray[np.float64]) -> NDArray[np.float64]:
    """Sprite angles (arcade: degrees, clockwise) that turn a +x-facing texture along each
    (N, 2) heading (y up, counter-clockwise)."""
    return np.asarray(-np.degrees(np.arctan2(heading[:, 1], heading[:, 0])), dtype=np.float64)


class _SpriteLayer:
    """One SpriteList for a set of rows of the world's arrays (agents, or rocks), created once,
    moved every frame.

    arcade 3.3 has no bulk way to move sprites: each ``position`` and ``angle`` assignment is
    a Python call that also updates a hit box and every list the sprite is in (~1 us each, a
    few ms a frame for a crowd). Where the SpriteList's own position/angle array is there (it
    is in arcade 3.3), :meth:`sync` writes all rows into it at once with NumPy and flags it for
    upload; otherwise it falls back to the public setters. The fast path leaves the Sprite
    objects' own ``position``/``angle`` behind (nothing here uses them: no hit boxes, no
    collisions; the world's arrays are the truth).
    """

    def __init__(self, rows: IntArray, textures: list[arcade.Texture], scales: list[float]) -> None:
        self.rows = rows
        self.sprites = [
            arcade.Sprite(tex, scale=s) for tex, s in zip(textures, scales, strict=True)
        ]
        self.list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList(
            capacity=max(len(self.sprites), 1)
        )
        self.list.extend(self.sprites)
        slots = getattr(self.list, "sprite_slot", None)
        self._slots: IntArray | None = (
            np.array([slots[s] for s in self.sprites], dtype=np.intp)
            if isinstance(slots, dict) and _pos_angle_array(self.list) is not None
            else None
        )

    @property
    def bulk(self) -> bool:
        """Whether :meth:`sync` writes the list's arrays directly (the fast path)."""
        return self._slots is not None

    def position_of(self, k: int) -> tuple[float, float]:
        """Where sprite ``k`` of the list is drawn (the list's array on the fast path)."""
        data = _pos_angle_array(self.list) if self._slots is not None else None
        if data is not None and self._slots is not None:
            slot = self._slots[k]
            return (float(data[slot, 0]), float(data[slot, 1]))
        x, y = self.sprites[k].position
        return (float(x), float(y))

    def sync(self, pos: NDArray[np.float64], angle: NDArray[np.float64]) -> None:
        """Move every sprite to its agent's position and heading."""
        rows = self.rows
        data = _pos_angle_array(self.list) if self._slots is not None else None
        if data is not None and self._slots is not None:
            slots = self._slots
            data[slots, 0] = pos[rows, 0]
            data[slots, 1] = pos[rows, 1]
            data[slots, 3] = angle[rows]
            self.list._sprite_pos_angle_changed = True
            return
        xs = pos[rows, 0].tolist()
        ys = pos[rows, 1].tolist()
        angles = angle[rows].tolist()
        for sprite, x, y, a in zip(self.sprites, xs, ys, angles, strict=True):
            sprite.position = (x, y)
            sprite.angle = a


def _pos_angle_array(sprite_list: arcade.SpriteList[arcade.Sprite]) -> NDArray[np.float32] | None:
    """The list's (capacity, 4) x, y, depth, angle array as a NumPy view, or None."""
    data = getattr(sprite_list, "_sprite_pos_angle_data", None)
    if not isinstance(data, array) or data.typecode != "f" or len(data) % 4:
        return None
    return np.frombuffer(data, dtype=np.float32).reshape(-1, 4)


class WorldRenderer:
    """Everything of a world that is drawn under the world camera (the overlay and HUD are
    separate).

    Args:
        world: The world to draw.
        bank: Shared textures.
        ctx: The window's context.
    """

    def __init__(self, world: World, bank: TextureBank, ctx: arcade.ArcadeContext) -> None:
        self.world = world
        self.bank = bank
        self.clock = 0.0
        #: Where to draw the player instead of its body (the editor's start marker follows
        #: the start being dragged, though the ghost body stays), or None.
        self.player_at: tuple[float, float] | None = None
        level = world.level
        w, h = level.width_px, level.height_px

        # Static layers: the dark beyond the walls, the grid, the wall line, current tints.
        self._static_tris = TriangleBatch(ctx, 64)
        far = 100_000.0
        for rect in (
            (-far, -far, far + w + far, far),
            (-far, h, far + w + far, far),
            (-far, 0.0, far, h),
            (w, 0.0, far, h),
        ):
            self._static_tris.add(rect_triangles(*rect), theme.OUTSIDE)
        for region in level.flows:
            r = region.rect
            self._static_tris.add(
                rect_triangles(r.left, r.bottom, r.width, r.height), theme.FLOW_TINT
            )
        self._static_tris.commit()
        self._grid = LineBatch(ctx, 256)
        xs = np.arange(GRID_STEP, w, GRID_STEP)
        ys = np.arange(GRID_STEP, h, GRID_STEP)
        self._grid.add(np.stack((xs, np.zeros_like(xs), xs, np.full_like(xs, h)), 1), theme.GRID)
        self._grid.add(np.stack((np.zeros_like(ys), ys, np.full_like(ys, w), ys), 1), theme.GRID)
        self._grid.add(rect_outline(0.0, 0.0, w, h), theme.WALL, 4.0)
        self._grid.commit()
        # Cached only where translucent current tints cover over half the map (Currents,
        # Finale): elsewhere the layers cost less than the copy.
        tinted = sum(f.rect.width * f.rect.height for f in level.flows)
        cached = tinted >= BACKDROP_TINT * w * h
        self._backdrop = Backdrop(ctx, self._draw_backdrop, theme.BACKGROUND, cached)

        # The level's walls: static capsules, rim first so joins merge, then the stone; the
        # inside of closed convex walls is stone too, under the ridge line.
        self._walls = LineBatch(ctx, max(len(world.walls) * 2, 16))
        self._wall_ridges = LineBatch(ctx, max(len(world.walls), 16))
        self._wall_inside = TriangleBatch(ctx, 64)
        if len(world.walls):
            segs = world.walls.segments.reshape(-1, 4)
            thick = world.wall_thickness
            self._walls.add(segs, theme.WALL_EDGE, thick + 2.0 * WALL_RIM)
            self._walls.add(segs, theme.WALL_FILL, thick)
            self._wall_ridges.add(segs, theme.WALL_RIDGE, np.maximum(thick * 0.3, 1.5))
            for wall in level.walls:
                if wall.closed:
                    self._wall_inside.add(convex_fan(wall.points), theme.WALL_FILL)
        self._walls.commit()
        self._wall_ridges.commit()
        self._wall_inside.commit()

        # Routes: rebuilt when a path changes (drifting nodes, the editor) and as chevrons march.
        self._tubes = LineBatch(ctx, 256)
        self._chevrons = LineBatch(ctx, 256)
        # The packed path geometry the tubes were drawn from, and the path change count then.
        self._paths_geo: Any = None
        self._paths_stamp = -1

        # Currents.
        rects = [(f.rect.left, f.rect.bottom, f.rect.width, f.rect.height) for f in level.flows]
        self.particles = FlowParticles(rects, self._current_at, seed=level.seed)
        self._streaks = LineBatch(ctx, max(self.particles.count * ARROW_PARTS, 16))
        # Zoomed out until a streak is thinner than a screen pixel, the streaks are hairlines
        # (half the cost on a software rasteriser), faded by the pixel they cover.
        self._thin_streaks = HairlineBatch(ctx, max(self.particles.count * ARROW_PARTS, 16))
        self._thin = False
        #: World units per screen pixel at the last draw (1 / zoom): how many particles show.
        self._pixel = 1.0

        # Sprites.
        self.exits: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for e in level.exits:
            s = arcade.Sprite(bank.exit(e.rect.width, e.rect.height))
            s.position = e.rect.center
            s.width, s.height = e.rect.width, e.rect.height
            self.exits.append(s)
        self._build_rocks()

        radius = world.agents.radius
        kind = world.kind
        npc_rows = np.flatnonzero(kind == NPC)
        enemy_rows = np.flatnonzero(kind == ENEMY)
        fish, en, pl = bank.fish, bank.enemy, bank.player
        # Every agent in one sprite list, drawn (and uploaded) in one go: the fish, then the
        # enemies over them, then the player on top.
        rows = np.concatenate((npc_rows, enemy_rows, [0])).astype(np.intp)
        textures = [fish.texture] * npc_rows.size + [en.texture] * enemy_rows.size
        scales = [fish.scale_for(radius[i]) for i in npc_rows]
        scales += [en.scale_for(radius[i]) for i in enemy_rows]
        self.agent_sprites = _SpriteLayer(
            rows, [*textures, pl.texture], [*scales, pl.scale_for(radius[0])]
        )
        tints = theme.NPC_TINTS
        for k in range(npc_rows.size):
            self.agent_sprites.sprites[k].color = tints[(k * 7 + 3) % len(tints)]
        #: The agent rows of the enemies, and where their sprites start in the list.
        self._enemy_rows = enemy_rows
        self._first_enemy = int(npc_rows.size)
        self._chasing = np.zeros(enemy_rows.size, dtype=bool)
        # Sight regions: one translucent triangle batch, rebuilt every frame.
        self._cones = TriangleBatch(ctx, max(enemy_rows.size * 400 * 3, 16))
        self.update(0.0)

    # -- update ------------------------------------------------------------------------------

    def _current_at(
        self, points: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        return self.world.currents.velocity_at(points)

    def _build_rocks(self) -> None:
        """One sprite per rock, each turned its own way (from its id), at the rocks' centres."""
        w = self.world
        self._rocks_version = w.physics.rocks_version
        ids = w.obstacle_id.tolist()
        textures: list[arcade.Texture] = []
        scales: list[float] = []
        for k, (rid, pushable, r) in enumerate(
            zip(ids, w.obstacle_dynamic.tolist(), w.obstacle_radius.tolist(), strict=True)
        ):
            tex = self.bank.rock(rid * 7 + k, pushable)
            textures.append(tex.texture)
            scales.append(tex.scale_for(r))
        self._rocks = _SpriteLayer(np.arange(len(ids)), textures, scales)
        self.rocks = self._rocks.list
        self._rock_angle = (np.array(ids, dtype=np.float64) * 137.5) % 360.0
        self._rocks.sync(w.obstacle_pos, self._rock_angle)

    def _rebuild_paths(self, geo: Any) -> None:
        """Tubes as capsules (round joins), all borders first so crossing routes merge, then
        the fills, then the centre lines: every path's segments from the registry's packed
        geometry in one slice (drifting paths rebuild this every frame)."""
        every, radius = packed_path_segments(geo)
        if every.shape[0]:
            self._tubes.add(every, theme.PATH_EDGE, 2.0 * (radius + TUBE_EDGE))
            self._tubes.add(every, theme.PATH_FILL, 2.0 * radius)
            self._tubes.add(every, theme.PATH_CENTRE, 1.5)
        self._tubes.commit()

    def update(self, dt: float, pixel: float = 1.0) -> None:
        """Copy the world's state into the sprites and batches and advance the animations.

        Args:
            dt: Seconds since the last update (animations only; the world is not stepped).
            pixel: World units per screen pixel (1 / zoom) the next frame is drawn at: how
                many flow streaks to build, and how long the current's arrows grow.
        """
        self._pixel = pixel
        self.clock += dt
        w = self.world
        # The packed geometry is a new object after an edit (or a path added or removed) and
        # changes in place when paths drift, which the process's path change count shows.
        geo = w.paths.geometry()
        stamp = path_changes()
        if geo is not self._paths_geo or stamp != self._paths_stamp:
            self._paths_geo, self._paths_stamp = geo, stamp
            self._rebuild_paths(geo)
        marks = packed_chevrons(geo, CHEVRON_SPACING, self.clock * CHEVRON_SPEED)
        if marks.shape[0]:
            self._chevrons.add(marks, theme.PATH_ARROW, 2.5)
        self._chevrons.commit()

        self.particles.update(dt)
        if self.particles.count:
            # Only the particles the last frame showed (see FlowParticles.shown).
            # Zoomed out (a level opens showing the whole map), the arrows grow longer with
            # the pixel, a little slower than it, so that a current's direction still reads
            # on screen; fewer of them are shown there (see FlowParticles.shown). Their width
            # stays: thinner than a screen pixel they are hairlines, half the cost on a
            # software rasteriser (grown wide, Currents and Finale lost 6-13 fps).
            grow = max(1.0, self._pixel) ** ARROW_GROWTH
            segments, alpha = self.particles.arrows(
                length=(9.0 * grow, 26.0 * grow),
                barb=5.0 * grow,
                shown=self.particles.shown(self._pixel),
            )
            cover = STREAK_WIDTH / self._pixel  # screen pixels across a streak
            self._thin = cover < 1.0
            if self._thin:
                alpha = alpha * cover
            colors = np.empty((segments.shape[0], 4), np.uint8)
            colors[:, :3] = theme.FLOW_PARTICLE[:3]
            colors[:, 3] = (alpha * theme.FLOW_PARTICLE[3]).astype(np.uint8)
            if self._thin:
                self._thin_streaks.add(segments, colors)
                self._thin_streaks.commit()
            else:
                self._streaks.set(segments, colors, STREAK_WIDTH)

        # The exits pulse together: one opacity for the whole list.
        self.exits.alpha = int(255 * (0.75 + 0.25 * math.sin(self.clock * 3.0)))

        if self._rocks_version != w.physics.rocks_version:  # rocks edited live
            self._build_rocks()
        elif w.obstacle_dynamic.any():  # pushable rocks move: all rocks in one array write
            self._rocks.sync(w.obstacle_pos, self._rock_angle)

        pos = w.agents.pos
        if self.player_at is not None:
            pos = pos.copy()
            pos[0] = self.player_at
        angle = facing_angles(w.agents.heading)
        self.agent_sprites.sync(pos, angle)
        chasing = w.mode[self._enemy_rows] == Mode.PURSUE
        self._update_cones(w.mode[w.minds.rows] == Mode.PURSUE)
        changed = np.flatnonzero(chasing != self._chasing)
        for k in changed:  # only the enemies whose chase began or ended this frame
            tex = self.bank.enemy_chase if chasing[k] else self.bank.enemy
            self.agent_sprites.sprites[self._first_enemy + k].texture = tex.texture
        self._chasing = chasing

    @property
    def player_drawn_at(self) -> tuple[float, float]:
        """Where the player's sprite is drawn (world px): its body, or :attr:`player_at`."""
        return self.agent_sprites.position_of(len(self.agent_sprites.sprites) - 1)

    def _update_cones(self, chasing: NDArray[np.bool_]) -> None:
        """Each enemy's sight region (:func:`~game.world.sight.enemy_sight`: its cone or disc
        cut by the shadows of rocks and walls, inside the map), bright at the eye and fading
        to its range, warmer for the enemies that hunt (``chasing``, one per enemy row)."""
        fans = enemy_sight(self.world)
        if fans.owner.size:
            eye = np.array([theme.SIGHT_CALM[0], theme.SIGHT_HUNT[0]], np.float64)
            rim = np.array([theme.SIGHT_CALM[1], theme.SIGHT_HUNT[1]], np.float64)
            hunt = np.repeat(chasing[fans.owner].astype(np.intp), 3)
            t = np.clip(fans.reach, 0.0, 1.0)[:, None]
            colors = (eye[hunt] + (rim[hunt] - eye[hunt]) * t + 0.5).astype(np.uint8)
            self._cones.add(fans.vertices, colors)
        self._cones.commit()

    # -- draw --------------------------------------------------------------------------------

    def _draw_backdrop(self) -> None:
        """The static bottom layers: the dark beyond the map, the currents' tints, the grid
        (through :attr:`_backdrop`, which caches them while the camera holds still)."""
        self._static_tris.draw()
        self._grid.draw(self._pixel)

    def draw(self, pixel: float = 1.0, clear: bool = False) -> None:
        """Draw the world (under the world camera); changes nothing.

        Args:
            pixel: World units per screen pixel (1 / zoom), for antialiased edges.
            clear: paint the whole window with the background colour first (the frame's
                clear; see :class:`~game.render.backdrop.Backdrop`).
        """
        self._backdrop.draw(clear)
        self._tubes.draw(pixel)
        self._chevrons.draw(pixel)
        shown = ARROW_PARTS * self.particles.shown(pixel)
        if self._thin:
            self._thin_streaks.draw(shown)
        else:
            self._streaks.draw(pixel, shown)
        self.exits.draw()
        self._cones.draw()
        self._walls.draw(pixel)
        self._wall_inside.draw()
        self._wall_ridges.draw(pixel)
        self.rocks.draw()
        self.agent_sprites.list.draw()
