"""The reference engine on what phased out "until" a permanent leaves
(610.4): it phases in right after the event that moved its source, with
every effect that event ended already ended, so its phase-in triggers are
its controller's then (603.3a); and a permanent destroyed with the source
in one event has left too, whichever order the engine lists them in."""

from __future__ import annotations

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import TRIGGER_LIFE, ControlEffect, Duration, Permanent, PhasedOut, Setup

GAIN = TRIGGER_LIFE["phases_in"]


def test_control_by_a_leaver_ends_before_what_waited_for_their_permanent_phases_in() -> None:
    """800.4a: player 0 leaves with p1, and the effect giving them p2 ends
    in the same event; p2 phases in after it, under its owner, who gets its
    trigger."""
    setup = Setup(
        players=3,
        active=2,
        permanents=(
            Permanent("p1", owner=0, controller=0, types=("artifact",)),
            Permanent(
                "p2",
                owner=1,
                controller=0,
                types=("land",),
                phased_out=PhasedOut("direct", 0, until="p1"),
                abilities=("phases_in",),
            ),
        ),
    )
    trace = play(ReferenceEngine(), Scenario(setup, (a.Concede(0), a.PassTurn())))
    left, passed = trace.steps[0].after, trace.steps[1].after
    assert left.permanent("p2").phased_in and left.permanent("p2").controller == 1
    assert passed.player(1).life == 20 + GAIN


@pytest.mark.parametrize("source_first", [True, False], ids=["source-first", "x-first"])
def test_what_one_destruction_ends_has_ended_before_the_phase_in(source_first: bool) -> None:
    """611.2b: "for as long as player 0 controls p1" ends as p1 is destroyed
    with p3, the permanent p2 waits for; p2 phases in under its owner."""
    x = Permanent("p1", power=1, toughness=1)
    source = Permanent("p3", power=1, toughness=1)
    stolen = Permanent(
        "p2",
        owner=1,
        controller=0,
        types=("land",),
        phased_out=PhasedOut("direct", 0, until="p3"),
        abilities=("phases_in",),
    )
    setup = Setup(
        players=2,
        permanents=(source, x, stolen) if source_first else (x, source, stolen),
        effects=(ControlEffect("p2", 0, Duration("as_long_as_you_control", "p1")),),
    )
    after = play(ReferenceEngine(), Scenario(setup, (a.DestroyAll(0),))).steps[0].after
    assert after.permanent("p2").phased_in and after.permanent("p2").controller == 1
    assert after.player(1).life == 20 + GAIN
    assert after.player(0).life == 20
