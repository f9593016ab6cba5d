"""What a verdict stands on: a pass needs examples that exercised the rule,
a refusal of a legal action is a failure, and a position the adapter set up
wrong is the adapter's error, never a rule's."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.capabilities import ALL_CAPABILITIES, Capability
from conformance.checking import (
    ReferenceCannotPlay,
    exercise_needed,
    hold,
    profile,
    run_property,
)
from conformance.observation import Observation
from conformance.properties import REGISTRY
from conformance.properties.registry import Property
from conformance.running import SetupMismatch, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup
from tests.budgets import VERDICT_ONLY

BEAR = Permanent("p1", phasing=1, power=2, toughness=2)


@dataclass
class Variant:
    """The reference engine with its observations passed through `edit`
    (action, observation → observation)."""

    edit: Any
    name: str = "variant"
    version: str = "0"
    capabilities: frozenset[Capability] = field(default=ALL_CAPABILITIES)

    def start(self, setup: Setup) -> Any:
        game = ReferenceEngine().start(setup)
        edit = self.edit

        class Game:
            def observe(self) -> Observation:
                return edit(None, game.observe())

            def perform(self, action: a.Action) -> Observation:
                return edit(action, game.perform(action))

        return Game()


def refuses_phase_outs(action: a.Action | None, obs: Observation) -> Observation:
    """Plays everything but refuses "target permanents phase out" (after
    playing it: the test only needs the refusal reported)."""
    return replace(obs, refused="not supported") if isinstance(action, a.PhaseOut) else obs


def test_thresholds_per_profile() -> None:
    assert [exercise_needed(profile(p)) for p in ("dev", "ci", "certify")] == [1, 10, 25]


def test_a_property_whose_rule_is_never_exercised_is_not_a_pass() -> None:
    real = REGISTRY["untap_step_phases_out_and_in_at_once"]
    never = replace(real, exercised=lambda trace: False)
    result = run_property(never, ReferenceEngine(), using=profile("dev"))
    assert result.status == "not-exercised"
    assert result.exercised == 0 and result.examples == 25
    assert result.message.startswith("not exercised: 0 of 25 examples exercised it, 1 needed")


def test_exercised_examples_are_counted() -> None:
    prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
    always = replace(prop, exercised=lambda trace: True)
    result = run_property(always, ReferenceEngine(), using=profile("dev"))
    assert (result.status, result.exercised, result.examples) == ("pass", 25, 25)


def test_refusing_a_legal_action_fails_the_rule_the_property_tests() -> None:
    prop: Property = REGISTRY["untap_step_phases_out_and_in_at_once"]
    result = run_property(prop, Variant(refuses_phase_outs), using=VERDICT_ONLY)
    assert result.status == "fail", result.message
    assert result.message.startswith("702.26a after action")
    assert "it refused a legal action: not supported" in result.message
    assert result.refusals >= 1


def test_a_refusal_the_reference_makes_too_is_no_verdict() -> None:
    # Both refuse to target a phased-out permanent (702.26b): nothing to hold.
    out = replace(BEAR, phasing=0, phased_out=PhasedOut("direct", 0))
    scenario = Scenario(Setup(permanents=(out,)), (a.PhaseOut(0, ("p1",)),))
    engine = Variant(lambda action, obs: obs)
    trace = play(engine, scenario)
    assert trace.steps[0].after.refused is not None
    hold(REGISTRY["phased_out_permanents_cannot_be_targeted"], engine, trace)


def test_a_position_set_up_wrong_is_the_adapters_error() -> None:
    def loses_control(action: a.Action | None, obs: Observation) -> Observation:
        if action is not None:
            return obs
        wrong = tuple(replace(p, controller=1, tapped=True) for p in obs.permanents)
        return replace(obs, permanents=wrong)

    scenario = Scenario(Setup(permanents=(BEAR,)), (a.PassTurn(),))
    try:
        play(Variant(loses_control), scenario)
    except SetupMismatch as e:
        message = str(e)
    else:
        raise AssertionError("the start check let a wrong position through")
    assert message.startswith("the adapter did not set up the position (no rule was tested): ")
    assert "p1 controller: setup 0, engine 1" in message
    assert "p1 tapped: setup False, engine True" in message
    result = run_property(
        REGISTRY["untap_step_phases_out_and_in_at_once"],
        Variant(loses_control),
        using=profile("dev"),
    )
    assert result.status == "engine-error"
    assert "the adapter did not set up the position" in result.message


def test_a_scenario_the_reference_cannot_set_up_is_set_aside_not_the_engines_error() -> None:
    """The engine refused a phase-out, so the reference is asked to play the
    scenario too; where it can't set the position up, the oracle judged
    nothing and the example is set aside (`ReferenceCannotPlay`), never
    reported as the engine's error (blind6 report 2a)."""

    def sets_up_wrong(action: a.Action | None, obs: Observation) -> Observation:
        if action is not None:
            return obs
        return replace(obs, permanents=tuple(replace(p, controller=1) for p in obs.permanents))

    scenario = Scenario(Setup(permanents=(BEAR,)), (a.PhaseOut(0, ("p1",)),))
    engine = Variant(refuses_phase_outs)
    trace = play(engine, scenario)
    prop = REGISTRY["untap_step_phases_out_and_in_at_once"]
    with pytest.raises(
        ReferenceCannotPlay, match="the reference engine can't play it: the adapter"
    ):
        hold(prop, engine, trace, reference=Variant(sets_up_wrong))


def test_the_start_check_names_missing_and_extra_permanents() -> None:
    def swaps(action: a.Action | None, obs: Observation) -> Observation:
        if action is not None:
            return obs
        return replace(obs, permanents=tuple(replace(p, id="x" + p.id) for p in obs.permanents))

    scenario = Scenario(Setup(permanents=(BEAR,)))
    try:
        play(Variant(swaps), scenario)
    except SetupMismatch as e:
        assert "p1: missing from the engine's observation" in str(e)
        assert "xp1: on the engine's battlefield, not in the setup" in str(e)
    else:
        raise AssertionError("the start check let a wrong position through")
