"""One story about units: a behaviour returns a force (px/s^2 x mass, at most ``max_force``
long), and both ``integrate`` and pymunk (through ``steering.pymunk``) divide it by the mass."""

from __future__ import annotations

import math

import numpy as np
import pytest

from steering import AgentGroup, MatchVelocity, Seek, integrate

pymunk = pytest.importorskip("pymunk")

from steering.pymunk import BodyBridge  # noqa: E402 (after the skip: needs pymunk)

DT = 1.0 / 60.0
LIMITS = {"max_speed": 200.0, "max_force": 300.0}


def test_integrate_divides_the_force_by_the_mass() -> None:
    # Given one agent of mass 3 at rest and a force of max_force along x
    agents = AgentGroup.create([(0.0, 0.0)], mass=3.0, **LIMITS)
    # When it is integrated for one step
    integrate(agents, np.array([[300.0, 0.0]]), DT)
    # Then the velocity grew by force / mass * dt (100 px/s^2 for a 60th of a second)
    np.testing.assert_allclose(agents.vel, [[300.0 / 3.0 * DT, 0.0]])


def test_a_behaviour_returns_a_force_limited_by_max_force_whatever_the_mass() -> None:
    # Given two agents alike but for their masses, far from a seek target
    agents = AgentGroup.create([(0.0, 0.0), (0.0, 0.0)], mass=[1.0, 3.0], **LIMITS)
    # When they seek it
    force = Seek((1000.0, 0.0))(agents, DT)
    # Then each gets the same force, max_force long: the mass is not in it
    np.testing.assert_allclose(force, [[300.0, 0.0], [300.0, 0.0]])


def test_a_mass_3_body_steered_through_pymunk_moves_as_integrate_moves_its_agent() -> None:
    # Given a pymunk body of mass 3 bridged to a group, and a twin group moved by integrate
    space = pymunk.Space()
    body = pymunk.Body(3.0, math.inf)
    body.position = (100.0, 50.0)
    body.velocity = (10.0, -5.0)
    space.add(body, pymunk.Circle(body, 6.0))
    bridge = BodyBridge(space, [body])
    agents = BodyBridge.agents_of([body], **LIMITS)
    assert agents.mass[0] == 3.0
    twin = AgentGroup.create(agents.pos.copy(), agents.vel.copy(), mass=3.0, **LIMITS)
    light = AgentGroup.create(agents.pos.copy(), agents.vel.copy(), mass=1.0, **LIMITS)
    start = twin.vel.copy()
    # When each steers toward a velocity for half a second, through pymunk and through integrate
    match = MatchVelocity((80.0, 40.0))
    for _ in range(30):
        bridge.read(agents)
        bridge.write(match(agents, DT))
        space.step(DT)
        integrate(twin, match(twin, DT), DT)
        integrate(light, match(light, DT), DT)
    bridge.read(agents)
    # Then the body has the twin's velocity: both divided the same forces by the same mass
    np.testing.assert_allclose(agents.vel, twin.vel, rtol=1e-12)
    # And its place lags by one step's change of velocity: pymunk moves a body, then
    # accelerates it; integrate accelerates, then moves
    np.testing.assert_allclose(agents.pos, twin.pos - (twin.vel - start) * DT, rtol=1e-12)
    # And an agent of mass 1 under the same forces came closer to the target velocity
    off = [float(np.hypot(*(g.vel[0] - (80.0, 40.0)))) for g in (light, twin)]
    assert off[0] < off[1] / 2.0
