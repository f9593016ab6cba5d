"""One benchmark run of an engine, as `bench.json` stores it: what each
board size took, what was skipped and why, and what failed.

A stored run is what `phasecert bench --compare FILE` gates against. A
pytest-benchmark JSON file of the bench suite (`--benchmark-json`,
`--benchmark-save`) is read too, from the `extra_info` the suite writes.
A file that is neither gives `RunFileError`, naming the file and what is
wrong with it.
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from conformance.bench.growth import Growth, fit_growth

FORMAT = "phasecert-bench/1"
#: What is timed: `PassTurn` through the adapter (cleanup, the next
#: player's untap step, the observation the adapter returns).
OPERATION = "pass turn"
#: Statistics of a measurement, in seconds per pass turn.
STATISTICS = ("min", "median", "mean", "max")


class RunFileError(ValueError):
    """A stored run that can't be read; the message names the file."""


@dataclass(frozen=True)
class Measurement:
    """The pass turn on one board size, in seconds (`min` is the fastest
    round, what growth and ratios use), and the time its game took to start."""

    size: int
    min: float
    median: float
    mean: float
    max: float
    rounds: int
    start: float

    def statistic(self, name: str) -> float:
        return float(getattr(self, name))


@dataclass(frozen=True)
class SizeNote:
    """A board size not measured: skipped (over a cap or the time budget)
    or failed (the engine errored or left the board wrong), and why."""

    size: int
    reason: str


@dataclass
class BenchRun:
    engine: str
    engine_version: str
    #: How the engine was asked for (`--engine`), e.g. `stdio:node engine.mjs`.
    spec: str
    #: Whether the boards held Auras and Equipment (`boards.attaches`).
    attached: bool
    started: str
    measurements: list[Measurement] = field(default_factory=list)
    skipped: list[SizeNote] = field(default_factory=list)
    failed: list[SizeNote] = field(default_factory=list)
    machine: dict[str, str] = field(default_factory=lambda: machine())

    def growth(self) -> Growth | None:
        return fit_growth([(m.size, m.min) for m in self.measurements])

    def by_size(self) -> dict[int, Measurement]:
        return {m.size: m for m in self.measurements}

    def to_json(self) -> str:
        data: dict[str, Any] = {"format": FORMAT, "operation": OPERATION, **asdict(self)}
        growth = self.growth()
        # Derived, for readers of the file; `read_run` fits it again.
        data["growth"] = None if growth is None else asdict(growth)
        return json.dumps(data, indent=2) + "\n"


def machine() -> dict[str, str]:
    """Where a run was measured: times only compare on one machine."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": str(os.cpu_count() or "?"),
        # Other jobs on the machine inflate long rounds most: say how busy it was.
        "load": f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?",
    }


def read_run(path: Path) -> BenchRun:
    """The run stored in `path`: a `bench.json`, or pytest-benchmark JSON."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RunFileError(f"{path}: can't read the stored run: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RunFileError(f"{path}: not a stored run, not JSON: {e}") from None
    try:
        if isinstance(data, dict) and data.get("format") == FORMAT:
            return _from_bench_json(data)
        if isinstance(data, dict) and "benchmarks" in data:
            return _from_pytest_benchmark(data)
    except (KeyError, TypeError, ValueError) as e:
        detail = f"missing {e}" if isinstance(e, KeyError) else str(e)
        raise RunFileError(f"{path}: a stored run with a bad field: {detail}") from None
    raise RunFileError(
        f"{path}: not a stored run (expected a bench.json of `phasecert bench`, "
        f'"format": "{FORMAT}", or pytest-benchmark JSON of conformance.bench.suite)'
    )


def _measurement(data: dict[str, Any]) -> Measurement:
    values = {k: _seconds(data[k], k) for k in (*STATISTICS, "start")}
    return Measurement(size=_size(data["size"]), rounds=_count(data["rounds"]), **values)


def _from_bench_json(data: dict[str, Any]) -> BenchRun:
    run = BenchRun(
        engine=_text(data["engine"], "engine"),
        engine_version=_text(data["engine_version"], "engine_version"),
        spec=_text(data["spec"], "spec"),
        attached=bool(data["attached"]),
        started=_text(data["started"], "started"),
        measurements=[_measurement(m) for m in _list(data["measurements"], "measurements")],
        skipped=[_note(n) for n in _list(data.get("skipped", []), "skipped")],
        failed=[_note(n) for n in _list(data.get("failed", []), "failed")],
        machine={str(k): str(v) for k, v in dict(data.get("machine", {})).items()},
    )
    _distinct_sizes(run)
    return run


def _from_pytest_benchmark(data: dict[str, Any]) -> BenchRun:
    rows = [
        b
        for b in _list(data["benchmarks"], "benchmarks")
        if isinstance(b, dict) and b.get("extra_info", {}).get("operation") == OPERATION
    ]
    if not rows:
        raise ValueError("no pass-turn benchmark of conformance.bench.suite in it")
    info = rows[0]["extra_info"]
    machine_info = data.get("machine_info", {})
    run = BenchRun(
        engine=_text(info["engine"], "engine"),
        engine_version=_text(info["engine_version"], "engine_version"),
        spec=_text(info["spec"], "spec"),
        attached=bool(info["attached"]),
        started=str(data.get("datetime", "?")),
        measurements=[
            _measurement({**b["stats"], "size": b["extra_info"]["size"], **b["extra_info"]})
            for b in rows
        ],
        machine={
            "python": str(machine_info.get("python_version", "?")),
            "platform": str(machine_info.get("system", "?")),
        },
    )
    _distinct_sizes(run)
    return run


def _note(data: dict[str, Any]) -> SizeNote:
    return SizeNote(_size(data["size"]), _text(data["reason"], "reason"))


def _distinct_sizes(run: BenchRun) -> None:
    sizes = [m.size for m in run.measurements]
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"a board size measured twice: {sorted(sizes)}")


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list, not {type(value).__name__}")
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} must be text, not {value!r}")
    return value


def _size(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"a board size must be a positive whole number, not {value!r}")
    return value


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"rounds must be a positive whole number, not {value!r}")
    return value


def _seconds(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a positive time in seconds, not {value!r}")
    if value == float("inf"):
        raise ValueError(f"{name} must be a finite time, not {value!r}")
    return float(value)
