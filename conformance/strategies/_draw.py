"""Drawing primitives the strategies share.

Building a Hypothesis strategy costs far more than drawing from one, so the
composites draw through these primitives; each shrinks toward its first
option (or its lowest value), so counterexamples read plainly. Inside a
composite they take their choice straight from Hypothesis's test case
(`ConjectureData`): the same choice `st.integers(lo, hi)` or `st.booleans()`
makes, without the strategy's wrapping around it (validation, a span of its
own), which cost half of each draw; elsewhere they draw the strategy.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from hypothesis import strategies as st
from hypothesis.internal.conjecture.data import ConjectureData

from conformance.capabilities import Capability

#: The capabilities a strategy may use: the engine's.
Caps = Collection[Capability]
T = TypeVar("T")
P = ParamSpec("P")

_BOOL = st.booleans()
_INTS: dict[tuple[int, int], st.SearchStrategy[int]] = {}


def integer(draw: st.DrawFn, lo: int, hi: int) -> int:
    """An integer in [lo, hi], shrinking toward `lo`."""
    if lo >= hi:
        return lo
    data = getattr(draw, "__self__", None)
    if isinstance(data, ConjectureData):
        return data.draw_integer(lo, hi)
    strategy = _INTS.get((lo, hi))
    if strategy is None:
        strategy = _INTS[(lo, hi)] = st.integers(lo, hi)
    return draw(strategy)


def pick(draw: st.DrawFn, options: Sequence[T]) -> T:
    """One of `options`, shrinking toward the first."""
    return options[integer(draw, 0, len(options) - 1)]


def maybe(draw: st.DrawFn) -> bool:
    data = getattr(draw, "__self__", None)
    if isinstance(data, ConjectureData):
        return data.draw_boolean()
    return draw(_BOOL)


def some(draw: st.DrawFn, options: Sequence[T], max_size: int) -> list[T]:
    """Up to `max_size` distinct options, in their order."""
    chosen = [x for x in options if maybe(draw)]
    return chosen[:max_size]


try:
    from hypothesis.strategies._internal.core import CompositeStrategy
except ImportError:  # a Hypothesis without it: its own composite, slower
    composite = st.composite
else:

    class _Composite(CompositeStrategy):  # type: ignore[misc]
        """`st.composite`'s strategy, without what each call of a composite
        costs on top: Hypothesis wraps every call in a lazy strategy, and
        validates it, works out whether it is empty and labels it afresh on
        its first draw, about a fifth of generating a scenario, since the
        composites here are called with new arguments at each draw. The
        label is the one Hypothesis gives, and a composite has no empty or
        reusable values, so the same choices draw the same values
        (tests/test_strategies_draw.py)."""

        def __init__(self, definition: Callable[..., Any], label: int, args: Any, kw: Any) -> None:
            super().__init__(definition, args, kw)
            self.composite_label = label
            self.__dict__.update(
                cached_is_empty=False, cached_has_reusable_values=False, cached_is_cacheable=True
            )

        def calc_label(self) -> int:
            return self.composite_label

    def composite(  # type: ignore[no-redef]
        f: Callable[Concatenate[st.DrawFn, P], T],
    ) -> Callable[P, st.SearchStrategy[T]]:
        """`st.composite`, cheaper per call (`_Composite`)."""
        label = CompositeStrategy(f, (), {}).label

        @functools.wraps(f)
        def accept(*args: P.args, **kwargs: P.kwargs) -> st.SearchStrategy[T]:
            return _Composite(f, label, args, kwargs)

        return accept
