"""The scenario vocabulary: generated scenarios are legal, stay within the
engine's capabilities, and survive a JSON round trip; bad files are refused
with the path of the bad field."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.reference import ReferenceEngine
from conformance.actions import PLAYER_ACTION_TYPES, GainControl, PassTurn
from conformance.capabilities import ALL_CAPABILITIES, Capability
from conformance.codec import DecodeError, dumps, from_data, loads_scenario, to_data
from conformance.legality import InvalidScenario, check_setup, setup_problems
from conformance.observation import Observation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import BoostEffect, ControlEffect, Duration, Permanent, PhasedOut, Setup
from conformance.strategies import scenarios

SOME_CAPS = st.sets(st.sampled_from(sorted(Capability))).map(frozenset)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_generated_scenarios_are_legal_and_within_capabilities(data: st.DataObject) -> None:
    caps = data.draw(SOME_CAPS, label="capabilities")
    scenario = data.draw(scenarios(caps))
    assert setup_problems(scenario.setup) == []
    assert scenario.capabilities() <= caps


@settings(max_examples=100, deadline=None)
@given(scenarios(ALL_CAPABILITIES))
def test_scenarios_and_observations_round_trip_through_json(scenario: Scenario) -> None:
    assert loads_scenario(dumps(scenario)) == scenario
    for step in play(ReferenceEngine(), scenario).steps:
        assert from_data(Observation, to_data(step.after)) == step.after


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"setup": {"players": "two"}}', r"\$\.setup\.players: expected an integer"),
        ('{"setup": {}, "actions": [{"type": "Fireball"}]}', r"\$\.actions\[0\]: unknown type"),
        ('{"setup": {"permanents": [{"owner": 0}]}}', r"missing field 'id'"),
        ('{"setup": {"colour": 1}}', r"unknown field\(s\) \['colour'\]"),
        ("{not json", r"not JSON"),
    ],
)
def test_malformed_scenario_files_name_the_bad_field(text: str, message: str) -> None:
    with pytest.raises(DecodeError, match=message):
        loads_scenario(text)


def test_illegal_positions_are_refused_with_the_reason() -> None:
    orphan = Permanent("p1", types=("enchantment",), attachment="aura")
    floating = Permanent("p2", power=1, toughness=1, phased_out=PhasedOut("indirect", 0))
    problems = setup_problems(Setup(players=5, permanents=(orphan, floating)))
    assert any("players must be 2 to 4" in p for p in problems)
    assert any("p1: an Aura must be attached" in p for p in problems)
    assert any("p2: phased out indirectly" in p for p in problems)
    shrunk = Permanent("p3", power=2, toughness=2, counters=(("-1/-1", 1), ("charge", 2)))
    (problem,) = setup_problems(Setup(permanents=(shrunk,)))
    assert "p3: counters ['-1/-1'] would change power and toughness (122.1a)" in problem
    with pytest.raises(InvalidScenario, match="illegal setup"):
        check_setup(Setup(players=5))


@settings(max_examples=60, deadline=None)
@given(scenarios(ALL_CAPABILITIES, kinds=(PassTurn, *PLAYER_ACTION_TYPES)))
def test_player_actions_round_trip_and_play(scenario: Scenario) -> None:
    """The actions of Teferi's Protection whole (life, damage to players,
    protection) survive the JSON round trip, and the reference plays them."""
    assert loads_scenario(dumps(scenario)) == scenario
    assert scenario.capabilities() <= ALL_CAPABILITIES
    for step in play(ReferenceEngine(), scenario).steps:
        assert from_data(Observation, to_data(step.after)) == step.after


def test_a_duration_naming_another_players_permanent_needs_its_capability() -> None:
    """611.2b: "for as long as you control X" with an X its caster doesn't
    control never starts; an engine without that capability must not be
    handed the scenario, however it was written."""
    setup = Setup(permanents=(Permanent("p1", 0, 0), Permanent("p2", 1, 1)))
    own = Scenario(setup, (GainControl(0, "p2", Duration("as_long_as_you_control", "p1")),))
    other = Scenario(setup, (GainControl(0, "p2", Duration("as_long_as_you_control", "p2")),))
    assert Capability.CONTROL_AS_LONG_AS in own.capabilities()
    assert Capability.CONTROL_AS_LONG_AS_OTHER not in own.capabilities()
    assert Capability.CONTROL_AS_LONG_AS_OTHER in other.capabilities()


def test_a_for_as_long_as_effect_whose_x_is_out_or_anothers_is_refused() -> None:
    """611.2b, 702.26f, R2017-for-as-long-as: a setup's "for as long as you
    control X" effect would already have ended with X phased out or in
    another player's control, so a position still showing its result is
    impossible (blind6 report 2a: p2 shown under player 0 while p1 is out)."""
    legend = {"types": ["artifact"], "name": "Legend", "legendary": True}
    scenario = from_data(
        Scenario,
        {
            "setup": {
                "permanents": [
                    {"id": "p1", "phased_out": {}, **legend},
                    {"id": "p2", "owner": 1, "power": 0, "toughness": 1},
                    {"id": "p3", "phased_out": {}, **legend},
                ],
                "effects": [
                    {
                        "type": "ControlEffect",
                        "target": "p2",
                        "controller": 0,
                        "duration": {"kind": "as_long_as_you_control", "of": "p1"},
                    }
                ],
            },
            "actions": [{"type": "PassTurn"}, {"type": "PassTurn"}],
        },
    )
    with pytest.raises(InvalidScenario, match="'p1', which is phased out, so it would already"):
        check_setup(scenario.setup)
    x = Permanent("p1", 0, 0, ("artifact",))
    stolen = Permanent("p2", 1, 0, power=1, toughness=1)
    held = ControlEffect("p2", 0, Duration("as_long_as_you_control", "p1"))
    assert setup_problems(Setup(permanents=(x, stolen), effects=(held,))) == []
    theirs = Setup(permanents=(replace(x, owner=1, controller=1), stolen), effects=(held,))
    (problem,) = setup_problems(theirs)
    assert "'p1', which is controlled by player 1" in problem
    boost = BoostEffect(("p2",), 1, duration=Duration("as_long_as_you_control", "p1"))
    assert setup_problems(Setup(permanents=(x, stolen), effects=(held, boost)))
