"""Drawing primitives the strategies share.

Building a Hypothesis strategy costs far more than drawing from one, so the
composites draw through these cached primitives; each shrinks toward its
first option (or its lowest value), so counterexamples read plainly.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TypeVar

from hypothesis import strategies as st

from conformance.capabilities import Capability

#: The capabilities a strategy may use: the engine's.
Caps = Collection[Capability]
T = TypeVar("T")

_BOOL = st.booleans()
_INTS: dict[tuple[int, int], st.SearchStrategy[int]] = {}


def integer(draw: st.DrawFn, lo: int, hi: int) -> int:
    """An integer in [lo, hi], shrinking toward `lo`."""
    if lo >= hi:
        return lo
    strategy = _INTS.get((lo, hi))
    if strategy is None:
        strategy = _INTS[(lo, hi)] = st.integers(lo, hi)
    return draw(strategy)


def pick(draw: st.DrawFn, options: Sequence[T]) -> T:
    """One of `options`, shrinking toward the first."""
    return options[integer(draw, 0, len(options) - 1)]


def maybe(draw: st.DrawFn) -> bool:
    return draw(_BOOL)


def some(draw: st.DrawFn, options: Sequence[T], max_size: int) -> list[T]:
    """Up to `max_size` distinct options, in their order."""
    chosen = [x for x in options if maybe(draw)]
    return chosen[:max_size]
