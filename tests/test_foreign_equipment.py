"""An Equipment's controller need not control the creature it equips
(301.5d). An engine that takes such an Equipment for attached illegally
unattaches it as a state-based action (704.5n misapplied): where neither it
nor its creature phased, `equipment_stays_when_unattached` fails it, and the
phasing properties don't (an outside engine's bug, which only they and the
comparison had caught), nor do those of phase triggers, whose life check
leaves out the player its "becomes unattached" trigger gains for. Where
either phased in the action, the observations can't tell that state-based
action from phasing taking the Equipment off (702.26j): the phasing
properties judge it, and 704.5n stays silent."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup

EQUIPMENT = {"types": ("artifact",), "attachment": "equipment"}
CREATURE = {"power": 2, "toughness": 2}
FALLS_OFF = mutant_engine("equipment-falls-off-foreign-creature")
#: The properties of phasing that judge attachments.
PHASING = (
    "attachments_phase_out_with_their_host",
    "attachments_return_with_their_host",
    "phasing_never_attaches_or_unattaches",
    "phasing_out_both_ways_is_indirect",
    "phased_out_permanents_keep_how_they_phased_out",
    "directly_phased_out_attachments_find_their_host",
)
#: The properties judging life from phase triggers: the Equipment's
#: "becomes unattached" trigger is not theirs to judge.
TRIGGERS = ("phase_triggers_trigger", "phasing_triggers_no_enter_or_leave_abilities")
TURNS = (a.PassTurn(), a.PassTurn())


def _equipment(owner: int = 0, controller: int = 0, **more: object) -> Permanent:
    return Permanent("e", owner, controller, attached_to="c", **EQUIPMENT, **more)  # type: ignore[arg-type]


def _creature(owner: int = 0, controller: int = 0, **more: object) -> Permanent:
    return Permanent("c", owner, controller, **CREATURE, **more)  # type: ignore[arg-type]


#: Player 0 controls player 1's c for as long as they control x; e, player
#: 0's Equipment, is on c. x phases out: c goes back to player 1, and e
#: stays on it (nothing of them phased).
CONTROL_ENDS = Scenario(
    Setup(
        permanents=(
            Permanent("x", types=("artifact",)),
            _creature(owner=1),
            _equipment(abilities=("unattached",)),
        ),
        effects=(ControlEffect("c", 0, Duration("as_long_as_you_control", "x")),),
    ),
    (a.PhaseOut(0, ("x",)), a.GainLife(0, 1)),
)
#: Player 1's c, equipped with player 0's e, phases out: e with it.
HOST_PHASES_OUT = Scenario(
    Setup(permanents=(_creature(controller=1), _equipment())),
    (a.PhaseOut(1, ("c",)), *TURNS),
)
#: c and e (player 1's, on player 0's c) both targeted: e phases out
#: indirectly (702.26h), and in with c.
BOTH_TARGETED = Scenario(
    Setup(permanents=(_creature(), _equipment(owner=1, controller=1))),
    (a.PhaseOut(0, ("c", "e")), *TURNS),
)
#: e alone phases out, off player 1's c, and back in on it (702.26i).
EQUIPMENT_ALONE = Scenario(
    Setup(permanents=(_creature(controller=1), _equipment())),
    (a.PhaseOut(0, ("e",)), *TURNS),
)
#: c (player 1's, controlled by player 0) and player 1's e on it are phased
#: out: they phase in together at player 0's untap step (R2017-attached).
BACK_TOGETHER = Scenario(
    Setup(
        permanents=(
            _creature(owner=1, phased_out=PhasedOut("direct", 0)),
            _equipment(controller=1, phased_out=PhasedOut("indirect", 1)),
        )
    ),
    TURNS,
)
CASES = {
    "control_ends": CONTROL_ENDS,
    "host_phases_out": HOST_PHASES_OUT,
    "both_targeted": BOTH_TARGETED,
    "equipment_alone": EQUIPMENT_ALONE,
    "back_together": BACK_TOGETHER,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_reference_keeps_it_attached(case: str) -> None:
    trace = play(ReferenceEngine(), CASES[case])
    for name in (*PHASING, "equipment_stays_when_unattached"):
        REGISTRY[name].check(trace)
    assert trace.steps[-1].after.permanent("e").attached_to == "c"
    assert not any(e.kind == "unattached" for s in trace.steps for e in s.after.events)


def test_where_nothing_of_it_phased_704_5n_fails_it_and_phasing_does_not() -> None:
    trace = play(FALLS_OFF, CONTROL_ENDS)
    assert any(e.kind == "unattached" and e.subject == "e" for e in trace.steps[0].after.events)
    for name in (*PHASING, *TRIGGERS):
        REGISTRY[name].check(trace)
    with pytest.raises(Violation) as failed:
        REGISTRY["equipment_stays_when_unattached"].check(trace)
    assert str(failed.value).startswith(
        "704.5n after action 1 (PhaseOut), equipment e: expected still attached to c: "
        "it is attached legally, whoever controls c (301.5d); the engine showed unattached"
    )


@pytest.mark.parametrize("case", ["host_phases_out", "both_targeted", "back_together"])
def test_where_it_phased_the_phasing_properties_judge_it(case: str) -> None:
    trace = play(FALLS_OFF, CASES[case])
    REGISTRY["equipment_stays_when_unattached"].check(trace)
    failed = []
    for name in PHASING:
        try:
            REGISTRY[name].check(trace)
        except Violation:
            failed.append(name)
    assert failed
