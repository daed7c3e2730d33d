"""Path and flow following as compiled per-agent kernels: serial and parallel loops agree bit
for bit, a whole-path search of many agents on a long path runs in constant memory, FollowFlow
takes a NoiseFlow directly, opensimplex is needed only for noise, and bad arguments are
refused by name."""

from __future__ import annotations

import math
import subprocess
import sys
import tracemalloc

import numba
import numpy as np
import pytest

import steering._jit as jit
from steering import (
    AgentGroup,
    FlowField,
    FollowFlow,
    FollowPath,
    NoiseFlow,
    Path,
    PathSet,
)

pytestmark = pytest.mark.filterwarnings("error")

DT = 1 / 60


def _agents(n: int, seed: int = 0, span: float = 1000.0) -> AgentGroup:
    rng = np.random.default_rng(seed)
    return AgentGroup.create(
        rng.uniform(-50.0, span, (n, 2)),
        rng.uniform(-150.0, 150.0, (n, 2)),
        max_speed=rng.uniform(60.0, 180.0, n),
        max_force=rng.uniform(100.0, 500.0, n),
    )


def _registry() -> PathSet:
    return PathSet(
        [
            ("open", Path([(0, 0), (300, 0), (300, 200), (500, 260)], radius=15.0)),
            ("loop", Path([(600, 100), (800, 100), (800, 300), (600, 300)], closed=True)),
            ("bent", Path([(100, 400), (250, 420), (250, 420), (120, 520)], radius=10.0)),
            ("point", Path([(900, 500), (900, 500)], radius=5.0)),
        ]
    )


def _steps(
    behaviour: FollowPath | FollowFlow,
    agents: AgentGroup,
    parallel_from: int,
    monkeypatch: pytest.MonkeyPatch,
) -> list[np.ndarray]:
    """Forces of four steps with loops run in parallel from ``parallel_from`` rows."""
    out = []
    with monkeypatch.context() as m:
        m.setattr(jit, "PARALLEL_MIN", parallel_from)
        for _ in range(4):
            force = behaviour(agents, DT)
            out.append(force)
            agents.vel += force * DT
            agents.pos += agents.vel * DT
    return out


# -- serial and parallel loops ------------------------------------------------------------------


