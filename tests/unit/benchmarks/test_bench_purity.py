"""The benchmark package imports no arcade or pyglet (whole frames load them on demand)."""

from __future__ import annotations

import subprocess
import sys


def test_the_bench_package_imports_no_graphics() -> None:
    code = (
        "import sys\n"
        "import benchmarks.harness, benchmarks.harness.reference, benchmarks.harness.scenario\n"
        "import benchmarks.harness.cli, benchmarks.harness.measure, benchmarks.harness.report\n"
        "import benchmarks.harness.results, benchmarks.harness.timing, benchmarks.harness.frames\n"
        "import benchmarks.harness.behaviours\n"
        "from benchmarks.harness import Vehicle, build_scenario\n"
        "bad = sorted(m for m in ('arcade', 'pyglet') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_command_line_does_not_load_the_benchmark_until_it_runs() -> None:
    code = (
        "import sys\n"
        "from game.__main__ import _parser\n"
        "_parser()\n"
        "bad = sorted(m for m in ('pymunk', 'scipy', 'game.world') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
