"""A batch bridge between pymunk bodies and an :class:`~steering.AgentGroup`.

``bridge.read(agents)`` copies every body's position and velocity into the group's rows, and
``bridge.write(forces)`` sets every body's force, each in one ``pymunk.batch`` pass (about
0.05 µs a body, against about 2 µs a body through ``body.position`` and ``apply_force``).
Behaviours return forces (px/s^2 x mass, at most ``max_force`` long), which
:func:`~steering.integrate` divides by mass; the bridge writes them unchanged as the bodies'
forces, and pymunk divides by the body's mass too (:meth:`BodyBridge.agents_of` copies the
masses into the group), so a body gains the velocity ``integrate`` would give its agent, then
pymunk resolves its contacts. Two differences: pymunk moves a body before it accelerates it
(``integrate`` accelerates first: the body's place lags one step's change of velocity), and
it does not limit speed to ``max_speed`` (a body's ``velocity_func`` can).

pymunk is imported here only: ``import steering`` never loads it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pymunk
import pymunk.batch as batch

from .agents import AgentGroup
from .vec import FloatArray

__all__ = ["BodyBridge"]

_READ = batch.BodyFields.POSITION | batch.BodyFields.VELOCITY


class BodyBridge:
    """Rows of an agent group mapped onto pymunk bodies, read and written in batches.

    ``pymunk.batch`` visits the space's dynamic bodies in its own order, then
    ``space.static_body`` (sleeping bodies after the awake ones); the bridge reads the bodies'
    ids with every batch and remakes its row permutation when that order changed. Build a new
    bridge after adding bodies; one whose body was removed raises.

    Args:
        space: the space holding the bodies.
        bodies: the bodies in row order (body ``k`` is agent row ``k``).

    Raises:
        ValueError: if a body is not in the space or is listed twice.
    """

    def __init__(self, space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> None:
        self.space = space
        self.n = len(bodies)
        self._row_of = {b.id: k for k, b in enumerate(bodies)}
        if len(self._row_of) != self.n:
            raise ValueError("bodies: a body is listed twice")
        self._ids: np.ndarray | None = None
        self._order(self._visited_ids())

    def _visited_ids(self) -> np.ndarray:
        buf = batch.Buffer()
        batch.get_space_bodies(self.space, batch.BodyFields.BODY_ID, buf)
        return np.frombuffer(buf.int_buf(), dtype=np.uintp).copy()

    def _order(self, ids: np.ndarray) -> None:
        """The row of each visited body, made again whenever pymunk's order changed (a body
        that falls asleep is visited after the awake ones).

        Raises:
            ValueError: if a body of the bridge is no longer in the space.
        """
        if self._ids is not None and np.array_equal(ids, self._ids):
            return
        order = np.array([self._row_of.get(int(i), -1) for i in ids], dtype=np.intp)
        if np.count_nonzero(order >= 0) != self.n:
            raise ValueError("bodies: every body must be a dynamic body of the space")
        self._ids = ids
        self._live = np.flatnonzero(order >= 0)
        self._rows = order[self._live]
        self._forces = np.zeros((ids.shape[0], 2))
        self._set = batch.Buffer()
        self._set.set_float_buf(self._forces)

    def read(self, agents: AgentGroup) -> None:
        """Copy every body's position and velocity into ``agents`` (in place).

        Raises:
            ValueError: if the group's size is not the bridge's.
        """
        if agents.n != self.n:
            raise ValueError(f"agents: the bridge has {self.n} bodies, the group {agents.n} rows")
        buf = batch.Buffer()
        batch.get_space_bodies(self.space, _READ | batch.BodyFields.BODY_ID, buf)
        self._order(np.frombuffer(buf.int_buf(), dtype=np.uintp).copy())
        data = np.frombuffer(buf.float_buf(), dtype=np.float64).reshape(-1, 4)
        agents.pos[self._rows] = data[self._live, 0:2]
        agents.vel[self._rows] = data[self._live, 2:4]

    def write(self, forces: FloatArray) -> None:
        """Set every body's force to its row of ``forces`` ((N, 2), px/s^2 x mass, as a
        behaviour returns them: pymunk divides by the body's mass); a row that is not finite is
        written as zero (a NaN force poisons a pymunk body for good).

        Raises:
            ValueError: if ``forces`` is not (N, 2), or the space lets bodies sleep.
        """
        f = np.asarray(forces, dtype=np.float64)
        if f.shape != (self.n, 2):
            raise ValueError(f"forces: expected ({self.n}, 2), got {f.shape}")
        if self.space.sleep_time_threshold < math.inf:
            # Setting a sleeping body's force wakes it, which reorders pymunk's list while the
            # batch walks it: rows would land on the wrong bodies.
            raise ValueError(
                "space.sleep_time_threshold: BodyBridge.write needs bodies that never sleep "
                "(keep pymunk's default, inf)"
            )
        self._order(self._visited_ids())
        rows = f[self._rows]
        rows[~np.isfinite(rows).all(axis=1)] = 0.0
        self._forces[self._live] = rows
        batch.set_space_bodies(self.space, batch.BodyFields.FORCE, self._set)

    @staticmethod
    def agents_of(bodies: Sequence[pymunk.Body], **limits: Any) -> AgentGroup:
        """A group with the bodies' positions, velocities and masses (radius from their first
        circle shape, else 8); ``limits`` are passed to :meth:`AgentGroup.create`."""
        pos = np.array([tuple(b.position) for b in bodies], dtype=np.float64).reshape(-1, 2)
        vel = np.array([tuple(b.velocity) for b in bodies], dtype=np.float64).reshape(-1, 2)
        radius = [
            next((s.radius for s in b.shapes if isinstance(s, pymunk.Circle)), 8.0) for b in bodies
        ]
        return AgentGroup.create(pos, vel, mass=[b.mass for b in bodies], radius=radius, **limits)
