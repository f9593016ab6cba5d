"""What one benchmark session of an engine decides and keeps: which board
sizes to measure (under the size cap and the time budget), how many rounds
each gets, and the run it adds up to.

Sizes grow from small to large. A size over the cap (`--bench-max-size`, or
the engine's own `bench_max_size`) is skipped; so is every size after one
whose round (starting the game and passing the turn) took longer than the
time budget: growing further would take minutes per round.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from adapters.protocol import bench_max_size
from conformance.bench.boards import attaches
from conformance.bench.runs import BenchRun, Measurement, SizeNote

#: Rounds per size: at least a few for a stable minimum, at most this many
#: on tiny boards.
MIN_ROUNDS, MAX_ROUNDS = 3, 100


@dataclass
class Limits:
    """The options that bound a session."""

    #: `--bench-max-size`: no board larger than this, if set.
    max_size: int | None
    #: `--bench-budget`: a round slower than this stops the growth.
    budget: float
    #: `--bench-time`: about how long to spend timing each size.
    time_per_size: float


class BenchSession:
    def __init__(self, engine: Any, spec: str, limits: Limits) -> None:
        self.engine = engine
        self.limits = limits
        self.attached = attaches(engine.capabilities)
        self.run = BenchRun(
            engine=str(engine.name),
            engine_version=str(getattr(engine, "version", "?")),
            spec=spec,
            attached=self.attached,
            started=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        self._cap = _cap(engine, limits.max_size)
        self._stopped: str | None = None

    def skip_reason(self, size: int) -> str | None:
        """Why `size` is not measured, or None to measure it."""
        if self._cap is not None and size > self._cap[0]:
            return f"over the size cap of {self._cap[0]:,} permanents ({self._cap[1]})"
        return self._stopped

    def skip(self, size: int, reason: str) -> None:
        self.run.skipped.append(SizeNote(size, reason))

    def fail(self, size: int, reason: str) -> None:
        self.run.failed.append(SizeNote(size, reason))

    def rounds(self, round_seconds: float) -> int:
        """Rounds for a size whose one round took `round_seconds`: one if it
        is over the budget, otherwise about `time_per_size` worth."""
        if round_seconds > self.limits.budget:
            return 1
        wanted = int(self.limits.time_per_size / max(round_seconds, 1e-9))
        return max(MIN_ROUNDS, min(MAX_ROUNDS, wanted))

    def record(self, size: int, stats: Any | None, start: float, turn: float) -> Measurement:
        """Keep `size`'s measurement: pytest-benchmark's `stats`, or the one
        untimed-run round (`--benchmark-disable`) when there are none."""
        if stats is None:
            m = Measurement(size, turn, turn, turn, turn, 1, start)
        else:
            m = Measurement(
                size,
                float(stats.min),
                float(stats.median),
                float(stats.mean),
                float(stats.max),
                int(stats.rounds),
                start,
            )
        self.run.measurements.append(m)
        if start + turn > self.limits.budget:
            self._stopped = (
                f"a round on {size:,} permanents took {start + turn:.2f} s (start "
                f"{start:.2f} s, pass turn {turn:.2f} s), over the time budget of "
                f"{self.limits.budget:g} s"
            )
        return m


def _cap(engine: Any, max_size: int | None) -> tuple[int, str] | None:
    """The smaller of --bench-max-size and the engine's own cap, with whose."""
    caps = []
    if max_size is not None:
        caps.append((max_size, "--bench-max-size"))
    declared = bench_max_size(engine)
    if declared is not None:
        caps.append((declared, f"the {engine.name} adapter's bench_max_size"))
    return min(caps) if caps else None
