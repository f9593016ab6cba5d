"""`phasecert bench`: time an engine's untap step on boards of growing size
(the bench suite, `conformance.bench.suite`, run in this process under
pytest-benchmark), write bench.json, bench.md and bench.svg, and gate on a
stored run.

Exit codes: 0 measured (and no slower than `--compare-fail` allows);
1 slower than allowed, or the engine failed a size (it raised, or left the
board wrong after its untap step); 2 usage or setup error (unknown engine,
bad stored run, unwritable --out).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import pytest

from adapters.discovery import load_engine
from adapters.protocol import bench_max_size
from conformance.atomic import remove_stale_temporaries, write_text_atomically
from conformance.bench.gate import Limit, compare, parse_limit, unmatched
from conformance.bench.plugin import session_run
from conformance.bench.report import PLOT_FILE, REPORT_FILE, RUN_FILE
from conformance.bench.runs import BenchRun, RunFileError, read_run
from conformance.cli.certify import Interrupted, default_out
from conformance.cli.checks import UsageFailure, writable_directory, writable_file
from conformance.escaping import for_terminal


class _Keeper:
    """Keeps the run the pytest session measured, for the command to gate on."""

    def __init__(self) -> None:
        self.run: BenchRun | None = None

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.run = session_run(session.config)


def bench(args: argparse.Namespace) -> int:
    limits = _limits(args)
    stored = _stored(args.compare)
    engine_name = _checked_engine(args)
    out = Path(args.out) if args.out else default_out(engine_name)
    writable_directory(out, "--out")
    remove_stale_temporaries(out, RUN_FILE, REPORT_FILE, PLOT_FILE)
    if args.save:
        writable_file(Path(args.save), "--save")

    keeper = _Keeper()
    code = pytest.main(_pytest_args(args, out), plugins=[keeper])
    if code == pytest.ExitCode.INTERRUPTED:
        raise Interrupted
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) or keeper.run is None:
        raise UsageFailure(f"the benchmark run stopped with {code!r}; see its message above")
    run = keeper.run
    if args.save:
        write_text_atomically(Path(args.save), run.to_json())
    print(_summary(run, out, args.save))
    slower = _gate(stored, run, limits) if stored is not None else False
    for note in run.failed:
        print(f"failed at {note.size:,} permanents: {for_terminal(note.reason)}")
    return 1 if slower or run.failed else 0


def _limits(args: argparse.Namespace) -> list[Limit]:
    if args.compare_fail and not args.compare:
        raise UsageFailure("--compare-fail needs --compare FILE (a stored bench.json)")
    try:
        return [parse_limit(text) for text in args.compare_fail]
    except ValueError as e:
        raise UsageFailure(str(e)) from None


def _stored(path: str | None) -> BenchRun | None:
    """The run of --compare, read before measuring: a bad file costs a
    message, not a benchmark run."""
    if path is None:
        return None
    try:
        return read_run(Path(path))
    except RunFileError as e:
        raise UsageFailure(f"--compare {e}") from None


def _checked_engine(args: argparse.Namespace) -> str:
    """The engine's name, after checking it loads and has a size to measure."""
    engine = load_engine(args.engine)
    try:
        caps = [c for c in (args.max_size, bench_max_size(engine)) if c is not None]
    except ValueError as e:
        raise UsageFailure(f"--engine {args.engine}: {e}") from None
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()
    if caps and min(caps) < args.sizes[0]:
        raise UsageFailure(
            f"no board size to measure: the smallest, {args.sizes[0]:,}, is over the size cap "
            f"of {min(caps):,} permanents"
        )
    return str(engine.name)


def _pytest_args(args: argparse.Namespace, out: Path) -> list[str]:
    # -c devnull: the user's own pytest configuration must not change the run.
    # phasecert is imported already (this command), so pytest can't rewrite
    # its asserts, and says so: nothing the user can act on.
    sizes = ",".join(str(s) for s in args.sizes)
    argv = ["-c", os.devnull, "-p", "no:cacheprovider", "-q"]
    argv += ["-W", "ignore::pytest.PytestAssertRewriteWarning", "--pyargs"]
    argv += ["conformance.bench.suite", "--engine", args.engine, "--bench-sizes", sizes]
    argv += ["--bench-budget", str(args.budget), "--bench-time", str(args.time)]
    argv += ["--bench-report", str(out), "--benchmark-columns=min,median,mean,rounds"]
    if args.max_size is not None:
        argv += ["--bench-max-size", str(args.max_size)]
    return argv


def _summary(run: BenchRun, out: Path, saved: str | None) -> str:
    growth = run.growth()
    what = "none (fewer than two sizes)" if growth is None else growth.describe()
    files = ", ".join(str(out / f) for f in (REPORT_FILE, PLOT_FILE, RUN_FILE))
    lines = [f"{for_terminal(run.engine)}: growth exponent {what}", f"report: {files}"]
    if saved:
        lines.append(f"run stored as {saved}")
    return "\n".join(lines)


def _gate(stored: BenchRun, run: BenchRun, limits: list[Limit]) -> bool:
    """Print the comparison with the stored run; True if it is slower than
    a limit allows."""
    comparisons = compare(stored, run, limits)
    print(f"compared with the run stored at {stored.started} ({for_terminal(stored.engine)}):")
    for note in unmatched(stored, run):
        print(f"  note: {for_terminal(note)}")
    for c in comparisons:
        print(f"  {c.describe()}")
    failed = [c for c in comparisons if c.failed]
    if failed:
        worst = ", ".join(f"{c.what} ({c.limit})" for c in failed)
        print(f"slower than the stored run allows: {worst}")
    elif not comparisons:
        print("  nothing to compare: no board size measured in both runs")
    return bool(failed)


def add_parser(sub: Any) -> None:
    """The `bench` subcommand's options."""
    from conformance.bench.boards import SIZES
    from conformance.bench.plugin import DEFAULT_BUDGET, DEFAULT_TIME
    from conformance.cli.checks import board_sizes, max_size, seconds

    command = sub.add_parser(
        "bench",
        help="time an engine's untap step against board size: growth exponent, plot, "
        "report, gate against a stored run",
    )
    command.add_argument("--engine", required=True, help="engine name (see: phasecert engines)")
    command.add_argument(
        "--sizes",
        type=board_sizes,
        default=SIZES,
        metavar="N,N,...",
        help=f"board sizes in permanents (default {','.join(map(str, SIZES))})",
    )
    command.add_argument("--max-size", type=max_size, metavar="N", help="no board larger than this")
    command.add_argument(
        "--budget",
        type=seconds,
        default=DEFAULT_BUDGET,
        metavar="S",
        help=f"stop growing once a round takes longer (default {DEFAULT_BUDGET:g} s)",
    )
    command.add_argument(
        "--time",
        type=seconds,
        default=DEFAULT_TIME,
        metavar="S",
        help=f"about how long to time each size (default {DEFAULT_TIME:g} s)",
    )
    command.add_argument(
        "--out", metavar="DIR", help="report directory (default phasecert-reports/<engine>)"
    )
    command.add_argument("--save", metavar="FILE", help="also store this run as FILE")
    command.add_argument("--compare", metavar="FILE", help="a stored run (bench.json) to gate on")
    command.add_argument(
        "--compare-fail",
        action="append",
        default=[],
        metavar="STAT:N%",
        help="fail when slower than the stored run by more than this: STAT min, median, "
        "mean, max (N%% or seconds) or exponent (a rise); repeatable, e.g. min:10%%",
    )