def test_follow_path_serial_and_parallel_are_bit_identical(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given the same agents on four paths (some reversed, some on none), twice
    n = 300
    rng = np.random.default_rng(5)
    index = rng.integers(-1, 4, n).astype(float)
    reverse = (rng.random(n) < 0.4).astype(float)
    groups = []
    for _ in range(2):
        agents = _agents(n, 1)
        param = FollowPath(_registry()).param(agents)
        param.path_index[:] = index
        param.direction[:] = np.where(reverse > 0.5, -1.0, 1.0)
        groups.append(agents)
    paths = [_registry(), _registry()]
    # When one steps with serial loops and the other with parallel ones (an edit half way)
    serial = _steps(FollowPath(paths[0]), groups[0], 10**9, monkeypatch)
    parallel = _steps(FollowPath(paths[1]), groups[1], 1, monkeypatch)
    for registry in paths:
        registry["open"].move_node(1, (320.0, 30.0))
    serial += _steps(FollowPath(paths[0]), groups[0], 10**9, monkeypatch)
    parallel += _steps(FollowPath(paths[1]), groups[1], 1, monkeypatch)
    # Then every force and every progress is the same to the bit
    for a, b in zip(serial, parallel, strict=True):
        np.testing.assert_array_equal(a, b)
    for col in ("path.nearest", "path.progress"):
        np.testing.assert_array_equal(groups[0].state[col], groups[1].state[col])
    assert np.isfinite(groups[0].state["path.progress"][index >= 0]).all()


@pytest.mark.parametrize("noise", [False, True])
def test_follow_flow_serial_and_parallel_are_bit_identical(
    monkeypatch: pytest.MonkeyPatch, noise: bool
) -> None:
    field: FlowField | NoiseFlow = (
        NoiseFlow(12, 10, 100.0, seed=3) if noise else FlowField.vortex(12, 10, 100.0)
    )
    serial = _steps(FollowFlow(field, predict_time=0.2), _agents(300, 2), 10**9, monkeypatch)
    parallel = _steps(FollowFlow(field, predict_time=0.2), _agents(300, 2), 1, monkeypatch)
    for a, b in zip(serial, parallel, strict=True):
        np.testing.assert_array_equal(a, b)


# -- memory -------------------------------------------------------------------------------------


def test_first_search_of_many_agents_on_a_long_path_needs_no_agents_x_segments_memory() -> None:
    # Given 3,000 new agents and a 6,000-node path (the old search held 3,000 x 6,000 floats,
    # 144 MB, several times over; a tenth of each as plain Python)
    scale = 10 if numba.config.DISABLE_JIT else 1
    t = np.linspace(0.0, 40.0, 6000 // scale)
    path = Path(np.stack((t * 100.0, 2000.0 + 1500.0 * np.sin(t)), axis=1), radius=20.0)
    agents = _agents(3000 // scale, 3, span=4000.0)
    follow = FollowPath(path)
    FollowPath(Path([(0.0, 0.0), (10.0, 0.0)]))(_agents(3), DT)  # compiled before measuring
    # When they first search the whole path
    tracemalloc.start()
    try:
        force = follow(agents, DT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # Then the memory used is a few arrays of one row per agent, and each found its nearest point
    assert peak < 2_000_000
    assert np.isfinite(force).all()
    np.testing.assert_allclose(
        follow.nearest(agents), path.project(agents.pos).s, rtol=0.0, atol=1e-6
    )


# -- flow sources -------------------------------------------------------------------------------


def test_follow_flow_takes_a_noise_flow_directly_and_reads_its_current_time() -> None:
    # Given a noise flow and agents
    flow = NoiseFlow(8, 8, 50.0, speed=0.5, seed=11)
    agents = _agents(40, 4, span=400.0)
    for t in (0.0, 2.5):
        flow.update(t)
        # When followed through the NoiseFlow and through its field
        debug: dict[str, np.ndarray] = {}
        direct = FollowFlow(flow, predict_time=0.1)(agents, DT, debug)
        via_field = FollowFlow(flow.field, predict_time=0.1)(agents, DT)
        # Then the forces are the same, read at the flow's current time
        np.testing.assert_array_equal(direct, via_field)
        np.testing.assert_array_equal(debug["flow.sample"], flow.lookup(debug["flow.lookup"]))
    np.testing.assert_array_equal(flow.contains(agents.pos), flow.field.contains(agents.pos))


class _Doubled:
    """A flow source that is not a grid: a field's vectors, doubled."""

    def __init__(self, field: FlowField) -> None:
        self.field = field

    def lookup(self, points: np.ndarray, bilinear: bool = True) -> np.ndarray:
        return 2.0 * self.field.lookup(points, bilinear)

    def contains(self, points: np.ndarray) -> np.ndarray:
        return self.field.contains(points)


def test_any_flow_source_is_followed_with_the_same_steer() -> None:
    # Given a uniform field of strength 0.25 and a source that doubles it
    field = FlowField.uniform(4, 4, 100.0, (0.25, 0.0))
    agents = _agents(20, 6, span=600.0)
    for outside in ("clamp", "zero"):
        # When the field at strength 0.5 and the doubled source are followed
        half = FlowField.uniform(4, 4, 100.0, (0.5, 0.0))
        a = FollowFlow(half, strength_scales_speed=True, outside=outside)(agents, DT)  # type: ignore[arg-type]
        b = FollowFlow(_Doubled(field), strength_scales_speed=True, outside=outside)(  # type: ignore[arg-type]
            agents, DT
        )
        # Then the forces agree
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_import_steering_does_not_need_opensimplex() -> None:
    code = (
        "import sys\n"
        "sys.modules['opensimplex'] = None  # importing it now raises ImportError\n"
        "import steering\n"
        "f = steering.FlowField.vortex(3, 3, 10.0)\n"
        "a = steering.AgentGroup.create([(1.0, 2.0)], [(0.0, 0.0)])\n"
        "assert steering.FollowFlow(f)(a, 0.1).shape == (1, 2)\n"
        "try:\n"
        "    steering.NoiseFlow(3, 3, 10.0)\n"
        "except ImportError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('noise without opensimplex')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -- argument checks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"path": "road"}, TypeError, "FollowPath.path"),
        ({"lookahead_time": math.nan}, ValueError, "FollowPath.lookahead_time"),
        ({"lookahead_time": "soon"}, TypeError, "FollowPath.lookahead_time"),
        ({"target_ahead": math.inf}, ValueError, "FollowPath.target_ahead"),
        ({"target_ahead_time": None}, TypeError, "FollowPath.target_ahead_time"),
        ({"slowing_radius": -1.0}, ValueError, "FollowPath.slowing_radius"),
        ({"cruise_fraction": math.nan}, ValueError, "FollowPath.cruise_fraction"),
        ({"search_window": -5.0}, ValueError, "FollowPath.search_window"),
        ({"progress_rate": -1.0}, ValueError, "FollowPath.progress_rate"),
        ({"gain": math.inf}, ValueError, "FollowPath.gain"),
        ({"key": ""}, TypeError, "FollowPath.key"),
        ({"key": 3}, TypeError, "FollowPath.key"),
        ({"brake_fraction": math.nan}, ValueError, "FollowPath.brake_fraction"),
        ({"lookahead_distance": -25.0}, ValueError, "FollowPath.lookahead_distance"),
    ],
)
def test_follow_path_refuses_bad_arguments_by_name(
    kwargs: dict[str, object], error: type[Exception], name: str
) -> None:
    args: dict[str, object] = {"path": Path([(0.0, 0.0), (100.0, 0.0)])}
    args.update(kwargs)
    with pytest.raises(error, match=name):
        FollowPath(**args)  # type: ignore[arg-type]


def test_follow_path_accepts_the_documented_extremes() -> None:
    path = Path([(0.0, 0.0), (100.0, 0.0)])
    FollowPath(path, search_window=math.inf, progress_rate=math.inf, slowing_radius=0.0)
    FollowPath(PathSet([("a", path)]), lookahead_distance=0.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"field": None}, TypeError, "FollowFlow.field"),
        ({"field": np.zeros((3, 3, 2))}, TypeError, "FollowFlow.field"),
        ({"predict_time": -0.5}, ValueError, "FollowFlow.predict_time"),
        ({"predict_time": math.inf}, ValueError, "FollowFlow.predict_time"),
        ({"predict_time": "1"}, TypeError, "FollowFlow.predict_time"),
        ({"gain": math.nan}, ValueError, "FollowFlow.gain"),
        ({"outside": "wrap"}, ValueError, "FollowFlow.outside"),
    ],
)
def test_follow_flow_refuses_bad_arguments_by_name(
    kwargs: dict[str, object], error: type[Exception], name: str
) -> None:
    args: dict[str, object] = {"field": FlowField.uniform(2, 2, 10.0, 0.0)}
    args.update(kwargs)
    with pytest.raises(error, match=name):
        FollowFlow(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "error", "name"),
    [
        (lambda: FlowField(np.zeros((2, 2, 2)), "10"), TypeError, "FlowField.cell"),
        (lambda: FlowField(np.zeros((2, 2, 2)), None), TypeError, "FlowField.cell"),
        (lambda: NoiseFlow(2, 2, 1.0, speed=math.nan), ValueError, "NoiseFlow.speed"),
        (lambda: NoiseFlow(2, 2, 1.0, scale="big"), TypeError, "NoiseFlow.scale"),
        (lambda: NoiseFlow(2, 2, 1.0, turns=math.inf), ValueError, "NoiseFlow.turns"),
        (lambda: NoiseFlow(2, 2, 1.0, seed=1.5), TypeError, "NoiseFlow.seed"),
        (lambda: NoiseFlow(2, 2, 1.0, t=math.nan), ValueError, "NoiseFlow.t"),
        (lambda: FlowField.noise(2, 2, 1.0, seed="x"), TypeError, "seed"),
    ],
)
def test_flow_fields_refuse_bad_arguments_by_name(
    make: object, error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name):
        make()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("make", "error", "name"),
    [
        (lambda: Path([(0, 0), (1, 0)]).project([(0, 0)], hint_s="x"), ValueError, "hint_s"),
        (lambda: Path([(0, 0), (1, 0)]).project([(0, 0)], window=[1, 2]), ValueError, "window"),
        (lambda: PathSet([("a", "not a path")]), TypeError, "paths"),  # type: ignore[list-item]
    ],
)
def test_paths_refuse_bad_arguments_by_name(
    make: object, error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name):
        make()  # type: ignore[operator]
