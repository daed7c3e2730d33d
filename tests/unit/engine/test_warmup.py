"""``python -m steering.warmup``: works on the plain install (numpy and numba only), skipping
what needs a missing extra in one line, and compiles across processes with a progress line."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numba
import pytest

from steering import warmup
from steering.bench import behaviour_cases

REAL_FIND_SPEC = importlib.util.find_spec


def _without_opensimplex(monkeypatch: pytest.MonkeyPatch) -> None:
    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name == "opensimplex" else REAL_FIND_SPEC(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_without_the_noise_extra_the_noise_job_is_skipped_with_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given an install without opensimplex
    _without_opensimplex(monkeypatch)
    # When the warmup lists its jobs
    names, skipped = warmup.jobs()
    # Then the noise field is skipped, saying which extra it needs, and the rest all run
    assert list(skipped) == ["FollowFlow (noise)"]
    assert "pip install 'reynolds-steering[noise]'" in skipped["FollowFlow (noise)"]
    assert "FollowFlow (noise)" not in names
    assert {"Seek", "FollowPath", "Flock (preset)", "FollowFlow (grid)"} <= set(names)
    assert names[-2:] == [warmup.OTHERS, warmup.HIDE]


def test_the_bench_cases_need_no_opensimplex(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given an install without opensimplex, when the cases are built, then none needs it
    _without_opensimplex(monkeypatch)
    assert "FollowFlow (noise)" not in behaviour_cases(8)


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="with the JIT off nothing is compiled")
def test_the_others_job_compiles_avoid_agents_loop_against_another_group() -> None:
    # Given the loop AvoidAgents runs with others= (its own, not the own-group one)
    from steering.avoid_others import _avoid_others_rows

    # When the warmup's job for it runs (in this process)
    name, _ = warmup._warm_one(warmup.OTHERS)
    # Then both its serial and its parallel versions are compiled (or loaded from the cache)
    assert name == warmup.OTHERS
    assert _avoid_others_rows.serial.signatures
    assert _avoid_others_rows.parallel.signatures


def test_jobs_must_be_at_least_one() -> None:
    with pytest.raises(SystemExit):
        warmup.main(["--jobs", "0"])


@pytest.mark.slow
def test_the_warmup_runs_on_the_plain_install_across_processes() -> None:
    # Given an install where opensimplex cannot be imported
    code = (
        "import sys; sys.modules['opensimplex'] = None\n"
        "from steering.warmup import main\n"
        "sys.exit(main(['--jobs', '2']))\n"
    )
    # When the warmup runs on two processes
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=False
    )
    # Then it succeeds, says once what it skipped, and reports its progress and its time
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    skips = [line for line in lines if line.startswith("steering: skipped")]
    assert skips == [
        "steering: skipped FollowFlow (noise): needs the 'noise' extra "
        "(pip install 'reynolds-steering[noise]')"
    ]
    progress = [line for line in lines if line.startswith("steering: compiling kernels")]
    total = len(warmup.jobs()[0]) - 1
    assert len(progress) == total and progress[-1].startswith(
        f"steering: compiling kernels {total}/{total} (2 processes): "
    )
    assert lines[-1].startswith(f"steering: {total} jobs compiled and cached in ")


# A first program: Seek on a few agents; prints what it compiled, as module.function.
FIRST_RUN = """
import gc
import numpy as np
import steering as st
from numba.core.dispatcher import Dispatcher

def compiled():
    return sorted(
        f"{d.py_func.__module__}.{d.py_func.__qualname__}"
        for d in gc.get_objects() if isinstance(d, Dispatcher) and d.stats.cache_misses
    )

print("import", len(compiled()))
agents = st.AgentGroup.create(np.random.default_rng(1).uniform(0, 300, (20, 2)))
for _ in range(10):
    st.step(agents, st.Seek((150.0, 150.0)), 1 / 60)
print("\\n".join(compiled()))
"""


@pytest.mark.slow
def test_a_first_run_compiles_only_what_it_calls(tmp_path: Path) -> None:
    # Given no compiled kernel at all (an empty NUMBA_CACHE_DIR comes first)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    # When a program imports the engine and seeks with 20 agents
    run = subprocess.run(
        [sys.executable, "-c", FIRST_RUN],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    first, *names = run.stdout.split()
    # Then the import compiled nothing, and the step no parallel loop nor another behaviour's
    assert first == "import" and names[0] == "0"
    names = names[1:]
    assert names and not [n for n in names if "parallel" in n]
    modules = {n.rsplit(".", 1)[0] for n in names}
    others = {"steering.obstacles", "steering.flow", "steering.follow", "steering.group"}
    assert not modules & others
