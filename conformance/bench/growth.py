"""The growth exponent of an engine's untap step: the slope k of
log(time) against log(permanents), time ∝ size^k. Linear is 1; phase.rs's
15× per tenfold board is about 1.18.

The small boards are dominated by fixed costs (the turn's other steps, the
adapter's observation, a process round trip), which flatten the slope, so
the fit starts at `FIT_FROM` permanents when at least two sizes from there
were measured. Its spread is given two ways: the standard error of the
least-squares slope (with three points or more), and the smallest and
largest slope between neighbouring sizes, which shows where growth speeds up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

#: Sizes below this are left out of the fit when enough others remain.
FIT_FROM = 100


@dataclass(frozen=True)
class Growth:
    """The fitted exponent, and the points it was fitted on."""

    exponent: float
    #: Standard error of the slope; None with two points (no residual).
    stderr: float | None
    #: Slopes between neighbouring sizes of the fit: (small, large, slope).
    local: tuple[tuple[int, int, float], ...]
    sizes: tuple[int, ...]

    @property
    def low(self) -> float:
        return min(slope for _, _, slope in self.local)

    @property
    def high(self) -> float:
        return max(slope for _, _, slope in self.local)

    def describe(self) -> str:
        """One line, e.g. `1.18 ± 0.04 (local 1.05–1.31, sizes 100–1,000)`."""
        spread = f" ± {self.stderr:.2f}" if self.stderr is not None else ""
        return (
            f"{self.exponent:.2f}{spread} (local {self.low:.2f}–{self.high:.2f}, "
            f"sizes {self.sizes[0]:,}–{self.sizes[-1]:,})"
        )


def fit_growth(points: Sequence[tuple[int, float]], fit_from: int = FIT_FROM) -> Growth | None:
    """The exponent fitted on (size, seconds) points, or None with fewer
    than two distinct sizes. ValueError for a size or time that isn't
    positive (a logarithm is taken)."""
    for size, seconds in points:
        if size <= 0 or not seconds > 0 or math.isinf(seconds):
            raise ValueError(f"growth needs positive sizes and times, got ({size}, {seconds})")
    by_size = dict(sorted(points))
    large = {s: t for s, t in by_size.items() if s >= fit_from}
    used = large if len(large) >= 2 else by_size
    if len(used) < 2:
        return None
    xs = [math.log(s) for s in used]
    ys = [math.log(t) for t in used.values()]
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sxx
    stderr = None
    if n > 2:
        intercept = mean_y - slope * mean_x
        residual = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
        stderr = math.sqrt(residual / (n - 2) / sxx)
    sizes = tuple(used)
    local = tuple((a, b, math.log(used[b] / used[a]) / math.log(b / a)) for a, b in pairwise(sizes))
    return Growth(slope, stderr, local, sizes)
