"""Gating a run on a stored one, in the manner of pytest-benchmark's
`--benchmark-compare-fail`: `min:10%` fails when a board size's fastest
pass turn is more than 10 % slower than stored, `mean:0.005` when the mean
is more than 5 ms slower, and `exponent:0.1` when the growth exponent rose
by more than 0.1.

Times only compare on one machine: run the stored run and this one in the
same job (see benchmarks/README.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.bench.growth import fit_growth
from conformance.bench.runs import STATISTICS, BenchRun

EXPONENT = "exponent"
_LIMIT = re.compile(r"^(?P<stat>[a-z]+):(?P<value>[0-9]*\.?[0-9]+)(?P<pct>%?)$")


@dataclass(frozen=True)
class Limit:
    """How much slower a statistic may get: a percentage or, without `%`,
    seconds (for `exponent`, an absolute rise)."""

    statistic: str
    value: float
    percent: bool

    def __str__(self) -> str:
        return f"{self.statistic}:{self.value:g}{'%' if self.percent else ''}"


def parse_limit(text: str) -> Limit:
    """`min:10%` and the like; ValueError says what is accepted."""
    match = _LIMIT.match(text.strip())
    known = (*STATISTICS, EXPONENT)
    if match is None or match["stat"] not in known:
        raise ValueError(
            f"--compare-fail {text!r}: expected STAT:N% or STAT:SECONDS with STAT one of "
            f"{', '.join(known)} (e.g. min:10%, mean:0.005, exponent:0.1)"
        )
    if match["stat"] == EXPONENT and match["pct"]:
        raise ValueError(f"--compare-fail {text!r}: the exponent's limit is a rise, e.g. 0.1")
    return Limit(match["stat"], float(match["value"]), bool(match["pct"]))


@dataclass(frozen=True)
class Comparison:
    """One statistic of one size (or the exponent), stored and now."""

    what: str
    stored: float
    now: float
    limit: Limit | None
    failed: bool

    def describe(self) -> str:
        change = self.now - self.stored
        if self.what == EXPONENT:
            shown = f"{self.stored:.2f} -> {self.now:.2f} ({change:+.2f})"
        else:
            shown = f"{_ms(self.stored)} -> {_ms(self.now)} ({100 * change / self.stored:+.1f} %)"
        verdict = f"  SLOWER than {self.limit} allows" if self.failed else ""
        return f"{self.what}: {shown}{verdict}"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.3f} ms"


def compare(stored: BenchRun, now: BenchRun, limits: list[Limit]) -> list[Comparison]:
    """Each limited statistic (min alone without limits) on the board sizes
    both runs measured, and the growth exponent if limited."""
    out = []
    stats = [lim.statistic for lim in limits if lim.statistic != EXPONENT] or ["min"]
    by_stat = {lim.statistic: lim for lim in limits}
    before, after = stored.by_size(), now.by_size()
    for size in sorted(before.keys() & after.keys()):
        for stat in dict.fromkeys(stats):
            old, new = before[size].statistic(stat), after[size].statistic(stat)
            limit = by_stat.get(stat)
            out.append(Comparison(f"{stat} at {size:,}", old, new, limit, _over(old, new, limit)))
    if EXPONENT in by_stat:
        # Fitted on the sizes both measured: a fit over other sizes differs
        # by the fixed costs alone.
        common = before.keys() & after.keys()
        old_growth, new_growth = (
            fit_growth([(s, run[s].min) for s in common]) for run in (before, after)
        )
        if old_growth is not None and new_growth is not None:
            limit = by_stat[EXPONENT]
            old, new = old_growth.exponent, new_growth.exponent
            out.append(Comparison(EXPONENT, old, new, limit, new - old > limit.value))
    return out


def _over(old: float, new: float, limit: Limit | None) -> bool:
    if limit is None:
        return False
    if limit.percent:
        return new > old * (1 + limit.value / 100)
    return new - old > limit.value


def unmatched(stored: BenchRun, now: BenchRun) -> list[str]:
    """What can't be compared: sizes only one run measured, another engine."""
    notes = []
    if stored.engine != now.engine:
        notes.append(f"the stored run is of engine {stored.engine!r}, this one of {now.engine!r}")
    if stored.attached != now.attached:
        notes.append("the stored run's boards differ (with and without attachments)")
    gone = sorted(stored.by_size().keys() - now.by_size().keys())
    if gone:
        notes.append(f"measured before, not now: {', '.join(f'{s:,}' for s in gone)}")
    return notes
