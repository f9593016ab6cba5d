"""The bench suite: an engine passes a turn on boards of 10 to 10,000
permanents, through its adapter, under pytest-benchmark.

    pytest --pyargs conformance.bench.suite --engine X [--bench-sizes 10,100,1000]
        [--bench-report DIR] [--benchmark-json FILE] [--benchmark-compare-fail min:10%]

One test per board size, smallest first. Each starts one game and passes
one turn, untimed apart from a stopwatch, to check the board after its
untap step (502.1, 702.26a, 702.26g, 502.3: a fast engine must also be a
correct one) and to choose the rounds; then pytest-benchmark times
`perform(PassTurn())` on a fresh game per round, with the collector off
(`conformance.bench.rounds`).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from conformance.actions import PassTurn
from conformance.bench.boards import board, untap_problems
from conformance.bench.measuring import BenchSession
from conformance.bench.rounds import timed_on_fresh_games
from conformance.escaping import cut
from conformance.observation import Observation


def _pass_turn(game: Any) -> Observation:
    return game.perform(PassTurn())


def test_pass_turn(benchmark: Any, bench_session: BenchSession, bench_size: int) -> None:
    session, size = bench_session, bench_size
    reason = session.skip_reason(size)
    if reason is not None:
        session.skip(size, reason)
        pytest.skip(reason)
    engine, setup = session.engine, board(size, session.attached)
    try:
        began = time.perf_counter()
        game = engine.start(setup)
        started = time.perf_counter()
        observation = _pass_turn(game)
        start, turn = started - began, time.perf_counter() - started
    except Exception as e:
        session.fail(size, f"the engine raised {type(e).__name__}: {cut(str(e), 300)}")
        raise
    problems = [f"it refused the pass turn: {observation.refused}"] if observation.refused else []
    problems += untap_problems(observation.permanents, size, session.attached)
    if problems:
        shown = "; ".join(problems[:3])
        if len(problems) > 3:
            shown += f" (and {len(problems) - 3} more)"
        session.fail(size, f"the board after the untap step is wrong: {shown}")
        pytest.fail(f"{engine.name}, {size:,} permanents: {shown}", pytrace=False)

    benchmark.group = f"{engine.name}: pass turn"
    benchmark.extra_info.update(
        engine=engine.name,
        engine_version=session.run.engine_version,
        spec=session.run.spec,
        attached=session.attached,
        operation="pass turn",
        size=size,
        start=start,
    )
    if not benchmark.disabled:
        timed_on_fresh_games(
            benchmark, _pass_turn, lambda: (engine.start(setup),), session.rounds(start + turn)
        )
    session.record(size, benchmark.stats.stats if benchmark.stats else None, start, turn)
