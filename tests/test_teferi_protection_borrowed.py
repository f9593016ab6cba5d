"""R2017-nothing-else: protection from everything is the player's. A
creature player 1 owns but player 0 controls stays phased in as player 1
casts Teferi's Protection (it takes what they control), and a spell can
still target it. The reference engine passes and exercises the property;
an engine looking protection up by a permanent's owner (the mutant
protection-covers-owned-permanents, an outside engine's bug) refuses the
spell and fails it; an engine refusing everything exercises nothing."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

PROP = REGISTRY["protected_players_permanents_others_control_can_be_targeted"]
MINE = Permanent("x", 1, 1, power=1, toughness=1)
BORROWED = Permanent("y", 1, 0, power=2, toughness=2)


@pytest.mark.parametrize(
    "spell",
    [a.Destroy(0, "y"), a.TapAndDamage(0, ("y",), 2), a.Destroy(1, "y")],
    ids=["destroy", "tap", "its-owner-destroys"],
)
def test_a_permanent_the_protected_player_owns_others_control_can_be_targeted(
    spell: a.Action,
) -> None:
    case = Scenario(Setup(permanents=(MINE, BORROWED)), (a.TeferisProtection(1), spell))
    reference = play(ReferenceEngine(), case)
    PROP.check(reference)
    assert PROP.exercised is not None and PROP.exercised(reference)
    assert reference.steps[0].after.permanent("y").phased_in
    with pytest.raises(
        Violation, match=r"R2017-nothing-else after action 2 .*y \(owned by player 1"
    ):
        PROP.check(play(mutant_engine("protection-covers-owned-permanents"), case))


def test_its_own_permanents_are_not_judged() -> None:
    """x, which player 1 controls, phased out: a Destroy of it is refused
    rightly (702.26b), and nothing here is about it."""
    case = Scenario(Setup(permanents=(MINE, BORROWED)), (a.TeferisProtection(1), a.Destroy(0, "x")))
    reference = play(ReferenceEngine(), case)
    assert reference.steps[-1].after.refused is not None
    PROP.check(reference)
    assert PROP.exercised is not None and not PROP.exercised(reference)
