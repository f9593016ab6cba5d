"""The bench suite's pytest options, its session, and the report written at
the end (`--bench-report DIR`). Loaded with the phasecert plugin, so
`pytest --pyargs conformance.bench.suite --engine X` takes pytest-benchmark's
own options too (`--benchmark-json`, `--benchmark-compare-fail`, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.bench.boards import SIZES
from conformance.bench.measuring import BenchSession, Limits
from conformance.bench.report import write_run
from conformance.bench.runs import BenchRun
from conformance.cli.checks import board_sizes, max_size, seconds

#: Seconds a round (start a game, pass the turn) may take before larger
#: boards are skipped.
DEFAULT_BUDGET = 5.0
#: About how long each size is timed for; sets its rounds.
DEFAULT_TIME = 1.0

_SESSION = pytest.StashKey[BenchSession]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("phasecert-bench", "phasecert bench (conformance.bench.suite)")
    group.addoption(
        "--bench-sizes",
        type=board_sizes,
        default=SIZES,
        metavar="N,N,...",
        help=f"board sizes, in permanents (default {','.join(map(str, SIZES))})",
    )
    group.addoption(
        "--bench-max-size", type=max_size, metavar="N", help="no board larger than this"
    )
    group.addoption(
        "--bench-budget",
        type=seconds,
        default=DEFAULT_BUDGET,
        metavar="S",
        help=f"skip larger boards once a round takes longer than this (default {DEFAULT_BUDGET:g})",
    )
    group.addoption(
        "--bench-time",
        type=seconds,
        default=DEFAULT_TIME,
        metavar="S",
        help=f"about how long to time each size (default {DEFAULT_TIME:g})",
    )
    group.addoption(
        "--bench-report", metavar="DIR", help="write bench.json, bench.md and bench.svg here"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "bench_size" in metafunc.fixturenames:
        sizes = metafunc.config.getoption("bench_sizes")
        metafunc.parametrize("bench_size", sizes, ids=[str(s) for s in sizes])


@pytest.fixture(scope="session")
def bench_session(request: pytest.FixtureRequest, phasecert_engine: Any) -> BenchSession:
    """The engine's session: sizes measured so far, the cap, the budget."""
    config = request.config
    limits = Limits(
        max_size=config.getoption("bench_max_size"),
        budget=config.getoption("bench_budget"),
        time_per_size=config.getoption("bench_time"),
    )
    try:
        session = BenchSession(phasecert_engine, config.getoption("engine"), limits)
    except ValueError as e:
        raise pytest.UsageError(f"--engine {config.getoption('engine')}: {e}") from None
    config.stash[_SESSION] = session
    return session


def session_run(config: pytest.Config) -> BenchRun | None:
    """The run a bench session measured, once it has begun."""
    bench = config.stash.get(_SESSION, None)
    return None if bench is None else bench.run


def pytest_sessionfinish(session: pytest.Session) -> None:
    bench = session.config.stash.get(_SESSION, None)
    out = session.config.getoption("bench_report", None)
    if bench is not None and out:
        write_run(bench.run, Path(out))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    bench = config.stash.get(_SESSION, None)
    if bench is None:
        return
    growth = bench.run.growth()
    what = "no growth exponent (fewer than two sizes)" if growth is None else growth.describe()
    terminalreporter.write_line(f"phasecert bench: {bench.run.engine}: growth exponent {what}")
    for note in bench.run.skipped:
        terminalreporter.write_line(f"  {note.size:,} permanents not measured: {note.reason}")
