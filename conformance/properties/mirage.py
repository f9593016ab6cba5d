"""Where the Mirage-era rules (502.15, ../shared/seeds/001_…) differ from
today's on damage and legends: damage is removed from a permanent as it
phases out (502.15e; today it stays marked until cleanup, 514.2, which says
"including phased-out permanents"), and two legends with one name phasing in
together both go to the graveyard (502.15k; today their controller keeps
one, 704.5j). These properties cite only Mirage rule IDs, so they run only
in that edition (`conformance.editions.rules_in`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.damage import (
    OUT_AND_IN_NEEDS,
    damaged_out_and_in_scenarios,
    damaged_out_then_in,
)
from conformance.properties.history import (
    ceased_while_phased_out,
    until_waiting,
    view,
    was_out_came_in,
)
from conformance.properties.leads import turns_to_untap
from conformance.properties.legends import namesake
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import ControlEffect, Setup
from conformance.strategies._draw import Caps, pick
from conformance.strategies.plans import Planned, planned_scenarios

#: Abilities and effects that would only add noise to the legends' positions.
_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP, C.LEAVE_GAME, C.ANTHEM, C.PT_BOOST}


def _damaged_out_then_in_clean(trace: Trace) -> bool:
    """502.15e: a creature the engine showed with damage marked phased out,
    then phased in again in the same turn (before cleanup could remove the
    damage, 514.2) showing none."""
    return any(shown == 0 for _, _, _, shown in damaged_out_then_in(trace))


@rule_property(
    "502.15e",
    needs=OUT_AND_IN_NEEDS,
    scenarios=damaged_out_and_in_scenarios,
    exercised=_damaged_out_then_in_clean,
)
def phasing_out_removes_damage(trace: Trace) -> None:
    """When a permanent phases out, all damage on it is removed (Mirage
    502.15e): whenever one phases in, it shows no damage. (Nothing can deal
    it damage while it is phased out, 217.8a, nor, in this vocabulary, in
    the rest of the action that phases it in.) Today it would show the
    damage it phased out with until cleanup (514.2)."""
    for step in trace.steps:
        for c in step.after.permanents:
            if was_out_came_in(step, c.id):
                expect(
                    c.damage == 0,
                    "502.15e",
                    f"{where(trace, step)}, {c.id}",
                    "no damage marked: it was removed as it phased out",
                    f"{c.damage} damage marked as it phased in",
                )


def _legend_names(trace: Trace) -> dict[str, str]:
    """The setup's legendary permanents, with their names."""
    return {p.id: p.card_name for p in trace.scenario.setup.permanents if p.legendary}


def _together(trace: Trace) -> Iterator[tuple[Step, str, str]]:
    """Each PassTurn carried out in which legends L and M with one name,
    both phased out directly before (not "until" something, 610.4), were
    no longer phased out after and had not ceased to exist (217.8d): the
    untap step phased them in together (502.15b: one event, simultaneous)."""
    names = _legend_names(trace)
    waiting = until_waiting(trace.scenario)
    pairs = [(x, y) for x in names for y in names if x < y and names[x] == names[y]]
    for step in trace.steps:
        if not isinstance(step.action, a.PassTurn) or step.after.refused is not None:
            continue
        for pair in pairs:
            if all(_phased_in_here(step, pid) and pid not in waiting for pid in pair):
                yield step, *pair


def _phased_in_here(step: Step, pid: str) -> bool:
    """`pid` was phased out directly before `step` and is not after it, nor
    ceased to exist while phased out."""
    b, c = view(step.before, pid), view(step.after, pid)
    return (
        b is not None
        and c is not None
        and b.on_battlefield
        and b.phased_out
        and b.cause == "direct"
        and not c.phased_out
        and not ceased_while_phased_out(step, pid)
    )


def _gone(step: Step, pid: str) -> bool:
    """In the graveyard after `step` ("none" for a token, which ceases to
    exist there, 704.5d)."""
    return step.after.permanent(pid).zone in ("graveyard", "none")


def _legends_phased_in_together_and_went(trace: Trace) -> bool:
    """502.15k: two legendary permanents with one name phased in together
    at an untap step (the engine reported both phasing in) and after that
    action both were in the graveyard."""
    return any(
        all(step.after.events_of("phased_in", pid) and _gone(step, pid) for pid in pair)
        for step, *pair in _together(trace)
    )


def _namesakes_phased_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """Two copies of a legendary card (not tokens: a phased-out token ceases
    to exist, 217.8d), with nothing attached, phased out directly under one
    player; turns pass until that player's untap step phases both in."""
    hosts = {p.attached_to for p in setup.permanents}
    free = [p for p in setup.permanents if p.attached_to is None and p.id not in hosts]
    if len(free) < 2:
        return setup, ()
    first = free[0]
    second = pick(draw, free[1:])
    player = first.controller
    copies = {
        p.id: namesake(p, first, player, token=False, phasing=first.phasing)
        for p in (first, second)
    }
    # Their control effects go: each is its owner's, as it phased out.
    effects = tuple(
        e
        for e in setup.effects
        if not (isinstance(e, ControlEffect) and {e.target, e.duration.of} & set(copies))
    )
    setup = replace(
        setup,
        permanents=tuple(copies.get(p.id, p) for p in setup.permanents),
        effects=effects,
    )
    return setup, turns_to_untap(setup, player)


@rule_property(
    "502.15k",
    needs={C.LEGEND_RULE},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _namesakes_phased_out,
        kinds=(a.PassTurn, a.PhaseOut),
        max_actions=3,
        min_permanents=2,
        permanent_kinds=("creature", "artifact", "land"),
    ),
    exercised=_legends_phased_in_together_and_went,
    reads={"events"},
)
def legends_phasing_in_together_all_go(trace: Trace) -> None:
    """If two legends with the same name phase in together, both are put
    into their owners' graveyards (Mirage 502.15k): the active player
    chooses the timestamps of what phases in together, but they still phase
    in simultaneously, so neither is the older. Today their controller
    would keep one (704.5j)."""
    for step, first, second in _together(trace):
        shown = [step.after.permanent(first), step.after.permanent(second)]
        expect(
            all(_gone(step, pid) for pid in (first, second)),
            "502.15k",
            f"{where(trace, step)}, {first} and {second}",
            "both put into their owners' graveyards",
            "; ".join(f"{v.id} {v.zone}{' phased in' if v.phased_in else ''}" for v in shown),
        )
