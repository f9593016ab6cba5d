"""Boosts "for as long as you control X" end as X phases out and stay ended
(R2017-for-as-long-as, 702.26f): `boost_for_as_long_as_ends_when_x_phases_out`
on fixed scenarios, X phasing out by a spell and at its controller's untap
step."""

from __future__ import annotations

import pytest

from adapters.degenerate import NoPhasingRefused
from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY
from conformance.properties.registry import Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import BoostEffect, Duration, Permanent, Setup

PROPERTY = REGISTRY["boost_for_as_long_as_ends_when_x_phases_out"]


def _scenario(phasing: int, *actions: a.Action) -> Scenario:
    """Player 0's 2/2 p1 gets +1/+1 for as long as player 0 controls the
    artifact p2 (with `phasing` instances of phasing)."""
    p1 = Permanent("p1", owner=0, controller=0, power=2, toughness=2)
    p2 = Permanent("p2", owner=0, controller=0, types=("artifact",), phasing=phasing)
    boost = BoostEffect(("p1",), 0, duration=Duration("as_long_as_you_control", "p2"))
    return Scenario(Setup(active=1, permanents=(p1, p2), effects=(boost,)), actions)


SCENARIOS = {
    "spell": _scenario(0, a.PhaseOut(0, ("p2",)), a.PassTurn(), a.PassTurn(), a.PassTurn()),
    "untap step": _scenario(1, a.PassTurn(), a.PassTurn(), a.PassTurn()),
}


@pytest.mark.parametrize("how", sorted(SCENARIOS))
def test_the_reference_exercises_it_and_passes(how: str) -> None:
    trace = play(ReferenceEngine(), SCENARIOS[how])
    PROPERTY.check(trace)
    assert PROPERTY.exercised(trace)


def test_an_engine_that_never_phases_does_not_exercise_it() -> None:
    engine = ReferenceEngine(name="no-phasing", rules=NoPhasingRefused)
    for scenario in SCENARIOS.values():
        assert not PROPERTY.exercised(play(engine, scenario))


@pytest.mark.parametrize("how", sorted(SCENARIOS))
def test_a_boost_that_outlasts_its_anchor_phasing_out_fails_it(how: str) -> None:
    trace = play(mutant_engine("boost-for-as-long-as-ignores-phasing"), SCENARIOS[how])
    with pytest.raises(Violation, match="R2017-for-as-long-as") as failure:
        PROPERTY.check(trace)
    assert "p1: expected 2/2: the boost for as long as player 0 controls p2 ended" in str(
        failure.value
    )


def test_a_boost_ends_as_its_x_phases_out_with_its_host() -> None:
    """702.26g, R2017-for-as-long-as: X is an Aura on p3; p3 phases out and
    X with it, indirectly: the boost ends all the same."""
    p1 = Permanent("p1", power=2, toughness=2)
    host = Permanent("p3", power=1, toughness=1)
    x = Permanent("p4", types=("enchantment",), attachment="aura", attached_to="p3")
    boost = BoostEffect(("p1",), 0, duration=Duration("as_long_as_you_control", "p4"))
    case = Scenario(Setup(permanents=(p1, host, x), effects=(boost,)), (a.PhaseOut(0, ("p3",)),))
    trace = play(ReferenceEngine(), case)
    PROPERTY.check(trace)
    assert PROPERTY.exercised(trace)
    with pytest.raises(Violation, match="p1: expected 2/2: the boost for as long as player 0"):
        PROPERTY.check(play(mutant_engine("for-as-long-as-misses-indirect-phasing"), case))
