"""603.10b, 702.26a: an Aura phased out on its own phases in, in its
controller's untap step, as its host, a creature with phasing, phases out.
It phases in (and goes to the graveyard, 704.5m): its "whenever this phases
out" must not trigger. phase.rs triggers it once (D3c); so does the mutant
phasing-host-triggers-returning-attachment, which lists what goes out with
each host before anything phases. The property's plan builds the position
(`conformance.strategies.phase_triggers`)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup
from conformance.strategies.phase_triggers import returning_as_its_host_phases_out
from conformance.strategies.positions import setups

PROP = REGISTRY["phase_triggers_trigger"]
RETURNING = Scenario(
    Setup(
        active=1,
        permanents=(
            Permanent("h", power=1, toughness=1, phasing=1),
            Permanent(
                "x",
                types=("enchantment",),
                attachment="aura",
                attached_to="h",
                phased_out=PhasedOut("direct", under=0),
                abilities=("phases_out",),
            ),
        ),
    ),
    (a.PassTurn(),),
)


def test_the_reference_passes_and_the_phantom_trigger_fails() -> None:
    PROP.check(play(ReferenceEngine(), RETURNING))
    trace = play(mutant_engine("phasing-host-triggers-returning-attachment"), RETURNING)
    try:
        PROP.check(trace)
    except Violation as v:
        assert (v.rule, v.where) == ("603.10b", "after action 1 (PassTurn), player 0")
        assert "x phases_out" in v.observed
    else:
        raise AssertionError("the phantom 'phases out' trigger passed")


@settings(
    max_examples=50,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.data())
def test_the_plan_reaches_the_hosts_untap_step(data: st.DataObject) -> None:
    """Where the plan applies, the host phases out and the attachment phases
    in in the last of its PassTurns."""
    drawn = data.draw(setups(ReferenceEngine().capabilities, min_permanents=1, max_permanents=3))
    setup, actions = returning_as_its_host_phases_out(data.draw, drawn)
    if not actions:
        return
    trace = play(ReferenceEngine(), Scenario(setup, tuple(actions)))
    shown = {(e.kind, e.subject) for e in trace.steps[-1].after.events}
    before = {p.id: p.phased_out for p in drawn.permanents}
    [x] = [p for p in setup.permanents if p.phased_out and before.get(p.id) is None]
    assert {("phased_in", x.id), ("phased_out", x.attached_to)} <= shown
