"""Hypothesis fuzz of the command line: any argument list is parsed and validated to a result
or to one line on stderr with exit status 2, never a traceback."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.harness.cli import UsageError as BenchUsage
from benchmarks.harness.cli import options_from
from benchmarks.harness.scenario import load_sandbox
from game.__main__ import _parser
from game.cli_simulate import UsageError as SimulateUsage
from game.cli_simulate import _check

COMMANDS = ["play", "edit", "simulate", "replay", "screenshot", "demo", "bench", "fly", ""]
OPTIONS = [
    "--seconds", "--seed", "--agents", "--trace", "--trace-every", "--stagger", "--out",
    "--size", "--debug", "--sizes", "--reference-sizes", "--steps", "--warmup", "--json",
    "--profile", "--quick", "--levels", "--sweep", "--autopilot", "--bogus", "-h",
    "--inputs", "--record", "--speed", "--level",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(["1", "0", "-1", "nan", "inf", "1e400", "abc", "", "1280x720", "0x0"]),
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True).map(repr),
    st.text(max_size=8),
)
ARGV = st.tuples(
    st.sampled_from(COMMANDS),
    st.lists(st.one_of(st.sampled_from(OPTIONS), VALUES), max_size=6),
).map(lambda t: [a for a in (t[0], *t[1]) if a != "-h"] if t[0] else list(t[1]))


@pytest.fixture(scope="module")
def sandbox():  # type: ignore[no-untyped-def]
    return load_sandbox()


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(argv=ARGV)
def test_any_arguments_parse_or_fail_on_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], sandbox: object
) -> None:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        err = capsys.readouterr().err
        if stop.code == 0:  # --help somewhere in the list
            return
        assert stop.code == 2
        assert len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
        return
    # What parsed is validated with one clear exception type per command, nothing else
    if args.command == "simulate":
        try:
            _check(args)
        except SimulateUsage as exc:
            assert "\n" not in str(exc)
    elif args.command == "bench":
        try:
            options_from(args, sandbox)  # type: ignore[arg-type]
        except BenchUsage as exc:
            assert "\n" not in str(exc)
    assert isinstance(args, argparse.Namespace)
