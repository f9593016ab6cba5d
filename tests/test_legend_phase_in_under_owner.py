"""A borrowed legendary permanent phased out under the player who borrowed
it "until end of turn" phases in at that player's next untap step, under its
owner (R2017-control: the control effect ended while it was out), beside
the owner's namesake: the legend rule applies (704.5j) and the owner keeps
one of the two (readings.md I). The reference engine passes
`legend_rule_applies_once_a_legend_phases_in` keeping either (an outside
tester's probe failed it: the property took the untap step of the player
it phased out under for one that can't phase it in). The property still
fails an engine putting it into the graveyard at another player's untap
step, while it is phased out (702.26b)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import Step, Trace, play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup

PROP = REGISTRY["legend_rule_applies_once_a_legend_phases_in"]
L1 = Permanent("l1", owner=1, controller=1, power=2, toughness=2, name="L", legendary=True)
#: l1's namesake, player 1's, borrowed by player 0 and phased out under them.
L2 = replace(L1, id="l2", controller=0, phased_out=PhasedOut("direct", 0))
BORROWED = (ControlEffect("l2", 0, Duration("end_of_turn")),)


def scenario(*permanents: Permanent, players: int = 2) -> Scenario:
    """Turns pass until player 0's next untap step, where l2 phases in."""
    setup = Setup(players=players, permanents=permanents, effects=BORROWED)
    return Scenario(setup, (a.PassTurn(),) * players)


@pytest.mark.parametrize("permanents", [(L1, L2), (L2, L1)], ids=["keeping_l1", "keeping_l2"])
def test_reference_applies_the_legend_rule_under_the_owner(permanents: tuple) -> None:
    trace = play(ReferenceEngine(), scenario(*permanents))
    last = trace.steps[-1].after
    assert {last.permanent("l1").zone, last.permanent("l2").zone} == {"battlefield", "graveyard"}
    PROP.check(trace)
    assert PROP.exercised is not None and PROP.exercised(trace)


def _gone_from(trace: Trace, k: int, pid: str) -> Trace:
    """`trace` with `pid` shown in the graveyard from the observation after
    action k on."""

    def edit(obs: object) -> object:
        gone = replace(
            next(p for p in obs.permanents if p.id == pid),  # type: ignore[attr-defined]
            zone="graveyard",
            phased_out=False,
            cause=None,
        )
        views = tuple(gone if p.id == pid else p for p in obs.permanents)  # type: ignore[attr-defined]
        return replace(obs, permanents=views)  # type: ignore[type-var]

    steps = [
        Step(s.action, edit(s.before) if i > k else s.before, edit(s.after) if i >= k else s.after)
        for i, s in enumerate(trace.steps, 1)
    ]
    return replace(trace, steps=tuple(steps))  # type: ignore[arg-type]


def test_a_phased_out_legend_gone_at_its_owners_untap_step_still_fails() -> None:
    """Three players: l2, player 2's, phased out under player 0, goes to the
    graveyard at player 2's untap step, before player 0's phases it in."""
    l1, l2 = replace(L1, owner=2, controller=2), replace(L2, owner=2)
    trace = play(ReferenceEngine(), scenario(l1, l2, players=3))
    PROP.check(trace)
    with pytest.raises(Violation, match=r"702\.26b after action 2 \(PassTurn\), l2"):
        PROP.check(_gone_from(trace, 2, "l2"))
