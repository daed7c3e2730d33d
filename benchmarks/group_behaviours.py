"""Steady-state timings of the group behaviours, the flock, and a naive per-object Python flock.

    .venv/bin/python -m benchmarks.group_behaviours [SIZES] [alone|flock]
    .venv/bin/python -m benchmarks.group_behaviours --naive

(Another tree's engine is timed by that tree's venv, or with ``PYTHONPATH`` naming its folder.)

A crowd of N agents scattered over a square of side ``sqrt(N) * 30`` px (one agent per 900 px²),
moving at 60 px/s in random directions. "Alone": each behaviour's call only, the agents moved by
``integrate`` between calls so that the neighbour grid is rebuilt as in a game. "Steps": forces
plus ``integrate``. ``--naive``: the seeds' per-object ``Vehicle`` (float fields, a loop over every
other vehicle) doing separation + seek and a full flock. Set ``SERIAL=1`` to keep every kernel
serial. Best of three runs of about 0.1 s each.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

DT = 1 / 60


def _timeit(step: Callable[[], object], budget: float = 0.3) -> float:
    for _ in range(3):
        step()
    best = math.inf
    for _ in range(3):
        it = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < budget / 3 or it < 3:
            step()
            it += 1
        best = min(best, (time.perf_counter() - t0) / it)
    return best


def _fmt(s: float) -> str:
    return f"{s * 1e6:10.1f} us" if s < 1e-3 else f"{s * 1e3:10.2f} ms"


def engine(sizes: list[int], what: str) -> None:
    """Time the engine's group behaviours and flocks."""
    import steering
    import steering._jit

    if os.environ.get("SERIAL"):
        steering._jit.PARALLEL_MIN = 10**9
    from steering import (
        AgentGroup,
        Align,
        AvoidAgents,
        Cohere,
        Queue,
        Seek,
        Separate,
        Weighted,
        WeightedSum,
        integrate,
    )

    print("steering from", steering.__file__)

    def crowd(n: int) -> Any:
        rng = np.random.default_rng(0)
        side = math.sqrt(n) * 30.0
        ang = rng.uniform(0, 2 * np.pi, n)
        vel = 60 * np.column_stack((np.cos(ang), np.sin(ang)))
        # The constructor, not create(): vec's parallel kernels fail to compile at >= 4096 rows.
        return AgentGroup(
            pos=rng.uniform(0, side, (n, 2)),
            vel=vel,
            max_speed=np.full(n, 120.0),
            max_force=np.full(n, 360.0),
            radius=np.full(n, 8.0),
            mass=np.ones(n),
            heading=vel / 60.0,
        )

    if what in ("all", "alone"):
        behaviours = {
            "Separate": Separate(24.0),
            "Align": Align(50.0),
            "Cohere": Cohere(50.0),
            "AvoidAgents": AvoidAgents(),
            "Queue": Queue(),
        }
        print("behaviour alone (call only; positions move each step)")
        print("N".rjust(7), *[k.rjust(13) for k in behaviours])
        for n in sizes:
            row = []
            for b in behaviours.values():
                a = crowd(n)
                try:
                    f = b(a, DT)
                except Exception:
                    row.append("fails")
                    continue
                total = [0.0]

                def step(a: Any = a, b: Any = b, f: Any = f, total: list[float] = total) -> None:
                    integrate(a, f * 0.0, DT)
                    t0 = time.perf_counter()
                    b(a, DT)
                    total[0] += time.perf_counter() - t0

                for _ in range(3):
                    step()
                best = math.inf
                for _ in range(3):
                    total[0] = 0.0
                    it = 0
                    t0 = time.perf_counter()
                    while time.perf_counter() - t0 < 0.1 or it < 3:
                        step()
                        it += 1
                    best = min(best, total[0] / it)
                row.append(_fmt(best))
            print(str(n).rjust(7), *[r.rjust(13) for r in row], flush=True)

    if what in ("all", "flock"):
        print("steps = forces + integrate")
        sep, ali, coh, seek = Separate(25.0), Align(50.0), Cohere(50.0), Seek((0.0, 0.0))
        cols: dict[str, Any] = {
            "sep+seek": WeightedSum([Weighted(sep, 1.5), Weighted(seek, 1.0)]),
            "flock(WeightedSum)": WeightedSum(
                [Weighted(sep, 1.5), Weighted(ali, 1.0), Weighted(coh, 1.0), Weighted(seek, 1.0)]
            ),
        }
        if hasattr(steering, "Flock"):
            cols["Flock preset"] = steering.Flock(
                separation=25.0,
                alignment=50.0,
                cohesion=50.0,
                separation_weight=1.5,
                alignment_weight=1.0,
                cohesion_weight=1.0,
                target=(0.0, 0.0),
            )
            cols["Flock as sep+seek"] = steering.Flock(
                separation=25.0,
                separation_weight=1.5,
                alignment_weight=0.0,
                cohesion_weight=0.0,
                target=(0.0, 0.0),
            )
        print("N".rjust(7), *[k.rjust(20) for k in cols])
        for n in sizes:
            row = []
            for b in cols.values():
                a = crowd(n)
                try:
                    row.append(_fmt(_timeit(lambda a=a, b=b: integrate(a, b(a, DT), DT))))
                except Exception:
                    row.append("fails")
            print(str(n).rjust(7), *[r.rjust(20) for r in row], flush=True)


