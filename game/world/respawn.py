"""Carry a running world over to an edited level whose agents differ (issue 16).

An edit that changes which agents exist or what they are (a spawn added or deleted, its
count, path, radius, wander, role, formation, spacing, queueing or avoidance changed, the map
resized) cannot be applied to a world's fixed-size arrays in place.
:func:`carry_over` instead moves the state of a running world into a world freshly built from
the edited level: every agent that still exists keeps its place, velocity and heading, and,
when its role is unchanged, its mode, its behaviours' memory (path progress, wander angle) and
what it last saw of the player; new agents appear at their spawns; removed ones are gone.
Pushable rocks stay where they were pushed, and the clock goes on. So adding a fish to a spawn
does not send the rest of the crowd back to their spawns.

An agent is "the same" in both worlds when it has the same kind, the same spawn (Tiled id) and
the same ordinal among that spawn's agents: raising a spawn's count from 3 to 5 keeps the first
three and adds two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from game.level import Level

from .state import MOTION, REMEMBERED

if TYPE_CHECKING:
    from .world import World

__all__ = ["agent_keys", "carry_over", "match_agents"]

IntArray = NDArray[np.intp]


def agent_keys(world: World) -> list[tuple[int, int, int]]:
    """(kind, spawn id, ordinal among that spawn's agents of that kind) for every row."""
    seen: dict[tuple[int, int], int] = {}
    keys = []
    for kind, spawn in zip(world.roster.kind.tolist(), world.roster.spawn_id.tolist(), strict=True):
        k = seen.get((kind, spawn), 0)
        seen[(kind, spawn)] = k + 1
        keys.append((kind, spawn, k))
    return keys


def match_agents(old: World, new: World) -> tuple[IntArray, IntArray]:
    """Rows of the same agents in two worlds (see the module's docstring).

    Returns:
        ``(old_rows, new_rows)``, equal length, in ``new``'s row order; row 0 (the player)
        always matches row 0.
    """
    where = {key: row for row, key in enumerate(agent_keys(old))}
    pairs = [(where[key], row) for row, key in enumerate(agent_keys(new)) if key in where]
    rows = np.array(pairs, dtype=np.intp).reshape(-1, 2)
    return rows[:, 0], rows[:, 1]


def _path_names(world: World) -> NDArray[np.object_]:
    """(N,) the name of each agent's path, None for none."""
    names = np.array([p.name for p in world.level.paths] + [None], dtype=object)
    return names[world.roster.path]  # -1 picks the trailing None


def _same_role(old: World, new: World, o: IntArray, n: IntArray) -> NDArray[np.bool_]:
    """Which matched agents keep their role: same path (by name), archetype and leadership."""
    ro, rn = old.roster, new.roster
    return (
        (_path_names(old)[o] == _path_names(new)[n])
        & (ro.archetype[o] == rn.archetype[n])
        & ((ro.leader[o] >= 0) == (rn.leader[n] >= 0))
        & (ro.wander[o] == rn.wander[n])
    )


def _inside(pos: NDArray[np.float64], radius: NDArray[np.float64], level: Level) -> None:
    """Clamp agents into the map (after it shrank), in place."""
    r = np.minimum(radius, min(level.width_px, level.height_px) / 2)
    np.clip(pos[:, 0], r, level.width_px - r, out=pos[:, 0])
    np.clip(pos[:, 1], r, level.height_px - r, out=pos[:, 1])


def carry_over(old: World, new: World) -> int:
    """Move the running state of ``old`` into ``new``, a world just built from an edited level.

    Args:
        old: the running world (left as it was).
        new: a fresh world of the edited level, at frame 0.

    Returns:
        How many agents were carried (the rest of ``new``'s agents start at their spawns).
    """
    o, n = match_agents(old, new)
    same = _same_role(old, new, o, n)
    so, sn = o[same], n[same]

    # The clock, the inputs so far, the outcome and the wander generator go on.
    new.frame, new.outcome = old.frame, old.outcome
    new.player.inputs = list(old.player.inputs)
    new.brain.rng = old.brain.rng
    new.brain.wander.rng = old.brain.wander.rng  # the generator the wander draws from

    # Every matched agent keeps where it is and how it moves; agents with the same role also
    # keep what they remember: mode, held forces, their behaviours' memory and their minds.
    new.state.put(n, old.state.take(o), MOTION)
    b = new.agents  # the engine's group over the new state's motion columns
    _inside(b.pos, b.radius, new.level)
    heading = b.heading[n].copy()  # reading the bodies back turns headings: kept here
    new.state.put(sn, old.state.take(so), REMEMBERED)

    # Pushable rocks that are the same rock at the same place in both levels stay where they
    # were pushed.
    pos, vel = new.physics.read()
    pos, vel = pos.copy(), vel.copy()
    pos[: new.n], vel[: new.n] = b.pos, b.vel
    old_pos, old_vel = old.physics.read()
    old_rows = {
        (rock.id, rock.x, rock.y): old.n + k
        for k, j in enumerate(old.physics.dynamic_rocks.tolist())
        for rock in (old.level.obstacles[j],)
    }
    for k, j in enumerate(new.physics.dynamic_rocks.tolist()):
        rock = new.level.obstacles[j]
        row = old_rows.get((rock.id, rock.x, rock.y))
        if row is not None:
            pos[new.n + k], vel[new.n + k] = old_pos[row], old_vel[row]
    new.physics.write(vel, np.zeros_like(vel), pos)
    new.read_bodies()
    b.heading[n] = heading
    return int(o.size)
