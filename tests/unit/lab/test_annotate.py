"""The Lab draws the behaviours the game's F1 overlay also draws with the overlay's own
functions (:mod:`game.render.debug_draw`): a :class:`Sketch` is their canvas, sizes given in
screen pixels kept in world px at the sketch's scale."""

from __future__ import annotations

import numpy as np
import pytest

from game.lab import find_scene
from game.lab.sketch import Sketch, sketch_scene
from game.render import debug_draw
from game.render.theme import DEBUG


def test_a_sketch_keeps_screen_sizes_in_world_px() -> None:
    # Given a camera at zoom 2 (half a world px per screen pixel)
    sk = Sketch(px=0.5)
    debug = {"hide.spots": np.array([[10.0, 20.0], [np.nan, np.nan]])}
    # When the overlay's hide drawing draws into it
    debug_draw.draw_hide(sk, debug, np.zeros((0, 2)))
    # Then the one finite spot is a 5 px ring, 2.5 world px, 1.5 px thick, in the overlay's colour
    (centres, radii, color, ring), *_ = sk.dots
    np.testing.assert_allclose(centres, [[10.0, 20.0]])
    np.testing.assert_allclose(radii, [2.5])
    assert ring == pytest.approx(0.75) and color == DEBUG["hide_spot"]


def test_a_world_radius_stays_a_world_radius() -> None:
    sk = Sketch(px=0.25)
    sk.disc([[0.0, 0.0], [1.0, 1.0]], [7.0, 9.0], DEBUG["queue_brake"], ring_px=2.0)
    sk.thick([[0.0, 0.0, 1.0, 1.0]], DEBUG["wall_hit"], 4.0)
    np.testing.assert_allclose(sk.dots[0][1], [7.0, 9.0])
    assert sk.dots[0][3] == pytest.approx(0.5) and sk.strokes[0][2] == pytest.approx(1.0)


def _shapes(sk: Sketch, keys: tuple[str, ...]) -> list[tuple[str, np.ndarray]]:
    """Every line, stroke and dot in the overlay colours of ``keys``, as sorted rows."""
    colors = {DEBUG[k]: k for k in keys}
    out = []
    for kind, items in (("thin", sk.lines), ("thick", sk.strokes), ("dot", sk.dots)):
        for item in items:
            color = item[-2] if kind == "dot" else item[1]
            if isinstance(color, tuple) and color in colors:
                geom = item[0] if kind != "dot" else np.column_stack((item[0], item[1]))
                out.append((f"{kind}:{colors[color]}", np.round(np.sort(geom, axis=0), 6)))
    return sorted(out, key=lambda s: (s[0], s[1].tobytes()))


@pytest.mark.parametrize(
    ("name", "keys"),
    [
        ("hide", ("hide_spot", "hide_chosen")),
        ("interpose", ("interpose",)),
        ("offset_pursuit", ("slot",)),
        ("avoid_agents", ("approach", "threat")),
        ("walls", ("feeler", "feeler_hit", "wall_hit")),
        ("queue", ("queue_brake", "queue_ahead")),
    ],
)
def test_the_lab_draws_shared_behaviours_exactly_as_the_overlay_does(
    name: str, keys: tuple[str, ...]
) -> None:
    # Given a scene that has run long enough for its behaviour to report something
    scene = find_scene(name)()
    for _ in range(120):
        scene.step()
    # When the Lab sketches it, and the overlay's function draws the same debug dict
    lab = sketch_scene(scene, px=0.5)
    overlay = Sketch(px=0.5)
    a = scene.agents
    debug_draw.draw_behaviours(
        overlay, scene.debug, scene.debug_pos, walls=scene.walls, radius=a.radius
    )
    # Then the Lab's drawing of that behaviour is the overlay's, shape for shape
    drawn = _shapes(lab, keys)
    assert drawn, f"{name}: nothing drawn for {keys}"
    expected = _shapes(overlay, keys)
    assert [k for k, _ in drawn] == [k for k, _ in expected]
    for (_, got), (_, want) in zip(drawn, expected, strict=True):
        np.testing.assert_allclose(got, want)
