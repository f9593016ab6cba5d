""" "All permanents you control phase out" takes another player's permanent
its caster controls (R2017-control) and its caster's Aura or Equipment on
something that stays (R2017-auras): `phase_out_all_takes_what_its_caster_controls`
on fixed scenarios, cast as the plain spell and as Teferi's Protection."""

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
from conformance.setup import Permanent, Setup

PROPERTY = REGISTRY["phase_out_all_takes_what_its_caster_controls"]
CREATURE = {"power": 1, "toughness": 1}

#: Player 0 controls player 1's p1; player 0's Aura p3 is on player 1's p2;
#: player 0's Equipment p4 on p2 too; player 0's Aura p5 on player 1.
SETUP = Setup(
    permanents=(
        Permanent("p1", owner=1, controller=0, **CREATURE),  # type: ignore[arg-type]
        Permanent("p2", owner=1, controller=1, **CREATURE),  # type: ignore[arg-type]
        Permanent("p3", types=("enchantment",), attachment="aura", attached_to="p2"),
        Permanent("p4", types=("artifact",), attachment="equipment", attached_to="p2"),
        Permanent("p5", types=("enchantment",), attachment="aura", attached_to=1),
    )
)
SPELLS = {"phase out all": a.PhaseOutAll(0), "Teferi's Protection": a.TeferisProtection(0)}


@pytest.mark.parametrize("spell", sorted(SPELLS))
def test_the_reference_exercises_it_and_passes(spell: str) -> None:
    turns = (a.PassTurn(), a.PassTurn())  # to player 0's untap step: all back
    trace = play(ReferenceEngine(), Scenario(SETUP, (SPELLS[spell], *turns)))
    PROPERTY.check(trace)
    assert PROPERTY.exercised(trace)
    after = trace.steps[0].after
    assert [p.id for p in after.permanents if p.phased_out] == ["p1", "p3", "p4", "p5"]


def test_an_engine_that_never_phases_does_not_exercise_it() -> None:
    engine = ReferenceEngine(name="no-phasing", rules=NoPhasingRefused)
    for spell in SPELLS.values():
        assert not PROPERTY.exercised(play(engine, Scenario(SETUP, (spell,))))


@pytest.mark.parametrize(
    ("mutant", "message"),
    [
        ("phase-out-all-by-owner", "R2017-control after action 1 (PhaseOutAll), p1 (owned by"),
        ("phase-out-all-only-unattached", "R2017-auras after action 1 (PhaseOutAll), p3 (attached"),
    ],
)
def test_an_engine_taking_the_wrong_permanents_fails_it(mutant: str, message: str) -> None:
    trace = play(mutant_engine(mutant), Scenario(SETUP, (a.PhaseOutAll(0),)))
    with pytest.raises(Violation, match="still phased in") as failure:
        PROPERTY.check(trace)
    assert message in str(failure.value)
