"""A flow region's panel lists only the properties its kind uses; stepping the kind brings
the new kind's rows, and hidden values stay in the level."""

from __future__ import annotations

import pytest

from game.editor import EditModel
from game.editor.objects import Ref
from game.editor.panel import FLOW_KIND_PROPS, Panel
from game.level import CLASSES, FLOW_KINDS
from tests.unit.editor.helpers import make_level


@pytest.fixture
def model() -> EditModel:
    m = EditModel(make_level())
    assert m.begin_create("flows", 100.0, 100.0)
    m.update_drag(400.0, 300.0)
    m.end_drag()
    m.select_object(Ref("flows", len(m.level.flows) - 1))
    return m


def test_a_uniform_flow_lists_kind_angle_and_strength_only(model: EditModel) -> None:
    # Given a new flow region (uniform by default)
    assert model.selected_object is not None
    assert getattr(model.selected_object, "kind", None) == "uniform"
    # Then its panel has no cell, scale, speed, seed, clockwise or image
    names = [r.name for r in Panel.rows(model)]
    assert names == ["kind", "angle", "strength"]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("noise", ["kind", "strength", "cell", "scale", "speed", "seed"]),
        ("vortex", ["kind", "strength", "cell", "clockwise"]),
    ],
)
def test_stepping_the_kind_shows_that_kind_s_properties(
    model: EditModel, kind: str, expected: list[str]
) -> None:
    panel = Panel()
    while getattr(model.selected_object, "kind", None) != kind:
        assert panel.click(model, "kind")
    assert [r.name for r in Panel.rows(model)] == expected


def test_every_kind_and_property_is_covered() -> None:
    # Every kind has its list, and every flow property is used by at least one kind
    assert set(FLOW_KIND_PROPS) == set(FLOW_KINDS)
    used = set().union(*FLOW_KIND_PROPS.values())
    assert used == {p.name for p in CLASSES["flow"].props}
