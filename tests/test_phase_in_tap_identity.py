"""A permanent with "whenever this phases in, tap it" (`phases_in_tap`)
keeps its tapped status as it phases in (702.26d), then its own trigger taps
it before the next observation: as what it waited for leaves (610.4), or in
the upkeep after an untap step in which it phased in under a player who
isn't the active one (R2017-control). The reference engine passes
`phasing_keeps_the_same_permanent` there (an outside tester's probe failed
it: the property wanted it "untapped, as before"); the property still fails
a tapped permanent shown untapped after phasing in, and one without the
trigger shown tapped."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import Step, Trace, play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup

PROP = REGISTRY["phasing_keeps_the_same_permanent"]
TAPPER = Permanent("x", power=2, toughness=2, abilities=("phases_in_tap",))
SOURCE = Permanent("s", types=("artifact",))
#: The probe: x phased out until s leaves; s is destroyed.
RELEASED = Scenario(
    Setup(permanents=(replace(TAPPER, phased_out=PhasedOut("direct", 0, until="s")), SOURCE)),
    (a.Destroy(0, "s"),),
)
#: x, with a counter, phases out until s leaves, then s is destroyed: the
#: property compares x as it came back with x as it phased out.
ROUND_TRIP = Scenario(
    Setup(permanents=(replace(TAPPER, counters=(("+1/+1", 1),)), SOURCE)),
    (a.PhaseOutUntil(0, "s", "x"), a.Destroy(0, "s")),
)
#: x, player 1's, borrowed by player 0 until end of turn and phased out
#: under them: at player 0's next untap step it phases in under player 1,
#: whose permanents that step doesn't untap.
UNDER_ITS_OWNER = Scenario(
    Setup(
        permanents=(replace(TAPPER, owner=1, controller=0, phased_out=PhasedOut("direct", 0)),),
        effects=(ControlEffect("x", 0, Duration("end_of_turn")),),
    ),
    (a.PassTurn(), a.PassTurn()),
)


@pytest.mark.parametrize(
    ("case", "controller"),
    [(RELEASED, 0), (ROUND_TRIP, 0), (UNDER_ITS_OWNER, 1)],
    ids=["released", "round_trip", "under_its_owner"],
)
def test_reference_taps_what_phased_in_with_its_trigger(case: Scenario, controller: int) -> None:
    trace = play(ReferenceEngine(), case)
    back = trace.steps[-1].after.permanent("x")
    assert back.phased_in and back.tapped and back.controller == controller
    PROP.check(trace)


def test_the_round_trip_is_exercised() -> None:
    assert PROP.exercised is not None and PROP.exercised(play(ReferenceEngine(), ROUND_TRIP))


def _shown(trace: Trace, k: int, **shown: object) -> Trace:
    """`trace` with x shown with `shown` after action k."""
    step = trace.steps[k - 1]
    views = tuple(replace(p, **shown) if p.id == "x" else p for p in step.after.permanents)
    steps = list(trace.steps)
    steps[k - 1] = Step(step.action, step.before, replace(step.after, permanents=views))
    return replace(trace, steps=tuple(steps))


def test_a_tapped_permanent_shown_untapped_as_it_phases_in_still_fails() -> None:
    tapped = replace(RELEASED.setup.permanents[0], tapped=True)
    case = replace(RELEASED, setup=replace(RELEASED.setup, permanents=(tapped, SOURCE)))
    trace = play(ReferenceEngine(), case)
    PROP.check(trace)
    with pytest.raises(Violation, match=r"702\.26d .*x phased in: expected tapped, or tapped by"):
        PROP.check(_shown(trace, 1, tapped=False))


def test_a_permanent_without_the_trigger_shown_tapped_still_fails() -> None:
    plain = replace(RELEASED.setup.permanents[0], abilities=())
    case = replace(RELEASED, setup=replace(RELEASED.setup, permanents=(plain, SOURCE)))
    trace = play(ReferenceEngine(), case)
    PROP.check(trace)
    with pytest.raises(Violation, match=r"702\.26d .*expected untapped, as before; .* tapped"):
        PROP.check(_shown(trace, 1, tapped=True))
