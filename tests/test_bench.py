"""`phasecert bench` and the bench suite (conformance.bench): it measures
any engine the suite can load, fits a growth exponent, writes its report and
plot, and gates on a stored run. No test compares a time with a number of
seconds: the gates are tested on runs with made-up times."""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from xml.etree import ElementTree

import pytest

from conformance.bench.boards import board, untap_problems
from conformance.bench.gate import compare, parse_limit
from conformance.bench.growth import fit_growth
from conformance.bench.measuring import MIN_ROUNDS, BenchSession, Limits
from conformance.bench.runs import BenchRun, Measurement, RunFileError, read_run
from conformance.cli import main

#: Tiny boards and little time per size: these tests check what is written,
#: not how fast anything is.
FAST = ["--sizes", "10,20,40", "--time", "0.1"]
NODE = Path(__file__).resolve().parents[1] / "examples" / "node-engine" / "engine.json"


@pytest.fixture(autouse=True)
def _outside_xdist(monkeypatch: pytest.MonkeyPatch) -> None:
    """`phasecert bench` runs its pytest session in this process: inside an
    xdist worker (the README's `pytest -n auto`), pytest-benchmark would
    see the worker's variable and time nothing, leaving every size one
    untimed round. The command is run from a shell, never from a worker."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)


def bench(engine: str, out: Path, *extra: str) -> int:
    return main(["bench", "--engine", engine, *FAST, "--out", str(out), *extra])


def _measured(out: Path, engine: str) -> BenchRun:
    run = read_run(out / "bench.json")
    assert run.engine == engine
    assert [m.size for m in run.measurements] == [10, 20, 40]
    assert not run.failed
    # Timed by pytest-benchmark: a round per size would be the untimed run.
    assert all(m.rounds >= MIN_ROUNDS for m in run.measurements)
    report = (out / "bench.md").read_text()
    assert "Growth exponent k = " in report and "![time per pass turn" in report
    ElementTree.fromstring((out / "bench.svg").read_text())  # well-formed SVG
    return run


def test_bench_reference_writes_report_plot_and_run(tmp_path: Path) -> None:
    assert bench("reference", tmp_path / "out", "--save", str(tmp_path / "base.json")) == 0
    run = _measured(tmp_path / "out", "reference")
    assert run.attached and run.growth() is not None
    assert read_run(tmp_path / "base.json").by_size() == run.by_size()


def test_bench_module_factory_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A third engine given as module:Factory from the current directory,
    without Auras or Equipment: it gets boards without attachments, and
    its own size cap (`bench_max_size`) is obeyed."""
    (tmp_path / "bench_mtgsim.py").write_text(
        textwrap.dedent(
            """
            from adapters.reference import ReferenceEngine
            from conformance.capabilities import Capability

            class Engine:
                name = "mtgsim"
                version = "1.0"
                bench_max_size = 20

                def __init__(self):
                    self.reference = ReferenceEngine()
                    self.capabilities = self.reference.capabilities - {
                        Capability.AURAS, Capability.EQUIPMENT
                    }

                def start(self, setup):
                    return self.reference.start(setup)
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    assert bench("bench_mtgsim:Engine", Path("out")) == 0
    run = read_run(Path("out/bench.json"))
    assert (run.engine, run.attached) == ("mtgsim", False)
    assert [m.size for m in run.measurements] == [10, 20]
    assert "bench_max_size" in run.skipped[0].reason and run.skipped[0].size == 40
    assert "Not measured" in Path("out/bench.md").read_text()


def test_bench_stdio_engine(tmp_path: Path) -> None:
    served = shlex.join([sys.executable, "-m", "conformance.cli", "serve", "--engine", "reference"])
    assert bench(f"stdio:{served}", tmp_path) == 0
    _measured(tmp_path, "reference")


@pytest.mark.skipif(shutil.which("node") is None, reason="the Node example engine needs node")
def test_bench_node_engine(tmp_path: Path) -> None:
    assert bench(f"stdio:@{NODE}", tmp_path) == 0
    _measured(tmp_path, "node-example")


def test_an_engine_that_leaves_the_board_wrong_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Timing an untap step that did nothing would measure nothing."""
    assert bench("degenerate:inert", tmp_path) == 1
    assert "the board after the untap step is wrong" in capsys.readouterr().out
    assert len(read_run(tmp_path / "bench.json").failed) == 3


def test_pytest_plugin_takes_pytest_benchmark_options(tmp_path: Path) -> None:
    """`pytest --pyargs conformance.bench.suite`, with --benchmark-json:
    the file pytest-benchmark writes is a stored run as well."""
    stored = tmp_path / "pb.json"
    # A fresh process: pytest-benchmark disables itself inside an xdist worker.
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))
    }
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q"),
            *("--pyargs", "conformance.bench.suite", "--engine", "reference"),
            *("--bench-sizes", "10,20", "--bench-time", "0.1"),
            *(f"--benchmark-json={stored}", "--bench-report", str(tmp_path / "r")),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    run = read_run(stored)
    assert [m.size for m in run.measurements] == [10, 20]
    assert read_run(tmp_path / "r" / "bench.json").engine == "reference"


