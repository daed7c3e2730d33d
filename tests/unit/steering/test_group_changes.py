"""Per-agent arrays held by behaviours (a Masked mask, targets per agent, weights and limits
per agent) after the group's agents.remove or agents.add: the next call refuses them with a
message that says what to do, and doing it works."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from steering import AgentGroup, Limited, Masked, Seek, Weighted, WeightedSum


def five() -> AgentGroup:
    return AgentGroup.create([(float(10 * i), 0.0) for i in range(5)])


def test_a_mask_after_remove_names_both_lengths_and_the_fix() -> None:
    # Given a group of 5 and a mask of 5
    agents = five()
    masked = Masked(Seek((0.0, 100.0)), np.array([True, False, True, False, True]))
    masked(agents, 0.1)
    # When an agent is removed and the mask is not
    agents.remove([1])
    # Then the call says exactly what to do
    with pytest.raises(ValueError) as caught:
        masked(agents, 0.1)
    assert str(caught.value).startswith(
        "Masked.mask has 5 rows, the group 4 agents: after agents.remove(rows), remove the "
        "same rows from the mask, e.g. mask = np.delete(mask, rows)"
    )
    # and doing it works
    masked.mask = np.delete(masked.mask, [1])
    assert masked(agents, 0.1).shape == (4, 2)


def test_a_mask_inside_a_sum_after_add_says_append() -> None:
    agents = five()
    masked = Masked(Seek((0.0, 100.0)), np.ones(5, dtype=bool))
    total = WeightedSum([masked, Seek((5.0, 5.0))])
    agents.add([(1.0, 1.0)])
    with pytest.raises(
        ValueError,
        match=r"Masked\.mask has 5 rows, the group 6 agents: .*"
        r"after agents\.add\(\.\.\.\), append a row for each new agent",
    ):
        total(agents, 0.1)
    masked.mask = np.append(masked.mask, [True])
    assert total(agents, 0.1).shape == (6, 2)


def test_targets_per_agent_after_remove_say_delete_along_rows() -> None:
    agents = five()
    seek = Seek(np.arange(10.0).reshape(5, 2))
    agents.remove(np.array([True, False, False, False, False]))
    with pytest.raises(ValueError) as caught:
        seek(agents, 0.1)
    assert str(caught.value).startswith(
        "Seek.target has 5 rows, the group 4 agents: after agents.remove(rows), remove the same "
        "rows from the target, e.g. target = np.delete(target, rows, axis=0)"
    )
    seek.target = np.delete(seek.target, [0], axis=0)
    assert seek(agents, 0.1).shape == (4, 2)


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (
            lambda: WeightedSum([Weighted(Seek((0.0, 0.0)), np.ones(5))]),
            "WeightedSum.parts[0].weight",
        ),
        (lambda: Limited(Seek((0.0, 0.0)), max_speed=np.full(5, 50.0)), "Limited.max_speed"),
        (lambda: Limited(Seek((0.0, 0.0)), max_force=np.full(5, 50.0)), "Limited.max_force"),
    ],
)
def test_weights_and_limits_per_agent_after_remove(make: Callable[[], Any], named: str) -> None:
    agents = five()
    behaviour = make()
    behaviour(agents, 0.1)
    agents.remove([4])
    with pytest.raises(
        ValueError,
        match="^" + re.escape(f"{named} has 5 rows, the group 4 agents: after agents.remove(rows)"),
    ):
        behaviour(agents, 0.1)


def test_the_guide_says_how_to_keep_them_in_step() -> None:
    from pathlib import Path

    guide = (Path(__file__).parents[3] / "docs" / "steering.md").read_text(encoding="utf-8")
    assert "### Per-agent arrays when the group changes" in guide
    assert "masked.mask = np.delete(masked.mask, rows)" in guide
    # and its snippet runs: the arrays stay in step with the group
    section = guide.split("### Per-agent arrays when the group changes", 1)[1]
    snippet = re.search(r"```py\n(.*?)```", section, re.S)
    assert snippet is not None
    agents = five()
    masked = Masked(Seek((0.0, 100.0)), np.ones(5, dtype=bool))
    seek = Seek(np.arange(10.0).reshape(5, 2))
    scope = {"np": np, "agents": agents, "masked": masked, "seek": seek, "rows": [1, 3]}
    exec(snippet.group(1), scope)
    assert agents.n == 4
    assert masked(agents, 0.1).shape == seek(agents, 0.1).shape == (4, 2)
