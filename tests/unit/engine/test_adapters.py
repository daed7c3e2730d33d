"""steering.arcade and steering.pymunk: the batch paths give what the per-object ones give."""

from __future__ import annotations

import math

import numpy as np
import pytest

import steering as st


@pytest.mark.window
def test_sync_sprites_writes_what_arcade_setters_write(window: object) -> None:
    import arcade

    from steering.arcade import sync_sprites

    # Given 50 agents with headings all round and two sprite lists, one sprite per agent
    rng = np.random.default_rng(0)
    agents = st.AgentGroup.create(rng.uniform(0, 500, (50, 2)), rng.normal(0, 50, (50, 2)))
    fast, slow = arcade.SpriteList(), arcade.SpriteList()
    for _ in range(50):
        fast.append(arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))
        slow.append(arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))
    fast.remove(fast[3])  # a freed slot: the list's order is no longer the slots' order
    fast.insert(3, arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))
    # When one is filled by the buffer path and the other through arcade's setters
    sync_sprites(fast, agents)
    sync_sprites(slow, agents, sprite_attributes=True)

    # Then the buffers arcade uploads hold the same positions and angles, row for row
    def rows(sl: arcade.SpriteList) -> np.ndarray:
        buf = np.frombuffer(sl._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
        return np.array([buf[sl.sprite_slot[s]] for s in sl])

    np.testing.assert_array_equal(rows(fast), rows(slow))
    # And a sprite's angle is its agent's heading, clockwise in degrees
    want = -math.degrees(math.atan2(agents.heading[7, 1], agents.heading[7, 0]))
    assert slow[7].angle == pytest.approx(want)


def test_sync_sprites_refuses_a_list_of_the_wrong_length() -> None:
    from steering.arcade import sync_sprites

    agents = st.AgentGroup.create(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="sprites: 2 sprites for 3 agents"):
        sync_sprites([object(), object()], agents)


def test_body_bridge_reads_bodies_and_writes_forces() -> None:
    import pymunk

    from steering.pymunk import BodyBridge

    # Given three bodies added out of row order, one of them heavier
    space = pymunk.Space()
    bodies = [pymunk.Body(m, math.inf) for m in (1.0, 2.0, 4.0)]
    for k, b in enumerate(bodies):
        b.position = (10.0 * k, 5.0)
        b.velocity = (k, -k)
        space.add(b, pymunk.Circle(b, 3.0))
    bridge = BodyBridge(space, [bodies[2], bodies[0], bodies[1]])
    agents = BodyBridge.agents_of([bodies[2], bodies[0], bodies[1]])
    # When read, the rows hold the bodies in the bridge's order
    bridge.read(agents)
    np.testing.assert_array_equal(agents.pos, [(20, 5), (0, 5), (10, 5)])
    np.testing.assert_array_equal(agents.vel, [(2, -2), (0, 0), (1, -1)])
    np.testing.assert_array_equal(agents.mass, [4.0, 1.0, 2.0])
    # And a force written and stepped moves each body as integrate would: dv = f / m * dt
    bridge.write(np.array([(40.0, 0.0), (0.0, 10.0), (np.nan, 1.0)]))
    space.step(0.5)
    assert bodies[2].velocity == pytest.approx((2 + 40 / 4 * 0.5, -2))
    assert bodies[0].velocity == pytest.approx((0, 10 * 0.5))
    assert bodies[1].velocity == pytest.approx((1, -1))  # a NaN row is written as zero


def test_body_bridge_refuses_bodies_outside_the_space() -> None:
    import pymunk

    from steering.pymunk import BodyBridge

    space = pymunk.Space()
    with pytest.raises(ValueError, match="bodies"):
        BodyBridge(space, [pymunk.Body(1.0, 1.0)])


def test_body_bridge_follows_pymunk_when_bodies_fall_asleep() -> None:
    import pymunk

    from steering.pymunk import BodyBridge

    # Given four bodies of which two fall asleep (pymunk then visits them after the others)
    space = pymunk.Space()
    space.sleep_time_threshold = 0.5
    bodies = [pymunk.Body(1.0, math.inf) for _ in range(4)]
    for k, b in enumerate(bodies):
        b.position = (100.0 * k, 0.0)
        space.add(b, pymunk.Circle(b, 3.0))
    bridge = BodyBridge(space, bodies)
    agents = BodyBridge.agents_of(bodies)
    for _ in range(120):
        bodies[1].velocity = (1.0, 0.0)
        bodies[2].velocity = (-1.0, 0.0)
        space.step(1 / 60)
    assert [b.is_sleeping for b in bodies] == [True, False, False, True]
    # When read, each row is still its own body
    bridge.read(agents)
    np.testing.assert_array_equal(agents.pos, [tuple(b.position) for b in bodies])
    # And writing forces, which would wake bodies mid-batch, is refused with the reason
    with pytest.raises(ValueError, match="sleep_time_threshold"):
        bridge.write(np.zeros((4, 2)))


@pytest.mark.window
def test_sync_sprites_follows_a_list_changed_to_the_same_length(window: object) -> None:
    import arcade

    from steering.arcade import sync_sprites

    # Given four agents and their sprites, synced once
    agents = st.AgentGroup.create([(0.0, 1.0), (2.0, 3.0), (4.0, 5.0), (6.0, 7.0)])
    sprites = arcade.SpriteList()
    for _ in range(4):
        sprites.append(arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))
    sync_sprites(sprites, agents)
    # When one sprite is removed and another appended, then two are swapped
    sprites.remove(sprites[0])
    sprites.append(arcade.SpriteSolidColor(4, 4, color=arcade.color.WHITE))
    sprites.swap(0, 1)
    sync_sprites(sprites, agents)
    # Then sprite k still sits on agent k in the buffer arcade draws
    buf = np.frombuffer(sprites._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    rows = np.array([buf[sprites.sprite_slot[s], 0:2] for s in sprites])
    np.testing.assert_array_equal(rows, agents.pos)
