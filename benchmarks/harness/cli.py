"""``python -m game bench``: the core against the seed-style reference on the sandbox scenario.

For each crowd size N (agents in the world, the player included; N - 1 of them are steered)
it reports the median ms per step of the reference (steering; steering + physics) and of ours
(the core's steering; the real ``World.step`` at stagger 1 and each other ``--stagger``), as
:mod:`benchmarks.harness.timing` measures them.

It prints a Markdown table (:mod:`benchmarks.harness.report`) with the ratio reference / ours ("x
faster") beside each pair and, per series, the exponent k of a least-squares fit ``ms ~ N^k``
over the sizes. ``--json FILE`` writes the same (its keys: :mod:`benchmarks.harness.results`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.cli_common import one_line_errors
from game.perf import tune_allocator
from game.safe_io import OutputError, atomic_write, check_output

from .results import FRAME_COUNT, FRAME_WARMUP, BenchOptions, machine_info
from .timing import (
    REFERENCE_BUDGET_S,
    REFERENCE_MAX_STEPS,
    REFERENCE_STEPS,
    REFERENCE_WARMUP,
    UsageError,
    pyinstrument_profiler,
)

if TYPE_CHECKING:
    from game.level import Level

__all__ = [
    "DEFAULT_REFERENCE_SIZES",
    "DEFAULT_SIZES",
    "DEFAULT_STAGGER",
    "UsageError",
    "add_parser",
    "options_from",
    "run",
]

#: Crowd sizes of our engine.
DEFAULT_SIZES = (250, 1_000, 4_000, 10_000, 20_000)
#: Crowd sizes of the reference (each only while its steps stay under the limit).
DEFAULT_REFERENCE_SIZES = (250, 1_000, 4_000)
#: Our World.step staggers.
DEFAULT_STAGGER = (1, 4)
#: Timed and untimed (warm-up) steps of each of our measurements.
DEFAULT_STEPS = 60
DEFAULT_WARMUP = 30
#: Most timed or warm-up steps a measurement takes.
MAX_STEPS = 100_000
#: ``--quick``: tiny sizes and few steps, a smoke test of a few seconds.
QUICK_SIZES = (250, 400)
QUICK_REFERENCE_SIZES = (250,)
QUICK_STEPS = 3
QUICK_WARMUP = 1
QUICK_FRAMES = 10
#: Largest crowd accepted.
MAX_AGENTS = 200_000
#: Largest crowd the seed-style reference is run at: it measures every pair in Python, so a
#: step costs about N^2 / 10^6 s (some 25 s at 5,000 agents, hours at 200,000).
MAX_REFERENCE_AGENTS = 5_000


def add_parser(subparsers: Any) -> None:
    """Add the ``bench`` command to an ``argparse`` sub-parsers object.

    Args:
        subparsers: what ``parser.add_subparsers()`` returned.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help="time the steering core against a seed-style reference (sandbox scenario)",
        description=(__doc__ or "").split("\n\n")[0],
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=None, help="our crowd sizes (250 1000 ... 20000)"
    )
    parser.add_argument(
        "--reference-sizes",
        type=int,
        nargs="*",
        default=None,
        help="the reference's crowd sizes (250 1000 4000; none: skip it)",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=None,
        help=f"timed steps per measurement ({DEFAULT_STEPS}; the reference: {REFERENCE_STEPS}, "
        f"up to {REFERENCE_MAX_STEPS} while a size takes under {REFERENCE_BUDGET_S:g} s)",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help=f"untimed steps first ({DEFAULT_WARMUP}; the reference: {REFERENCE_WARMUP} at most)",
    )
    parser.add_argument(
        "--stagger",
        type=int,
        nargs="+",
        default=list(DEFAULT_STAGGER),
        help="World.step staggers (1 4)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument(
        "--profile", type=Path, default=None, help="write a pyinstrument profile of World.step"
    )
    parser.add_argument(
        "--frames", action="store_true", help="also time whole frames (opens a headless window)"
    )
    parser.add_argument(
        "--behaviours",
        action="store_true",
        help="also time each behaviour of the steering vocabulary on its own "
        "(1000 and 10000 agents; --quick: 100 300)",
    )
    parser.add_argument(
        "--behaviour-sizes",
        type=int,
        nargs="+",
        default=None,
        help="crowd sizes of the per-behaviour table (implies --behaviours)",
    )
    parser.add_argument(
        "--levels",
        action="store_true",
        help="instead: every shipped level at its own crowd, World.step against the reference",
    )
    parser.add_argument(
        "--sweep",
        type=int,
        nargs="*",
        default=None,
        help="instead: the sandbox scaled to these crowd sizes, World.step against the "
        "reference (no sizes: 1 2 5 10 30 100 150 300 1000 3000 10000 20000)",
    )
    parser.add_argument(
        "--library",
        action="store_true",
        help="instead: the engine alone as a library, against naive per-object code "
        "(python -m steering.bench: 1 to 20,000 agents, and every behaviour at 10,000)",
    )
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    parser.add_argument("--no-tune", action="store_true", help="leave glibc malloc untuned")
    # One line on stderr for every bad option (python -m game also refuses unknown ones).
    one_line_errors(parser)


