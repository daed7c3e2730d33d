"""Memory safety at the boundary (issue 42): no column assignment, removal or addition can
make a compiled kernel read or write past an array's end; bad ones are refused by name."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from steering import AgentGroup

_VECTORS = ("pos", "vel", "heading")
_SCALARS = ("max_speed", "max_force", "radius", "mass", "max_turn_rate")


def test_a_pos_of_another_length_is_refused_by_name() -> None:
    # Given a group of 30 (the case: 4000 positions made the next step segfault)
    agents = AgentGroup.create(np.zeros((30, 2)))
    # When a longer or shorter pos is assigned, it is refused, naming the column
    with pytest.raises(ValueError, match=r"pos: expected \(30, 2\)"):
        agents.pos = np.zeros((4000, 2))
    with pytest.raises(ValueError, match=r"pos: expected \(30, 2\)"):
        agents.pos = np.zeros((3, 2))
    # And a complex or text column is refused by its dtype
    with pytest.raises(TypeError, match="vel: expected numbers"):
        agents.vel = np.zeros((30, 2), dtype=np.complex128)
    with pytest.raises(TypeError, match="radius: expected numbers"):
        agents.radius = np.array(["a"] * 30)
    # Then the group is unchanged, and add/remove still change the count
    assert agents.pos.shape == (30, 2) and agents.vel.dtype == np.float64
    agents.add(np.ones((2, 2)))
    agents.remove([0, 1, 2])
    assert {getattr(agents, c).shape[0] for c in _VECTORS + _SCALARS} == {29}


def test_remove_refuses_rows_that_are_not_there() -> None:
    # Given three agents
    agents = AgentGroup.create([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    # When a row past the end, or a negative one, is removed, it is refused naming rows
    with pytest.raises(IndexError, match=r"rows: indices must be in \[0, 3\), got 5"):
        agents.remove([5])
    with pytest.raises(IndexError, match=r"rows: indices must be in \[0, 3\), got -1"):
        agents.remove([-1])
    # Then nothing was removed
    assert agents.pos[:, 0].tolist() == [0.0, 1.0, 2.0]


def test_add_refuses_bad_rows_by_name() -> None:
    agents = AgentGroup.create(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="pos: expected"):
        agents.add(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="vel: expected 1 rows"):
        agents.add([[1.0, 2.0]], vel=np.zeros((4, 2)))
    with pytest.raises(TypeError, match="pos: expected"):
        agents.add("ab")
    assert len(agents) == 3


# The subprocess: each case is a list of operations on a group of its own, each one either
# accepted or refused with ValueError/TypeError/IndexError; every few a composite steps.
_RUNNER = """
import json, sys
import numpy as np
from steering import AgentGroup, Seek, Separate, TruncatedRunningSum, integrate

steer = TruncatedRunningSum([Separate(20.0), Seek((250.0, 250.0))])
rng = np.random.default_rng(0)
for case in json.loads(sys.stdin.read()):
    g = AgentGroup.create(rng.uniform(0.0, 500.0, (case["n"], 2)))
    for op in case["ops"]:
        try:
            if op[0] == "assign":
                _, name, rows, width, dtype = op
                rows = max(len(g) + rows, 0) if abs(rows) < 100 else rows
                shape = (rows,) if width == 0 else (rows, width)
                value = rng.uniform(1.0, 500.0, shape).astype(dtype)
                setattr(g, name, value)
            elif op[0] == "remove":
                if op[2]:  # a mask of len(g) + op[1] random booleans
                    g.remove(rng.random(max(len(g) + op[1], 0)) < 0.3)
                else:
                    g.remove(np.array(op[1], dtype=np.intp))
            elif op[0] == "add":
                g.add(rng.uniform(0.0, 500.0, (op[1], 2)))
        except (ValueError, TypeError, IndexError):
            pass
        force = steer(g, 0.1)
        assert force.shape == (len(g), 2)
        integrate(g, force, 0.1)
print("ok")
"""

_COLUMN = st.sampled_from(("pos", "pos", *_VECTORS, *_SCALARS))
_DTYPE = st.sampled_from(["float64", "float32", "int64", "bool", "complex128"])


@st.composite
def _case(draw: st.DrawFn) -> dict[str, object]:
    n = draw(st.integers(0, 12))
    ops: list[list[object]] = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["assign", "assign", "remove", "add"]))
        if kind == "assign":
            # rows relative to the group's count then (0 is right), or 4000
            rows = draw(st.sampled_from([0, 0, -1, 1, -50, 4000, 4000]))
            width = draw(st.sampled_from([2, 2, 0, 3, 1]))
            ops.append(["assign", draw(_COLUMN), rows, width, draw(_DTYPE)])
        elif kind == "remove":
            if draw(st.booleans()):
                ops.append(["remove", draw(st.sampled_from([0, 0, 1, -1])), True])
            else:
                ops.append(["remove", draw(st.lists(st.integers(-3, n + 3), max_size=4)), False])
        else:
            ops.append(["add", draw(st.integers(0, 3))])
    return {"n": n, "ops": ops}


# No shrinking: each example is a subprocess; a failure shows its cases as drawn.
@settings(
    max_examples=2,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(_case(), min_size=30, max_size=30))
def test_no_run_dies_by_a_signal(cases: list[dict[str, object]]) -> None:
    # Given many random cases of assignments, removals and additions, run in one
    # interpreter with the JIT on, stepping a composite after each
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"},
    )
    # Then it is not killed by a signal (a kernel reading or writing out of bounds), and
    # every refusal was one of the named errors
    assert result.returncode >= 0, f"died by signal {-result.returncode}: {result.stderr[-2000:]}"
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"