class Vehicle:
    """The seeds' vehicle: float fields, steer = (desired - velocity) * gain, limited."""

    def __init__(self, x: float, y: float, vx: float, vy: float) -> None:
        self.x, self.y, self.vx, self.vy = x, y, vx, vy
        self.ax = self.ay = 0.0
        self.max_speed, self.max_force = 120.0, 360.0

    def steer(self, dx: float, dy: float) -> tuple[float, float]:
        m = math.hypot(dx, dy)
        if m > 1e-9:
            dx, dy = dx / m * self.max_speed, dy / m * self.max_speed
        else:
            dx = dy = 0.0
        sx, sy = (dx - self.vx) * 8.0, (dy - self.vy) * 8.0
        m = math.hypot(sx, sy)
        if m > self.max_force:
            sx, sy = sx / m * self.max_force, sy / m * self.max_force
        return sx, sy

    def separate(self, vehicles: list[Vehicle], desired: float = 25.0) -> tuple[float, float]:
        sx = sy = 0.0
        count = 0
        for o in vehicles:
            dx, dy = self.x - o.x, self.y - o.y
            d = math.hypot(dx, dy)
            if o is not self and 0 < d < desired:
                sx += dx / d / d
                sy += dy / d / d
                count += 1
        return self.steer(sx / count, sy / count) if count else (0.0, 0.0)

    def align(self, vehicles: list[Vehicle], r: float = 50.0) -> tuple[float, float]:
        sx = sy = 0.0
        count = 0
        for o in vehicles:
            d = math.hypot(self.x - o.x, self.y - o.y)
            if o is not self and 0 < d < r:
                sx += o.vx
                sy += o.vy
                count += 1
        return self.steer(sx / count, sy / count) if count else (0.0, 0.0)

    def cohesion(self, vehicles: list[Vehicle], r: float = 50.0) -> tuple[float, float]:
        sx = sy = 0.0
        count = 0
        for o in vehicles:
            d = math.hypot(self.x - o.x, self.y - o.y)
            if o is not self and 0 < d < r:
                sx += o.x
                sy += o.y
                count += 1
        if not count:
            return 0.0, 0.0
        return self.steer(sx / count - self.x, sy / count - self.y)

    def seek(self, tx: float, ty: float) -> tuple[float, float]:
        return self.steer(tx - self.x, ty - self.y)

    def apply(self, f: tuple[float, float], w: float) -> None:
        self.ax += f[0] * w
        self.ay += f[1] * w

    def update(self, dt: float) -> None:
        m = math.hypot(self.ax, self.ay)
        if m > self.max_force:
            self.ax, self.ay = self.ax / m * self.max_force, self.ay / m * self.max_force
        self.vx += self.ax * dt
        self.vy += self.ay * dt
        s = math.hypot(self.vx, self.vy)
        if s > self.max_speed:
            self.vx, self.vy = self.vx / s * self.max_speed, self.vy / s * self.max_speed
        self.x += self.vx * dt
        self.y += self.vy * dt
        self.ax = self.ay = 0.0


def naive(sizes: list[int]) -> None:
    """Time the naive per-object Python separate + seek and flock."""

    def make(n: int) -> list[Vehicle]:
        rnd = random.Random(0)
        side = math.sqrt(n) * 30.0
        out = []
        for _ in range(n):
            a = rnd.uniform(0, 2 * math.pi)
            x, y = rnd.uniform(0, side), rnd.uniform(0, side)
            out.append(Vehicle(x, y, 60 * math.cos(a), 60 * math.sin(a)))
        return out

    def sep_seek(vs: list[Vehicle]) -> None:
        for v in vs:
            v.apply(v.separate(vs), 1.5)
            v.apply(v.seek(0.0, 0.0), 1.0)
        for v in vs:
            v.update(DT)

    def flock(vs: list[Vehicle]) -> None:
        for v in vs:
            v.apply(v.separate(vs), 1.5)
            v.apply(v.align(vs), 1.0)
            v.apply(v.cohesion(vs), 1.0)
            v.apply(v.seek(0.0, 0.0), 1.0)
        for v in vs:
            v.update(DT)

    print("naive per-object Python, step = forces + update")
    print("N".rjust(7), "sep+seek".rjust(13), "flock".rjust(13))
    for n in sizes:
        vs, ws = make(n), make(n)
        a = _fmt(_timeit(lambda vs=vs: sep_seek(vs), 0.6))
        b = _fmt(_timeit(lambda ws=ws: flock(ws), 0.6))
        print(str(n).rjust(7), a.rjust(13), b.rjust(13), flush=True)


def main() -> None:
    """Parse the arguments and run."""
    args = sys.argv[1:]
    if args and args[0] == "--naive":
        naive([1, 2, 10, 100, 1000])
        return
    sizes = [int(s) for s in args[0].split(",")] if args else [1, 2, 10, 100, 1000, 10000, 20000]
    engine(sizes, args[1] if len(args) > 1 else "all")


if __name__ == "__main__":
    main()
