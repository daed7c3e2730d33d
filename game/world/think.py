"""The think system: every agent's mode for this step, decided in one compiled pass over the
state's columns.

* **Enemies** (Reynolds' and Buckland's state machine): an enemy that sees the player, or
  whose formation does, pursues it and remembers where it saw it; one that lost sight heads
  for the last sighting, and after ``lose_after`` seconds a sentinel interposes again
  (``guard``), a formation follower takes its slot again (``form``) and any other enemy
  returns (``return``) to the nearest point of its path (its post without one), where it
  patrols again (its path progress searched afresh) or wanders.
* **NPCs**: ``follow`` with a path, else ``flow`` in a current, else ``wander`` or ``idle``;
  fish within flee distance of the player ``flee``; hiders near the player or an enemy
  ``hide`` (with hysteresis: they start within panic distance and calm down beyond calm
  distance).
* **Open paths**: an agent at the end of an open path walks it back, and at its start forward
  again.

:func:`think` is the system's one entry point. It reads what the perceive system left
(:attr:`~game.world.brains.EnemyMinds.sighted`, :attr:`World.in_current`) and writes
``world.state`` (``mode``, ``target``, ``reverse``, ``hiding``, ``threat``), the enemies'
memory (:class:`~game.world.brains.EnemyMinds`) and the exit nearest the player
(``world.exits.nearest``). The
per-agent work is one compiled kernel (:func:`_decide_modes`) built on the engine's path
maths (:mod:`steering.kernels`), and one more for the hiders' nearest threats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from steering.kernels import (
    P_CLOSED,
    P_COUNT,
    P_LENGTH,
    S_RADIUS,
    hypot,
    locate,
    nearest,
    njit,
    use_cache,
)
from steering.vec import FloatArray, length

from .brains import Mode

if TYPE_CHECKING:
    from .world import World

__all__ = ["think"]

use_cache(__file__)

IntArray = NDArray[np.intp]

# Mode values as plain ints for the kernel (numba reads module globals as constants).
PATROL = int(Mode.PATROL)
PURSUE = int(Mode.PURSUE)
RETURN = int(Mode.RETURN)
WANDER = int(Mode.WANDER)
FLEE = int(Mode.FLEE)
FLOW = int(Mode.FLOW)
FOLLOW = int(Mode.FOLLOW)
GUARD = int(Mode.GUARD)
FORM = int(Mode.FORM)
HIDE = int(Mode.HIDE)


class ModeState(NamedTuple):
    """What :func:`_decide_modes` writes of the world's state (per agent row)."""

    mode: NDArray[np.int8]
    reverse: NDArray[np.bool_]
    target: FloatArray
    hiding: NDArray[np.bool_]
    sees: NDArray[np.bool_]


class AgentColumns(NamedTuple):
    """What :func:`_decide_modes` reads of every agent: rows of the agents' arrays, except
    the crowd's path columns (``progress``, ``nearest``: row ``r - 1``, the player has none),
    which it resets when an enemy patrols again."""

    pos: FloatArray
    vel: FloatArray
    post: FloatArray
    path_index: IntArray
    progress: FloatArray
    nearest: FloatArray
    in_current: NDArray[np.bool_]


class MindColumns(NamedTuple):
    """The enemies' memory (:class:`~game.world.brains.EnemyMinds`), one row per enemy."""

    rows: IntArray
    sighted: NDArray[np.bool_]
    squad: IntArray
    sentinel: NDArray[np.bool_]
    follower: NDArray[np.bool_]
    has_path: NDArray[np.bool_]
    lose_after: FloatArray
    lost_for: FloatArray
    last_seen: FloatArray
    last_vel: FloatArray
    seen: NDArray[np.bool_]


class NpcColumns(NamedTuple):
    """The NPCs' rules (:class:`~game.world.brains.NpcRules`), one row per NPC."""

    rows: IntArray
    free: NDArray[np.bool_]
    base: NDArray[np.int8]
    hider: NDArray[np.bool_]


