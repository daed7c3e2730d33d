"""``python -m benchmarks.harness [OPTIONS]``: the same run as ``python -m game bench [OPTIONS]``
(the game's command line is the documented entry; this one runs the harness from its home)."""

from __future__ import annotations

import sys

from game.__main__ import main
from game.perf import quiet_gl

if __name__ == "__main__":
    quiet_gl()  # as python -m game does before arcade loads pyglet's GL (bench --frames)
    sys.exit(main(["bench", *sys.argv[1:]]))
