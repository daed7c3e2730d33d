"""Every level's hint is true (issue 44): one test per level names the claim its hint makes
and checks it, in a simulation of the shipped level where it can be checked."""

from __future__ import annotations

import numpy as np
import pytest

from game.clock import DT
from game.level import Level, load_level, shipped_levels
from game.world.brains import Mode
from game.world.spawn import ENEMY
from game.world.think import think
from game.world.world import World

LEVELS = {p.stem: p for p in shipped_levels()}


def _level(stem: str) -> Level:
    return load_level(LEVELS[stem])


def _sees(world: World, row: int, at: tuple[float, float]) -> bool:
    """Whether enemy ``row`` sees a player standing at ``at`` (the world as it is now)."""
    pos = world.agents.pos.copy()
    pos[0] = at
    world.minds.sense(pos, world.agents.heading, world.physics.line_of_sight)
    e = int(np.flatnonzero(world.minds.rows == row)[0])
    return bool(world.minds.sighted[e])


def _enemy_rows(world: World) -> list[int]:
    return [int(r) for r in np.flatnonzero(world.kind[: world.n] == ENEMY)]


def _clear_point(world: World, row: int, direction: np.ndarray, gap: float) -> tuple[float, float]:
    p = world.agents.pos[row] + gap * direction
    return (float(p[0]), float(p[1]))


def test_every_hint_and_title_is_set() -> None:
    for stem, path in LEVELS.items():
        level = load_level(path)
        assert level.title and level.hint, stem


def test_every_drawn_path_is_walked_by_someone() -> None:
    # Level 2 drew a "ferry" path that no one walked: a drawn path promises a walker
    for stem, path in LEVELS.items():
        level = load_level(path)
        used = {s.path for s in (*level.enemies, *level.npcs) if s.path}
        assert {p.name for p in level.paths} <= used, stem


def test_01_patrol_guards_do_not_see_behind_them() -> None:
    # Claim: "Guards ... see all round but their backs. Slip past behind them."
    world = World(_level("01_patrol"))
    for _ in range(60):
        world.step()
    checked = 0
    for r in _enemy_rows(world):
        h = world.agents.heading[r] / np.linalg.norm(world.agents.heading[r])
        front = _clear_point(world, r, h, 100.0)
        side = _clear_point(world, r, np.array([-h[1], h[0]]), 100.0)
        behind = _clear_point(world, r, -h, 100.0)
        los = world.physics.line_of_sight
        here = (float(world.agents.pos[r, 0]), float(world.agents.pos[r, 1]))
        if not (los(here, front) and los(here, side) and los(here, behind)):
            continue  # a pillar in the way would hide the player anyway
        checked += 1
        assert _sees(world, r, front) and _sees(world, r, side), r
        assert not _sees(world, r, behind), f"guard row {r} sees a player 100 px behind it"
    assert checked >= 2


def test_02_currents_the_river_runs_up_and_carries_you() -> None:
    # Claim: "The river runs up the screen and carries you"
    level = _level("02_currents")
    world = World(level)
    river = next(f for f in level.flows if f.name == "river")
    r = river.rect
    xs = np.linspace(r.left + 20, r.right - 20, 5)
    ys = np.linspace(r.bottom + 100, r.top - 100, 5)
    points = np.array([(x, y) for x in xs for y in ys])
    v, inside = world.currents.velocity_at(points)
    assert inside.all()
    assert np.median(v[:, 1]) > 60.0  # up the screen, faster than drifting
    assert np.median(v[:, 1]) > 3 * np.median(np.abs(v[:, 0]))


def test_03_rockfield_hunters_see_far_and_rocks_break_their_sight() -> None:
    # Claim: "Hunters see far and chase hard. Break their sight behind rocks."
    level = _level("03_rockfield")
    # farther than any guard of level 1
    assert min(e.sight for e in level.enemies) > max(e.sight for e in _level("01_patrol").enemies)
    world = World(level)
    rock = max(level.obstacles, key=lambda o: o.radius)
    r = _enemy_rows(world)[0]
    # a player just behind the rock, as seen from the hunter, is hidden
    c = np.array([rock.x, rock.y])
    away = c - world.agents.pos[r]
    away /= np.linalg.norm(away)
    behind = tuple(c + away * (rock.radius + 20.0))
    here = (float(world.agents.pos[r, 0]), float(world.agents.pos[r, 1]))
    assert not world.physics.line_of_sight(here, (float(behind[0]), float(behind[1])))


def test_04_swarm_fish_keep_away_and_do_not_block_sight() -> None:
    # Claim: "Fish keep their distance from ... you, but only rocks and reefs block sight."
    world = World(_level("04_swarm"))
    for _ in range(30):
        world.step()
    npc = np.flatnonzero(world.kind[: world.n] == 2)
    assert npc.size
    # no agent blocks sight: the segment through a fish from one side to the other is clear
    f = world.agents.pos[int(npc[0])]
    a, b = (float(f[0] - 40), float(f[1])), (float(f[0] + 40), float(f[1]))
    if world.physics.line_of_sight(a, (float(f[0] - 20), float(f[1]))):
        assert world.physics.line_of_sight(a, b) or not world.physics.line_of_sight(
            (float(f[0] + 20), float(f[1])), b
        )
    # fish near the player flee it
    p = world.agents.pos[0]
    d = np.hypot(*(world.agents.pos[npc] - p).T)
    near = npc[d < world.options.tuning.fish.flee_distance]
    if near.size:
        assert (world.mode[near] == Mode.FLEE).all()