def think(world: World, dt: float, *, enemies: bool = True) -> None:
    """Decide every agent's mode for this step (see the module docstring).

    Args:
        world: the world; its perceive system has run this step.
        dt: the step (s), for the enemies' lost-sight clocks.
        enemies: False decides the NPCs' modes only (a world just built, before any sight).
    """
    a = world.agents
    state = world.state
    minds = world.minds
    npcs = world.npcs
    if npcs.has_hiders:
        _hiders_threats(world)
    geo = world.paths.geometry()
    follow = world.brain.follow
    progress = follow.progress(world.crowd)
    near_col = follow.nearest(world.crowd)
    tuning = world.options.tuning
    exit_k = _decide_modes(
        enemies,
        (state.mode, state.reverse, state.target, state.hiding, state.sees),
        (
            a.pos,
            a.vel,
            world.roster.post,
            world.roster.path,
            progress,
            near_col,
            world.physics.in_current[: world.roster.n],  # world.in_current
        ),
        (
            minds.rows,
            minds.sighted,
            minds.squad,
            minds.sentinel,
            minds.follower,
            minds.has_path,
            minds.lose_after,
            minds.lost_for,
            minds.last_seen,
            minds.last_vel,
            minds.seen,
        ),
        (npcs.rows, npcs.free, npcs.base, npcs.hider),
        tuning.fish.flee_distance + float(a.radius[0]),
        tuning.patrol.leash / 2,
        world.exits.centres,
        geo.pf,
        geo.pi,
        geo.sf,
        geo.real,
        float(dt),
    )
    if exit_k >= 0:
        world.exits.nearest[:] = world.exits.centres[exit_k]  # in place: the goals read it


def _hiders_threats(world: World) -> None:
    """Each hider's nearest threat (the player or an enemy), kept with its velocity, and
    whether it hides from it now (its hysteresis, :attr:`AgentState.hiding`): one compiled
    pass over hiders and threats, a k-d tree for crowds whose product of the two is large."""
    a = world.agents
    state = world.state
    npcs = world.npcs
    enemies = world.minds.rows
    hider = world.options.tuning.hider
    calm, panic = float(hider.calm_distance), float(hider.panic_distance)
    if npcs.n_hiders * (enemies.size + 1) <= BRUTE_THREATS:
        _nearest_threats(
            a.pos, a.vel, npcs.rows, npcs.hider, enemies, calm, panic,
            state.threat, state.threat_vel, state.hiding,
        )  # fmt: skip
        return
    hiders = npcs.rows[npcs.hider]
    threats = np.concatenate(([0], enemies))
    _, k = cKDTree(a.pos[threats]).query(a.pos[hiders])
    who = threats[np.asarray(k, dtype=np.intp)]
    state.threat[hiders] = a.pos[who]
    state.threat_vel[hiders] = a.vel[who]
    d = length(a.pos[hiders] - a.pos[who])
    limit = np.where(state.hiding[hiders], calm, panic)
    state.hiding[hiders] = d < limit


#: Above this many (hider, threat) pairs, :func:`_hiders_threats` uses a k-d tree.
BRUTE_THREATS = 50_000


@njit
def _nearest_threats(
    pos: FloatArray,
    vel: FloatArray,
    rows: IntArray,
    is_hider: NDArray[np.bool_],
    enemies: IntArray,
    calm: float,
    panic: float,
    threat: FloatArray,
    threat_vel: FloatArray,
    hiding: NDArray[np.bool_],
) -> None:
    """:func:`_hiders_threats` by measuring every hider (``rows`` where ``is_hider``) against
    every threat (the player, row 0, then ``enemies``; the first of equally near ones)."""
    for k in range(rows.shape[0]):
        if not is_hider[k]:
            continue
        h = rows[k]
        hx, hy = pos[h, 0], pos[h, 1]
        who = 0
        best = (pos[0, 0] - hx) ** 2 + (pos[0, 1] - hy) ** 2
        for e in range(enemies.shape[0]):
            j = enemies[e]
            d2 = (pos[j, 0] - hx) ** 2 + (pos[j, 1] - hy) ** 2
            if d2 < best:
                best = d2
                who = j
        threat[h, 0] = pos[who, 0]
        threat[h, 1] = pos[who, 1]
        threat_vel[h, 0] = vel[who, 0]
        threat_vel[h, 1] = vel[who, 1]
        limit = calm if hiding[h] else panic
        hiding[h] = hypot(hx - pos[who, 0], hy - pos[who, 1]) < limit