def _output_file(path: Path | None, option: str) -> Path | None:
    """Check before the run that ``path`` can be written (the run takes minutes)."""
    if path is None:
        return None
    try:
        check_output(path, what=option)
    except OutputError as exc:
        raise UsageError(str(exc)) from exc
    return path


def _write_output(path: Path, text: str) -> bool:
    """Write a result file atomically; False (and one line on stderr) when it fails."""
    try:
        atomic_write(path, text.encode("utf-8"))
    except OutputError as exc:
        sys.stderr.write(f"bench: error: {exc}\n")
        return False
    return True


def _sizes(
    values: Sequence[int], option: str, smallest: int, largest: int = MAX_AGENTS
) -> tuple[int, ...]:
    for n in values:
        if not smallest <= n <= largest:
            raise UsageError(
                f"{option} must be in {smallest}..{largest} (the level has {smallest} "
                f"agents of its own), got {n}"
            )
    return tuple(sorted(set(values)))


def options_from(args: argparse.Namespace, level: Level) -> BenchOptions:
    """Validate the parsed arguments and resolve ``--quick``.

    Raises:
        UsageError: naming the option.
    """
    quick = bool(args.quick)
    smallest = level.agent_count
    sizes = args.sizes if args.sizes is not None else QUICK_SIZES if quick else DEFAULT_SIZES
    refs = args.reference_sizes
    if refs is None:
        refs = QUICK_REFERENCE_SIZES if quick else DEFAULT_REFERENCE_SIZES
    steps = args.steps if args.steps is not None else QUICK_STEPS if quick else DEFAULT_STEPS
    warmup = args.warmup if args.warmup is not None else QUICK_WARMUP if quick else DEFAULT_WARMUP
    if not 1 <= steps <= MAX_STEPS:
        raise UsageError(f"--steps must be in 1..{MAX_STEPS:,}, got {steps}")
    if not 0 <= warmup <= MAX_STEPS:
        raise UsageError(f"--warmup must be in 0..{MAX_STEPS:,}, got {warmup}")
    for k in args.stagger:
        if not 1 <= k <= 64:
            raise UsageError(f"--stagger must be in 1..64, got {k}")
    profile = _output_file(args.profile, "--profile")
    if profile is not None:
        pyinstrument_profiler()
    behaviour_sizes: tuple[int, ...] = ()
    if args.behaviour_sizes is not None or args.behaviours:
        from .behaviours import BEHAVIOUR_SIZES, QUICK_BEHAVIOUR_SIZES

        chosen = args.behaviour_sizes
        if chosen is None:
            chosen = QUICK_BEHAVIOUR_SIZES if quick else BEHAVIOUR_SIZES
        for n in chosen:
            if not 1 <= n <= MAX_AGENTS:
                raise UsageError(f"--behaviour-sizes must be in 1..{MAX_AGENTS}, got {n}")
        behaviour_sizes = tuple(sorted(set(chosen)))
    return BenchOptions(
        level=level,
        sizes=_sizes(sizes, "--sizes", smallest),
        reference_sizes=_sizes(refs, "--reference-sizes", smallest, MAX_REFERENCE_AGENTS),
        steps=steps,
        warmup=warmup,
        stagger=tuple(dict.fromkeys(args.stagger)),
        json=_output_file(args.json, "--json"),
        profile=profile,
        frames=bool(args.frames),
        frame_count=QUICK_FRAMES if quick else FRAME_COUNT,
        frame_warmup=QUICK_WARMUP if quick else FRAME_WARMUP,
        tune=not args.no_tune,
        behaviour_sizes=behaviour_sizes,
    )


