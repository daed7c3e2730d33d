"""Batch transfer between a pymunk space and NumPy: every dynamic body's position and velocity
read, and its velocity and force (and position) written, each in one C pass.

Positions and velocities go in and out through ``pymunk.batch`` into float64 NumPy arrays
viewed directly on the batch buffers, never a Python loop over bodies. Changes with pymunk's
batch API; :class:`~game.world.physics.Physics` is its one user in the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pymunk
import pymunk.batch as batch
from numpy.typing import NDArray

from steering.vec import FloatArray

__all__ = ["BatchIO"]

_READ = batch.BodyFields.POSITION | batch.BodyFields.VELOCITY
_WRITE = batch.BodyFields.VELOCITY | batch.BodyFields.FORCE
_WRITE_ALL = batch.BodyFields.POSITION | batch.BodyFields.VELOCITY | batch.BodyFields.FORCE

IntArray = NDArray[np.intp]


@dataclass
class _BatchCall:
    """One of pymunk.batch's body passes made ready once: ``cpSpaceEachBody``'s arguments
    (the space, the pass's function, its fields and buffers) and the buffer's float array."""

    args: tuple[Any, Any, Any]
    floats: Any  # cffi records: untyped
    ptr: Any = None


@dataclass
class _BatchCalls:
    """The three body passes :class:`BatchIO` makes every step, each one C call.

    ``pymunk.batch.get_space_bodies`` and ``set_space_bodies`` build the same C record and
    look up the same function on every call: some microseconds of Python a step, as much as
    pymunk's whole step on a small level. Here the records are built once, from the names
    pymunk.batch itself uses; :meth:`make` gives None where they are missing (another pymunk),
    and :class:`BatchIO` then calls pymunk.batch.
    """

    each: Any
    read: _BatchCall
    write: _BatchCall
    write_all: _BatchCall

    @staticmethod
    def make(
        space: pymunk.Space, get: batch.Buffer, put: batch.Buffer, put_all: batch.Buffer
    ) -> _BatchCalls | None:
        try:
            ffi, lib = batch.ffi, batch.lib

            def call(fields: batch.BodyFields, buf: batch.Buffer, name: str) -> _BatchCall:
                data = ffi.new("pmBatchedData *")
                data.fields = fields.value
                data.floatArray = buf._float_arr
                data.intArray = buf._int_arr
                fn = ffi.addressof(lib, name)
                return _BatchCall((space._space, fn, data), buf._float_arr)

            return _BatchCalls(
                lib.cpSpaceEachBody,
                call(_READ, get, "pmSpaceBodyGetIteratorFuncBatched"),
                call(_WRITE, put, "pmSpaceBodySetIteratorFuncBatched"),
                call(_WRITE_ALL, put_all, "pmSpaceBodySetIteratorFuncBatched"),
            )
        except (AttributeError, TypeError, ImportError):  # pragma: no cover - another pymunk
            return None


class BatchIO:
    """Reads positions and velocities of every dynamic body and writes velocities and forces.

    ``pymunk.batch`` visits the space's bodies in its internal order: the dynamic bodies in
    insertion order, then ``space.static_body`` (so buffers need N+1 rows). The order is read
    once from the bodies' ids and turned into a row permutation; when it is the identity (it
    is, as long as no body is removed and none sleeps) the arrays are plain views.

    Args:
        space: the space, every dynamic body already added.
        bodies: the dynamic bodies in *row order* (the order the world's arrays use).
    """

    def __init__(self, space: pymunk.Space, bodies: Sequence[pymunk.Body]) -> None:
        self.space = space
        self.n = len(bodies)
        self._get = batch.Buffer()
        self.order = self._read_order(bodies)
        rows = self.order.shape[0]
        # Write buffers: per visited body vx, vy, fx, fy, or x, y, vx, vy, fx, fy when the
        # positions are written too (the static body's row stays zero).
        self._out = np.zeros((rows, 4))
        self._set = batch.Buffer()
        self._set.set_float_buf(self._out)
        self._out_all = np.zeros((rows, 6))
        self._set_all = batch.Buffer()
        self._set_all.set_float_buf(self._out_all)
        self._calls = _BatchCalls.make(space, self._get, self._set, self._set_all)
        self._got: FloatArray | None = None  # the last fetch's view of pymunk's read buffer
        self._identity = bool(
            np.array_equal(self.order[: self.n], np.arange(self.n))
            and (self.order[self.n :] < 0).all()
        )
        # Which visited rows are the world's bodies, and their rows in row order (made once:
        # the order holds until the bodies change, when a new BatchIO is made).
        self._live = self.order >= 0
        self._rows = self.order[self._live]
        self.pos = np.zeros((self.n, 2))
        self.vel = np.zeros((self.n, 2))

    def _read_order(self, bodies: Sequence[pymunk.Body]) -> IntArray:
        """Row of each visited body (-1 for static ones), from the bodies' ids."""
        self._get.clear()
        batch.get_space_bodies(self.space, batch.BodyFields.BODY_ID, self._get)
        ids = np.frombuffer(self._get.int_buf(), dtype=np.uintp)
        row_of = {b.id: i for i, b in enumerate(bodies)}
        order = np.array([row_of.get(int(i), -1) for i in ids], dtype=np.intp)
        if np.count_nonzero(order >= 0) != len(bodies):
            raise RuntimeError("pymunk.batch does not visit every body of the world exactly once")
        return order

    def fetch(self) -> FloatArray:
        """Every visited body's position and velocity as pymunk has them, (V, 4) in the
        visiting order (:attr:`order` gives each visited body's row, -1 for static ones)."""
        calls = self._calls
        if calls is None:
            self._get.clear()
            batch.get_space_bodies(self.space, _READ, self._get)
            return np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        read = calls.read
        arr = read.floats
        arr.num = 0
        calls.each(*read.args)
        got = self._got
        # The view made at the first fetch holds while pymunk keeps its buffer (it grows it,
        # moving it, only for more values than it held).
        if got is None or arr.arr != read.ptr or arr.num != got.size:
            read.ptr = arr.arr
            got = self._got = np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        return got

    def send(self, with_pos: bool) -> None:
        """Hand pymunk the write buffer (:meth:`buffer`) filled in the visiting order."""
        calls = self._calls
        if calls is None:
            if with_pos:
                batch.set_space_bodies(self.space, _WRITE_ALL, self._set_all)
            else:
                batch.set_space_bodies(self.space, _WRITE, self._set)
            return
        write = calls.write_all if with_pos else calls.write
        arr = write.floats
        num = arr.num
        arr.num = 0  # pymunk reads from the start of the buffer
        calls.each(*write.args)
        arr.num = num

    def buffer(self, with_pos: bool) -> FloatArray:
        """The write buffer, (V, 6) with positions (x, y, vx, vy, fx, fy) or (V, 4) without
        (vx, vy, fx, fy), in the visiting order (static bodies' rows stay zero)."""
        return self._out_all if with_pos else self._out

    def read(self) -> tuple[FloatArray, FloatArray]:
        """Positions and velocities of the bodies, (N, 2) each in row order (reused arrays)."""
        self._get.clear()
        batch.get_space_bodies(self.space, _READ, self._get)
        data = np.frombuffer(self._get.float_buf(), dtype=np.float64).reshape(-1, 4)
        if self._identity:
            np.copyto(self.pos, data[: self.n, 0:2])
            np.copyto(self.vel, data[: self.n, 2:4])
        else:
            self.pos[self._rows] = data[self._live, 0:2]
            self.vel[self._rows] = data[self._live, 2:4]
        return self.pos, self.vel

    def write(self, vel: FloatArray, force: FloatArray, pos: FloatArray | None = None) -> None:
        """Set every body's velocity and force, and its position if ``pos`` is given ((N, 2)
        each, row order), in one pass."""
        out, buf, fields = self._out, self._set, _WRITE
        cols = [vel, force]
        if pos is not None:
            out, buf, fields = self._out_all, self._set_all, _WRITE_ALL
            cols = [pos, vel, force]
        for k, arr in enumerate(cols):
            if self._identity:
                out[: self.n, 2 * k : 2 * k + 2] = arr
            else:
                out[self._live, 2 * k : 2 * k + 2] = arr[self._rows]
        batch.set_space_bodies(self.space, fields, buf)
