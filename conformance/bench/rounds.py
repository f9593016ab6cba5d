"""Timed rounds on a fresh game each, with the collector off, as `timeit`
times code.

A benchmark that starts a fresh game for each round (pytest-benchmark's
`pedantic(setup=...)`) leaves thousands of young objects behind it. Whether
the garbage collector's passes over them fall inside the next timed round
depends on allocation counts, not on the code timed: in one session the
reference untap step at 1,000 permanents had a fastest round of 1.43 ms in
one run and 0.69 ms in the next, with no change between them. So the
collector is off from the end of each round's setup to the end of the
round: what the timed code allocates is still paid for, its collection is
not, for every engine alike.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def timed_on_fresh_games(
    benchmark: Any,
    target: Callable[..., T],
    fresh: Callable[[], tuple[Any, ...]],
    rounds: int,
) -> T:
    """Time `target(*fresh())` over `rounds` rounds (after one warm-up),
    each on new arguments from `fresh`, with the collector off while it
    runs; return what the last round returned."""
    enabled = gc.isenabled()

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        arguments = fresh()
        gc.disable()
        return arguments, {}

    def teardown(*_: Any) -> None:
        if enabled:
            gc.enable()

    try:
        return benchmark.pedantic(  # type: ignore[no-any-return]
            target, setup=setup, teardown=teardown, rounds=rounds, warmup_rounds=1
        )
    finally:
        if enabled:
            gc.enable()