def test_05_moving_paths_corners_wander() -> None:
    # Claim: "Patrol routes breathe: their corners wander."
    level = _level("05_moving_paths")
    world = World(level)
    names = [p.name for p in level.paths if p.drift > 0]
    assert names
    before = {n: np.array(world.paths[n].nodes, dtype=float) for n in names}
    for _ in range(180):
        world.step()
    for n in names:
        moved = np.hypot(*(np.array(world.paths[n].nodes, dtype=float) - before[n]).T)
        assert moved.max() > 3.0, n


def test_06_gate_gatekeepers_walk_before_the_last_gate() -> None:
    # Claim: "two gatekeepers walk a loop before the last gate" (they stood still from 6 s)
    # (the warden walks the middle)
    level = _level("06_gate")
    assert any(n.queue for n in level.npcs)  # "The fish queue through ... two gates"
    world = World(level)
    names = [e.name for e in level.enemies for _ in range(e.count)]
    rows = [r for r, n in zip(_enemy_rows(world), names, strict=True) if "gatekeeper" in n]
    assert len(rows) == 2
    track: list[np.ndarray] = []
    for _ in range(round(30.0 / DT)):
        world.step()  # the player waits at the start, far from the gate
        track.append(world.agents.pos[rows].copy())
    t = np.array(track)  # (frames, 2, 2)
    window = round(3.0 / DT)
    for k in range(2):
        gaps = np.hypot(*(t[window:, k] - t[:-window, k]).T)
        assert gaps.min() > 40.0, f"gatekeeper {k} stands still for 3 s"
        assert np.ptp(t[:, k, 1]) > 600.0  # up and down the whole gate
        assert t[:, k, 0].min() > 1700.0 and t[:, k, 0].max() < 2020.0  # before the gate


def test_07_squadron_when_one_sees_you_they_all_come() -> None:
    # Claim: "A formation sweeps the middle; when one sees you, they all come."
    world = World(_level("07_squadron"))
    world.step()
    minds = world.minds
    squad = int(minds.squad[minds.squad >= 0][0])
    members = np.flatnonzero(minds.squad == squad)
    assert members.size >= 3
    minds.sighted[:] = False
    minds.sighted[members[0]] = True
    think(world, DT)
    assert (world.mode[minds.rows[members]] == Mode.PURSUE).all()
    # "Small fish hide behind rocks as anyone nears."
    assert any(n.role == "hider" for n in world.level.npcs)


def test_08_sentries_keep_between_you_and_the_exit() -> None:
    # Claim: "Two sentinels keep themselves between you and the exit."
    level = _level("08_sentries")
    assert sum(e.role == "sentinel" for e in level.enemies) == 2
    world = World(level)
    for _ in range(round(8.0 / DT)):
        world.step()
    p = world.agents.pos[0]
    ex = world.exits.centres[0]
    line = ex - p
    for e in np.flatnonzero(world.minds.sentinel):
        s = world.agents.pos[int(world.minds.rows[e])]
        t = float(np.dot(s - p, line) / np.dot(line, line))
        assert 0.3 < t < 1.0, f"sentinel at {t:.2f} of the way to the exit"


@pytest.mark.parametrize(
    ("stem", "needs"),
    [
        (
            "09_finale",
            ("patrols", "drifting routes", "rocks", "currents", "shoals", "a sentinel", "reefs"),
        ),
        ("10_sandbox", ("rocks", "a current", "a ring path", "a crowd", "two sentinels", "reefs")),
    ],
)  # fmt: skip
def test_09_10_the_lists_of_contents_hold(stem: str, needs: tuple[str, ...]) -> None:
    # Claim: the hint lists what the level holds
    level = _level(stem)
    sentinels = sum(e.role == "sentinel" for e in level.enemies)
    has = {
        "patrols": any(e.role == "patrol" and e.path for e in level.enemies),
        "drifting routes": any(p.drift > 0 for p in level.paths),
        "rocks": bool(level.obstacles),
        "currents": bool(level.flows),
        "a current": bool(level.flows),
        "shoals": sum(n.count for n in level.npcs) >= 10,
        "a crowd": sum(n.count for n in level.npcs) >= 10,
        "a sentinel": sentinels >= 1,
        "two sentinels": sentinels == 2,
        "reefs": bool(level.walls),
        "a ring path": any(p.closed for p in level.paths),
    }
    for claim in needs:
        assert claim in level.hint.lower(), claim
        assert has[claim], f"{stem}: the hint says {claim!r}"
