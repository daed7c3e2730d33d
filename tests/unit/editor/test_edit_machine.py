"""The edit model under any sequence of edits (a hypothesis state machine).

Edits cover every object class: path nodes and radii, rocks (moved, resized, created by a drag,
deleted, pushable), walls (drawn straight or as rectangles, corners dragged, inserted, appended
and deleted, moved whole, closed and opened, thickness on the wheel), spawns, exits and flow
regions (created, moved, resized, deleted, arrows dragged), every property of the schema (valid
and refused values), NPC areas and the map size. Any sequence of edits followed by as many
undos gives back exactly the level it started from; undo and redo always restore the level of
their step; after every step the level saves and loads back equal, a world mirroring the edits
through ``World.edit`` stays finite, and the level keeps its rules (no overlapping rocks, paths
of two distinct neighbouring nodes or more inside the world, unique names, walls of two
distinct corners or three when closed, rectangles that stay rectangles); unsaved changes are
tracked; and agents following a live steering path mirrored from the model keep a valid
progress after every edit: finite, on the path, and found within their search window around
where the edit carried their place (no jump to a far segment).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from pathlib import Path as PurePath

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from game.editor import (
    CREATABLE,
    MAX_PATH_RADIUS,
    Change,
    EditModel,
    Hit,
    HitKind,
    apply_changes,
    apply_to_paths,
    overlapping_rocks,
)
from game.editor.hits import corners, flow_arrow
from game.editor.objects import Ref, rect_of, refs, spec_of
from game.level import MAP_PROPERTIES, FlowRegion, Level, PathData, PropSpec, loads_level
from game.level.saver import apply_level, dumps_map, new_map
from game.world import World
from steering import AgentGroup, FollowPath, Path, integrate
from tests.unit.editor.helpers import WORLD_H, WORLD_W, make_level

DT = 1.0 / 60.0
#: The followers' search half-window (px of arc length).
WINDOW = 60.0
#: The path the agents follow.
FOLLOWED = "loop"

xs = st.floats(-20.0, WORLD_W + 20.0, allow_nan=False)
ys = st.floats(-20.0, WORLD_H + 20.0, allow_nan=False)
deltas = st.floats(-250.0, 250.0, allow_nan=False)
indices = st.integers(0, 50)
fractions = st.floats(0.0, 1.0)
notches = st.sampled_from([-2, -1, 1, 2])
fields = st.sampled_from(sorted(CREATABLE))


def _values(spec: PropSpec, level: Level) -> list[object]:
    """Values to try for a property: allowed ones and a few the loader refuses."""
    if spec.kind == "enum":
        return [*spec.choices, "nonsense"]
    if spec.kind == "bool":
        return [True, False, "maybe"]
    if spec.kind == "string" and spec.name == "path":
        return ["", *(p.name for p in level.paths), "nowhere"]
    if spec.kind in ("string", "file", "floats"):
        return ["", "x"] if spec.kind == "string" else ["", "1,2,oops"]
    low = spec.minimum if spec.minimum is not None else -100.0
    high = spec.maximum if spec.maximum is not None else 100.0
    if spec.kind == "int":
        high = min(high, low + 3)  # a few agents, not ten thousand
        return [int(low) - 1, int(low), int(high), "2.5"]
    return [low - 1.0, low, low + 0.5, min(high, low + 50.0), high * 2, "abc"]


def _circular_gap(c: np.ndarray, a: np.ndarray, b: np.ndarray, period: float) -> np.ndarray:
    """Arc-length distance from points ``c`` (N, 1) to intervals [a, b] (1, S), wrapping."""
    gaps = [np.maximum(np.maximum(a - (c + k), (c + k) - b), 0.0) for k in (-period, 0.0, period)]
    return np.minimum.reduce(gaps) if period > 0 else gaps[1]


class EditMachine(RuleBasedStateMachine):
    """Random edits through the model's public API, mirrored and checked after each."""

    def __init__(self) -> None:
        super().__init__()
        self.model = EditModel(make_level())
        self.start = self.model.level
        # The model's history as the test expects it: levels[0..pos] are undo, the rest redo.
        self.levels: list[Level] = [self.start]
        self.keys: list[Hashable | None] = [None]
        self.pos = 0
        self.merge_key: Hashable | None = None
        # Two mirrors of the paths: synced from the level, and fed by the model's events.
        self.paths: dict[str, Path] = {}
        apply_to_paths(self.paths, self.start)
        self.heard: dict[str, Path] = {}
        apply_to_paths(self.heard, self.start)

        def hear(changes: Sequence[Change]) -> None:
            apply_changes(self.heard, changes)

        self.model.subscribe(hear)
        self.followed = self.paths[FOLLOWED]
        self.follow = FollowPath(self.followed, search_window=WINDOW)
        s = np.linspace(0.0, self.followed.length, 6, endpoint=False)
        offsets = np.array([[0.0, 5.0], [3.0, -4.0], [-6.0, 0.0]] * 2)
        pos = self.followed.point_at(s) + offsets
        vel = self.followed.tangent_at(s) * 100.0
        self.agents = AgentGroup.create(pos, vel, max_speed=120.0, max_force=360.0)
        for _ in range(3):
            self._step()
        # A world mirroring every edit live (carried over when the edit changes who exists).
        self.world = World(self.start)
        self.model.subscribe(self._mirror)

    def _mirror(self, changes: Sequence[Change]) -> None:
        self.world.edit(changes, self.model.level)
        level = self.model.level
        spawns = [*level.enemies, *level.npcs]
        assert self.world.level is level
        assert self.world.n == 1 + sum(s.count for s in spawns)

    # -- bookkeeping ----------------------------------------------------------------------

    def _step(self) -> tuple[np.ndarray, np.ndarray]:
        """One fixed step of the followers; returns their speeds and old progress."""
        speed = np.hypot(self.agents.vel[:, 0], self.agents.vel[:, 1])
        before = self.agents.state.get(f"{self.follow.key}.progress", np.full(6, np.nan)).copy()
        integrate(self.agents, self.follow(self.agents, DT), DT)
        return speed, before

    def _recorded(self, changed: bool, merge_key: Hashable | None = None) -> None:
        """Mirror the model's history after a command that ``changed`` the level or not."""
        if changed:
            level = self.model.level
            merges = (
                merge_key is not None
                and self.merge_key == merge_key
                and self.keys[self.pos] == merge_key
            )
            if merges:
                self.pos -= 1
            del self.levels[self.pos + 1 :], self.keys[self.pos + 1 :]
            if level == self.levels[self.pos]:
                self.merge_key = None  # a merged step that came back to its start vanished
            else:
                self.levels.append(level)
                self.keys.append(merge_key)
                self.pos += 1
                self.merge_key = merge_key
        elif merge_key is None:
            self.merge_key = None
        self._check_followers()

    def _check_followers(self) -> None:
        """Sync the steering paths, step the followers once, check their progress; step
        the mirrored world and check it stays finite."""
        for _ in range(2):
            self.world.step((1.0, 0.0))
        assert np.isfinite(self.world.agents.pos).all()
        assert np.isfinite(self.world.agents.vel).all()
        path = self.followed
        state = self.agents.state
        key = self.follow.key
        nearest_before = state[f"{key}.nearest"].copy()
        version_before = int(state[f"{key}.version"][0])
        apply_to_paths(self.paths, self.model.level)
        assert self.paths[FOLLOWED] is path, "the followed path was replaced, not edited"
        edited = path.version != version_before
        centre = path.remap(nearest_before, version_before)
        assert np.isfinite(centre).all(), "an edit could not carry the agents' place across"
        speed, progress_before = self._step()
        progress = state[f"{key}.progress"]
        nearest = state[f"{key}.nearest"]
        length = path.length
        assert np.isfinite(progress).all()
        assert ((progress >= 0.0) & (progress <= length)).all()
        # No jump: the new nearest point lies on a segment within the window around the
        # place the edit carried each agent to.
        cum = path.cumulative
        a, b = cum[None, :-1], cum[None, 1:]
        period = length if path.closed else 0.0
        near_window = _circular_gap(centre[:, None], a, b, period) <= WINDOW + 1e-6
        s = nearest[:, None]
        holds = (a - 1e-6 <= s) & (s <= b + 1e-6)
        if path.closed:  # s = 0 is also the end of the closing segment
            holds |= (a - 1e-6 <= s + length) & (s + length <= b + 1e-6)
        assert (near_window & holds).any(axis=1).all(), (centre, nearest, cum)
        if edited:
            assert np.array_equal(progress, nearest)
        else:
            step = progress - progress_before
            if path.closed:
                step = np.mod(step + length / 2, length) - length / 2
            limit = self.follow.progress_rate * speed * DT + 1e-6
            assert (np.abs(step) <= limit).all()

    def _path(self, i: int) -> PathData:
        paths = self.model.level.paths
        return paths[i % len(paths)]

    # -- edits ----------------------------------------------------------------------------

    @rule(i=indices, n=indices, dx=deltas, dy=deltas, moves=st.integers(1, 4))
    def drag_node(self, i: int, n: int, dx: float, dy: float, moves: int) -> None:
        path = self._path(i)
        k = n % len(path.points)
        x, y = path.points[k]
        assert self.model.begin_drag(Hit(HitKind.NODE, k, (x, y), 0.0, path.name), x, y)
        for m in range(1, moves + 1):
            self.model.update_drag(x + dx * m / moves, y + dy * m / moves)
        self._recorded(self.model.end_drag())

    @rule(i=indices, s=indices, t=fractions, dx=deltas, dy=deltas)
    def click_or_drag_segment(self, i: int, s: int, t: float, dx: float, dy: float) -> None:
        path = self._path(i)
        count = len(path.points) if path.closed else len(path.points) - 1
        seg = s % count
        (ax, ay), (bx, by) = path.points[seg], path.points[(seg + 1) % len(path.points)]
        x, y = ax + t * (bx - ax), ay + t * (by - ay)
        if self.model.begin_drag(Hit(HitKind.SEGMENT, seg, (x, y), 0.0, path.name), x, y):
            self.model.update_drag(x + dx, y + dy)
            self._recorded(self.model.end_drag())
        else:
            self._recorded(False)

    @rule(i=indices, s=indices, x=xs, y=ys)
    def insert_node(self, i: int, s: int, x: float, y: float) -> None:
        path = self._path(i)
        count = len(path.points) if path.closed else len(path.points) - 1
        self._recorded(self.model.insert_node(path.name, s % count, x, y))

    @rule(i=indices, x=xs, y=ys)
    def append_node(self, i: int, x: float, y: float) -> None:
        self._recorded(self.model.append_node(self._path(i).name, x, y))

    @rule(i=indices, n=indices)
    def delete_node(self, i: int, n: int) -> None:
        path = self._path(i)
        self._recorded(self.model.delete_node(path.name, n % len(path.points)))

    @rule(i=indices, steps=notches)
    def wheel_path(self, i: int, steps: int) -> None:
        name = self._path(i).name
        self._recorded(self.model.scale_path_radius(name, steps), ("path radius", name))

    @rule(i=indices, to=st.floats(-80.0, 200.0))
    def drag_edge(self, i: int, to: float) -> None:
        path = self._path(i)
        (ax, ay), (bx, by) = path.points[0], path.points[1]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        norm = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / norm, (bx - ax) / norm
        x, y = mx + nx * path.radius, my + ny * path.radius
        assert self.model.begin_drag(Hit(HitKind.EDGE, 0, (mx, my), 0.0, path.name), x, y)
        self.model.update_drag(mx + nx * to, my + ny * to)
        self._recorded(self.model.end_drag())

    @rule(i=indices)
    def toggle_closed(self, i: int) -> None:
        self._recorded(self.model.toggle_closed(self._path(i).name))

    @rule(x=xs, y=ys)
    def new_path(self, x: float, y: float) -> None:
        self._recorded(self.model.new_path(x, y) is not None)

    @rule(r=indices, dx=deltas, dy=deltas, moves=st.integers(1, 3))
    def drag_rock(self, r: int, dx: float, dy: float, moves: int) -> None:
        rocks = self.model.level.obstacles
        k = r % len(rocks)
        x, y = rocks[k].x, rocks[k].y
        assert self.model.begin_drag(Hit(HitKind.ROCK, k, (x, y), 0.0), x, y)
        for m in range(1, moves + 1):
            self.model.update_drag(x + dx * m / moves, y + dy * m / moves)
        self._recorded(self.model.end_drag())

    @rule(r=indices, dr=st.floats(-100.0, 200.0))
    def drag_rim(self, r: int, dr: float) -> None:
        rock = self.model.level.obstacles[r % len(self.model.level.obstacles)]
        k = r % len(self.model.level.obstacles)
        x, y = rock.x + rock.radius, rock.y
        assert self.model.begin_drag(Hit(HitKind.RIM, k, (rock.x, rock.y), 0.0), x, y)
        self.model.update_drag(x + dr, y)
        self._recorded(self.model.end_drag())

    @rule(r=indices, x=xs, y=ys)
    def move_rock(self, r: int, x: float, y: float) -> None:
        self._recorded(self.model.move_rock(r % len(self.model.level.obstacles), x, y))

    @rule(r=indices, radius=st.floats(1.0, 300.0))
    def resize_rock(self, r: int, radius: float) -> None:
        self._recorded(self.model.resize_rock(r % len(self.model.level.obstacles), radius))

    @rule(r=indices, steps=notches)
    def wheel_rock(self, r: int, steps: int) -> None:
        k = r % len(self.model.level.obstacles)
        self._recorded(self.model.scale_rock_radius(k, steps), ("rock radius", k))

    @rule(i=indices, dx=deltas)
    def cancelled_drag(self, i: int, dx: float) -> None:
        path = self._path(i)
        x, y = path.points[0]
        before = self.model.level
        self.model.begin_drag(Hit(HitKind.NODE, 0, (x, y), 0.0, path.name), x, y)
        self.model.update_drag(x + dx, y)
        assert self.model.cancel_drag()
        assert self.model.level == before
        self._recorded(False)

    @rule()
    def toggle_snap(self) -> None:
        self.model.toggle_snap()
        self._check_followers()

    # -- every other object ----------------------------------------------------------------

    def _others(self) -> list[Ref]:
        return [r for r in refs(self.model.level) if r.field not in ("paths",)]

    @rule(field=fields, x=xs, y=ys)
    def create(self, field: str, x: float, y: float) -> None:
        self._recorded(self.model.create(field, x, y) is not None)

    @rule(field=fields, x=xs, y=ys, dx=deltas, dy=deltas)
    def create_by_drag(self, field: str, x: float, y: float, dx: float, dy: float) -> None:
        if self.model.begin_create(field, x, y):
            self.model.update_drag(x + dx, y + dy)
            self._recorded(self.model.end_drag())
        else:
            self._recorded(False)

    @rule(k=indices)
    def delete_object(self, k: int) -> None:
        # The rock rules need a rock to work on: the last one stays.
        keep = len(self.model.level.obstacles) <= 1
        others = [r for r in self._others() if not (keep and r.field == "obstacles")]
        self._recorded(self.model.delete(others[k % len(others)]))

    @rule(k=indices, corner=st.integers(0, 3), dx=deltas, dy=deltas, what=st.integers(0, 2))
    def drag_object(self, k: int, corner: int, dx: float, dy: float, what: int) -> None:
        others = [r for r in self._others() if r.field not in ("obstacles", "walls")]
        ref = others[k % len(others)]
        item = self.model.level.player if ref.field == "player" else None
        item = item or getattr(self.model.level, ref.field)[ref.index]
        rect = rect_of(item)
        if isinstance(item, FlowRegion) and what == 2:
            kind, point = HitKind.ARROW, flow_arrow(item)[1]
        elif rect is not None and what == 1:
            kind, point = HitKind.CORNER, corners(rect)[corner]
        elif rect is not None:
            kind, point = HitKind.AREA, rect.center
        else:
            kind, point = HitKind.SPAWN, (item.x, item.y)
        index = corner if kind is HitKind.CORNER else 0
        assert self.model.begin_drag(Hit(kind, index, point, 0.0, ref=ref), *point)
        self.model.update_drag(point[0] + dx, point[1] + dy)
        self._recorded(self.model.end_drag())

    # -- walls ------------------------------------------------------------------------------

    def _wall(self, w: int) -> int | None:
        walls = self.model.level.walls
        return w % len(walls) if walls else None

    @rule(x=xs, y=ys, dx=deltas, dy=deltas, rect=st.booleans())
    def draw_wall(self, x: float, y: float, dx: float, dy: float, rect: bool) -> None:
        if self.model.begin_wall(x, y, rect=rect):
            self.model.update_drag(x + dx, y + dy)
            self._recorded(self.model.end_drag())
        else:
            self._recorded(False)

    @rule(w=indices, n=indices, dx=deltas, dy=deltas, body=st.booleans())
    def drag_wall(self, w: int, n: int, dx: float, dy: float, body: bool) -> None:
        i = self._wall(w)
        if i is None:
            return
        wall = self.model.level.walls[i]
        k = n % len(wall.points)
        point = wall.points[k]
        kind = HitKind.WALL if body else HitKind.NODE
        hit = Hit(kind, 0 if body else k, point, 0.0, ref=Ref("walls", i))
        assert self.model.begin_drag(hit, *point)
        self.model.update_drag(point[0] + dx, point[1] + dy)
        self._recorded(self.model.end_drag())

    @rule(w=indices, n=indices, x=xs, y=ys, what=st.integers(0, 3))
    def wall_corner(self, w: int, n: int, x: float, y: float, what: int) -> None:
        i = self._wall(w)
        if i is None:
            return
        wall = self.model.level.walls[i]
        m = self.model
        if what == 0:
            segments = len(wall.points) - (0 if wall.closed else 1)
            self._recorded(m.insert_wall_node(i, n % segments, x, y))
        elif what == 1:
            self._recorded(m.append_wall_node(i, x, y))
        elif what == 2:
            self._recorded(m.delete_wall_node(i, n % len(wall.points)))
        else:
            self._recorded(m.toggle_wall_closed(i))

    @rule(w=indices, steps=notches)
    def wheel_wall(self, w: int, steps: int) -> None:
        i = self._wall(w)
        if i is not None:
            self._recorded(self.model.scale_wall_thickness(i, steps), ("wall thickness", i))

    @rule(k=indices, p=indices, v=indices, merge=st.booleans())
    def set_property(self, k: int, p: int, v: int, merge: bool) -> None:
        refs_ = [None, *refs(self.model.level)]
        ref = refs_[k % len(refs_)]
        specs = MAP_PROPERTIES if ref is None else spec_of(ref)
        if not specs:
            return
        spec = specs[p % len(specs)]
        values = _values(spec, self.model.level)
        key = ("property", ref, spec.name) if merge else None
        changed = self.model.set_property(ref, spec, values[v % len(values)], merge=merge)
        # A refused or unchanged value ends merging (the next wheel notch is a new step).
        self._recorded(changed, key if changed else None)

    @rule(k=indices)
    def toggle_npc_area(self, k: int) -> None:
        npcs = self.model.level.npcs
        if npcs:
            self._recorded(self.model.toggle_area(Ref("npcs", k % len(npcs))))

    @rule(w=st.integers(-1, 60), h=st.integers(-1, 30))
    def map_size(self, w: int, h: int) -> None:
        self._recorded(self.model.set_map_size(w, h))

    # -- history --------------------------------------------------------------------------

    @rule()
    def undo(self) -> None:
        done = self.model.undo()
        assert done == (self.pos > 0)
        if done:
            self.pos -= 1
        assert self.model.level == self.levels[self.pos]
        self.merge_key = None
        self._check_followers()

    @rule()
    def redo(self) -> None:
        done = self.model.redo()
        assert done == (self.pos < len(self.levels) - 1)
        if done:
            self.pos += 1
        assert self.model.level == self.levels[self.pos]
        self.merge_key = None
        self._check_followers()

    @rule()
    def undo_everything(self) -> None:
        undos = 0
        while self.model.undo():
            undos += 1
        assert undos == self.pos
        assert self.model.level == self.start
        assert not self.model.dirty
        self.pos = 0
        self.merge_key = None
        self._check_followers()

    # -- invariants -----------------------------------------------------------------------

    @invariant()
    def history_matches(self) -> None:
        assert self.model.level == self.levels[self.pos]
        assert len(self.model.undo_labels) == self.pos
        assert len(self.model.redo_labels) == len(self.levels) - 1 - self.pos
        assert self.model.dirty == (self.model.level != self.start)

    @invariant()
    def level_rules_hold(self) -> None:
        level = self.model.level
        w, h = level.width_px, level.height_px
        names = [p.name for p in level.paths]
        assert len(set(names)) == len(names)
        for path in level.paths:
            pts = path.points
            assert len(pts) >= 2
            ring = pts[1:] + (pts[:1] if path.closed else ())
            assert all(a != b for a, b in zip(pts, ring, strict=False)), pts
            assert all(0 <= x <= w and 0 <= y <= h for x, y in pts)
            # Drags keep MIN_PATH_RADIUS; the panel allows what the loader allows (> 0).
            assert 0.0 < path.radius <= MAX_PATH_RADIUS
        rocks = level.obstacles
        assert all(overlapping_rocks(rocks, i) == [] for i in range(len(rocks)))
        for wall in level.walls:
            pts = wall.points
            assert len(set(pts)) >= (3 if wall.closed else 2), wall
            assert all(0 <= x <= w and 0 <= y <= h for x, y in pts), wall
            if wall.shape == "rect":
                (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
                assert y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0, pts
                assert x0 < x1 and y1 < y2, pts

    @invariant()
    def saves_and_loads_back_equal(self) -> None:
        level = self.model.level
        target = PurePath("machine.tmj")
        loaded = loads_level(dumps_map(apply_level(new_map(level), level, target)), target)
        diff = [(a, b) for a, b in zip(loaded.objects(), level.objects(), strict=False) if a != b]
        assert loaded == level, diff or (loaded, level)

    @invariant()
    def mirrors_match(self) -> None:
        for mirror in (self.paths, self.heard):
            assert set(mirror) == {p.name for p in self.model.level.paths}
        for data in self.model.level.paths:
            for mirror in (self.paths, self.heard):
                m = mirror[data.name]
                nodes = [(float(x), float(y)) for x, y in m.nodes]
                assert (nodes, m.closed, m.radius) == (list(data.points), data.closed, data.radius)


EditMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestEditMachine = EditMachine.TestCase
TestEditMachine.pytestmark = [pytest.mark.slow]  # about a minute of stateful runs
