"""What a resolving spell's effects apply to (702.26e): a team pump leaves
out what was phased out as it resolved, even once that permanent phases in
the same turn."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import view, was_in_went_out, was_out_came_in
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.scenario import Scenario
from conformance.strategies import scenarios
from conformance.strategies._draw import composite, pick


@composite
def _pump_while_phased_out(draw: st.DrawFn, caps: Collection[C]) -> Scenario:
    """p2 phases out until p1 leaves the battlefield; p2's controller pumps
    their team; then p1 leaves (destroyed, swept by "destroy all creatures",
    or gone with its owner, 800.4a), so p2 phases in the same turn (610.4).
    A plain phase-out can't show 702.26e: p2 would phase in at an untap
    step, after cleanup ended the "until end of turn" pump (514.2)."""
    base = draw(
        scenarios(
            set(caps) - {C.ANTHEM, C.CONTROL_CHANGE, C.COUNTERS},
            kinds=(a.PumpTeam, a.PhaseOut),
            max_actions=2,
            min_permanents=2,
            max_permanents=4,
            permanent_kinds=("creature",),
            ready=True,
        )
    )
    source, target = base.setup.permanents[:2]
    leaves: list[a.Action] = [a.DestroyAll(target.owner)]
    if C.TARGETING in caps:
        leaves.insert(0, a.Destroy(source.controller, source.id))
    concedes = source.owner not in (base.setup.active, target.owner)
    if concedes and base.setup.players > 2 and C.LEAVE_GAME in caps:
        leaves.append(a.Concede(source.owner))
    return Scenario(
        base.setup,
        (
            a.PhaseOutUntil(source.controller, source.id, target.id),
            *base.actions,
            a.PumpTeam(target.controller),
            pick(draw, leaves),
        ),
    )


def _powers_before_phasing_out(trace: Trace) -> list[dict[str, int]]:
    """For each step, after it: the power each phased-out creature had as
    the engine last showed it phased in, before it phased out."""
    powers: dict[str, int] = {}
    found = []
    for step in trace.steps:
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is not None and b.power is not None and was_in_went_out(step, c.id):
                powers[c.id] = b.power
        found.append(dict(powers))
    return found


def _pump_left_out_one_that_came_back(trace: Trace) -> bool:
    """702.26e: a team pump raised the power of a phased-in creature of its
    caster while another of theirs was phased out, and that one phased in
    later the same turn with the power it had before it phased out."""
    powers = _powers_before_phasing_out(trace)
    for i, step in enumerate(trace.steps):
        x = step.action
        if not isinstance(x, a.PumpTeam) or step.after.refused is not None:
            continue
        raised = any(
            (b := view(step.before, c.id)) is not None
            and b.power is not None
            and c.power == b.power + 1
            and c.controller == x.player
            for c in step.after.permanents
        )
        out = [p.id for p in step.before.permanents if p.on_battlefield and p.phased_out]
        for j, later in enumerate(trace.steps[i + 1 :], i + 1):
            if isinstance(later.action, a.PassTurn):
                break
            for pid in out:
                c = view(later.after, pid)
                if not raised or c is None or not was_out_came_in(later, pid):
                    continue
                if c.controller == x.player and c.power == powers[j - 1].get(pid):
                    return True
    return False


@rule_property(
    "702.26e",
    needs={C.PT_BOOST, C.PHASE_OUT_UNTIL, C.DESTROY},
    scenarios=_pump_while_phased_out,
    exercised=_pump_left_out_one_that_came_back,
)
def resolving_effects_skip_phased_out_creatures(trace: Trace) -> None:
    """ "Creatures you control get +1/+1 until end of turn" doesn't include a
    creature that was phased out as it resolved, even after it phases in the
    same turn: its power is no more than it was before it phased out (the
    same today, 702.26f; less in the Mirage edition if it had a boost, which
    phasing out ended, 502.15g: `conformance.properties.limited`)."""
    before_out: dict[str, int] = {}
    for step in trace.steps:
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None:
                continue
            if b.phased_in and c.phased_out and b.power is not None:
                before_out[c.id] = b.power
            if b.phased_out and c.phased_in and c.id in before_out and c.power is not None:
                expect(
                    c.power <= before_out[c.id],
                    "702.26e",
                    f"{where(trace, step)}, {c.id}",
                    f"power at most {before_out[c.id]}, as before it phased out",
                    f"power {c.power}",
                )
