"""The stateful comparison: the engine under test and the reference engine
play the same turns and actions, and must show the same thing after each.

A rule-based state machine draws each next action from the position the
reference engine shows, so sequences stay meaningful as the game moves on.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from adapters.reference import ReferenceEngine
from conformance.actions import Action
from conformance.describe import describe_scenario
from conformance.observation import Observation
from conformance.running import EngineError, call_engine, checked_observation
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies import next_actions, setups


class Disagreement(AssertionError):
    """The engine and the reference engine showed different things."""


def differences(expected: Observation, observed: Observation) -> list[str]:
    """What differs, field by field; refusals compare as refused or not, and
    events as a multiset (their order within one action is not a rule)."""
    out = []
    for name in ("turn", "active", "players"):
        if getattr(expected, name) != getattr(observed, name):
            out.append(
                f"{name}: reference {getattr(expected, name)}, engine {getattr(observed, name)}"
            )
    if (expected.refused is None) != (observed.refused is None):
        out.append(f"refused: reference {expected.refused!r}, engine {observed.refused!r}")
    if sorted(map(repr, expected.events)) != sorted(map(repr, observed.events)):
        out.append(f"events: reference {list(expected.events)}, engine {list(observed.events)}")
    mine = {p.id: p for p in observed.permanents}
    for p in expected.permanents:
        q = mine.get(p.id)
        if q != p:
            out.append(f"{p.id}: reference {p}, engine {q}")
    return out


def agreement_machine(engine: Any, timeout: float) -> type[RuleBasedStateMachine]:
    """A state machine class comparing `engine` with the reference engine on
    what `engine`'s capabilities let it play."""
    caps = engine.capabilities
    reference = ReferenceEngine()

    class AgreesWithReference(RuleBasedStateMachine):
        played: ClassVar[list[tuple[Setup, list[Action]]]] = []

        @initialize(setup=setups(caps, max_permanents=5))
        def start(self, setup: Setup) -> None:
            self.actions: list[Action] = []
            self.played.append((setup, self.actions))
            self.expected_game = reference.start(setup)
            self.game = call_engine(engine.name, "start", lambda: engine.start(setup), timeout)
            self.compare("start", self.expected_game.observe(), lambda: self.game.observe())

        @rule(data=st.data())
        def act(self, data: st.DataObject) -> None:
            action = data.draw(next_actions(self.expected, caps), label="action")
            self.actions.append(action)
            what = f"action {len(self.actions)} ({type(action).__name__})"
            self.compare(
                what, self.expected_game.perform(action), lambda: self.game.perform(action)
            )

        def compare(self, what: str, expected: Observation, observe: Any) -> None:
            self.expected = expected
            observed = checked_observation(
                engine.name, what, call_engine(engine.name, what, observe, timeout)
            )
            diff = differences(expected, observed)
            if diff:
                raise Disagreement(f"after {what}: " + "; ".join(diff))

    return AgreesWithReference


def run_agreement(engine: Any, *, using: settings, timeout: float) -> str | None:
    """None if the engine agrees with the reference on every generated run;
    else the disagreement with its minimal scenario, for a person to read."""
    machine = agreement_machine(engine, timeout)
    try:
        run_state_machine_as_test(machine, settings=settings(using, stateful_step_count=8))
    except (Disagreement, EngineError) as e:
        setup, actions = machine.played[-1]
        scenario = Scenario(setup, tuple(actions))
        return f"{e}\nMinimal counterexample:\n{describe_scenario(scenario)}"
    return None
