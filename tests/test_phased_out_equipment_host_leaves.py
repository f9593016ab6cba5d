"""An Equipment phased out on its own whose phased-in creature is destroyed:
nothing happens to the Equipment while it is out (702.26b: it is treated as
though it doesn't exist, its abilities don't trigger); at its controller's
next untap step it phases in unattached, the creature having left (702.26i),
and that phasing triggers no "becomes unattached" (702.26j). An engine that
unattaches it as its host leaves, firing the trigger (an outside engine's
bug, which only the comparison had caught), fails
`phasing_never_attaches_or_unattaches`."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.mutants.attachments import HostLeavingUnattachesPhasedOutEquipment
from adapters.reference import ReferenceEngine
from adapters.reference.state import Card
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup

EQUIPMENT = {"types": ("artifact",), "attachment": "equipment"}
#: Player 0's creature c, and their Equipment e on it, phased out on its
#: own; e's "whenever this becomes unattached" shows the trigger in life.
#: Then c is destroyed, and the turn passes round to player 0's untap step.
#: Creature d phasing out with Equipment f ("becomes attached") and d's
#: "whenever this phases out" show the property what it judges.
HOST_DESTROYED = Scenario(
    Setup(
        permanents=(
            Permanent("c", power=2, toughness=2),
            Permanent(
                "e",
                attached_to="c",
                phased_out=PhasedOut("direct", 0),
                abilities=("attached", "unattached"),
                **EQUIPMENT,  # type: ignore[arg-type]
            ),
            Permanent("d", power=1, toughness=1, abilities=("phases_out",)),
            Permanent("f", attached_to="d", abilities=("attached",), **EQUIPMENT),  # type: ignore[arg-type]
        )
    ),
    (a.PhaseOut(0, ("d",)), a.Destroy(0, "c"), a.PassTurn(), a.PassTurn()),
)
PROPERTY = REGISTRY["phasing_never_attaches_or_unattaches"]


def test_the_reference_leaves_it_alone_until_it_phases_in_unattached() -> None:
    trace = play(ReferenceEngine(), HOST_DESTROYED)
    PROPERTY.check(trace)
    assert PROPERTY.exercised is not None and PROPERTY.exercised(trace)
    phased, destroyed, _, untapped = (s.after for s in trace.steps)
    assert destroyed.permanent("e").phased_out and not destroyed.events_of("unattached")
    assert destroyed.players[0].life == phased.players[0].life
    assert untapped.permanent("e").phased_in and untapped.permanent("e").attached_to is None
    assert not untapped.events_of("unattached") and not untapped.events_of("trigger", "e")


def test_unattaching_it_as_its_host_leaves_fails() -> None:
    bugged = play(mutant_engine("host-leaving-unattaches-phased-out-equipment"), HOST_DESTROYED)
    phased, destroyed = (s.after for s in bugged.steps[:2])
    assert destroyed.players[0].life == phased.players[0].life + 32
    with pytest.raises(
        Violation, match=r"702.26j after action 2 \(Destroy\), e \(phased out on its own\)"
    ):
        PROPERTY.check(bugged)


def test_an_equipment_back_with_its_host_that_is_then_destroyed_may_trigger() -> None:
    """704.5n, not 702.26j: e phases out and in with its creature c, whose
    "phases out until s leaves" ends as s is destroyed; the spell destroying
    c then resolves (DestroyThroughPhasing), and e, phased in, becomes
    unattached as a state-based action, which triggers."""
    case = Scenario(
        Setup(
            permanents=(
                Permanent("c", power=2, toughness=2),
                Permanent("e", attached_to="c", abilities=("unattached",), **EQUIPMENT),  # type: ignore[arg-type]
                Permanent("s", types=("artifact",)),
            )
        ),
        (a.DestroyThroughPhasing(0, "c", "s"),),
    )
    trace = play(ReferenceEngine(), case)
    assert trace.steps[0].after.events_of("trigger", "e")
    PROPERTY.check(trace)


class _UnattachedAsItsHostLeaves(HostLeavingUnattachesPhasedOutEquipment):
    """Records the phased-out Equipment as unattached when its host leaves,
    without the trigger: how an engine forgets a phased-out permanent's host
    is bookkeeping no rule fixes (702.26i says only how it phases in)."""

    def leave_battlefield(self, card: Card, zone: str, release: bool = True) -> None:
        triggers = list(self.state.triggers)
        super().leave_battlefield(card, zone, release)
        self.state.triggers[:] = triggers


def test_recording_it_unattached_as_its_host_leaves_without_a_trigger_passes() -> None:
    engine = ReferenceEngine(name="unattaches-quietly", rules=_UnattachedAsItsHostLeaves)
    trace = play(engine, HOST_DESTROYED)
    assert trace.steps[1].after.events_of("unattached")
    PROPERTY.check(trace)
