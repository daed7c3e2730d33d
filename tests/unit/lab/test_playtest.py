"""What a play-test of the Lab found, each pinned by a test: Buckland's wanderers wrap round
the world instead of being pinned at an edge, and the queue scene forms a line at its door."""

from __future__ import annotations

import numpy as np

from game.lab import find_scene


def _track(name: str, seconds: float) -> tuple[np.ndarray, tuple[float, float]]:
    """(frames, agents, 2) positions of scene ``name`` over ``seconds``, and its world size."""
    scene = find_scene(name)()
    frames = round(seconds * 60)
    track = np.empty((frames, scene.agents.n, 2))
    for t in range(frames):
        scene.step()
        track[t] = scene.agents.pos
    return track, scene.size


def test_bucklands_wanderers_wrap_round_the_world_and_none_is_pinned() -> None:
    # Given seed 002's wanderers among the rocks for 20 simulated seconds
    track, (w, h) = _track("seed_avoid_buckland", 20.0)
    # every position stays inside the world: leaving one edge enters at the opposite one
    assert (track >= 0.0).all() and (track[..., 0] < w).all() and (track[..., 1] < h).all()
    jumps = np.abs(np.diff(track, axis=0))
    assert (jumps[..., 0] > w / 2).any() or (jumps[..., 1] > h / 2).any(), "nobody wrapped"
    # and no agent stays inside a 20 px box for more than 2 s (pinned against an edge)
    window = 120
    for t0 in range(0, track.shape[0] - window, 10):
        spread = np.ptp(track[t0 : t0 + window], axis=0).max(axis=1)  # per agent
        assert (spread > 20.0).all(), f"agent {int(np.argmin(spread)) + 1} pinned at {t0} frames"


def test_the_queue_scene_forms_a_line_at_the_door_not_a_clump() -> None:
    # Given the crowd walking to the door for 20 s, then watched for 5 s more
    from game.lab.scenes.queue import WALL_X

    track, (_, h) = _track("queue", 25.0)
    door = np.array([WALL_X, h / 2])
    for pos in track[20 * 60 :: 30]:
        # the agents waiting before the door, within 200 px of it
        near = pos[(pos[:, 0] < WALL_X) & (np.hypot(*(pos - door).T) < 200.0)]
        assert len(near) >= 4
        # are strung out along the approach (x), not a blob: spread along it far exceeds across
        along, across = near[:, 0].std(), near[:, 1].std()
        assert along > 4.0 * across + 1.0, f"a clump: {along:.1f} px along, {across:.1f} across"
