"""610.4, 800.4a: x (player 0's) is phased out until s leaves the
battlefield; s is player 0's, controlled by player 2, who concedes. By a
control effect of player 2's, s goes back to player 0 and stays: x stays
out, at player 0's untap step too. Having entered under player 2, s is
exiled: it left the battlefield, and x phases in at once. The reference
passes `phased_out_until_waits_for_its_source` in both; the mutants with
an outside engine's bug in each (leaver-releases-what-they-controlled,
exile-of-leavers-permanent-releases-nothing) fail it."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Effect, Permanent, PhasedOut, Setup

PROP = REGISTRY["phased_out_until_waits_for_its_source"]
X = Permanent("x", power=2, toughness=2, phased_out=PhasedOut("direct", 0, "s"))


def conceded(s: Permanent, *effects: Effect, turns: int = 0) -> Scenario:
    """Player 2 concedes on player 0's turn of a 3-player game; `turns`
    turns pass."""
    setup = Setup(players=3, permanents=(s, X), effects=effects)
    return Scenario(setup, (a.Concede(2), *(a.PassTurn(),) * turns))


LENT = Permanent("s", 0, 2, ("artifact",))


@pytest.mark.parametrize(
    "case",
    [
        conceded(LENT),
        conceded(LENT, ControlEffect("s", 2, Duration("end_of_turn")), turns=2),
    ],
    ids=["implicit-effect", "until-end-of-turn-then-player-0s-untap-step"],
)
def test_a_source_back_to_its_owner_is_still_there(case: Scenario) -> None:
    trace = play(ReferenceEngine(), case)
    s, x = trace.steps[-1].after.permanent("s"), trace.steps[-1].after.permanent("x")
    assert s.on_battlefield and s.controller == 0 and x.phased_out
    PROP.check(trace)
    with pytest.raises(Violation, match=r"610\.4 after action 1 .*x .*stays out: s is there"):
        PROP.check(play(mutant_engine("leaver-releases-what-they-controlled"), case))


@pytest.mark.parametrize("token", [False, True], ids=["card", "token"])
def test_a_source_that_entered_under_the_leaver_is_exiled_and_has_left(token: bool) -> None:
    case = conceded(Permanent("s", 0, 2, ("artifact",), token=token, default_controller=2))
    trace = play(ReferenceEngine(), case)
    assert trace.steps[0].after.permanent("x").phased_in
    PROP.check(trace)
    assert PROP.exercised is not None and PROP.exercised(trace)
    with pytest.raises(Violation, match=r"610\.4 after action 1 .*x .*phases in as s leaves"):
        PROP.check(play(mutant_engine("exile-of-leavers-permanent-releases-nothing"), case))
