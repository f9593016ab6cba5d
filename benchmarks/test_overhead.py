"""The suite's own cost per scenario, against each engine's (issue 5).

For each engine, on the same scenarios (the suite's `scenarios` strategy for
that engine's capabilities, derandomized so every round draws the same ones):

* generate and check: drawing a scenario and checking that it is a legal
  position (`check_setup`), with no engine at all;
* runner: `conformance.running.play` (the scenario as one job of the
  engine's worker thread, a watchdog on each call, a
  check of every observation) driving a stand-in that answers with the
  observations the engine gave, so the runner is timed without the engine;
* engine: starting the game as the runner does (`start_game`: knowing the
  actions, if the adapter asks) and performing each action, the adapter
  called directly: the time the engine, with its adapter, spends;
* Hypothesis alone: as many examples, each making as many choices as the
  scenarios made on average, and nothing else (a flat list of booleans):
  the least any Hypothesis strategy drawing that much costs, so generation
  is shown against what it can't go below.

The suite's overhead per scenario is the first two against the engine's; the
engine row's `extra_info` gives it as a percentage (`overhead_pct`), and the
floor's (`floor_pct`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.control import current_build_context

from adapters.protocol import start_game
from benchmarks.harness import DIRECT, ENGINES, FLOOR, RUNNER, SUITE, Timings, engine_or_skip
from conformance.actions import Action
from conformance.capabilities import Capability
from conformance.legality import check_setup
from conformance.observation import Observation
from conformance.running import EngineError, play
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies import scenarios
from conformance.strategies._draw import composite, maybe

#: Scenarios per round; times in the report are per scenario.
EXAMPLES = 30
ROUNDS = 5
DRAWING = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def generate(caps: frozenset[Capability], choices: list[int] | None = None) -> list[Scenario]:
    """Draw and check `EXAMPLES` scenarios the way a property does; if
    given, `choices` gets how many choices Hypothesis made for each."""
    drawn: list[Scenario] = []

    @DRAWING
    @given(scenarios(caps))
    def draw_one(scenario: Scenario) -> None:
        check_setup(scenario.setup)
        drawn.append(scenario)
        if choices is not None:
            choices.append(len(current_build_context().data.choices))

    draw_one()
    return drawn


@composite
def _booleans(draw: Any, n: int) -> list[bool]:
    return [maybe(draw) for _ in range(n)]


def draw_choices(n: int) -> None:
    """`EXAMPLES` examples of `n` choices each, through Hypothesis as a
    property draws them, and nothing else."""

    @DRAWING
    @given(_booleans(n))
    def draw_one(choices: list[bool]) -> None:
        pass

    draw_one()


def run_directly(engine: Any, drawn: list[Scenario]) -> list[list[Observation]]:
    """Play each scenario by calling the adapter; returns the engine's
    answers, which stop where it failed (a failure ends a scenario, as in a
    property)."""
    answers = []
    for scenario in drawn:
        seen: list[Observation] = []
        answers.append(seen)
        try:
            game = start_game(engine, scenario)
            seen.append(game.observe())
            for action in scenario.actions:
                seen.append(game.perform(action))
        except Exception:
            continue
    return answers


class Replay:
    """A stand-in engine that gives recorded answers, scenario by scenario;
    where the recording stops, the engine had failed, and so does this."""

    name = "replay"

    def __init__(self, answers: list[list[Observation]]) -> None:
        self._games = iter(answers)

    def start(self, setup: Setup) -> _ReplayGame:
        return _ReplayGame(iter(next(self._games)))


@dataclass
class _ReplayGame:
    answers: Iterator[Observation]

    def observe(self) -> Observation:
        return next(self.answers)

    def perform(self, action: Action) -> Observation:
        return next(self.answers)


def run_played(engine: Any, drawn: list[Scenario]) -> int:
    """Play each scenario through the runner; returns how many failed."""
    errors = 0
    for scenario in drawn:
        try:
            play(engine, scenario)
        except EngineError:
            errors += 1
    return errors


@dataclass
class Drawn:
    """One engine's scenarios, the choices Hypothesis made for each and,
    once it has played them, its answers."""

    scenarios: list[Scenario]
    choices: list[int]
    answers: list[list[Observation]] = field(default_factory=list)


@pytest.fixture(scope="module")
def drawn() -> dict[str, Drawn]:
    """Each engine's scenarios, drawn once per module."""
    return {}


def _prepare(
    benchmark: Any, engines: dict[str, Any], drawn: dict[str, Drawn], name: str, operation: str
) -> tuple[Any, Drawn]:
    engine = engine_or_skip(engines, name)
    if name not in drawn:
        choices: list[int] = []
        drawn[name] = Drawn(generate(engine.capabilities, choices), choices)
    benchmark.group = f"scenario overhead, {name}"
    benchmark.extra_info.update(
        engine=name, operation=operation, scenarios=len(drawn[name].scenarios)
    )
    return engine, drawn[name]


@pytest.mark.parametrize("name", ENGINES)
def test_generate_and_check(
    benchmark: Any, engines: dict[str, Any], drawn: dict[str, Drawn], timings: Timings, name: str
) -> None:
    engine, mine = _prepare(benchmark, engines, drawn, name, SUITE)
    again = benchmark.pedantic(generate, args=(engine.capabilities,), rounds=ROUNDS)
    assert again == mine.scenarios, "derandomized generation drew different scenarios"
    timings.record((SUITE, name), benchmark)


@pytest.mark.parametrize("name", ENGINES)
def test_hypothesis_floor(
    benchmark: Any, engines: dict[str, Any], drawn: dict[str, Drawn], timings: Timings, name: str
) -> None:
    _, mine = _prepare(benchmark, engines, drawn, name, FLOOR)
    choices = round(sum(mine.choices) / len(mine.choices))
    benchmark.extra_info["choices"] = choices
    benchmark.pedantic(draw_choices, args=(choices,), rounds=ROUNDS)
    timings.record((FLOOR, name), benchmark)


@pytest.mark.parametrize("name", ENGINES)
def test_runner(
    benchmark: Any, engines: dict[str, Any], drawn: dict[str, Drawn], timings: Timings, name: str
) -> None:
    engine, mine = _prepare(benchmark, engines, drawn, name, RUNNER)
    if not mine.answers:
        mine.answers = run_directly(engine, mine.scenarios)

    def fresh() -> tuple[tuple[Replay, list[Scenario]], dict[str, Any]]:
        return (Replay(mine.answers), mine.scenarios), {}

    errors = benchmark.pedantic(run_played, setup=fresh, rounds=ROUNDS)
    benchmark.extra_info["engine_errors"] = errors
    timings.record((RUNNER, name), benchmark)


@pytest.mark.parametrize("name", ENGINES)
def test_engine(
    benchmark: Any, engines: dict[str, Any], drawn: dict[str, Drawn], timings: Timings, name: str
) -> None:
    engine, mine = _prepare(benchmark, engines, drawn, name, DIRECT)
    benchmark.pedantic(run_directly, args=(engine, mine.scenarios), rounds=ROUNDS)
    direct = timings.record((DIRECT, name), benchmark)
    suite, runner = timings.get((SUITE, name)), timings.get((RUNNER, name))
    floor = timings.get((FLOOR, name))
    if direct is not None and suite is not None and runner is not None:
        benchmark.extra_info.update(
            generation_pct=round(100 * suite / direct, 1),
            runner_pct=round(100 * runner / direct, 1),
            overhead_pct=round(100 * (suite + runner) / direct, 1),
        )
    if direct is not None and floor is not None:
        benchmark.extra_info["floor_pct"] = round(100 * floor / direct, 1)
