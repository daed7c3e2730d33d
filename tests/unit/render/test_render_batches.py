"""The batched primitives drawn for real: tubes with round joins and no gaps or double-blended
overlaps at sharp corners, discs, hairlines."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from game.level import load_level, shipped_levels
from game.render import scene as scene_module
from game.render.bank import TextureBank
from game.render.batch import DiscBatch, HairlineBatch, LineBatch
from game.render.geometry import (
    chevrons_along,
    packed_chevrons,
    packed_path_segments,
    polyline_segments,
)
from game.render.hud import play_area
from game.render.scene import WorldRenderer, facing_angles
from game.world import ENEMY, NPC, Mode, World
from steering import Path, PathSet

pytestmark = pytest.mark.window

BG = (11, 30, 50)
FILL = (200, 120, 40, 255)


def _grab(window: arcade.Window) -> np.ndarray:
    w, h = window.get_framebuffer_size()
    rgb = np.asarray(arcade.get_image(0, 0, w, h, components=3)).astype(int)
    return rgb[::-1]  # row 0 at the bottom, as world y


def _distance_to_polyline(shape: tuple[int, int], seg: np.ndarray) -> np.ndarray:
    ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]] + 0.5
    p = np.stack((xs, ys), -1)[..., None, :]
    a, b = seg[:, :2], seg[:, 2:]
    ab = b - a
    t = np.clip(((p - a) * ab).sum(-1) / (ab * ab).sum(-1), 0, 1)
    return np.linalg.norm(p - (a + ab * t[..., None]), axis=-1).min(-1)


def test_a_tube_with_sharp_corners_has_round_joins_and_no_gaps(window: arcade.Window) -> None:
    # Given a zig-zag with a 160-degree turn and a right angle, drawn as 24 px wide capsules
    nodes = np.array([[100.0, 100.0], [500.0, 160.0], [120.0, 220.0], [120.0, 500.0]])
    seg = polyline_segments(nodes, closed=False)
    batch = LineBatch(window.ctx, 4)
    batch.add(seg, FILL, 24.0)
    batch.commit()
    camera = arcade.Camera2D(window=window)
    camera.match_window(position=True)
    camera.use()
    window.clear(color=BG)
    batch.draw(1.0)
    rgb = _grab(window)
    d = _distance_to_polyline(rgb.shape[:2], seg)
    filled = np.abs(rgb - FILL[:3]).sum(-1) < 6
    background = np.abs(rgb - BG).sum(-1) < 6
    # Then everything within the radius is filled (round joins, no notch at the outer corner)
    assert filled[d < 11.0].all()
    # and nothing spikes out past it (no miter spike at the sharp turn)
    assert background[d > 13.0].all()


def test_discs_rings_and_hairlines_draw(window: arcade.Window) -> None:
    camera = arcade.Camera2D(window=window)
    camera.match_window(position=True)
    camera.use()
    discs = DiscBatch(window.ctx, 2)
    discs.add([[200.0, 200.0]], 30.0, (255, 0, 0, 255))
    discs.add([[400.0, 200.0]], 30.0, (0, 255, 0, 255), ring=4.0)
    discs.commit()
    hair = HairlineBatch(window.ctx, 2)
    hair.add([[600.0, 100.0, 600.0, 300.0]], (0, 0, 255, 255))
    hair.commit()
    window.clear(color=BG)
    discs.draw()
    hair.draw()
    rgb = _grab(window)
    assert tuple(rgb[200, 200]) == (255, 0, 0)
    assert tuple(rgb[200, 400]) == BG  # a ring is hollow
    assert tuple(rgb[200, 428]) == (0, 255, 0)
    assert rgb[150:250, 599:602, 2].max() == 255


def test_agent_sprites_are_moved_in_bulk_to_the_world_positions(
    window: arcade.Window, bank: TextureBank
) -> None:
    # Given a running world and its renderer
    level = load_level(shipped_levels()[3])
    world = World(level)
    renderer = WorldRenderer(world, bank, window.ctx)
    for _ in range(30):
        world.step((1.0, 0.0))
    renderer.update(1 / 60)
    # Then the fast path is on (arcade 3.3) and the list's data holds the world's rows
    layer = renderer.agent_sprites
    assert layer.bulk
    data = np.frombuffer(layer.list._sprite_pos_angle_data, np.float32).reshape(-1, 4)
    slots = np.array([layer.list.sprite_slot[s] for s in layer.sprites])
    expect = world.agents.pos[layer.rows]
    assert data[slots, :2] == pytest.approx(expect.astype(np.float32))
    assert data[slots, 3] == pytest.approx(
        facing_angles(world.agents.heading)[layer.rows], abs=1e-3
    )
    # and the public setters would have written exactly the same
    for sprite, (x, y), a in zip(
        layer.sprites, expect, facing_angles(world.agents.heading)[layer.rows], strict=True
    ):
        sprite.position = (float(x) + 1.0, float(y))  # force a change, then the real value
        sprite.position = (float(x), float(y))
        sprite.angle = float(a) + 1.0
        sprite.angle = float(a)
    again = np.frombuffer(layer.list._sprite_pos_angle_data, np.float32).reshape(-1, 4)
    assert again[slots, :2] == pytest.approx(expect.astype(np.float32))


def test_route_tubes_follow_drifting_paths(
    window: arcade.Window, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the moving-paths level drawn once, the tubes' segments recorded as they are made
    built: list[np.ndarray] = []

    def recorded(geo: object) -> tuple[np.ndarray, np.ndarray]:
        seg, radius = packed_path_segments(geo)
        built.append(seg)
        return seg, radius

    monkeypatch.setattr(scene_module, "packed_path_segments", recorded)
    level = next(load_level(p) for p in shipped_levels() if p.stem == "05_moving_paths")
    world = World(level)
    renderer = WorldRenderer(world, TextureBank(), window.ctx)
    renderer.update(1 / 60)
    renderer.update(1 / 60)
    assert len(built) == 1  # nothing moved: not rebuilt
    # When its paths drift for half a second (no edit recorded)
    versions = [p.version for p in world.paths.values()]
    for _ in range(30):
        world.step()
    renderer.update(1 / 60)
    # Then the tubes were rebuilt once, along the moved nodes of every path
    assert [p.version for p in world.paths.values()] == versions
    assert len(built) == 2
    expect = np.concatenate([polyline_segments(p.nodes, p.closed) for p in world.paths.values()])
    np.testing.assert_allclose(built[-1], expect, atol=1e-9)
    assert not np.allclose(built[0], built[-1])


def test_packed_path_drawing_matches_path_by_path() -> None:
    # Given a registry with open and closed paths, one slot emptied
    paths = PathSet()
    rng = np.random.default_rng(4)
    for k, closed in enumerate((False, True, False, True)):
        paths[f"p{k}"] = Path(rng.uniform(0, 500, (5 + k, 2)), closed=closed, radius=6.0 + 4 * k)
    del paths["p2"]
    geo = paths.geometry()
    live = list(paths.values())
    # Then the tubes' segments and radii are the paths' own, in order
    seg, radius = packed_path_segments(geo)
    np.testing.assert_allclose(
        seg, np.concatenate([polyline_segments(p.nodes, p.closed) for p in live]), atol=1e-9
    )
    np.testing.assert_array_equal(
        radius, np.concatenate([np.broadcast_to(p.radii, (p.radii.size,)) for p in live])
    )
    # And the chevrons are each path's, sized by its radius, at the same offset
    for offset in (0.0, 17.5, 1e4):
        expect = [
            chevrons_along(p.nodes, p.closed, 60.0, min(10.0, max(p.radius * 0.5, 5.0)), offset)
            for p in live
        ]
        np.testing.assert_allclose(
            packed_chevrons(geo, 60.0, offset), np.concatenate(expect), atol=1e-9
        )


def test_the_backdrop_from_its_cache_is_the_frame_drawn_directly(
    window: arcade.Window, bank: TextureBank
) -> None:
    # Given a level with currents (translucent tints over the grid), zoomed out to the map
    world = World(load_level(next(p for p in shipped_levels() if "currents" in p.name)))
    # under a camera that draws between the HUD's bars, as the stage's does
    camera = arcade.Camera2D(window=window)
    w, h = window.get_size()
    camera.update_values(arcade.LBWH(*play_area(w, h)), viewport=True, projection=True)
    camera.zoom = 0.5
    camera.position = (world.level.width_px / 2, world.level.height_px / 2)
    pixel = 1.0 / camera.zoom
    # and the frame as the views drew it before: the whole window cleared, every layer drawn
    window.clear(viewport=(0, 0, w, h))
    camera.use()
    WorldRenderer(world, bank, window.ctx).draw(pixel)
    reference = _grab(window)
    # When a renderer draws three frames and clears the window itself
    renderer = WorldRenderer(world, bank, window.ctx)
    frames = []
    for _ in range(3):
        window.clear(color=(255, 0, 255), viewport=(0, 0, w, h))  # what the last frame left
        camera.use()
        renderer.draw(pixel, clear=True)
        frames.append(_grab(window))
    backdrop = renderer._backdrop
    # Then the first frame drew the layers, the next two copied them from the texture
    assert (backdrop.direct, backdrop.copies) == (1, 2)
    # and every pixel of every frame is the reference's: the copy clears the whole window,
    # the bars outside the camera's viewport included
    assert play_area(w, h)[1] > 0
    for frame in frames:
        assert np.array_equal(frame, reference)
    # When the camera moves, the layers are drawn directly again (not from a stale texture)
    camera.position = (camera.position[0] + 37.0, camera.position[1])
    camera.use()
    renderer.draw(pixel, clear=True)
    assert backdrop.direct == 2
    moved = _grab(window)
    assert not np.array_equal(moved, reference)
    camera.use()
    renderer.draw(pixel, clear=True)
    assert backdrop.copies == 3
    # (at this half-pixel camera position the texture's antialiased grid edges come out
    # within one colour level of the window's)
    assert np.abs(_grab(window) - moved).max() <= 1


def test_a_level_without_big_tints_draws_its_backdrop_directly(
    window: arcade.Window, bank: TextureBank
) -> None:
    # Given Patrol (no currents): the copy would cost more than the layers
    world = World(load_level(next(p for p in shipped_levels() if "patrol" in p.name)))
    renderer = WorldRenderer(world, bank, window.ctx)
    camera = arcade.Camera2D(window=window)
    frames = []
    for _ in range(2):
        camera.use()
        window.clear(color=(255, 0, 255))
        renderer.draw(1.0, clear=True)
        frames.append(_grab(window))
    # Then every frame is drawn directly, the window cleared first, and both are the same
    assert not renderer._backdrop.cached
    assert (renderer._backdrop.direct, renderer._backdrop.copies) == (2, 0)
    assert np.array_equal(frames[0], frames[1])
    assert not (np.abs(frames[0] - (255, 0, 255)).sum(-1) == 0).any()


def test_every_agent_is_one_sprite_list_and_a_chasing_enemy_changes_its_texture(
    window: arcade.Window, bank: TextureBank
) -> None:
    # Given a level with fish and enemies, drawn by one renderer
    world = World(load_level(next(p for p in shipped_levels() if "squadron" in p.stem)))
    renderer = WorldRenderer(world, bank, window.ctx)
    layer = renderer.agent_sprites
    # Then one list holds every agent: the fish, then the enemies, then the player on top
    kinds = world.kind[layer.rows]
    n_fish, n_enemies = int((world.kind == NPC).sum()), int((world.kind == ENEMY).sum())
    assert len(layer.list) == world.n and layer.rows[-1] == 0
    assert (kinds[:n_fish] == NPC).all() and (kinds[n_fish : n_fish + n_enemies] == ENEMY).all()
    # When one enemy starts a chase
    enemy = int(np.flatnonzero(world.kind == ENEMY)[0])
    world.state.mode[enemy] = Mode.PURSUE
    renderer.update(1 / 60)
    # Then only its sprite shows the chase texture
    chase = {k for k, s in enumerate(layer.sprites) if s.texture is bank.enemy_chase.texture}
    assert chase == {int(np.flatnonzero(layer.rows == enemy)[0])}