def test_growth_exponent_of_synthetic_runs() -> None:
    cubic = [(n, 2e-9 * n**3) for n in (10, 100, 300, 1_000)]
    growth = fit_growth(cubic)
    assert growth is not None
    assert math.isclose(growth.exponent, 3.0) and growth.stderr is not None
    assert growth.stderr < 1e-9 and growth.sizes == (100, 300, 1_000)
    # Fixed costs: flat below 100, left out of the fit; the local slopes show
    # where growth speeds up.
    noisy = [(10, 1e-3), (30, 1e-3), (100, 1e-3), (1_000, 1.5e-2), (10_000, 3e-1)]
    growth = fit_growth(noisy)
    assert growth is not None and growth.sizes == (100, 1_000, 10_000)
    assert growth.low == pytest.approx(math.log10(15)) and growth.high == pytest.approx(
        math.log10(20)
    )
    assert growth.stderr is not None and growth.stderr > 0
    # Only small sizes: fitted on them all; one size: no exponent.
    assert fit_growth([(10, 1e-4), (20, 4e-4)]).exponent == pytest.approx(2.0)  # type: ignore[union-attr]
    assert fit_growth([(10, 1e-4)]) is None
    with pytest.raises(ValueError, match="positive"):
        fit_growth([(10, 0.0), (20, 1.0)])


def _run(times: dict[int, float], engine: str = "reference") -> BenchRun:
    run = BenchRun(engine, "1", engine, True, "2026-01-01T00:00:00+00:00")
    run.measurements = [Measurement(n, t, t, t, t, 5, t) for n, t in times.items()]
    return run


def test_gate_on_synthetic_runs() -> None:
    stored = _run({100: 1e-3, 1_000: 1e-2})
    slower = _run({100: 1.05e-3, 1_000: 1.3e-2})
    results = compare(stored, slower, [parse_limit("min:10%")])
    assert [(c.what, c.failed) for c in results] == [("min at 100", False), ("min at 1,000", True)]
    assert not any(c.failed for c in compare(stored, slower, [parse_limit("min:0.01")]))
    # The exponent rose from 1.00 to 1.09.
    assert compare(stored, slower, [parse_limit("exponent:0.05")])[-1].failed
    assert not compare(stored, slower, [parse_limit("exponent:0.2")])[-1].failed
    for bad in ("min", "fastest:10%", "exponent:10%", "min:-3%"):
        with pytest.raises(ValueError, match="--compare-fail"):
            parse_limit(bad)


def test_cli_gate_passes_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench("reference", tmp_path / "now") == 0
    measured = json.loads((tmp_path / "now" / "bench.json").read_text())
    for factor, name in ((100.0, "slow.json"), (0.01, "fast.json")):
        stored = json.loads(json.dumps(measured))
        for m in stored["measurements"]:
            m.update({k: m[k] * factor for k in ("min", "median", "mean", "max")})
        (tmp_path / name).write_text(json.dumps(stored))
    gate = ["--compare-fail", "min:10%", "--compare-fail", "mean:25%"]
    assert bench("reference", tmp_path / "a", "--compare", str(tmp_path / "slow.json"), *gate) == 0
    capsys.readouterr()
    assert bench("reference", tmp_path / "b", "--compare", str(tmp_path / "fast.json"), *gate) == 1
    assert "slower than the stored run allows: min at 10 (min:10%)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "can't read the stored run"),
        ("{not json", "not a stored run, not JSON"),
        ('{"benchmarks": []}', "no pass-turn benchmark"),
        ("[1, 2]", "not a stored run (expected a bench.json"),
        ('{"format": "phasecert-bench/1", "engine": "x"}', "a stored run with a bad field"),
    ],
)
def test_bad_stored_run_is_a_clear_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    stored = tmp_path / "stored.json"
    if content is not None:
        stored.write_text(content)
    assert bench("reference", tmp_path / "out", "--compare", str(stored)) == 2
    err = capsys.readouterr().err
    assert message in err and str(stored) in err and err.count("\n") == 1
    assert not (tmp_path / "out" / "bench.json").exists()  # nothing measured


def test_bad_times_in_a_stored_run_are_named(tmp_path: Path) -> None:
    run = _run({10: 1e-3, 20: 2e-3})
    good = json.loads(run.to_json())
    for bad in (-1, 0, "fast", None, float("inf")):
        data = json.loads(json.dumps(good))
        data["measurements"][1]["min"] = bad
        (tmp_path / "r.json").write_text(json.dumps(data))
        with pytest.raises(RunFileError, match="min must be a"):
            read_run(tmp_path / "r.json")


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["bench", "--engine", "reference", "--sizes", "10,15"])
    assert exited.value.code == 2 and "multiples of 10" in capsys.readouterr().err
    assert main(["bench", "--engine", "reference", "--compare-fail", "min:5%"]) == 2
    assert "--compare-fail needs --compare" in capsys.readouterr().err
    assert main(["bench", "--engine", "reference", "--sizes", "100", "--max-size", "50"]) == 2
    assert "no board size to measure" in capsys.readouterr().err
    assert main(["bench", "--engine", "no-such-engine"]) == 2


def test_time_budget_stops_the_growth() -> None:
    from adapters.reference import ReferenceEngine

    session = BenchSession(
        ReferenceEngine(), "reference", Limits(None, budget=1.0, time_per_size=1)
    )
    session.record(100, None, start=0.2, turn=0.3)
    assert session.skip_reason(1_000) is None
    assert session.rounds(0.5) >= 2 and session.rounds(2.0) == 1
    session.record(1_000, None, start=0.6, turn=0.6)
    assert "over the time budget of 1 s" in (session.skip_reason(10_000) or "")


@pytest.mark.parametrize("attached", [True, False])
def test_boards_are_legal_and_the_reference_passes_their_check(attached: bool) -> None:
    from adapters.reference import ReferenceEngine
    from conformance.actions import PassTurn
    from conformance.legality import check_setup

    setup = board(30, attached)
    check_setup(setup)
    observation = ReferenceEngine().start(setup).perform(PassTurn())
    assert untap_problems(observation.permanents, 30, attached) == []
    unchanged = ReferenceEngine().start(setup).observe().permanents
    assert untap_problems(unchanged, 30, attached) != []
