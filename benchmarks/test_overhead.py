"""The suite's own cost per scenario, against the engines' (issue 5).

For each engine, on the same scenarios (the suite's `scenarios` strategy for
that engine's capabilities, derandomized so every round draws the same ones):

* suite: generating a scenario and checking that it is a legal position
  (`check_setup`), with no engine at all;
* engine: starting the game and performing each action, the adapter called
  directly, which is the time the engine (with its adapter) spends;
* play: the same through the runner, `conformance.running.play`, which calls
  the engine in a worker thread and checks every observation it returns.

The suite's overhead per scenario is suite + (play − engine); the play row's
`extra_info` gives it as a percentage of the engine's time.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from benchmarks.harness import DIRECT, ENGINES, PLAYED, SUITE, Timings, engine_or_skip
from conformance.capabilities import Capability
from conformance.legality import check_setup
from conformance.running import EngineError, play
from conformance.scenario import Scenario
from conformance.strategies import scenarios

#: Scenarios per round; times in `extra_info` are per scenario.
EXAMPLES = 30
ROUNDS = 5


def generate(caps: frozenset[Capability]) -> list[Scenario]:
    """Draw and check `EXAMPLES` scenarios the way a property does."""
    drawn: list[Scenario] = []

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(scenarios(caps))
    def draw_one(scenario: Scenario) -> None:
        check_setup(scenario.setup)
        drawn.append(scenario)

    draw_one()
    return drawn


def run_directly(engine: Any, drawn: list[Scenario]) -> int:
    """Play each scenario by calling the adapter; returns how many the
    engine failed on (a failure ends that scenario, as in a property)."""
    errors = 0
    for scenario in drawn:
        try:
            game = engine.start(scenario.setup)
            game.observe()
            for action in scenario.actions:
                game.perform(action)
        except Exception:
            errors += 1
    return errors


def run_played(engine: Any, drawn: list[Scenario]) -> int:
    """Play each scenario through the runner; returns how many the engine
    failed on."""
    errors = 0
    for scenario in drawn:
        try:
            play(engine, scenario)
        except EngineError:
            errors += 1
    return errors


def _label(benchmark: Any, name: str, operation: str, count: int) -> None:
    benchmark.group = f"scenario overhead, {name}"
    benchmark.extra_info.update(engine=name, operation=operation, scenarios=count)


@pytest.fixture(scope="module")
def drawn() -> dict[str, list[Scenario]]:
    """The scenarios of each engine, drawn once per module."""
    return {}


def _engine_and_scenarios(
    engines: dict[str, Any], drawn: dict[str, list[Scenario]], name: str
) -> tuple[Any, list[Scenario]]:
    engine = engine_or_skip(engines, name)
    if name not in drawn:
        drawn[name] = generate(engine.capabilities)
    return engine, drawn[name]


@pytest.mark.parametrize("name", ENGINES)
def test_suite(
    benchmark: Any,
    engines: dict[str, Any],
    drawn: dict[str, list[Scenario]],
    timings: Timings,
    name: str,
) -> None:
    engine, expected = _engine_and_scenarios(engines, drawn, name)
    _label(benchmark, name, SUITE, len(expected))
    again = benchmark.pedantic(generate, args=(engine.capabilities,), rounds=ROUNDS)
    assert again == expected, "derandomized generation drew different scenarios"
    timings.record(("suite", name), benchmark)


@pytest.mark.parametrize("name", ENGINES)
def test_engine(
    benchmark: Any,
    engines: dict[str, Any],
    drawn: dict[str, list[Scenario]],
    timings: Timings,
    name: str,
) -> None:
    engine, scenarios_ = _engine_and_scenarios(engines, drawn, name)
    _label(benchmark, name, DIRECT, len(scenarios_))
    errors = benchmark.pedantic(run_directly, args=(engine, scenarios_), rounds=ROUNDS)
    benchmark.extra_info["engine_errors"] = errors
    timings.record(("engine", name), benchmark)


@pytest.mark.parametrize("name", ENGINES)
def test_play(
    benchmark: Any,
    engines: dict[str, Any],
    drawn: dict[str, list[Scenario]],
    timings: Timings,
    name: str,
) -> None:
    engine, scenarios_ = _engine_and_scenarios(engines, drawn, name)
    _label(benchmark, name, PLAYED, len(scenarios_))
    errors = benchmark.pedantic(run_played, args=(engine, scenarios_), rounds=ROUNDS)
    benchmark.extra_info["engine_errors"] = errors
    played = timings.record(("play", name), benchmark)
    suite, direct = timings.get(("suite", name)), timings.get(("engine", name))
    if played is not None and suite is not None and direct is not None:
        runner = max(played - direct, 0.0)
        benchmark.extra_info.update(
            generation_pct=round(100 * suite / direct, 1),
            runner_pct=round(100 * runner / direct, 1),
            overhead_pct=round(100 * (suite + runner) / direct, 1),
        )
