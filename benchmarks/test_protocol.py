"""What the engine protocol costs: one `perform` of the reference engine in
process, and the same through `phasecert serve` over stdio (issue 11's
target: under 200 µs added per call on these machines).

Both sides play the same action on the same small board; the difference of
the two means is the protocol's cost per call (JSON both ways, two pipe
writes and reads, the child's dispatch). `python -m benchmarks.report`
prints it from the saved run; within one run, so machine noise cancels.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from adapters.discovery import load_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.setup import Permanent, Setup

#: A board of 10 permanents, 4 with phasing: a typical scenario's size.
BOARD = Setup(
    permanents=tuple(
        Permanent(f"p{i}", phasing=int(i % 3 == 0), power=1, toughness=1) for i in range(1, 11)
    )
)
#: Playing a spell that is refused keeps the game the same on every call.
ACTION = a.PhaseOut(0, ("nowhere",))


@pytest.fixture(scope="module")
def served() -> Iterator[Any]:
    engine = load_engine(
        f"stdio:{shlex.quote(sys.executable)} -m conformance.cli serve --engine reference"
    )
    yield engine
    engine.close()


@pytest.mark.benchmark(group="protocol: one perform")
def test_perform_in_process(benchmark: Any) -> None:
    game = ReferenceEngine().start(BOARD)
    benchmark.extra_info.update(side="in process")
    observation = benchmark(game.perform, ACTION)
    assert observation.refused


@pytest.mark.benchmark(group="protocol: one perform")
def test_perform_through_stdio(benchmark: Any, served: Any) -> None:
    game = served.start(BOARD)
    benchmark.extra_info.update(side="stdio")
    observation = benchmark(game.perform, ACTION)
    assert observation.refused
