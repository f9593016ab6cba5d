""" "All permanents you control phase out" takes another player's permanent
its caster controls (R2017-control) and its caster's Aura or Equipment on
something that stays (R2017-auras): `phase_out_all_takes_what_its_caster_controls`
on fixed scenarios, cast as the plain spell and as Teferi's Protection; and
such an attachment phases out directly (702.26g):
`phase_out_events_say_how_it_phased_out`."""

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


@pytest.mark.parametrize("spell", sorted(SPELLS))
def test_an_attachment_on_a_permanent_that_stays_phases_out_directly(spell: str) -> None:
    """702.26g, R2017-auras: player 0's Aura p3 and Equipment p4 on player
    1's p2, which stays, phase out directly (they phase in on their own,
    attached to p2); player 0's Aura p7 on their own p6 phases out with it,
    indirectly. `phase_out_events_say_how_it_phased_out` on the spell."""
    mine = (
        Permanent("p6", **CREATURE),  # type: ignore[arg-type]
        Permanent("p7", types=("enchantment",), attachment="aura", attached_to="p6"),
    )
    setup = Setup(permanents=(*SETUP.permanents, *mine))
    events = REGISTRY["phase_out_events_say_how_it_phased_out"]
    trace = play(ReferenceEngine(), Scenario(setup, (SPELLS[spell],)))
    events.check(trace)
    assert events.exercised(trace)
    causes = {p.id: p.cause for p in trace.steps[0].after.permanents if p.phased_out}
    assert causes == {
        "p1": "direct",
        "p3": "direct",
        "p4": "direct",
        "p5": "direct",
        "p6": "direct",
        "p7": "indirect",
    }
    bugged = play(
        mutant_engine("phase-out-all-attachments-indirect"), Scenario(setup, (SPELLS[spell],))
    )
    with pytest.raises(
        Violation,
        match="p3's phased_out event: expected cause 'direct': p3 is attached to p2, which stayed",
    ):
        events.check(bugged)
