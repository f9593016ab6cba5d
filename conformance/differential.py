"""The stateful comparison: the engine under test and the reference engine
play the same turns and actions, and must show the same thing after each.

A rule-based state machine draws each next action from the position the
reference engine shows, so sequences stay meaningful as the game moves on.
A disagreement is reported like a property's failure: a result with its
minimal scenario, which the corpus keeps and `phasecert replay` replays.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from typing import Any, ClassVar

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from adapters.reference import ReferenceEngine
from conformance.actions import Action
from conformance.codec import to_data
from conformance.observation import Observation, PermanentView
from conformance.results import PropertyResult
from conformance.running import EngineError, Trace, call_engine, checked_observation, play
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies import next_actions, setups
from conformance.trimming import trim

#: The comparison's name wherever a property's name goes: reports,
#: baselines, corpus files.
COMPARISON = "agrees_with_reference"


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
    out += _event_differences(expected, observed)
    mine = {p.id: p for p in observed.permanents}
    for p in expected.permanents:
        out += _permanent_differences(p, mine.get(p.id))
    return out


def _event_differences(expected: Observation, observed: Observation) -> list[str]:
    theirs = Counter(f"{e.kind} {e.subject} {e.detail}".rstrip() for e in expected.events)
    ours = Counter(f"{e.kind} {e.subject} {e.detail}".rstrip() for e in observed.events)
    if theirs == ours:
        return []
    only_reference = ", ".join((theirs - ours).elements()) or "none"
    only_engine = ", ".join((ours - theirs).elements()) or "none"
    return [f"events: reference only {only_reference}; engine only {only_engine}"]


def _permanent_differences(expected: PermanentView, observed: PermanentView | None) -> list[str]:
    if observed is None:
        return [f"{expected.id}: missing from the engine's observation"]
    return [
        f"{expected.id} {f.name}: reference {getattr(expected, f.name)!r}, "
        f"engine {getattr(observed, f.name)!r}"
        for f in fields(PermanentView)
        if getattr(expected, f.name) != getattr(observed, f.name)
    ]


def first_disagreement(expected: Trace, observed: Trace) -> str | None:
    """Where two plays of one scenario first differ, and how; None if never."""
    pairs = [("start", expected.initial, observed.initial)]
    for i, (e, o) in enumerate(zip(expected.steps, observed.steps, strict=True), 1):
        pairs.append((f"action {i} ({type(e.action).__name__})", e.after, o.after))
    for what, e_obs, o_obs in pairs:
        diff = differences(e_obs, o_obs)
        if diff:
            return f"after {what}: " + "; ".join(diff)
    return None


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


def run_agreement(
    engine: Any, *, using: settings, timeout: float, replay: tuple[Scenario, ...] = ()
) -> PropertyResult:
    """Compare `engine` with the reference: the scenarios of `replay` first
    (earlier disagreements, from the corpus), then generated runs. A
    disagreement fails with the minimal scenario that shows it; an engine
    error is reported as such."""
    started = time.monotonic()
    reference = ReferenceEngine()
    examples = 0
    failure: tuple[Exception, Scenario] | None = None
    for scenario in replay:
        examples += 1
        try:
            found = first_disagreement(play(reference, scenario), play(engine, scenario, timeout))
        except EngineError as e:
            failure = (e, scenario)
            break
        if found is not None:
            failure = (Disagreement(found), scenario)
            break
    if failure is None:
        machine = agreement_machine(engine, timeout)
        try:
            run_state_machine_as_test(machine, settings=settings(using, stateful_step_count=8))
        except (Disagreement, EngineError) as e:
            setup, actions = machine.played[-1]
            failure = (e, Scenario(setup, tuple(actions)))
        examples += len(machine.played)
    if failure is None:
        return PropertyResult(COMPARISON, (), "pass", examples, duration=_since(started))
    error, scenario = failure
    if isinstance(error, Disagreement):
        same = _same_disagreement(reference, engine, timeout, error)
        scenario, error = trim(scenario, same, error)
    return PropertyResult(
        COMPARISON,
        (),
        "engine-error" if isinstance(error, EngineError) else "fail",
        examples,
        str(error),
        to_data(scenario),
        duration=_since(started),
    )


def _same_disagreement(
    reference: ReferenceEngine, engine: Any, timeout: float, found: Disagreement
) -> Callable[[Scenario], Disagreement | None]:
    """For `trim`: a candidate's disagreement, if it comes at the same step."""
    step = str(found).split(":", 1)[0]

    def disagreement(candidate: Scenario) -> Disagreement | None:
        try:
            shown = first_disagreement(play(reference, candidate), play(engine, candidate, timeout))
        except EngineError:
            return None
        if shown is None or shown.split(":", 1)[0] != step:
            return None
        return Disagreement(shown)

    return disagreement


def _since(started: float) -> float:
    return time.monotonic() - started
