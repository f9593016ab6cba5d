"""What the benchmark modules share: the engines compared, how an engine
that can't run is skipped, and the times measured so far in this session, so
a benchmark can report its time as a ratio to an earlier one in `extra_info`.

Ratios are taken between benchmarks of one run on one machine; no test
compares a time with a fixed number of seconds.
"""

from __future__ import annotations

from typing import Any

import pytest

from adapters.protocol import bench_max_size
from conformance.capabilities import Capability

#: Engines benchmarked side by side, by their discovery name
#: (`adapters.discovery`).
ENGINES: tuple[str, ...] = ("reference", "phase-rs")
#: Board sizes of the suite's own benchmarks, in permanents (`phasecert
#: bench` measures more sizes, for one engine at a time).
SIZES: tuple[int, ...] = (10, 100, 1_000, 10_000)
#: The hand-written untap step's rows (`benchmarks.handwritten`): engine and
#: operation.
HANDWRITTEN = ("hand-written", "untap step, events included")
#: Operations of the scenario benchmarks (`benchmarks/test_overhead.py`).
SUITE = "generate and check"
RUNNER = "runner, replaying the engine's answers"
FLOOR = "Hypothesis alone, as many choices"
DIRECT = "engine, called directly"


class Timings:
    """The fastest round of each benchmark run so far, under a key the tests
    choose, e.g. ("floor", 1000). Stays empty under --benchmark-disable."""

    def __init__(self) -> None:
        self._best: dict[tuple[object, ...], float] = {}

    def record(self, key: tuple[object, ...], benchmark: Any) -> float | None:
        """Remember `benchmark`'s fastest round under `key` and return it."""
        if benchmark.stats is None:
            return None
        best = float(benchmark.stats.stats.min)
        self._best[key] = best
        return best

    def get(self, key: tuple[object, ...]) -> float | None:
        return self._best.get(key)


def engine_or_skip(
    engines: dict[str, Any], name: str, needs: frozenset[Capability] = frozenset(), size: int = 0
) -> Any:
    """The engine called `name`, or skip the test saying why it can't run:
    it can't be loaded, lacks a capability in `needs`, or its adapter caps
    its boards below `size` permanents (`bench_max_size`)."""
    engine = engines[name]
    if isinstance(engine, str):
        pytest.skip(engine)
    missing = sorted(needs - engine.capabilities)
    if missing:
        pytest.skip(f"{name} lacks {', '.join(missing)}")
    cap = bench_max_size(engine)
    if cap is not None and size > cap:
        pytest.skip(f"{name} is benchmarked on boards of at most {cap:,} permanents")
    return engine
