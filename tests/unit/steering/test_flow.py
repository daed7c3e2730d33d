"""Flow fields (seed 003): clamped lookup, generators, the time-varying field, flow following."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import opensimplex
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from steering.agents import AgentGroup, integrate
from steering.base import DEFAULT_GAIN
from steering.flow import MAX_CELLS, FlowField
from steering.follow_flow import FollowFlow
from steering.noise_flow import NoiseFlow

DT = 1 / 60


def _indexed_field() -> FlowField:
    """3 rows x 4 cols, cell 10 px, bottom-left corner at (100, 50); cell (r, c) holds (c, r)."""
    rows, cols = np.mgrid[0:3, 0:4]
    return FlowField(np.stack((cols, rows), axis=-1).astype(float), 10.0, (100.0, 50.0))


def _angle_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    cos = np.einsum("ij,ij->i", a, b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


def _unit(vectors: np.ndarray) -> np.ndarray:
    flat = vectors.reshape(-1, 2)
    return flat / np.linalg.norm(flat, axis=1, keepdims=True)


# -- the seed's clamped lookup -----------------------------------------------------------------


def test_nearest_lookup_is_the_seeds_cell_with_clamping() -> None:
    # Given the indexed field: x in [100, 140), y in [50, 80)
    field = _indexed_field()
    points = [
        (125.0, 65.0),  # column int(25 // 10) = 2, row int(15 // 10) = 1
        (95.0, 55.0),  # left of the grid: column -1 clamps to 0; row 0
        (135.0, 65.0),  # column 3 (the last one), row 1
        (1000.0, 1000.0),  # right and above: column 3, row 2
        (-1e9, 75.0),  # far left: column 0, row 2
        (100.0, 50.0),  # on the corner: cell (0, 0)
        (110.0, 60.0),  # on a cell's left/bottom edge: that cell, (1, 1)
    ]
    # When it is looked up with the seed's nearest-cell rule
    got = field.lookup(points, bilinear=False)
    # Then each point reads the clamped cell (c, r)
    np.testing.assert_array_equal(got, [[2, 1], [0, 0], [3, 1], [3, 2], [0, 2], [0, 0], [1, 1]])


def test_bilinear_lookup_at_centres_between_centres_and_beyond_the_border() -> None:
    field = _indexed_field()
    points = [
        (125.0, 65.0),  # the centre of cell (1, 2): exactly that cell's vector
        (120.0, 65.0),  # halfway between the centres of (1, 1) and (1, 2): their average
        (120.0, 70.0),  # the corner shared by (1,1), (1,2), (2,1), (2,2): the mean of four
        (117.5, 57.5),  # a quarter of the way from centre (0, 1) towards (0, 2) and (1, 1)
        (101.0, 51.0),  # inside cell (0, 0) but outside its centre: clamps to that centre
        (-50.0, 1e6),  # far out: the top-left corner cell (2, 0)
    ]
    got = field.lookup(points)
    np.testing.assert_allclose(
        got, [[2.0, 1.0], [1.5, 1.0], [1.5, 1.5], [1.25, 0.25], [0.0, 0.0], [0.0, 2.0]], atol=1e-12
    )


def test_lookup_of_one_row_or_one_column_field() -> None:
    # Given a 1 x 3 field (one row): bilinear must not read a missing second row
    field = FlowField(np.array([[[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]]), 2.0)
    got = field.lookup([(2.0, 1.0), (3.0, -5.0), (100.0, 100.0)])
    np.testing.assert_allclose(got, [[0.5, 0.5], [0.0, 1.0], [-1.0, 0.0]])
    # And a 1 x 1 field reads its only vector everywhere
    single = FlowField(np.array([[[0.0, 2.0]]]), 5.0, (-10.0, -10.0))
    np.testing.assert_allclose(single.lookup([(0.0, 0.0), (-1e300, 1e300)]), [[0, 2], [0, 2]])


def test_lookup_of_non_finite_points_is_finite_and_silent() -> None:
    field = _indexed_field()
    pts = [(math.inf, -math.inf), (math.nan, 60.0), (1e308, -1e308)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        near = field.lookup(pts, bilinear=False)
        bil = field.lookup(pts)
        inside = field.contains(pts)
    np.testing.assert_array_equal(near, [[3, 0], [0, 1], [3, 0]])
    assert np.isfinite(bil).all()
    assert not inside.any()


def test_contains_covers_the_rectangle_half_open() -> None:
    field = _indexed_field()
    assert field.bounds == (100.0, 50.0, 140.0, 80.0)
    mask = field.contains([(100, 50), (139.9, 79.9), (140, 60), (120, 80), (99.9, 60), (120, 49)])
    np.testing.assert_array_equal(mask, [True, True, False, False, False, False])


def test_cell_centers_put_row_zero_at_the_bottom() -> None:
    centres = _indexed_field().cell_centers()
    assert centres.shape == (3, 4, 2)
    np.testing.assert_allclose(centres[0, 0], [105.0, 55.0])
    np.testing.assert_allclose(centres[2, 3], [135.0, 75.0])


# -- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vectors", "cell", "origin", "names"),
    [
        (np.full((2, 2, 2), np.nan), 1.0, (0, 0), "FlowField.vectors"),
        (np.array([[[np.inf, 0.0]]]), 1.0, (0, 0), "FlowField.vectors"),
        (np.zeros((0, 3, 2)), 1.0, (0, 0), "empty"),
        (np.zeros((2, 2)), 1.0, (0, 0), "FlowField.vectors"),
        (np.zeros((2, 2, 3)), 1.0, (0, 0), "FlowField.vectors"),
        (np.zeros((2, 2, 2)), 0.0, (0, 0), "FlowField.cell"),
        (np.zeros((2, 2, 2)), -3.0, (0, 0), "FlowField.cell"),
        (np.zeros((2, 2, 2)), math.nan, (0, 0), "FlowField.cell"),
        (np.zeros((2, 2, 2)), 1.0, (0, math.inf), "FlowField.origin"),
        (np.zeros((2, 2, 2)), 1.0, (0, 0, 0), "FlowField.origin"),
    ],
)
def test_bad_fields_raise_value_errors_naming_the_field(
    vectors: np.ndarray, cell: float, origin: tuple[float, ...], names: str
) -> None:
    with pytest.raises(ValueError, match=names):
        FlowField(vectors, cell, origin)  # type: ignore[arg-type]


def test_absurd_grids_are_refused_before_allocating() -> None:
    with pytest.raises(ValueError, match=str(MAX_CELLS)):
        FlowField(np.broadcast_to(np.zeros(2), (1001, 1000, 2)), 1.0)
    with pytest.raises(ValueError, match="rows/cols"):
        FlowField.uniform(100_000, 100_000, 1.0, 0.0)
    with pytest.raises(ValueError, match="rows/cols"):
        NoiseFlow(0, 10, 1.0)
    with pytest.raises(ValueError, match="rows/cols"):
        FlowField.vortex(2.5, 3, 1.0)  # type: ignore[arg-type]


def test_field_keeps_its_own_copy_of_the_vectors() -> None:
    vec = np.zeros((2, 2, 2))
    field = FlowField(vec, 1.0)
    vec[...] = 7.0
    assert not field.vectors.any()


# -- generators --------------------------------------------------------------------------------


def test_uniform_from_an_angle_or_a_vector() -> None:
    by_angle = FlowField.uniform(2, 3, 10.0, math.pi / 2, origin=(5, 5))
    np.testing.assert_allclose(by_angle.vectors.reshape(-1, 2), [[0.0, 1.0]] * 6, atol=1e-15)
    assert by_angle.origin == (5.0, 5.0)
    by_vector = FlowField.uniform(1, 2, 10.0, (0.3, -0.4))
    np.testing.assert_allclose(by_vector.vectors.reshape(-1, 2), [[0.3, -0.4]] * 2)
    with pytest.raises(ValueError, match="direction"):
        FlowField.uniform(1, 2, 10.0, (1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="direction"):
        FlowField.uniform(1, 2, 10.0, math.inf)
    with pytest.raises(ValueError, match=r"FlowField\.vectors"):
        FlowField.uniform(1, 2, 10.0, (math.nan, 0.0))


def test_vortex_turns_counter_clockwise_by_default_and_clockwise_on_request() -> None:
    # Given a 5 x 5 vortex of 10 px cells centred on the middle cell (25, 25)
    ccw = FlowField.vortex(5, 5, 10.0)
    cw = FlowField.vortex(5, 5, 10.0, clockwise=True)
    right, top, left, bottom, centre = (45, 25), (25, 45), (5, 25), (25, 5), (25, 25)
    pts = [right, top, left, bottom, centre]
    # Then counter-clockwise: right of the centre +y, above -x, left -y, below +x; centre still
    expected = np.array([[0, 1], [-1, 0], [0, -1], [1, 0], [0, 0]], dtype=float)
    np.testing.assert_allclose(ccw.lookup(pts, bilinear=False), expected, atol=1e-12)
    # And the clockwise flag flips every vector
    np.testing.assert_allclose(cw.lookup(pts, bilinear=False), -expected, atol=1e-12)
    # And every vector is tangent: perpendicular to the radius
    radius = (ccw.cell_centers() - 25.0).reshape(-1, 2)
    np.testing.assert_allclose(np.einsum("ij,ij->i", radius, ccw.vectors.reshape(-1, 2)), 0.0,
                               atol=1e-9)  # fmt: skip


def test_vortex_pull_spirals_inward_around_a_given_centre() -> None:
    field = FlowField.vortex(4, 4, 10.0, origin=(100, 100), center=(100, 105), pull=1.0)
    v = field.lookup([(135.0, 105.0)], bilinear=False)[0]
    # tangent (0, 1) plus inward (-1, 0), normalised
    np.testing.assert_allclose(v, np.array([-1.0, 1.0]) / math.sqrt(2), atol=1e-12)


def test_image_field_points_from_dark_to_bright() -> None:
    # Given a brightness ramp that grows to the right (columns) in an 8 x 12 image
    ramp_x = np.tile(np.arange(12.0), (8, 1))
    field = FlowField.from_image(ramp_x, 4.0)
    # Then 2 x 3 cells of 4 px all point +x with full strength
    assert (field.rows, field.cols) == (2, 3)
    np.testing.assert_allclose(field.vectors.reshape(-1, 2), [[1.0, 0.0]] * 6)
    # Given brightness that grows with the image row index, i.e. downwards on the picture
    ramp_down = np.tile(np.arange(8.0)[:, None], (1, 12))
    # Then the field (y up) points -y: towards the bright bottom of the picture
    down = FlowField.from_image(ramp_down, 4.0)
    np.testing.assert_allclose(down.vectors.reshape(-1, 2), [[0.0, -1.0]] * 6)


def test_image_field_from_colour_array_and_flat_regions() -> None:
    # Given an RGBA picture, dark left half flat, a bright spot in the right half's top row
    img = np.zeros((4, 8, 4))
    img[0, 6, :3] = 255.0
    img[:, :, 3] = 255.0  # alpha is ignored
    field = FlowField.from_image(img, 4.0, origin=(10.0, 20.0))
    assert (field.rows, field.cols) == (1, 2)
    np.testing.assert_array_equal(field.vectors[0, 0], [0.0, 0.0])  # flat: still water
    v = field.vectors[0, 1]
    assert v[1] > 0.0  # the bright pixel is at the top: +y
    assert np.linalg.norm(v) == pytest.approx(1.0)  # the steepest cell has full strength


def test_image_field_from_a_png_file_keeps_the_picture_upright(tmp_path: Path) -> None:
    from PIL import Image

    # Given a 20 x 30 PNG that is bright at the top and dark at the bottom, in red only
    rows = np.linspace(255, 0, 20).astype(np.uint8)
    rgb = np.zeros((20, 30, 3), dtype=np.uint8)
    rgb[:, :, 0] = rows[:, None]
    path = tmp_path / "ramp.png"
    Image.fromarray(rgb).save(path)
    # When it becomes a field of 10 px cells (10 px pixels per cell)
    field = FlowField.from_image(path, 10.0)
    # Then 2 x 3 cells point up, towards the bright top
    assert (field.rows, field.cols) == (2, 3)
    np.testing.assert_allclose(_unit(field.vectors), [[0.0, 1.0]] * 6, atol=1e-12)
    # And a string path works too, with a block size of its own
    assert FlowField.from_image(str(path), 1.0, block=5).vectors.shape == (4, 6, 2)


def test_image_field_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="empty"):
        FlowField.from_image(np.zeros((3, 30)), 4.0)  # smaller than one cell
    with pytest.raises(ValueError, match="from_image"):
        FlowField.from_image(np.zeros((4, 4, 2)), 1.0)
    with pytest.raises(ValueError, match="finite"):
        FlowField.from_image(np.full((4, 4), np.nan), 1.0)
    with pytest.raises(ValueError, match="block"):
        FlowField.from_image(np.zeros((4, 4)), 1.0, block=0)


def test_noise_field_is_seeded_and_is_opensimplex() -> None:
    a = FlowField.noise(6, 9, 8.0, seed=42, scale=0.3)
    b = FlowField.noise(6, 9, 8.0, seed=42, scale=0.3)
    c = FlowField.noise(6, 9, 8.0, seed=43, scale=0.3)
    np.testing.assert_array_equal(a.vectors, b.vectors)
    assert np.abs(a.vectors - c.vectors).max() > 0.1
    # The angle is the seed's 180 * (noise + 1) degrees of opensimplex's 2-D noise
    n = opensimplex.OpenSimplex(42).noise2array(np.arange(9) * 0.3, np.arange(6) * 0.3)
    angle = math.pi * (n + 1.0)
    np.testing.assert_allclose(a.vectors, np.stack((np.cos(angle), np.sin(angle)), -1), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(a.vectors, axis=-1), 1.0)


def test_noise_slices_of_3d_noise_are_opensimplex() -> None:
    # 3-D: a slice at z of opensimplex's 3-D noise, the angle its share of half a turn
    gen = opensimplex.OpenSimplex(7)
    field = FlowField.noise(5, 7, 8.0, seed=7, scale=0.37, z=3.3, turns=0.5, base_angle=0.0)
    n = np.array([[gen.noise3(c * 0.37, r * 0.37, 3.3) for c in range(7)] for r in range(5)])
    expected = np.stack((np.cos(0.5 * math.pi * n), np.sin(0.5 * math.pi * n)), -1)
    np.testing.assert_allclose(field.vectors, expected, atol=1e-12)


def test_from_function_samples_cell_centers() -> None:
    # Given fn(p) = (y, -x) on a 2 x 3 grid of 10 px cells at origin (0, 100)
    field = FlowField.from_function(lambda p: np.stack((p[:, 1], -p[:, 0]), 1), 2, 3, 10.0,
                                    origin=(0.0, 100.0))  # fmt: skip
    # Then cell (r, c) holds (yc, -xc) of its centre (5 + 10c, 105 + 10r)
    np.testing.assert_allclose(field.vectors[0, 0], [105.0, -5.0])
    np.testing.assert_allclose(field.vectors[1, 2], [115.0, -25.0])
    with pytest.raises(ValueError, match="from_function"):
        FlowField.from_function(lambda p: p[:, 0], 2, 3, 10.0)
    with pytest.raises(ValueError, match=r"FlowField\.vectors"):
        FlowField.from_function(lambda p: np.full_like(p, np.inf), 2, 3, 10.0)


# -- the field that changes over time ----------------------------------------------------------


def test_noise_flow_changes_with_time_smoothly_and_in_place() -> None:
    # Given a 40 x 25 drifting field and a behaviour holding its field
    flow = NoiseFlow(25, 40, 16.0, seed=5, speed=0.5)
    follow = FollowFlow(flow.field)
    before = flow.field.vectors.copy()
    # When one game step passes
    same = flow.advance(DT)
    # Then the same field object changed, by a few degrees at most
    assert same is flow.field is follow.field
    assert flow.t == pytest.approx(DT)
    step = _angle_between(before.reshape(-1, 2), flow.field.vectors.reshape(-1, 2))
    assert 0.0 < step.max() < 5.0
    # And smoothly: half the time step turns the vectors about half as far
    other = NoiseFlow(25, 40, 16.0, seed=5, speed=0.5)
    half = _angle_between(before.reshape(-1, 2), other.update(DT / 2).vectors.reshape(-1, 2))
    assert 0.4 < half.sum() / step.sum() < 0.6
    # And after 20 s the field has turned a lot on average
    later = other.update(20.0)
    drift = _angle_between(before.reshape(-1, 2), later.vectors.reshape(-1, 2))
    assert drift.mean() > 20.0
    # And another flow's updates leave this one alone; update(0) comes back to the start
    assert flow.t == pytest.approx(DT)
    np.testing.assert_allclose(flow.update(0.0).vectors, before)
    # And it is the 3-D noise slice at z = t * speed
    np.testing.assert_allclose(
        later.vectors, FlowField.noise(25, 40, 16.0, seed=5, z=10.0).vectors, atol=1e-12
    )


def test_noise_flow_row_updates_cover_the_grid_at_an_even_cost() -> None:
    # Given two equal drifting fields
    whole = NoiseFlow(25, 40, 16.0, seed=9, speed=0.5)
    parts = NoiseFlow(25, 40, 16.0, seed=9, speed=0.5)
    before = parts.field.vectors.copy()
    # When one gets a whole update and the other one row in four for four steps
    whole.update(3.0)
    for part in range(4):
        same = parts.update_rows(3.0, part, 4)
        # Then each step rewrites only its own rows (the same number of rows every step)
        changed = np.flatnonzero((same.vectors != before).any(axis=(1, 2)))
        assert set(changed) <= {r for r in range(25) if r % 4 <= part}
        assert same is parts.field
    # And after the four steps both fields are the same
    np.testing.assert_array_equal(parts.field.vectors, whole.field.vectors)
    assert parts.t == 3.0


def test_noise_flow_validates_its_parameters() -> None:
    with pytest.raises(ValueError, match=r"NoiseFlow\.scale"):
        NoiseFlow(2, 2, 1.0, scale=0.0)
    with pytest.raises(ValueError, match=r"FlowField\.cell"):
        NoiseFlow(2, 2, -1.0)
    with pytest.raises(ValueError, match="NoiseFlow time"):
        NoiseFlow(2, 2, 1.0).update(math.nan)


# -- following ---------------------------------------------------------------------------------


def test_follow_force_is_field_direction_at_max_speed_minus_velocity() -> None:
    # Given a field flowing +x at strength 0.5 and an agent moving +y at 10 px/s
    field = FlowField.uniform(3, 3, 10.0, (0.5, 0.0))
    agents = AgentGroup.create([[15.0, 15.0]], [[0.0, 10.0]], max_speed=100, max_force=1e6)
    debug: dict[str, np.ndarray] = {}
    force = FollowFlow(field)(agents, DT, debug)
    # Then desired = (100, 0) (direction only), steer = (desired - vel) * gain
    np.testing.assert_allclose(force, [[100.0 * DEFAULT_GAIN, -10.0 * DEFAULT_GAIN]])
    np.testing.assert_allclose(debug["flow.sample"], [[0.5, 0.0]])
    np.testing.assert_allclose(debug["flow.lookup"], [[15.0, 15.0]])
    # And with the strength scaling the speed, desired = (50, 0)
    scaled = FollowFlow(field, strength_scales_speed=True)(agents, DT)
    np.testing.assert_allclose(scaled, [[50.0 * DEFAULT_GAIN, -10.0 * DEFAULT_GAIN]])


def test_follow_force_is_limited_to_max_force() -> None:
    field = FlowField.uniform(1, 1, 10.0, math.pi)
    agents = AgentGroup.create([[5.0, 5.0]], [[100.0, 0.0]], max_speed=100, max_force=50)
    np.testing.assert_allclose(FollowFlow(field)(agents, DT), [[-50.0, 0.0]], atol=1e-9)


def test_still_water_brakes_like_the_seed() -> None:
    field = FlowField(np.zeros((2, 2, 2)), 10.0)
    agents = AgentGroup.create([[5.0, 5.0]], [[3.0, -4.0]], max_speed=100, max_force=1e6)
    np.testing.assert_allclose(
        FollowFlow(field)(agents, DT), [[-3.0 * DEFAULT_GAIN, 4.0 * DEFAULT_GAIN]]
    )


def test_prediction_reads_the_field_ahead() -> None:
    # Given a field: left column flows +y, right column flows -y (cells 50 px wide)
    vec = np.array([[[0.0, 1.0], [0.0, -1.0]]])
    field = FlowField(vec, 50.0)
    agents = AgentGroup.create([[40.0, 25.0]], [[100.0, 0.0]], max_speed=100, max_force=1e6)
    # When it looks 0.2 s ahead: (40, 25) + (100, 0) * 0.2 = (60, 25), in the right cell
    debug: dict[str, np.ndarray] = {}
    ahead = FollowFlow(field, predict_time=0.2, bilinear=False)(agents, DT, debug)
    here = FollowFlow(field, bilinear=False)(agents, DT)
    np.testing.assert_allclose(debug["flow.lookup"], [[60.0, 25.0]])
    np.testing.assert_allclose(debug["flow.sample"], [[0.0, -1.0]])
    assert ahead[0, 1] < 0.0 < here[0, 1]


def test_agents_outside_clamp_by_default_or_get_no_force() -> None:
    field = FlowField.uniform(2, 2, 10.0, 0.0)
    agents = AgentGroup.create([[5.0, 5.0], [500.0, -300.0]], max_speed=100, max_force=1e6)
    clamp = FollowFlow(field)(agents, DT)
    zero = FollowFlow(field, outside="zero")(agents, DT)
    np.testing.assert_allclose(clamp, [[800.0, 0.0], [800.0, 0.0]])
    np.testing.assert_allclose(zero, [[800.0, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="outside"):
        FollowFlow(field, outside="wrap")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="predict_time"):
        FollowFlow(field, predict_time=-1.0)


def test_uniform_field_aligns_velocities_over_time() -> None:
    # Given 20 agents with random velocities in a field flowing at 30 degrees
    rng = np.random.default_rng(0)
    field = FlowField.uniform(20, 20, 40.0, math.radians(30))
    agents = AgentGroup.create(
        rng.uniform(100, 700, (20, 2)),
        rng.uniform(-200, 200, (20, 2)),
        max_speed=rng.uniform(120, 240, 20),
        max_force=rng.uniform(360, 1080, 20),
    )
    follow = FollowFlow(field)
    # When 3 s pass
    for _ in range(180):
        integrate(agents, follow(agents, DT), DT)
    # Then every velocity is within 2 degrees of the field, at about max speed
    flow_dir = np.tile([math.cos(math.radians(30)), math.sin(math.radians(30))], (20, 1))
    assert _angle_between(agents.vel, flow_dir).max() < 2.0
    np.testing.assert_allclose(agents.speed(), agents.max_speed, rtol=0.02)


def test_agents_circle_in_a_vortex() -> None:
    # Given agents in a counter-clockwise vortex: their angular momentum about the centre grows +
    field = FlowField.vortex(20, 20, 20.0)
    rng = np.random.default_rng(1)
    agents = AgentGroup.create(rng.uniform(100, 300, (10, 2)), max_speed=150, max_force=600)
    follow = FollowFlow(field, predict_time=0.1)
    for _ in range(120):
        integrate(agents, follow(agents, DT), DT)
    rel = agents.pos - 200.0
    assert (rel[:, 0] * agents.vel[:, 1] - rel[:, 1] * agents.vel[:, 0] > 0).all()


# -- properties --------------------------------------------------------------------------------


@st.composite
def fields(draw: st.DrawFn) -> FlowField:
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 5))
    elems = st.one_of(st.just(0.0), st.floats(-50, 50, allow_subnormal=False))
    vec = draw(hnp.arrays(np.float64, (rows, cols, 2), elements=elems))
    cell = draw(st.floats(1e-3, 1e3))
    origin = (draw(st.floats(-1e4, 1e4)), draw(st.floats(-1e4, 1e4)))
    return FlowField(vec, cell, origin)


coords = st.one_of(st.floats(-1e4, 1e4), st.floats(-1e12, 1e12), st.just(0.0))


@settings(max_examples=150, deadline=None)
@given(
    field=fields(),
    data=st.data(),
    predict=st.floats(0, 5),
    bilinear=st.booleans(),
    scaled=st.booleans(),
    outside=st.sampled_from(["clamp", "zero"]),
)
@pytest.mark.slow
def test_forces_are_finite_and_within_max_force(
    field: FlowField,
    data: st.DataObject,
    predict: float,
    bilinear: bool,
    scaled: bool,
    outside: str,
) -> None:
    n = data.draw(st.integers(1, 12))
    pos = data.draw(hnp.arrays(np.float64, (n, 2), elements=coords))
    vel = data.draw(hnp.arrays(np.float64, (n, 2), elements=st.floats(-1e3, 1e3)))
    max_speed = data.draw(hnp.arrays(np.float64, n, elements=st.floats(0, 500)))
    max_force = data.draw(hnp.arrays(np.float64, n, elements=st.floats(0, 2000)))
    agents = AgentGroup.create(pos, vel, max_speed=max_speed, max_force=max_force)
    follow = FollowFlow(field, predict, bilinear, scaled, outside)  # type: ignore[arg-type]
    debug: dict[str, np.ndarray] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        force = follow(agents, DT, debug)
    assert force.shape == (n, 2)
    assert np.isfinite(force).all()
    assert (np.linalg.norm(force, axis=1) <= max_force + 1e-9).all()
    assert debug["flow.sample"].shape == debug["flow.lookup"].shape == (n, 2)


@settings(max_examples=100, deadline=None)
@given(field=fields(), data=st.data())
def test_bilinear_lookup_stays_within_the_cells_vectors(
    field: FlowField, data: st.DataObject
) -> None:
    pts = data.draw(hnp.arrays(np.float64, (8, 2), elements=coords))
    flat = field.vectors.reshape(-1, 2)
    got = field.lookup(pts)
    # a convex combination of cell vectors stays inside their bounding box
    assert (got >= flat.min(axis=0) - 1e-9).all()
    assert (got <= flat.max(axis=0) + 1e-9).all()
    # and the nearest lookup returns actual cell vectors
    near = field.lookup(pts, bilinear=False)
    assert all((flat == row).all(axis=1).any() for row in near)
