"""What reading the game's files costs: each reader (strict JSON, then the loader or the
schema) against plain ``json.loads`` of the same text, side by side in one run.

Every shipped level, tuning, and replays and progress files of several sizes (written to a
temporary folder by this script). Each row is timed in turns with its reference, after warm-up
runs, and gives medians, p95 and the ratio of the medians. Run from the repository root::

    python -m benchmarks.file_reading [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from game.level import load_level, shipped_levels
from game.progress import ProgressStore
from game.recording import load_recording
from game.strict_json import loads_strict
from game.world.tuning import TUNING_FILE, load_tuning


def _times(fn: Callable[[], object], repeat: int) -> list[float]:
    return [_once(fn) for _ in range(repeat)]


def _once(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _side_by_side(
    ours: Callable[[], object], ref: Callable[[], object], repeat: int
) -> tuple[list[float], list[float]]:
    """Both timed in turns (ours, ref, ours, ...) after three warm-up calls each, so a drift
    of the machine's speed touches both alike."""
    for _ in range(3):
        ours()
        ref()
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        a.append(_once(ours))
        b.append(_once(ref))
    return a, b


def _p95(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def _show(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs" if seconds < 0.01 else f"{seconds * 1e3:,.1f} ms"


def _replay(folder: Path, keyframes: int) -> Path:
    rows = [[round(i / 60.0, 4), (-1) ** i * 0.6, 0.8] for i in range(keyframes)]
    path = folder / f"replay_{keyframes}.json"
    level = "levels/01_patrol.tmj"
    path.write_text(json.dumps({"level": level, "seed": 1, "inputs": rows}), encoding="utf-8")
    return path


def _progress(folder: Path, levels: int) -> Path:
    entries = {f"level_{k:04d}": {"wins": k + 1, "best_time": 10.0 + k} for k in range(levels)}
    path = folder / f"progress_{levels}.json"
    path.write_text(json.dumps({"version": 1, "levels": entries}), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=41, help="timed calls per row (41)")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str, Callable[[], object], Callable[[], object], int]] = []
    for level in shipped_levels():
        text = level.read_text(encoding="utf-8")
        rows.append(
            (
                level.stem,
                "load_level",
                lambda p=level: load_level(p),
                lambda t=text: json.loads(t),
                args.repeat,
            )
        )
        rows.append(
            (
                level.stem,
                "strict JSON only",
                lambda t=text: loads_strict(t),
                lambda t=text: json.loads(t),
                args.repeat,
            )
        )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tuning_text = TUNING_FILE.read_text(encoding="utf-8")
        rows.append(
            (
                "tuning.json",
                "load_tuning",
                lambda: load_tuning(TUNING_FILE),
                lambda: json.loads(tuning_text),
                args.repeat,
            )
        )
        for n in (100, 10_000, 216_001):
            path = _replay(folder, n)
            text = path.read_text(encoding="utf-8")
            rows.append(
                (
                    f"replay, {n:,} keyframes",
                    "load_recording",
                    lambda p=path: load_recording(p),
                    lambda t=text: json.loads(t),
                    args.repeat if n < 100_000 else max(args.repeat // 4, 5),
                )
            )
        for n in (10, 1_000):
            path = _progress(folder, n)
            text = path.read_text(encoding="utf-8")
            rows.append(
                (
                    f"progress, {n:,} levels",
                    "ProgressStore",
                    lambda p=path: ProgressStore(p),
                    lambda t=text: json.loads(t),
                    args.repeat,
                )
            )
        print(
            "| file | reader | ours median | ours p95 | json.loads median | json.loads p95 "
            "| ratio of medians |"
        )
        print("|---|---|---:|---:|---:|---:|---:|")
        for name, reader, ours, ref, repeat in rows:
            a, b = _side_by_side(ours, ref, repeat)
            ma, mb = statistics.median(a), statistics.median(b)
            print(
                f"| {name} | {reader} | {_show(ma)} | {_show(_p95(a))} | {_show(mb)} | "
                f"{_show(_p95(b))} | {ma / mb:.1f}x |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
