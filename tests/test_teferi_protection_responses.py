"""R2017-targets, R2017-protection-targets, 702.26g: a spell targets an
Aura its caster controls on another player's creature, and that player,
who casts Teferi's Protection in response: the creature phases out and the
Aura with it, indirectly, so every target is illegal and the spell does
nothing (no card drawn). With a legal target beside them, the spell does
what it can, and the phased-out Aura stays untapped. The reference engine
passes and exercises both properties about it; an engine rechecking only
the protected player and what they control (the mutant
response-rechecks-the-protected-players-own, an outside engine's bug) fails
both."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

PROPERTIES = (
    "spell_whose_target_phased_out_does_what_it_can",
    "spell_targeting_a_player_who_gains_protection_does_what_it_can",
)


def response(*targets: str | int) -> Scenario:
    """y is player 1's creature, au player 0's Aura on it, z player 0's
    creature; player 0 targets `targets`, player 1 answers with Teferi's
    Protection."""
    return Scenario(
        Setup(
            permanents=(
                Permanent("y", 1, 1, power=2, toughness=2),
                Permanent("au", 0, 0, ("enchantment",), attachment="aura", attached_to="y"),
                Permanent("z", 0, 0, power=1, toughness=1),
            )
        ),
        (a.TapAndDamage(0, targets, 2, protected_in_response=1),),
    )


@pytest.mark.parametrize("prop", PROPERTIES)
def test_every_target_illegal_nothing_happens(prop: str) -> None:
    case = response("au", 1)
    checked = REGISTRY[prop]
    reference = play(ReferenceEngine(), case)
    checked.check(reference)
    after = reference.steps[0].after
    assert after.permanent("au").phased_out and not after.permanent("au").tapped
    with pytest.raises(Violation, match=r"after action 1 \(TapAndDamage\), targets au, 1"):
        checked.check(play(mutant_engine("response-rechecks-the-protected-players-own"), case))


@pytest.mark.parametrize("prop", PROPERTIES)
def test_with_a_legal_target_the_phased_out_aura_stays_untapped(prop: str) -> None:
    case = response("au", 1, "z")
    checked = REGISTRY[prop]
    reference = play(ReferenceEngine(), case)
    checked.check(reference)
    assert checked.exercised is not None and checked.exercised(reference)
    with pytest.raises(Violation, match="au not tapped: an illegal target"):
        checked.check(play(mutant_engine("response-rechecks-the-protected-players-own"), case))
