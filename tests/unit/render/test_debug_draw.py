"""Debug drawing of the steering vocabulary: small scenes per behaviour (no World), drawn by the
overlay's functions into real batches, read back from the GPU."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from game.render import theme
from game.render.batch import DiscBatch, HairlineBatch, LineBatch
from game.render.overlay import (
    Pen,
    draw_avoid_agents,
    draw_avoid_walls,
    draw_behaviours,
    draw_formation,
    draw_heading,
    draw_hide,
    draw_interpose,
    draw_queue,
)
from steering import (
    AgentGroup,
    AvoidAgents,
    AvoidWalls,
    Debug,
    Face,
    Hide,
    Interpose,
    Obstacles,
    OffsetPursuit,
    Queue,
    Walls,
    formation_offsets,
)

pytestmark = pytest.mark.window

DT = 1 / 60


class Drawn:
    """What a pen's batches hold after a commit, read back from the GPU."""

    def __init__(self, pen: Pen) -> None:
        for batch in (pen.hairlines, pen.lines, pen.dots):
            batch.commit()
        self.thin, self.thin_color = pen.hairlines.uploaded()
        self.thick, self.thick_color = pen.lines.uploaded()
        self.dots, self.dot_color = pen.dots.uploaded()

    def thin_in(self, key: str) -> np.ndarray:
        return self.thin[(self.thin_color == theme.DEBUG[key]).all(axis=1)]

    def dots_in(self, key: str) -> np.ndarray:
        return self.dots[(self.dot_color == theme.DEBUG[key]).all(axis=1)]


def sort_rows(a: np.ndarray) -> np.ndarray:
    return a[np.lexsort(a.T[::-1])]


@pytest.fixture
def pen(window: arcade.Window) -> Pen:
    ctx = window.ctx
    return Pen(HairlineBatch(ctx, 16), LineBatch(ctx, 16), DiscBatch(ctx, 16), px=0.5)


def test_hide_draws_every_spot_and_the_chosen_one_at_bucklands_formula(pen: Pen) -> None:
    # Given a rock at (100, 0), r = 20, a hunter at the origin and an agent behind the rock
    rocks = Obstacles.create([[100.0, 0.0], [0.0, 300.0]], 20.0)
    agents = AgentGroup.create([[200.0, 10.0]])
    debug: Debug = {}
    Hide((0.0, 0.0), rocks, distance_from_boundary=30.0)(agents, DT, debug)
    # When it is drawn
    draw_hide(pen, debug, agents.pos)
    drawn = Drawn(pen)
    # Then each rock's spot, centre + unit(centre - hunter) * (20 + 30), is ringed
    rings = drawn.dots_in("hide_spot")
    np.testing.assert_allclose(rings[:, :2], [[150.0, 0.0], [0.0, 350.0]])
    assert (rings[:, 3] > 0).all()  # rings, 1.5 screen px thick
    np.testing.assert_allclose(rings[:, 2], 5.0 * 0.5)  # 5 screen px at 2x zoom
    # and the chosen one, (150, 0), is a filled dot linked to the agent
    chosen = drawn.dots_in("hide_chosen")
    np.testing.assert_allclose(chosen[:, :2], [[150.0, 0.0]])
    assert chosen[0, 3] == 0.0
    np.testing.assert_allclose(drawn.thin_in("hide_chosen"), [[200.0, 10.0, 150.0, 0.0]])


def test_interpose_point_is_drawn_between_the_movers(pen: Pen) -> None:
    # Given two still movers at (0, 0) and (100, 0), and two interposers
    agents = AgentGroup.create([[50.0, 80.0], [10.0, -40.0]])
    debug: Debug = {}
    Interpose((0.0, 0.0), (100.0, 0.0))(agents, DT, debug)
    draw_interpose(pen, debug, agents.pos)
    drawn = Drawn(pen)
    # Then the midpoint is dotted for each, and each is linked to it
    np.testing.assert_allclose(drawn.dots_in("interpose")[:, :2], [[50.0, 0.0], [50.0, 0.0]])
    np.testing.assert_allclose(
        drawn.thin_in("interpose"), [[50.0, 80.0, 50.0, 0.0], [10.0, -40.0, 50.0, 0.0]]
    )


def test_formation_slots_are_ringed_in_the_leaders_frame(pen: Pen) -> None:
    # Given a leader at (100, 100) heading +y and three followers in a line behind it
    offsets = formation_offsets("line", 3, 20.0)
    agents = AgentGroup.create([[0.0, 0.0], [50.0, 0.0], [100.0, 0.0]])
    debug: Debug = {}
    OffsetPursuit((100.0, 100.0), (0.0, 0.0), (0.0, 1.0), offsets)(agents, DT, debug)
    draw_formation(pen, debug, agents.pos)
    drawn = Drawn(pen)
    # Then the slots (x ahead = +y, y left = -x) are 20 px behind, left to right
    slots = drawn.dots_in("slot")
    np.testing.assert_allclose(slots[:, :2], [[80.0, 80.0], [100.0, 80.0], [120.0, 80.0]])
    assert len(drawn.thin_in("slot")) == 3


def test_avoid_agents_draws_both_points_of_closest_approach(pen: Pen) -> None:
    # Given two agents closing head on, 5 px apart sideways: t = 20000 / 40000 = 0.5 s and
    # the miss at closest approach is (0, 5), inside the 18 px clearance
    agents = AgentGroup.create([[0.0, 0.0], [100.0, 5.0]], [[100.0, 0.0], [-100.0, 0.0]])
    debug: Debug = {}
    AvoidAgents()(agents, DT, debug)
    draw_avoid_agents(pen, debug, agents.pos)
    drawn = Drawn(pen)
    # Then each agent's own point (50, 0) / (50, 5) and the threat's point are dotted,
    np.testing.assert_allclose(drawn.dots_in("approach")[:, :2], [[50.0, 0.0], [50.0, 5.0]])
    np.testing.assert_allclose(drawn.dots_in("threat")[:, :2], [[50.0, 5.0], [50.0, 0.0]])
    # and the predicted miss is a thick line between them
    np.testing.assert_allclose(drawn.thick[:, :4], [[50, 0, 50, 5], [50, 5, 50, 0]])
    np.testing.assert_allclose(drawn.thick[:, 4], 1.6 * 0.5)


