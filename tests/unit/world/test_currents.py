"""Currents: every flow kind builds, overlapping regions add up, and the water drags bodies."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.level import FlowRegion, Rect, load_level, resolve_level
from game.world import Current, Currents, World

from .helpers import ascii_level


def test_every_flow_kind_of_the_shipped_levels_builds() -> None:
    currents = Currents.from_level(load_level(resolve_level("currents")))
    kinds = {c.region.kind for c in currents.items}
    assert kinds == {"noise", "uniform", "image", "vortex"}
    for c in currents.items:
        assert np.isfinite(c.field.vectors).all()
        assert (np.hypot(*c.field.vectors.reshape(-1, 2).T) <= 1.0 + 1e-9).all()


def test_uniform_current_points_along_its_angle_at_its_strength() -> None:
    region = FlowRegion(rect=Rect(0, 0, 320, 320), kind="uniform", angle=90.0, strength=50.0)
    currents = Currents([Current.build(region)])
    vel, inside = currents.velocity_at(np.array([[100.0, 100.0], [400.0, 100.0]]))
    assert inside.tolist() == [True, False]
    assert vel[0] == pytest.approx([0.0, 50.0], abs=1e-9)
    assert vel[1].tolist() == [0.0, 0.0]


def test_overlapping_regions_add_up() -> None:
    a = FlowRegion(rect=Rect(0, 0, 320, 320), kind="uniform", angle=0.0, strength=30.0)
    b = FlowRegion(rect=Rect(160, 0, 320, 320), kind="uniform", angle=90.0, strength=40.0)
    currents = Currents([Current.build(a), Current.build(b)])
    vel, _ = currents.velocity_at(np.array([[200.0, 100.0]]))
    assert vel[0] == pytest.approx([30.0, 40.0])


def test_vortex_turns_counter_clockwise_unless_told_otherwise() -> None:
    rect = Rect(0, 0, 320, 320)
    ccw = Currents([Current.build(FlowRegion(rect=rect, kind="vortex", strength=60.0))])
    cw = Currents([Current.build(FlowRegion(rect=rect, kind="vortex", clockwise=True))])
    right_of_centre = np.array([[260.0, 160.0]])
    assert ccw.velocity_at(right_of_centre)[0][0, 1] > 50.0  # +y on the right: CCW
    assert cw.velocity_at(right_of_centre)[0][0, 1] < -50.0


def test_changing_noise_changes_with_time() -> None:
    region = FlowRegion(rect=Rect(0, 0, 640, 640), kind="noise", speed=0.5, cell=64.0, seed=3)
    currents = Currents([Current.build(region)])
    before = currents.items[0].field.vectors.copy()
    currents.update(2.0)
    assert not np.allclose(before, currents.items[0].field.vectors)


def test_the_player_drifts_with_a_river_and_swims_across_it() -> None:
    # Given a river flowing up (+y) at 120 px/s over the whole map
    rows = ["~" * 30 for _ in range(20)]
    rows[10] = "~~P" + "~" * 27
    level = ascii_level(rows, current=(90.0, 120.0))
    drifting = World(level)
    swimming = World(level)
    # When one player does nothing and the other swims right, for two seconds
    for _ in range(120):
        drifting.step((0.0, 0.0))
        swimming.step((1.0, 0.0))
    # Then the first is carried at the river's speed, the second carried while it crosses
    assert drifting.player_vel == pytest.approx([0.0, 120.0], abs=2.0)
    assert swimming.player_vel[0] > 100.0
    assert swimming.player_vel[1] > 60.0
    assert swimming.player_pos[1] - level.player.y > 100.0


def test_npcs_in_a_current_swim_with_it() -> None:
    rows = ["~" * 30 for _ in range(12)]
    rows[6] = "~P~~~~~~~~~~~~~~~~~~~~~~~~~~~~"
    rows[3] = "~~~~~~~~~~~~~n~~~~~~~~~~~~~~~~"
    level = ascii_level(rows, current=(0.0, 60.0), npc_props={"count": 10, "wander": False})
    world = World(level)
    for _ in range(120):
        world.step()
    npc = world.kind == 2
    assert (world.mode_names[npc] == "flow").all()
    heading = np.degrees(np.arctan2(world.agents.vel[npc, 1], world.agents.vel[npc, 0]))
    assert np.median(np.abs(heading)) < 20.0
    assert math.isclose(float(np.median(world.agents.vel[npc, 0])), 120.0, rel_tol=0.15)


def test_currents_serve_the_core_follow_flow_and_reuse_the_steps_lookup() -> None:
    # Given a level's currents and the velocity the world computed at some points this step
    level = ascii_level(["~~~~~~", "~P~~~~", "~~~~~~"], current=(0.0, 60.0))
    currents = Currents.from_level(level)
    points = np.array([[40.0, 40.0], [60.0, 50.0]])
    vel, inside = currents.velocity_at(points)
    assert inside.all() and np.hypot(*vel.T) == pytest.approx([60.0, 60.0])
    # When the core's FollowFlow looks the current up at the same points, or at others
    currents.remember(points, vel)
    same = currents.lookup(points)
    other = currents.lookup(points + 1.0)
    # Then both are the current there, the first without a second lookup
    np.testing.assert_array_equal(same, vel)
    np.testing.assert_allclose(other, currents.velocity_at(points + 1.0)[0])
    assert currents.contains(points).all()


def test_all_regions_in_one_call_are_the_regions_one_by_one() -> None:
    from game.world.currents import _add_region, _bank

    # Given the shipped levels' currents (every kind, overlapping, banked by the map's edges)
    rng = np.random.default_rng(11)
    for name in ("currents", "finale", "sandbox"):
        level = load_level(resolve_level(name))
        currents = Currents.from_level(level)
        w, h = level.width_px, level.height_px
        points = rng.uniform((-40.0, -40.0), (w + 40.0, h + 40.0), (3000, 2))
        for step in range(3):
            currents.update(step / 7.0, step)  # the noise rewrites its vectors in place
            # When every region is sampled in one compiled call, and region by region
            fused = currents.velocity_at(points)
            vel, inside = np.zeros((3000, 2)), np.zeros(3000, dtype=bool)
            for c in currents.items:
                r, f = c.region.rect, c.field
                _add_region(
                    points, f.vectors, f.cell, f.origin[0], f.origin[1], r.left, r.bottom,
                    r.right, r.top, c.region.strength, vel, inside,
                )  # fmt: skip
            _bank(points, vel, 0.0, 0.0, w, h, currents.bank)
            # Then both give the same floats and the same regions
            np.testing.assert_array_equal(fused[0], vel)
            np.testing.assert_array_equal(fused[1], inside)
            assert fused[1].any() and (~fused[1]).any()
    # And an edit's new items make a new table (the same list, refilled in place)
    before = currents._regions()
    currents.items[:] = Currents.from_level(level).items
    assert currents._regions() is not before


def _many_regions(count: int) -> Currents:
    """``count`` small uniform regions, each turned a little more, in a row of columns."""
    regions = [
        FlowRegion(
            rect=Rect(8.0 * (k % 100), 8.0 * (k // 100), 16.0, 16.0),
            kind="uniform",
            angle=float(k % 360),
            strength=1.0 + k % 7,
            cell=8.0,
        )
        for k in range(count)
    ]
    return Currents([Current.build(r) for r in regions])


def test_more_than_999_regions_run_and_compile_once() -> None:
    # Given sets of 3, 1,000 and 1,500 regions (1,000 or more crashed numba as a tuple, and
    # each count compiled anew)
    from game.world.currents import _add_regions

    points = np.array([[4.0, 4.0], [12.0, 12.0], [795.0, 115.0], [5000.0, 5000.0]])
    for count in (3, 1_000, 1_500):
        currents = _many_regions(count)
        # When the current is looked up
        vel, inside = currents.velocity_at(points)
        # Then it is every region's own field at its strength, added up
        expected = np.zeros((len(points), 2))
        for c in currents.items:
            r = c.region.rect
            for i, (x, y) in enumerate(points):
                if r.left <= x <= r.right and r.bottom <= y <= r.top:
                    expected[i] += c.field.lookup(points[i : i + 1])[0] * c.region.strength
        assert vel == pytest.approx(expected, abs=1e-12)
        assert inside.tolist() == [True, True, count > 1_000, False]
    # And one compiled kernel served every count
    assert len(_add_regions.signatures) == 1


def test_a_changing_noise_region_is_read_as_it_changes() -> None:
    # Given a changing noise region beside a uniform one, looked up once (the table is made)
    noise = FlowRegion(rect=Rect(0, 0, 640, 640), kind="noise", speed=0.5, cell=64.0, seed=3)
    river = FlowRegion(rect=Rect(0, 0, 640, 640), kind="uniform", angle=0.0, strength=10.0)
    currents = Currents([Current.build(noise), Current.build(river)])
    points = np.array([[100.0, 100.0], [333.0, 500.0]])
    currents.velocity_at(points)
    # When time passes (every row refreshed)
    for frame in range(currents.noise_every):
        currents.update(3.0, frame)
    # Then the lookup reads the field as it is now
    field = currents.items[0].field
    expected = field.lookup(points) * noise.strength + np.array([10.0, 0.0])
    assert currents.velocity_at(points)[0] == pytest.approx(expected, abs=1e-12)
