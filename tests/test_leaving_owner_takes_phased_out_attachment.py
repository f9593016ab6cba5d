"""An Aura phased out indirectly on a phased-out host leaves the game with a
player who owns it (800.4a, 702.26k) while its host stays phased out: the
reference engine passes `attachments_phase_out_with_their_host` there (an
outside tester's probe failed it: the property wanted the Aura still out
with its host). The same for one whose default controller left controlling
it (800.4a exiles it; open while it is phased out, docs/readings.md F). The
property still fails an Aura shown phased in without its host."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import Trace, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup

PROP = REGISTRY["attachments_phase_out_with_their_host"]
HOST = Permanent("y", power=2, toughness=2, phased_out=PhasedOut("direct", 0))
AURA = Permanent(
    "au",
    types=("enchantment",),
    attachment="aura",
    attached_to="y",
    owner=2,
    phased_out=PhasedOut("indirect", 0),
)
LEAVES = (a.Concede(2), a.PassTurn(), a.PassTurn(), a.PassTurn())


def scenario(aura: Permanent) -> Scenario:
    return Scenario(Setup(players=3, permanents=(HOST, aura)), LEAVES)


@pytest.mark.parametrize(
    "aura",
    [AURA, replace(AURA, owner=0, controller=2, default_controller=2)],
    ids=["owned_by_the_leaver", "controlled_by_default_by_the_leaver"],
)
def test_reference_lets_the_aura_leave_with_the_player(aura: Permanent) -> None:
    trace = play(ReferenceEngine(), scenario(aura))
    assert trace.steps[0].after.permanent("au").zone in ("none", "exile")
    assert trace.steps[0].after.permanent("y").phased_out
    PROP.check(trace)


def _shown_phased_in(trace: Trace) -> Trace:
    """`trace` with the Aura shown phased in, still on its host, after the
    Concede: it phased in on its own (702.26g)."""
    first = trace.steps[0]
    aura = replace(first.after.permanent("au"), zone="battlefield", phased_out=False, cause=None)
    shown = tuple(aura if p.id == "au" else p for p in first.after.permanents)
    after = replace(first.after, permanents=shown)
    return replace(trace, steps=(replace(first, after=after), *trace.steps[1:]))


def test_an_aura_of_the_leaver_shown_phased_in_still_fails() -> None:
    trace = _shown_phased_in(play(ReferenceEngine(), scenario(AURA)))
    with pytest.raises(Violation, match=r"702\.26g.*or gone with player 2, who left"):
        PROP.check(trace)
