"""The pymunk side: body order, batch transfer, rocks and walls that hold, speed limits."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pymunk
import pytest

from game.level import load_level, resolve_level
from game.world import DT, World
from game.world.physics_batch import BatchIO
from steering.vec import FloatArray

from .helpers import ascii_level

# A crowd in a strong current that pushes everything right, into a wall of rocks: touching
# small rocks, a big one overlapping them (crevices), a pushable rock and the map's edge.
PUSHED = [
    "~~~~~~~~~~~~~~~~~~~~~~~~~",
    "~~n~~~~~~~~~~~~~~~~o~~~~~",
    "~~~~~n~~~~~~~~~~~~~o~~~~~",
    "~~n~~~~~~~~~~~~~~~~o~~~~~",
    "~P~~~~n~~~~~~~~~~~~O~~~~E",
    "~~n~~~~~~~~~~~~~~~~~~~~~~",
    "~~~~~n~~~~~~~~~~~~~o~~~~~",
    "~~n~~~~~~~~~~~~~~~~o~~~~~",
    "~~~~~~~~~~~~~~~~~~~o~~~~~",
]


def gaps(world: World) -> FloatArray:
    """(N, M) surface gaps between every agent and every rock (negative: overlap)."""
    d = world.agents.pos[:, None, :] - world.obstacle_pos[None, :, :]
    centre = np.hypot(d[..., 0], d[..., 1])
    return np.asarray(centre - world.agents.radius[:, None] - world.obstacle_radius[None, :])


def test_batch_visits_bodies_in_row_order_then_the_static_body() -> None:
    # Given a space with dynamic bodies added in row order and a static shape
    space = pymunk.Space()
    bodies = []
    for k in range(5):
        body = pymunk.Body(1.0, math.inf)
        body.position = (10.0 * k, 0.0)
        space.add(body, pymunk.Circle(body, 2.0))
        bodies.append(body)
    space.add(pymunk.Circle(space.static_body, 3.0, (100.0, 100.0)))
    # When the batch reader maps ids to rows
    io = BatchIO(space, bodies)
    # Then rows are the insertion order, the static body comes last, and reads are views
    assert io.order.tolist() == [0, 1, 2, 3, 4, -1]
    pos, _ = io.read()
    assert pos[:, 0].tolist() == [0.0, 10.0, 20.0, 30.0, 40.0]
    # And writes land on the right bodies
    vel = np.arange(10.0).reshape(5, 2)
    io.write(vel, np.zeros((5, 2)))
    assert [tuple(b.velocity) for b in bodies] == [tuple(v) for v in vel]


def test_fetch_and_send_are_pymunk_batchs_own_passes() -> None:
    # Given a space of bodies moving about, and a static shape
    space = pymunk.Space()
    bodies = []
    for k in range(7):
        body = pymunk.Body(1.0 + k, math.inf)
        body.position = (10.0 * k, 3.0 * k)
        body.velocity = (k - 3.0, 2.0 * k)
        space.add(body, pymunk.Circle(body, 2.0))
        bodies.append(body)
    space.add(pymunk.Circle(space.static_body, 3.0, (100.0, 100.0)))
    io = BatchIO(space, bodies)
    assert io._calls is not None  # the passes made ready once (this pymunk has them)
    rng = np.random.default_rng(3)
    for step in range(6):
        # When the buffer is filled and sent, with positions and without
        with_pos = step % 2 == 1
        buf = io.buffer(with_pos)
        buf[:] = rng.normal(size=buf.shape)
        buf[-1] = 0.0  # the static body's row
        io.send(with_pos)
        # Then every body holds what pymunk.batch would have written, field by field
        cols = 6 if with_pos else 4
        for k, body in enumerate(bodies):
            row = buf[k, :cols].tolist()
            got = [*body.position, *body.velocity, *body.force]
            assert got[6 - cols :] == row
        space.step(1 / 60)
        # And a fetch reads what pymunk.batch reads, after the step moved the bodies
        ref = pymunk.batch.Buffer()
        pymunk.batch.get_space_bodies(
            space, pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.VELOCITY, ref
        )
        want = np.frombuffer(ref.float_buf(), dtype=np.float64).reshape(-1, 4)
        np.testing.assert_array_equal(io.fetch(), want)
    # And a body added later is read too (pymunk grows its buffer; the view follows)
    extra = pymunk.Body(1.0, math.inf)
    extra.position = (-5.0, -6.0)
    space.add(extra, pymunk.Circle(extra, 1.0))
    got = io.fetch()
    assert got.shape[0] == 9
    assert (-5.0, -6.0) in {tuple(r[:2]) for r in got.tolist()}


def test_world_body_order_stays_stable_over_steps() -> None:
    world = World(ascii_level(PUSHED, current=(0.0, 150.0), npc_props={"count": 6}))
    for _ in range(60):
        world.step((1.0, 0.0))
    # the arrays are the pymunk bodies' state
    body = world.physics.bodies[7]
    assert np.allclose(world.agents.pos[7], tuple(body.position))


def test_physics_alone_keeps_bodies_out_of_rocks() -> None:
    # Given a crowd with steering off, pushed by a 300 px/s current into a wall of rocks
    level = ascii_level(PUSHED, current=(0.0, 300.0), npc_props={"count": 12, "max_speed": 160.0})
    world = World(level)
    world.steering.enabled = False
    slop = world.physics.settings.collision_slop
    worst = math.inf
    # When it runs for six seconds (the player thrusting into the rocks too)
    for _ in range(360):
        world.step((1.0, 0.0))
        worst = min(worst, float(gaps(world).min()))
    # Then the crowd reached the rocks, and no centre ever came closer than the radii - slop
    assert world.agents.pos[1:, 0].max() > 560.0
    assert worst >= -slop - 1e-9


def test_player_hitting_a_rock_at_full_speed_does_not_sink_in() -> None:
    level = ascii_level(["........", ".P...o..", "........"])
    world = World(level)
    slop = world.physics.settings.collision_slop
    worst = math.inf
    for _ in range(120):
        world.step((1.0, 0.0))
        worst = min(worst, float(gaps(world)[0].min()))
    assert worst >= -slop - 1e-9
    assert abs(worst) < 1.0  # it did reach the rock


def test_the_player_pushes_a_pushable_rock() -> None:
    level = ascii_level([".........", ".P..o....", "........."])
    level = replace(level, obstacles=(replace(level.obstacles[0], dynamic=True),))
    world = World(level)
    start = world.obstacle_pos[0].copy()
    for _ in range(120):
        world.step((1.0, 0.0))
    assert world.obstacle_pos[0, 0] > start[0] + 20.0


def test_nothing_leaves_the_world_and_speeds_stay_within_limits() -> None:
    world = World(ascii_level(PUSHED, current=(30.0, 300.0), npc_props={"count": 8}))
    world.steering.enabled = False
    w, h = world.level.width_px, world.level.height_px
    slop = world.physics.settings.collision_slop
    for k in range(240):
        world.step((math.cos(k / 20), math.sin(k / 20)))
        p, r = world.agents.pos, world.agents.radius
        assert (p[:, 0] >= r - slop - 1e-9).all() and (p[:, 0] <= w - r + slop + 1e-9).all()
        assert (p[:, 1] >= r - slop - 1e-9).all() and (p[:, 1] <= h - r + slop + 1e-9).all()
        speed = np.hypot(*world.agents.vel.T)
        assert (speed <= world.agents.max_speed * (1 + 1e-12)).all()


def test_a_nan_input_counts_as_no_input() -> None:
    world = World(ascii_level(["......", ".P....", "......"]))
    world.step((float("nan"), 1.0))
    assert np.isfinite(world.agents.pos).all()
    assert world.player.inputs[-1] == (0.0, 0.0)


@pytest.mark.parametrize(
    ("thrust", "recorded"),
    [
        ((0.6, 0.8), (0.6, 0.8)),
        ([3, 4], (0.6, 0.8)),  # longer than 1: shortened
        (np.array([3.0, 4.0]), (0.6, 0.8)),
        (np.array([[0.0, -0.5]]), (0.0, -0.5)),  # any array of two numbers
        (np.array([1, 0], dtype=np.int32), (1.0, 0.0)),
        ((True, False), (1.0, 0.0)),
        ((math.inf, 0.0), (0.0, 0.0)),  # not finite: no input
        (np.array([0.0, np.nan]), (0.0, 0.0)),
    ],
)
def test_every_form_of_input_is_recorded_as_a_direction_no_longer_than_one(
    thrust: object, recorded: tuple[float, float]
) -> None:
    world = World(ascii_level(["......", ".P....", "......"]))
    world.step(thrust)  # type: ignore[arg-type]
    x, y = world.player.inputs[-1]
    assert (type(x), type(y)) == (float, float)
    assert (x, y) == pytest.approx(recorded, abs=1e-15)
    assert world.player.thrust.tolist() == [x, y]
    # and a recorded input passes through again unchanged (a replay is exact)
    world.step(world.player.inputs[-1])
    assert world.player.inputs[-1] == (x, y)


@pytest.mark.parametrize("thrust", [(1.0,), (1.0, 2.0, 3.0), np.zeros(3)])
def test_an_input_that_is_not_two_numbers_is_refused(thrust: object) -> None:
    world = World(ascii_level(["......", ".P....", "......"]))
    with pytest.raises(ValueError, match="thrust"):
        world.step(thrust)  # type: ignore[arg-type]


def test_the_step_is_fixed() -> None:
    world = World(ascii_level(["......", ".P....", "......"]))
    for _ in range(90):
        world.step()
    assert world.frame == 90
    assert world.time == 90 * DT


def test_the_pushable_table_by_grid_is_the_one_by_all_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import game.world.pushable as pushable
    from game.world.contacts import MAX_STEP
    from steering.vec import length

    # Given a crowd among pushable rocks (the Rock Field, agents scattered over it, and some
    # placed exactly at a rock's reach, just inside and just outside it)
    world = World(load_level(resolve_level("rockfield")), extra_npcs=60)
    phys = world.physics
    rng = np.random.default_rng(5)
    pos = phys.pos.copy()
    n, d = world.n, phys.dynamic_rocks.size
    pos[1:n] = rng.uniform((0, 0), (world.level.width_px, world.level.height_px), (n - 1, 2))
    reach = phys.body_radius[n] + phys.body_radius[:n].max() + 2 * MAX_STEP
    centre = pos[n]
    for k, (dx, dy) in enumerate([(1, 0), (0, -1), (-0.6, 0.8), (0.8, 0.6)]):
        pos[1 + 3 * k] = centre + reach * np.array([dx, dy])
        pos[2 + 3 * k] = centre + np.nextafter(reach, 0.0) * np.array([dx, dy])
        pos[3 + 3 * k] = centre + np.nextafter(reach, np.inf) * np.array([dx, dy])
    assert d > 1
    # When the table is made by the grid
    start, rock = pushable.pushable_pairs(pos, phys.body_radius, phys)
    # Then it is the table of every pair tested (with the kernels' own hypot): the player with
    # every rock, the others with those in reach, in rock order
    rows = np.arange(n, n + d)
    reach_of = phys.body_radius[rows] + phys.body_radius[:n].max() + 2 * MAX_STEP
    want = [rows.tolist()]
    for i in range(1, n):
        near = length(pos[rows] - pos[i]) <= reach_of
        want.append(rows[near].tolist())
    want += [[] for _ in range(n, pos.shape[0])]
    got = [rock[start[i] : start[i + 1]].tolist() for i in range(pos.shape[0])]
    assert got == want
    assert 0 < rock.size - d < (n - 1) * d
    # and so with a grid of few cells (its cells grown to fit)
    monkeypatch.setattr(pushable, "MAX_PAIR_CELLS", 4)
    few_start, few_rock = pushable.pushable_pairs(pos, phys.body_radius, phys)
    np.testing.assert_array_equal(start, few_start)
    np.testing.assert_array_equal(rock, few_rock)