def run(args: argparse.Namespace) -> int:
    """Run ``bench`` with parsed arguments; returns the exit status (0, or 2 on bad input).

    The table goes to stdout; progress and error lines go to stderr.
    """
    from .measure import Progress, measure_all
    from .report import format_report
    from .scenario import load_sandbox

    if args.library:
        return _run_library(args)
    try:
        options = options_from(args, load_sandbox())
    except UsageError as exc:
        sys.stderr.write(f"bench: error: {exc}\n")
        return 2
    # python -m game tuned the allocator already unless --no-tune (this call is a no-op then)
    tuned = tune_allocator() if options.tune else False
    if args.levels or args.sweep is not None:
        return _run_levels(args, options)
    progress = Progress(options.jobs(), sys.stderr)
    try:
        result = measure_all(options, progress, tuned)
    except OutputError as exc:  # the profile's folder vanished or filled up during the run
        sys.stderr.write(f"bench: error: {exc}\n")
        return 2
    finally:
        progress.close()
    sys.stdout.write(format_report(result) + "\n")
    if options.json is not None and not _write_output(
        options.json, json.dumps(result.to_json(), indent=1) + "\n"
    ):
        return 2
    return 0


def _run_library(args: argparse.Namespace) -> int:
    """``--library``: the engine's own benchmark (:mod:`steering.bench`), with Markdown tables."""
    from steering import bench as library

    argv = ["--markdown"]
    if args.sizes is not None:
        argv += ["--sizes", *map(str, args.sizes)]
    elif args.quick:
        argv += ["--sizes", "1", "2", "10", "100", "--behaviours-at", "1000"]
    if args.quick:
        argv += ["--rounds", "2", "--budget", "0.05"]
    if args.json is not None:
        try:
            check_output(args.json, what="--json")
        except OutputError as exc:
            sys.stderr.write(f"bench: error: {exc}\n")
            return 2
        argv += ["--json", str(args.json)]
    return library.main(argv)


def _run_levels(args: argparse.Namespace, options: BenchOptions) -> int:
    """``--levels`` and ``--sweep``: whole worlds, ours against the reference, side by side."""
    from game.level import load_level, shipped_levels

    from .levels import SWEEP_SIZES, format_table, level_table, sweep

    sizes = tuple(args.sweep) if args.sweep else SWEEP_SIZES
    for n in sizes:
        if not 1 <= n <= MAX_AGENTS:
            sys.stderr.write(f"bench: error: --sweep sizes must be in 1..{MAX_AGENTS}, got {n}\n")
            return 2
    steps = args.steps if args.steps is not None else 20 if args.quick else 240
    warmup = args.warmup if args.warmup is not None else 5 if args.quick else 30

    def note(text: str) -> None:
        sys.stderr.write(f"bench: {text}\n")
        sys.stderr.flush()

    report: dict[str, Any] = {"machine": machine_info(options.tune)}
    out: list[str] = []
    if args.levels:
        levels = [(p.stem, load_level(p)) for p in shipped_levels()]
        rows = level_table(levels, steps, warmup, note)
        out.append("World.step per shipped level, ours against the seed-style reference\n")
        out.append(format_table(rows, "level"))
        report["levels"] = [t.to_json() for t in rows]
    if args.sweep is not None:
        rows = sweep(options.level, sizes, steps, warmup, note)
        out.append("\nWorld.step on the sandbox scaled to N agents\n")
        out.append(format_table(rows, "N"))
        report["sweep"] = [t.to_json() for t in rows]
        ref_1000 = next((t.reference_median for t in rows if t.agents == 1000), None)
        out.append("")
        for big, target in ((10000, 34), (20000, 17)):  # issue 24's targets
            ours = next((t.ours_median for t in rows if t.agents == big), None)
            if ref_1000 is not None and ours is not None:
                out.append(
                    f"ours at {big:,} / reference at 1,000: 1/{ref_1000 / ours:.1f} "
                    f"(the target: 1/{target} or less)"
                )
    sys.stdout.write("\n".join(out) + "\n")
    if options.json is not None and not _write_output(
        options.json, json.dumps(report, indent=1) + "\n"
    ):
        return 2
    return 0
