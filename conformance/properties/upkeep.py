"""Abilities that trigger in the untap step (502.4, 603.3): no player gets
priority in the untap step, so "whenever this phases in" triggers from the
untap step's phasing go on the stack when a player first would receive
priority, in the upkeep, after everything has untapped (502.3). "Whenever
this phases in, tap it" therefore leaves the permanent tapped for the turn."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import abilities, carried_out, view, was_out_came_in
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import ControlEffect, PhasedOut, Setup
from conformance.strategies._draw import Caps, maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import with_changed

_QUIET = {C.SKIP_UNTAP, C.LEAVE_GAME, C.PHASE_OUT_UNTIL}


def _tapping_phase_ins(trace: Trace) -> Iterator[tuple[Step, str]]:
    """Each permanent with "whenever this phases in, tap it" that phased in
    during a carried-out `PassTurn` and is still phased in after it."""
    for step, _ in carried_out(trace, a.PassTurn):
        for c in step.after.permanents:
            if "phases_in_tap" in abilities(trace.scenario, c.id) and was_out_came_in(step, c.id):
                yield step, c.id


def _untapped_by_the_step_then_tapped(trace: Trace) -> bool:
    """502.4: a permanent of the new active player, untapped as it phased
    out, phased in at their untap step (which untaps their permanents) and
    was tapped once the turn reached its main phase: its trigger resolved
    after the untapping."""
    for step, pid in _tapping_phase_ins(trace):
        b, c = view(step.before, pid), view(step.after, pid)
        if b and c and not b.tapped and c.tapped and c.controller == step.after.active:
            return True
    return False


def _phased_out_tapper(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """A permanent with "whenever this phases in, tap it", untapped, phased
    out under its controller; turns pass until their untap step."""
    free = [
        p
        for p in setup.permanents
        if p.attached_to is None and not any(q.attached_to == p.id for q in setup.permanents)
    ]
    if not free:
        return setup, ()
    x = pick(draw, free)
    player = x.controller
    tapper = replace(
        x,
        owner=player,
        controller=player,
        default_controller=None,
        tapped=False,
        phased_out=PhasedOut("direct", player),
        abilities=("phases_in_tap", "phases_in") if maybe(draw) else ("phases_in_tap",),
    )
    effects = tuple(
        e
        for e in setup.effects
        if not (isinstance(e, ControlEffect) and x.id in (e.target, e.duration.of))
    )
    setup = replace(with_changed(setup, tapper), effects=effects)
    return setup, (a.PassTurn(),) * setup.turns_until(player)


@rule_property(
    "502.4",
    needs={C.UPKEEP_TRIGGERS},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _phased_out_tapper,
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll),
        max_actions=3,
        min_permanents=1,
        permanent_kinds=("creature", "artifact", "land"),
    ),
    exercised=_untapped_by_the_step_then_tapped,
)
def untap_step_triggers_resolve_in_the_upkeep(trace: Trace) -> None:
    """502.4: no player receives priority in the untap step, so an ability
    triggered there by a permanent phasing in waits (603.3) until a player
    would receive priority, in the upkeep, after the untap (502.3): a
    permanent whose "whenever this phases in, tap it" triggered in the
    untap step is tapped in the main phase."""
    for step, pid in _tapping_phase_ins(trace):
        c = step.after.permanent(pid)
        expect(
            c.tapped,
            "502.4",
            f"{where(trace, step)}, {pid}",
            "tapped by its trigger, which resolves in the upkeep, after the untap",
            "untapped",
        )
