"""The bench's report: a run as Markdown (the comparison table, World.step system by system,
the per-behaviour and whole-frame tables, notes)."""

from __future__ import annotations

from .results import BenchResult
from .timing import PROFILE_STEPS, REFERENCE_BUDGET_S, REFERENCE_MAX_STEPS, median_or_none

__all__ = ["format_report"]


def _ms(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}" if x < 10 else f"{x:.1f}"


def _times(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}x" if x >= 10 else f"{x:.1f}x"


def _k(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def format_report(result: BenchResult) -> str:
    """The run as Markdown: a header line, the comparison table, World.step's parts, notes."""
    o = result.options
    m = result.machine
    lines = [
        f"Sandbox scenario (level {o.level.source.name if o.level.source else '?'}); "
        f"{m['cpu']}, {m['cpu_count']} CPUs; Python {m['python']}, numpy {m['numpy']}, "
        f"scipy {m['scipy']}, pymunk {m['pymunk']}; malloc tuned: {m['malloc_tuned']}",
        f"Median ms per step. Reference: {o.reference_steps} steps after "
        f"{o.reference_warmup} warm-up, up to {min(o.steps, REFERENCE_MAX_STEPS)} while they "
        f"total under {REFERENCE_BUDGET_S:g} s; ours: {o.steps} steps after {o.warmup} warm-up. "
        f"N counts the player; N - 1 agents are steered.",
        "",
    ]
    head = ["agents", "reference steering", "ours steering", "x faster"]
    head += ["reference steering + physics"]
    for k in o.stagger:
        head += [f"ours World.step stagger {k}", "x faster"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---:|" * len(head))
    for n in result.all_sizes:
        ref = result.reference.get(n)
        core = result.core.get(n)
        steer, total = result.speedup(n)
        cells = [f"{n:,}"]
        cells.append(
            _ms(median_or_none(ref.steering_ms)) if ref and ref.ran else "skipped" if ref else "-"
        )
        cells += [_ms(core.steering_ms if core else None), _times(steer)]
        cells.append(
            _ms(median_or_none(ref.total_ms)) if ref and ref.ran else "skipped" if ref else "-"
        )
        for k in o.stagger:
            w = result.world.get((n, k))
            cells += [_ms(w.median_ms if w else None), _times(total[k])]
        lines.append("| " + " | ".join(cells) + " |")
    exp = result.exponents()
    cells = ["fitted exponent", _k(exp["reference_steering"]), _k(exp["ours_steering"]), ""]
    cells.append(_k(exp["reference_total"]))
    for k in o.stagger:
        cells += [_k(exp["ours_world"][str(k)]), ""]
    lines.append("| " + " | ".join(cells) + " |")
    if result.world:
        from game.world.world import SYSTEMS

        lines += [
            "",
            "Inside World.step, system by system (median ms per step):",
            "",
            "| agents | stagger | World.step | p95 | " + " | ".join(SYSTEMS) + " |",
            "|---:|---:|---:|---:|" + "---:|" * len(SYSTEMS),
        ]
        for (_, k), w in sorted(result.world.items()):
            parts = " | ".join(_ms(w.systems_ms.get(name)) for name in SYSTEMS)
            lines.append(f"| {w.agents:,} | {k} | {_ms(w.median_ms)} | {_ms(w.p95_ms)} | {parts} |")
    if result.behaviours:
        from .behaviours import format_behaviours

        lines += ["", format_behaviours(result.behaviours, o.steps, o.warmup)]
    if result.frames is not None:
        from .frames import format_frames

        lines += ["", format_frames(result.frames)]
    if result.profile is not None:
        lines += ["", f"Profile of {PROFILE_STEPS} World.step calls written to {result.profile}"]
    if result.notes:
        lines += ["", *[f"Note: {text}" for text in result.notes]]
    return "\n".join(lines)
