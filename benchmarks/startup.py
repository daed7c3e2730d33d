"""Start-up on a warm kernel cache: the engine's import and first step, and the game's title
screen, each timed in fresh processes.

Run: ``python -m benchmarks.startup [--runs 5]`` (the title needs a display: under ``xvfb-run
-a`` or on a desktop; ``ARCADE_HEADLESS=1`` times it in an off-screen context). Each figure
is the median of ``--runs`` new interpreters, measured from before the interpreter starts
(wall clock in this process) to:

* ``import steering``;
* the first ``AgentGroup.create`` (numba's one-time set-up on its first compiled call);
* the first ``steering.step`` of a separate + seek blend;
* the title view's first drawn frame of ``python -m game`` (issue 23: within 3 s).

Run it once before timing so that every kernel is in the cache (``make install`` does).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ENGINE = """
import time, sys
t0 = float(sys.argv[1])
import steering as st
t1 = time.time()
agents = st.AgentGroup.create([(0.0, 0.0), (30.0, 0.0)])
t2 = time.time()
st.step(agents, st.WeightedSum([st.Weighted(st.Separate(25.0), 1.5), st.Seek((100.0, 0.0))]),
        1 / 60)
t3 = time.time()
print(t1 - t0, t2 - t0, t3 - t0)
"""

TITLE = """
import time, sys
t0 = float(sys.argv[1])
import arcade
from game.views.title import TitleView
draw = TitleView.on_draw
def first_draw(self, *args):
    draw(self, *args)
    print(time.time() - t0, flush=True)
    arcade.exit()
TitleView.on_draw = first_draw
sys.argv = ["game"]
from game.__main__ import main
main()
"""


def _run(code: str) -> list[float]:
    t0 = time.time()
    out = subprocess.run(
        [sys.executable, "-c", code, repr(t0)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    return [float(v) for v in out.stdout.split()[-3:] if v]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-title", action="store_true", help="time the engine only")
    args = parser.parse_args()
    _run(ENGINE)  # fills the cache if a kernel is missing
    engine = [_run(ENGINE) for _ in range(args.runs)]
    for k, what in enumerate(("import steering", "first AgentGroup.create", "first step")):
        values = [e[k] for e in engine]
        print(f"{what:28s} {statistics.median(values):5.2f} s  (max {max(values):.2f})")
    if not args.no_title:
        _run(TITLE)
        title = [_run(TITLE)[-1] for _ in range(args.runs)]
        print(
            f"{'title screen, first frame':28s} {statistics.median(title):5.2f} s  "
            f"(max {max(title):.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