@njit
def _decide_modes(
    enemies: bool,
    state_fields: tuple[Any, ...],
    agent_fields: tuple[Any, ...],
    mind_fields: tuple[Any, ...],
    npc_fields: tuple[Any, ...],
    reach: float,
    leash_half: float,
    exits: FloatArray,
    pf: FloatArray,
    pi: IntArray,
    sf: FloatArray,
    real: IntArray,
    dt: float,
) -> int:
    """Every mode of this step, in place; returns the row of ``exits`` nearest the player
    (-1 without exits). The four records come as plain tuples of their fields, in order
    (:class:`ModeState`, :class:`AgentColumns`, :class:`MindColumns`, :class:`NpcColumns`):
    numba types a plain tuple from Python in C, a NamedTuple in Python (some 0.4 us a record,
    measured); they are named again here."""
    st = ModeState(*state_fields)
    ag = AgentColumns(*agent_fields)
    mi = MindColumns(*mind_fields)
    nc = NpcColumns(*npc_fields)
    mode, reverse, target, hiding, sees = st.mode, st.reverse, st.target, st.hiding, st.sees
    pos, vel, post, path_index = ag.pos, ag.vel, ag.post, ag.path_index
    progress, near_col, in_current = ag.progress, ag.nearest, ag.in_current
    rows, sighted, squad, sentinel = mi.rows, mi.sighted, mi.squad, mi.sentinel
    follower, has_path, lose_after, lost_for = mi.follower, mi.has_path, mi.lose_after, mi.lost_for
    last_seen, last_vel, seen = mi.last_seen, mi.last_vel, mi.seen
    npc, npc_free, npc_base, hider = nc.rows, nc.free, nc.base, nc.hider
    px, py = pos[0, 0], pos[0, 1]
    if enemies:
        # A formation sees what any of its members sees.
        squads = 1
        for e in range(rows.shape[0]):
            squads = max(squads, squad[e] + 1)
        spotted = np.zeros(squads, dtype=np.bool_)
        for e in range(rows.shape[0]):
            if squad[e] >= 0 and sighted[e]:
                spotted[squad[e]] = True
        for e in range(rows.shape[0]):
            r = rows[e]
            m = mode[r]
            back = False
            if m == RETURN:
                # Head for the nearest point of the path (the post without one); close enough
                # is within the path's radius there (half the leash at a post).
                tx, ty = post[r, 0], post[r, 1]
                limit = leash_half
                p = path_index[r]
                if p >= 0:
                    _, s, tx, ty = nearest(
                        pf, pi, sf, real, p, 0, pi[p, P_COUNT], pos[r, 0], pos[r, 1]
                    )
                    j, _ = locate(pf, pi, sf, p, s)
                    limit = sf[real[j], S_RADIUS]
                target[r, 0] = tx
                target[r, 1] = ty
                back = hypot(pos[r, 0] - tx, pos[r, 1] - ty) <= limit
            now = sighted[e] or (squad[e] >= 0 and spotted[squad[e]])
            seen[e] = now
            sees[r] = now
            if now:
                last_seen[e, 0] = px
                last_seen[e, 1] = py
                last_vel[e, 0] = vel[0, 0]
                last_vel[e, 1] = vel[0, 1]
                lost_for[e] = 0.0
                m = PURSUE
            elif m == PURSUE:
                lost_for[e] += dt
                if lost_for[e] >= lose_after[e]:
                    m = GUARD if sentinel[e] else (FORM if follower[e] else RETURN)
            if m == RETURN and back:
                if has_path[e]:
                    m = PATROL
                    progress[r - 1] = np.nan  # search the whole path afresh
                    near_col[r - 1] = np.nan
                else:
                    m = WANDER
            mode[r] = m
            if m == PURSUE:
                target[r, 0] = px if now else last_seen[e, 0]
                target[r, 1] = py if now else last_seen[e, 1]
    for k in range(npc.shape[0]):
        r = npc[k]
        m = FLOW if in_current[r] and npc_free[k] else npc_base[k]
        if hider[k]:
            if hiding[r]:
                m = HIDE
        elif hypot(pos[r, 0] - px, pos[r, 1] - py) < reach:
            m = FLEE
        mode[r] = m
    if enemies:
        # Open paths turn at their ends: within the radius of the end an agent walks toward.
        for r in range(1, mode.shape[0]):
            m = mode[r]
            p = path_index[r]
            if (m != PATROL and m != FOLLOW) or p < 0 or pf[p, P_CLOSED] > 0.5:
                continue
            s = progress[r - 1]
            big_l = pf[p, P_LENGTH]
            forward = not reverse[r]
            j, _ = locate(pf, pi, sf, p, big_l if forward else 0.0)
            margin = max(sf[real[j], S_RADIUS], 1.0)
            if forward and s >= big_l - margin:
                reverse[r] = True
            elif not forward and s <= margin:
                reverse[r] = False
    best = -1
    best_d = np.inf
    for k in range(exits.shape[0]):
        d = hypot(exits[k, 0] - px, exits[k, 1] - py)
        if d < best_d or best < 0:
            best, best_d = k, d
    return best
