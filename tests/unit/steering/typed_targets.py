"""Type-checked by ``test_typed_targets.py`` under the repository's mypy settings, and run:
target settings read back as float64 arrays, and are given (at construction and assignment) as
any points, each behaviour's every argument by keyword (so that the signature mypy reads is the
one the behaviour has)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import steering as st

agents = st.AgentGroup.create(np.array([(0.0, 0.0), (10.0, 0.0), (20.0, 5.0)]))
rocks = st.Obstacles.create(np.array([(50.0, 50.0)]), np.array([10.0]))

seek = st.Seek(target=(100.0, 0.0), gain=8.0)
to_target: NDArray[np.float64] = agents.pos - seek.target  # the example
seek.target = [1, 2]
seek.target = np.zeros((3, 2))
flee = st.Flee(target=(1.0, 2.0), panic_distance=50.0, gain=8.0)
arrive = st.Arrive(target=(1.0, 2.0), slowing_radius=100.0, gain=8.0, brake_fraction=0.8)
pursue = st.Pursue(target=(1.0, 2.0), target_velocity=(3, 4), max_prediction=1.5, gain=8.0)
evade = st.Evade(
    target=(1.0, 2.0), target_velocity=(3, 4), max_prediction=1.5, panic_distance=9.0, gain=8.0
)
interpose = st.Interpose(
    a=(0.0, 0.0),
    b=(1.0, 1.0),
    a_velocity=(0.0, 0.0),
    b_velocity=(0.0, 0.0),
    ratio=0.5,
    gain=8.0,
    slowing_radius=50.0,
)
match = st.MatchVelocity(target_velocity=(3.0, 4.0), gain=8.0)
offset = st.OffsetPursuit(
    leader=(0.0, 0.0),
    leader_velocity=(1.0, 0.0),
    leader_heading=(1.0, 0.0),
    offset=(-10.0, 0.0),
    gain=8.0,
    slowing_radius=50.0,
)
hide = st.Hide(
    hunter=(0.0, 0.0),
    obstacles=rocks,
    hunter_velocity=(0.0, 0.0),
    distance_from_boundary=30.0,
    panic_distance=100.0,
    gain=8.0,
    slowing_radius=50.0,
)
face = st.Face(target=(5.0, 5.0))
flock = st.Flock(
    separation=25.0,
    alignment=70.0,
    cohesion=70.0,
    separation_weight=2.0,
    alignment_weight=2.0,
    cohesion_weight=0.5,
    target=(1.0, 1.0),
    seek_weight=1.0,
    fov=360.0,
    gain=8.0,
    others=None,
)

read: list[NDArray[np.float64]] = [
    agents.pos - flee.target,
    agents.pos - arrive.target,
    agents.pos - pursue.target + pursue.target_velocity,
    agents.pos - evade.target + evade.target_velocity,
    interpose.a + interpose.b + interpose.a_velocity + interpose.b_velocity,
    agents.vel - match.target_velocity,
    offset.leader + offset.leader_velocity + offset.leader_heading + offset.offset,
    agents.pos - hide.hunter + hide.hunter_velocity,
    agents.pos - face.target,
]
flock_target = flock.target
if flock_target is not None:
    read.append(agents.pos - flock_target)
flock.target = None
