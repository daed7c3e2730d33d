"""The engine installed where nothing can be written: it imports and runs, compiled in memory
with one warning line, and the two documented ways of keeping compiled kernels (warming the
package's own folder before it is made read-only; warming a ``NUMBA_CACHE_DIR``) load every
kernel without compiling.

Each case runs in a subprocess on a copy of the package. As root, permissions do not stop a
write, so the subprocess then runs as ``nobody`` (through util-linux's ``setpriv``).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import steering

NOBODY = 65534
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        ROOT and shutil.which("setpriv") is None, reason="as root, needs setpriv to drop rights"
    ),
]

# A small program: three behaviours (each runs through a generated composite) and integrate;
# prints how many kernels it compiled rather than loaded.
SMALL = """
import gc, sys
import numpy as np
import steering as st
from numba.core.dispatcher import Dispatcher
assert st.__file__.startswith(sys.argv[1]), st.__file__
agents = st.AgentGroup.create(np.random.default_rng(1).uniform(0, 300, (20, 2)))
path = st.Path([(0, 0), (300, 0), (300, 300)], radius=20.0)
for b in (st.Seek((150, 150)), st.Separate(20.0), st.FollowPath(path)):
    for _ in range(5):
        st.integrate(agents, b(agents, 1 / 60), 1 / 60)
assert np.isfinite(agents.pos).all()
ds = [d for d in gc.get_objects() if isinstance(d, Dispatcher)]
print("compiled", sum(sum(d.stats.cache_misses.values()) for d in ds))
"""

# Every behaviour of the vocabulary, twice, on 8 agents.
EVERY = """
import sys
import numpy as np
import steering as st
from steering.bench import DT, behaviour_cases
assert st.__file__.startswith(sys.argv[1]), st.__file__
cases = behaviour_cases(8)
for name, (agents, behaviour) in cases.items():
    st.step(agents, behaviour, DT)
    st.step(agents, behaviour, DT)
    assert np.isfinite(agents.pos).all(), name
print("ran", len(cases))
"""


@pytest.fixture
def place() -> Iterator[Path]:
    """A folder every user may read, holding a copy of the package (no caches)."""
    root = Path(tempfile.mkdtemp(prefix="steering-ro-"))
    root.chmod(0o755)
    shutil.copytree(
        Path(steering.__file__).parent,
        root / "site" / "steering",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    try:
        yield root
    finally:
        _tree(root, writable=True)
        shutil.rmtree(root, ignore_errors=True)


def _tree(folder: Path, *, writable: bool) -> None:
    """Make ``folder`` and everything in it writable, or read-only, for every user."""
    for path in [folder, *folder.rglob("*")]:
        mode = path.stat().st_mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
        if path.is_dir():
            mode |= stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
        if writable:
            mode |= stat.S_IWUSR
        else:
            mode &= ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        path.chmod(mode)


def _run(
    code: str, site: Path, *, cache_dir: Path | None, read_only: bool
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` on the copy in ``site``: as a user who can write nowhere (no home, the
    copy and ``cache_dir`` read-only) when ``read_only``, else as this user."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env["PYTHONPATH"] = str(site)
    env["HOME"] = "/nonexistent" if read_only else env.get("HOME", "/nonexistent")
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    command = [sys.executable, "-c", code, str(site)]
    if read_only and ROOT:
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    return subprocess.run(
        command, env=env, cwd=site, capture_output=True, text=True, timeout=600, check=False
    )


def _compiled(run: subprocess.CompletedProcess[str]) -> int:
    assert run.returncode == 0, run.stderr
    return int(run.stdout.split()[-1])


def test_every_behaviour_runs_with_no_cache_anywhere_and_warns_once(place: Path) -> None:
    # Given the package read-only, an unwritable NUMBA_CACHE_DIR and no home
    empty = place / "cache"
    empty.mkdir()
    _tree(place, writable=False)
    # When a program imports it and calls every behaviour, JIT on
    run = _run(EVERY, place / "site", cache_dir=empty, read_only=True)
    # Then it runs, compiled in memory, with one warning line
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[0] == "ran"
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("steering: no cache folder"), run.stderr


def test_a_package_warmed_in_place_then_made_read_only_loads_every_kernel(place: Path) -> None:
    # Given a program run once while the package could be written (its kernels cached there)
    site = place / "site"
    assert _compiled(_run(SMALL, site, cache_dir=None, read_only=False)) > 0
    # When the package is made read-only (and moved: numba stamps sources by content) and the
    # program runs again as a user who can write nowhere
    moved = place / "moved"
    shutil.copytree(site, moved)
    _tree(place, writable=False)
    run = _run(SMALL, moved, cache_dir=None, read_only=True)
    # Then nothing is compiled
    assert _compiled(run) == 0, run.stderr


def test_a_numba_cache_dir_warmed_at_build_time_loads_every_kernel(place: Path) -> None:
    # Given a read-only package and a NUMBA_CACHE_DIR warmed by a first run
    cache = place / "cache"
    cache.mkdir()
    if ROOT:
        os.chown(cache, NOBODY, NOBODY)
    _tree(place / "site", writable=False)
    warm = _run(SMALL, place / "site", cache_dir=cache, read_only=ROOT)
    assert _compiled(warm) > 0
    # When that folder is made read-only too and the program runs again
    _tree(place, writable=False)
    run = _run(SMALL, place / "site", cache_dir=cache, read_only=True)
    # Then nothing is compiled
    assert _compiled(run) == 0, run.stderr
