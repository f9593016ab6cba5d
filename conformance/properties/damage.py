"""Damage and mana of permanents that phase: damage marked on a creature
that phases out is removed at cleanup like any other (514.2), and a
phased-out land can't be tapped for mana (702.26b)."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import carried_out, view, was_in_went_out
from conformance.properties.leads import led, turns_to_untap
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.setup import Setup
from conformance.strategies._draw import pick

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP, C.LEAVE_GAME, C.ANTHEM, C.PT_BOOST}


def _damaged_out_then_back_clean(trace: Trace) -> bool:
    """514.2: a creature the engine showed with damage marked phased out,
    and after a later turn passed it showed it phased in with no damage."""
    damaged: set[str] = {p.id for p in trace.initial.permanents if p.damage > 0}
    out: set[str] = set()
    for step in trace.steps:
        out |= {pid for pid in damaged if was_in_went_out(step, pid)}
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            for pid in out:
                c = view(step.after, pid)
                if c is not None and c.phased_in and c.damage == 0:
                    return True
        damaged |= {p.id for p in step.after.permanents if p.phased_in and p.damage > 0}
    return False


def _damage_then_phase_out(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """A creature is dealt damage short of lethal (toughness 2 or more) and
    phases out; turns pass until its controller's untap step phases it in."""
    tough = [
        p
        for p in setup.permanents
        if p.is_creature and p.phased_out is None and (p.toughness or 0) >= 2
    ]
    if not tough:
        return ()
    x = pick(draw, tough)
    amount = (x.toughness or 2) - 1
    return (
        a.DealDamage(pick(draw, range(setup.players)), x.id, amount),
        a.PhaseOut(x.controller, (x.id,)),
        *turns_to_untap(setup, x.controller),
    )


@rule_property(
    "514.2",
    needs={C.DAMAGE_MARKED, C.TARGETING},
    scenarios=lambda caps: led(
        set(caps) - _QUIET,
        _damage_then_phase_out,
        kinds=(a.DealDamage, a.PhaseOut, a.PassTurn),
        max_actions=3,
        min_permanents=1,
        permanent_kinds=("creature",),
        ready=True,
    ),
    exercised=_damaged_out_then_back_clean,
)
def damage_is_removed_from_phased_out_creatures_at_cleanup(trace: Trace) -> None:
    """514.2: at cleanup all damage marked on permanents is removed,
    phased-out permanents included; so once a turn has passed no phased-in
    creature shows damage, whether or not it was phased out at the time."""
    for step, _ in carried_out(trace, a.PassTurn):
        for c in step.after.permanents:
            expect(
                not c.phased_in or c.damage == 0,
                "514.2",
                f"{where(trace, step)}, {c.id}",
                "no damage marked after cleanup",
                f"{c.damage} damage marked",
            )


def _refused_a_phased_out_land_and_tapped_one(trace: Trace) -> bool:
    """702.26b: tapping a phased-out land for mana was refused, and tapping
    a phased-in untapped land for mana in the same trace was carried out (it
    became tapped)."""
    refused = tapped = False
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.TapForMana):
            continue
        b, c = view(step.before, x.land), view(step.after, x.land)
        if b is None or c is None or not b.on_battlefield:
            continue
        if b.phased_out:
            refused |= step.after.refused is not None
        elif step.after.refused is None:
            tapped |= not b.tapped and c.tapped
    return refused and tapped


def _tap_lands_around_phasing(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """A land phases out and its controller taps it for mana; each other
    land's controller taps it; the first phases in at its controller's untap
    step and is tapped again."""
    lands = [p for p in setup.permanents if "land" in p.types]
    phased_in = [p for p in lands if p.phased_out is None]
    if not phased_in or C.TARGETING not in caps:
        return ()
    x = pick(draw, phased_in)
    return (
        a.PhaseOut(x.controller, (x.id,)),
        *(a.TapForMana(p.controller, p.id) for p in lands),
        *turns_to_untap(setup, x.controller),
        a.TapForMana(x.controller, x.id),
    )


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs={C.MANA_ABILITIES},
    scenarios=lambda caps: led(
        set(caps) - _QUIET,
        _tap_lands_around_phasing,
        kinds=(a.TapForMana, a.PhaseOut, a.PassTurn),
        max_actions=3,
        min_permanents=2,
        effects=False,
        permanent_kinds=("land",),
    ),
    exercised=_refused_a_phased_out_land_and_tapped_one,
)
def phased_out_lands_cannot_be_tapped_for_mana(trace: Trace) -> None:
    """702.26b: a phased-out land is treated as though it doesn't exist: its
    mana ability can't be activated. Lands with phasing phase out at their
    controller's untap step like any permanent (702.26a), and then can't be
    tapped for mana until they phase in."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.TapForMana):
            land = view(step.before, x.land)
            if land is not None and land.on_battlefield and land.phased_out:
                expect(
                    step.after.refused is not None,
                    "702.26b",
                    where(trace, step),
                    f"refused: {x.land} is phased out",
                    "it was tapped for mana",
                )
