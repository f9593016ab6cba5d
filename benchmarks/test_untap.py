"""The untap step on boards of 10 to 10,000 permanents (502.1, 702.26a).

One pytest-benchmark group per board size, so engines print side by side:

* floor: the cheapest Python loop that visits each permanent once and flips a
  status field, the unit every other row is divided by (`floor_ratio`); and
  the same loop over the cards of a fresh reference game, to tell the cost
  of memory on big boards from the cost of the rules;
* hand-written untap step (`benchmarks.handwritten`): the least a Python
  engine must do on these boards, events included; the reference engine's
  rows are also divided by it (`handwritten_ratio`);
* reference untap step: `Rules.untap_step` alone, on a game started fresh
  for each round (the phasing event, then untapping);
* pass turn: `game.perform(PassTurn())` through each adapter, the only
  operation every adapter offers: cleanup, the next player's untap step, and
  the observation the adapter builds afterwards.

Every round starts from a fresh game (pytest-benchmark `pedantic` with a
setup function) and runs with the garbage collector off, as `timeit` runs
code (`conformance.bench.rounds`); the result is checked once, so a fast
engine is also a correct one.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from adapters.reference import ReferenceEngine, ReferenceGame
from benchmarks import handwritten
from benchmarks.harness import ENGINES, HANDWRITTEN, SIZES, Timings, engine_or_skip
from conformance.actions import PassTurn
from conformance.bench.boards import UNTAPPING, board, untap_problems
from conformance.bench.rounds import timed_on_fresh_games
from conformance.observation import Observation

#: Timed rounds per board size: enough for a stable minimum on a shared
#: machine, few enough that the largest boards (a fresh game per round)
#: finish in seconds.
ROUNDS: dict[int, int] = {10: 200, 100: 100, 1_000: 30, 10_000: 30}
#: At most this many rounds of a pass turn, which takes seconds on the
#: largest boards (the observation, see findings.md).
PASS_TURN_ROUNDS = 10


class _Status:
    __slots__ = ("phased_out",)

    def __init__(self) -> None:
        self.phased_out = False


def _flip_all(statuses: list[_Status]) -> None:
    for status in statuses:
        status.phased_out = not status.phased_out


def _flip_tapped(cards: list[Any]) -> None:
    for card in cards:
        card.tapped = not card.tapped


def _untap_step(game: ReferenceGame) -> ReferenceGame:
    game.rules.untap_step(UNTAPPING)
    return game


def _pass_turn(game: Any) -> Observation:
    return game.perform(PassTurn())


def _label(benchmark: Any, size: int, engine: str, operation: str) -> None:
    benchmark.group = f"untap step, {size:,} permanents"
    benchmark.extra_info.update(size=size, engine=engine, operation=operation)


def _ratio_to_floor(benchmark: Any, timings: Timings, key: tuple[object, ...]) -> None:
    """Record this benchmark's time and, if the floor and the hand-written
    untap step of its size ran in this session, its ratios to them."""
    best = timings.record(key, benchmark)
    for name, ratio in (("floor", "floor_ratio"), (HANDWRITTEN[0], "handwritten_ratio")):
        yardstick = timings.get((name, key[-1]))
        if best is not None and yardstick is not None:
            benchmark.extra_info[ratio] = round(best / yardstick, 2)


@pytest.mark.parametrize("size", SIZES)
def test_floor(benchmark: Any, timings: Timings, size: int) -> None:
    _label(benchmark, size, "floor", "flip one field per permanent")
    statuses = [_Status() for _ in range(size)]
    benchmark.pedantic(_flip_all, args=(statuses,), rounds=ROUNDS[size], warmup_rounds=1)
    _ratio_to_floor(benchmark, timings, ("floor", size))


@pytest.mark.parametrize("size", SIZES)
def test_floor_on_reference_cards(benchmark: Any, timings: Timings, size: int) -> None:
    """The floor again, over the cards of a freshly started reference game:
    the same loop, on big objects scattered over a fresh heap, shows what
    memory alone adds as boards grow."""
    _label(benchmark, size, "floor", "flip one field per card of a fresh reference game")
    setup = board(size)

    def fresh() -> tuple[list[Any]]:
        return (list(ReferenceEngine().start(setup).state.cards.values()),)

    timed_on_fresh_games(benchmark, _flip_tapped, fresh, ROUNDS[size])
    _ratio_to_floor(benchmark, timings, ("floor on reference cards", size))


@pytest.mark.parametrize("size", SIZES)
def test_handwritten_untap_step(benchmark: Any, timings: Timings, size: int) -> None:
    """The least a Python engine must do, checked against the reference
    engine: the same events (in any order) and the same board afterwards."""
    _label(benchmark, size, *HANDWRITTEN)
    setup = board(size)

    def fresh() -> tuple[list[handwritten.BarePermanent], int]:
        return handwritten.bare_board(setup), UNTAPPING

    events = timed_on_fresh_games(benchmark, handwritten.untap_step, fresh, ROUNDS[size])
    reference = _untap_step(ReferenceEngine().start(setup))
    assert Counter(events) == Counter(reference.state.events)
    bare = handwritten.bare_board(setup)
    handwritten.untap_step(bare, UNTAPPING)
    assert untap_problems(bare, size) == []
    _ratio_to_floor(benchmark, timings, (HANDWRITTEN[0], size))


@pytest.mark.parametrize("size", SIZES)
def test_reference_untap_step(benchmark: Any, timings: Timings, size: int) -> None:
    _label(benchmark, size, "reference", "untap step")
    setup = board(size)

    def fresh() -> tuple[ReferenceGame]:
        return (ReferenceEngine().start(setup),)

    game = timed_on_fresh_games(benchmark, _untap_step, fresh, ROUNDS[size])
    assert untap_problems(game.observe().permanents, size) == []
    _ratio_to_floor(benchmark, timings, ("reference untap step", size))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ENGINES)
def test_pass_turn(
    benchmark: Any, engines: dict[str, Any], timings: Timings, name: str, size: int
) -> None:
    setup = board(size)
    engine = engine_or_skip(engines, name, setup.capabilities(), size)
    _label(benchmark, size, name, "pass turn")

    def fresh() -> tuple[Any]:
        return (engine.start(setup),)

    rounds = min(ROUNDS[size], PASS_TURN_ROUNDS)
    observation = timed_on_fresh_games(benchmark, _pass_turn, fresh, rounds)
    assert untap_problems(observation.permanents, size) == []
    _ratio_to_floor(benchmark, timings, (f"{name} pass turn", size))
