"""A running world edited live: a level diff (:mod:`game.level.changes`) applied to the world's
paths, rocks, exits, currents and agents' limits with no rebuild, or, when the agents
themselves change, the world carried over to the edited level. :meth:`World.edit
<game.world.world.World.edit>` is its entry point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from game.level import EnemySpawn, Level, NpcSpawn
from game.level.changes import Change, ObjectsChanged, RockChanged, RockRemoved
from game.level.sync import apply_changes

from .currents import Currents
from .posts import enemy_post
from .spawn import ENEMY, NPC

if TYPE_CHECKING:
    from .world import World

__all__ = ["apply_edit"]


def apply_edit(world: World, changes: Sequence[Change], level: Level | None = None) -> str:
    """Apply an editor's changes (:class:`~game.level.changes.Change` events) to ``world``
    live, with no rebuild: agents keep their positions, velocities and path progress.

    Paths change in place in ``world.paths`` with the fewest node edits (followers keep
    their progress; a drifting path gets a new drift base); a new path gets a new slot.
    Rocks are moved, resized, added or removed in the pymunk space in place (a pushable
    rock whose place in the level did not change stays where it was pushed); the steering
    core's obstacles and the world's per-body arrays follow. Exits and flow regions are
    replaced; a spawn's speeds, force, sight, separation and place (the post its wanderers
    roam round) reach its agents at once.
    An edit that changes which agents exist (a spawn added or removed; its count, path,
    radius, wander, role, formation, spacing, queueing or avoidance changed; the world's
    size) or edits a wall carries the running world over to the edited level
    (:meth:`~game.world.world.World.carry_over_to`): agents that still exist keep their place,
    motion and memory, new ones start at their spawns, and the clock goes on.

    Args:
        world: the running world.
        changes: the events of one update of the edited level, in order.
        level: the edited level (new rocks, exits, flows and spawns are read from it).

    Returns:
        ``""`` when all was applied; ``"redraw"`` when exits, flow regions or the agents
        themselves changed (a drawing made from ``world.level`` or sized by the agents must
        be rebuilt).
    """
    old = world.level
    if level is not None:
        world.level = level
    if apply_changes(world.paths, changes, world.time):
        _edit_rocks(world, changes, old, level)
    fields = {c.field for c in changes if isinstance(c, ObjectsChanged)}
    if not fields or level is None:
        return ""
    if fields & {"map", "walls"} or not _edit_spawns(world, old, level):
        world.carry_over_to(level)
        return "redraw"
    if "exits" in fields:
        # Sentinels guard the exit nearest the player: the edited exits, not the old ones.
        world.exits.replace(level.exits)
    if "flows" in fields:
        currents = world.currents
        currents.items[:] = Currents.from_level(level).items
        currents.remember(np.zeros((0, 2)), np.zeros((0, 2)))
        phys = world.physics
        phys.current, phys.in_current = currents.velocity_at(phys.pos)
    return "redraw" if fields & {"exits", "flows"} else ""


def _edit_rocks(world: World, changes: Sequence[Change], old: Level, level: Level | None) -> None:
    """Mirror rock events in the physics (see :func:`apply_edit`)."""
    phys = world.physics
    rebuild: int | None = None
    if level is not None:
        # A rock that became pushable or fixed, or a rock taken from the middle: the rocks
        # from there on are made again from the level.
        removed = any(isinstance(c, RockRemoved) for c in changes)
        for c in changes:
            if isinstance(c, RockChanged) and c.index < len(old.obstacles):
                was = old.obstacles[c.index]
                if removed or (was.dynamic, was.mass) != (c.dynamic, c.mass):
                    rebuild = c.index if rebuild is None else min(rebuild, c.index)
    live = phys.rock_centres()
    for change in changes:
        if isinstance(change, RockChanged):
            if rebuild is not None and change.index >= rebuild:
                continue
            centre = (float(change.x), float(change.y))
            if change.index < phys.rock_id.size:
                was_at = old.obstacles[change.index] if change.index < len(old.obstacles) else None
                if change.dynamic and was_at is not None and (was_at.x, was_at.y) == centre:
                    centre = (float(live[change.index, 0]), float(live[change.index, 1]))
                phys.edit_rock(change.index, centre, float(change.radius), change.id)
            else:
                phys.add_rock(centre, float(change.radius), change.dynamic, change.mass, change.id)
        elif isinstance(change, RockRemoved) and phys.rock_id.size and rebuild is None:
            phys.remove_last_rock()
    if rebuild is not None and level is not None:
        while phys.rock_id.size > rebuild:
            phys.remove_last_rock()
        for rock in level.obstacles[rebuild:]:
            phys.add_rock((rock.x, rock.y), rock.radius, rock.dynamic, rock.mass, rock.id)
    # What steers by the rocks follows the physics' rocks.
    world.brain.avoid.obstacles = phys.obstacles
    phys.rocks_version += 1
    world.read_bodies()


def _roster_of(level: Level) -> list[tuple[object, ...]]:
    """What decides which agents a level has: each spawn's id and the fields of its roster."""
    rows: list[tuple[object, ...]] = [(level.player.id, level.player.radius)]
    # Role, formation, queueing and avoidance are the roster's too (the archetype, the
    # slots, the NPC rules), so changing one carries the world over.
    rows += [
        (e.id, e.count, e.path, e.radius, e.role, e.formation, e.spacing) for e in level.enemies
    ]
    rows += [
        (n.id, n.count, n.path, n.radius, n.wander, n.role, n.queue, n.avoid) for n in level.npcs
    ]
    return rows


def _edit_spawns(world: World, old: Level, new: Level) -> bool:
    """Bring agents' limits in line with their edited spawns; False when the edit
    changes which agents exist (see :func:`apply_edit`)."""
    if _roster_of(old) != _roster_of(new):
        return False
    a = world.agents
    a.max_speed[0] = new.player.max_speed
    separation = world.crowd.column("separation")
    spawns: list[EnemySpawn | NpcSpawn] = [*new.enemies, *new.npcs]
    for spawn in spawns:
        kind = ENEMY if isinstance(spawn, EnemySpawn) else NPC
        rows = np.flatnonzero((world.roster.kind == kind) & (world.roster.spawn_id == spawn.id))
        a.max_speed[rows] = spawn.max_speed
        a.max_force[rows] = spawn.max_force
        separation[rows - 1] = spawn.separation
        # A moved spawn moves its agents' post: what a wanderer without a path roams
        # round and is pulled back to (the agents stay where they are).
        if isinstance(spawn, EnemySpawn):
            world.roster.post[rows] = enemy_post(spawn, new, world.options.seed)
        else:
            world.roster.post[rows] = (spawn.x, spawn.y)
        if isinstance(spawn, EnemySpawn):
            world.minds.sight[np.isin(world.minds.rows, rows)] = spawn.sight
    return True
