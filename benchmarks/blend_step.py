"""``steering.step`` (one compiled call) against ``integrate(agents, blend(agents, dt), dt)``
(two), side by side, for the bench's separate + seek and flock blends at small crowds.

Run: ``python -m benchmarks.blend_step``. Each pair of sides is timed in 7 interleaved blocks
of 2,000 steps on twin crowds (the two ways must move them alike: the script checks the
positions agree to 1e-9 px), and the median block is printed per step.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

import steering as st
from steering.bench import DT, _start, ours_sum


def _block(fn: Callable[[], object], calls: int) -> float:
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls


def main() -> int:
    print(f"{'blend':>16} {'agents':>6} {'step µs':>8} {'two calls µs':>13} {'ratio':>6}")
    for flock in (False, True):
        for n in (1, 2, 5, 10):
            pos, vel, side = _start(n)
            target = (side / 2, side / 2)
            one, two = st.AgentGroup.create(pos, vel), st.AgentGroup.create(pos, vel)
            blend_one, blend_two = ours_sum(flock, target), ours_sum(flock, target)

            def by_step(one: st.AgentGroup = one, blend: st.WeightedSum = blend_one) -> None:
                st.step(one, blend, DT)

            def by_calls(two: st.AgentGroup = two, blend: st.WeightedSum = blend_two) -> None:
                st.integrate(two, blend(two, DT), DT)

            times: dict[str, list[float]] = {"step": [], "calls": []}
            for _ in range(7):
                times["step"].append(_block(by_step, 2000))
                times["calls"].append(_block(by_calls, 2000))
            if not np.allclose(one.pos, two.pos, rtol=0, atol=1e-9):
                raise SystemExit("step and the two calls moved the crowds apart")
            a = statistics.median(times["step"]) * 1e6
            b = statistics.median(times["calls"]) * 1e6
            name = "flock" if flock else "separate + seek"
            print(f"{name:>16} {n:>6} {a:>8.2f} {b:>13.2f} {b / a:>5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