def test_avoid_walls_draws_three_feelers_per_agent_and_the_wall_hit(pen: Pen) -> None:
    # Given a wall at x = 40 and five agents facing +x, the first two in reach of it
    walls = Walls.create([[(40.0, -100.0), (40.0, 100.0)], [(400.0, 0.0), (400.0, 10.0)]])
    pos = [[0.0, 0.0], [10.0, 50.0], [-300.0, 0.0], [-300.0, 100.0], [-300.0, 200.0]]
    agents = AgentGroup.create(pos, [[1.0, 0.0]] * 5, max_speed=100.0, radius=5.0)
    debug: Debug = {}
    AvoidWalls(walls)(agents, DT, debug)
    draw_avoid_walls(pen, debug, agents.pos, walls)
    drawn = Drawn(pen)
    # Then there are 3 x 5 feelers, each starting at its agent and ending at the recorded tip
    feelers = np.concatenate((drawn.thin_in("feeler"), drawn.thin_in("feeler_hit")))
    assert feelers.shape == (15, 4)
    tips = np.asarray(debug["walls.feelers"]).reshape(-1, 2)
    starts = np.repeat(agents.pos, 3, axis=0)
    expect = np.concatenate((starts, tips), axis=1)
    np.testing.assert_allclose(sort_rows(feelers), sort_rows(expect), rtol=1e-6)
    # the two agents that reach the wall have bright feelers, and the wall they hit is thick
    assert drawn.thin_in("feeler_hit").shape == (6, 4)
    np.testing.assert_allclose(drawn.thick[:, :4], [[40.0, -100.0, 40.0, 100.0]])
    hits = drawn.dots_in("wall_hit")
    np.testing.assert_allclose(hits[:, 0], [40.0, 40.0])


def test_queue_rings_braking_agents_and_links_them_to_the_one_ahead(pen: Pen) -> None:
    # Given three agents in a line heading +x, the front one slowest
    agents = AgentGroup.create(
        [[0.0, 0.0], [30.0, 0.0], [60.0, 0.0]], [[100.0, 0.0], [80.0, 0.0], [20.0, 0.0]]
    )
    debug: Debug = {}
    Queue(distance=40.0)(agents, DT, debug)
    draw_queue(pen, debug, agents.pos, radius=agents.radius)
    drawn = Drawn(pen)
    # Then the two behind brake: rings round them (radius + 3 screen px) and links ahead
    rings = drawn.dots_in("queue_brake")
    np.testing.assert_allclose(rings[:, :3], [[0.0, 0.0, 9.5], [30.0, 0.0, 9.5]])
    np.testing.assert_allclose(drawn.thin_in("queue_ahead"), [[0, 0, 30, 0], [30, 0, 60, 0]])


def test_heading_velocity_and_desired_heading_are_separate_lines(pen: Pen) -> None:
    # Given an agent moving +x at 100 px/s that faces a target straight above it
    agents = AgentGroup.create([[10.0, 10.0]], [[100.0, 0.0]], max_turn_rate=1.0)
    debug: Debug = {}
    Face((10.0, 500.0))(agents, 0.5, debug)
    agents.update_heading(0.5)  # the step's heading update applies Face's turn: 0.5 rad at most
    draw_heading(pen, agents.pos, agents.heading, agents.vel, 20.0, debug["orientation.desired"])
    drawn = Drawn(pen)
    # Then the velocity is a quarter second of travel, the desired heading points up, and the
    # heading has turned half a radian from +x
    np.testing.assert_allclose(drawn.thin_in("velocity"), [[10, 10, 35, 10]])
    np.testing.assert_allclose(drawn.thin_in("heading_desired"), [[10, 10, 10, 30]])
    tip = [10.0 + 20.0 * np.cos(0.5), 10.0 + 20.0 * np.sin(0.5)]
    np.testing.assert_allclose(drawn.thin_in("heading"), [[10, 10, *tip]], rtol=1e-6)


def test_drawers_skip_missing_keys_bad_shapes_nan_rows_and_hidden_agents(pen: Pen) -> None:
    # Given debug data for 2 agents where the second has NaN rows, one key of a wrong shape,
    # and the first agent off screen
    pos = np.array([[0.0, 0.0], [10.0, 0.0]])
    debug: Debug = {
        "interpose.point": np.array([[5.0, 5.0], [np.nan, np.nan]]),
        "offset.slot": np.zeros((3, 2)),
        "queue.braking": np.array([True, True]),
        "queue.ahead": np.array([7, -1]),  # 7 is out of range
    }
    draw_behaviours(pen, debug, pos)
    drawn = Drawn(pen)
    np.testing.assert_allclose(drawn.dots_in("interpose")[:, :2], [[5.0, 5.0]])
    assert drawn.dots_in("slot").size == 0
    assert drawn.thin_in("queue_ahead").size == 0
    assert len(drawn.dots_in("queue_brake")) == 2
    draw_behaviours(pen, debug, pos, show=np.array([False, True]))
    drawn = Drawn(pen)
    assert drawn.dots_in("interpose").size == 0
    assert len(drawn.dots_in("queue_brake")) == 1
