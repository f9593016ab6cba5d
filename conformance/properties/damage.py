"""Damage and mana of permanents that phase: damage marked on a creature
that phases out stays marked while it is phased out and is removed at
cleanup like any other (514.2), and a phased-out land can't be tapped for
mana (702.26b). What state-based actions make of damage and phasing is
`conformance.properties.state_based`'s."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import (
    carried_out,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.leads import led, turns_to_untap
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies._draw import Caps, pick
from conformance.strategies.plans import Planned, planned_scenarios

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


#: What a creature phasing out and back in within a turn takes: damage,
#: and "phases out until" a source that is then destroyed (610.4).
OUT_AND_IN_NEEDS = frozenset({C.DAMAGE_MARKED, C.TARGETING, C.PHASE_OUT_UNTIL, C.DESTROY})


def _damage_then_out_and_in(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """A creature (not a token: in the Mirage rules a phased-out token
    ceases to exist, 217.8d) is dealt damage short of lethal, phases out
    until another permanent leaves, and that permanent is destroyed, so it
    phases in again that turn (610.4), before any cleanup (514.2)."""
    free = [p for p in setup.permanents if p.phased_out is None and p.attached_to is None]
    creatures = [p for p in free if p.is_creature and not p.token and (p.toughness or 0) >= 2]
    pairs = [(x, s) for x in creatures for s in free if s.id != x.id]
    if not pairs:
        return setup, ()
    x, source = pick(draw, pairs)
    amount = (x.toughness or 2) - 1
    return setup, (
        a.DealDamage(pick(draw, range(setup.players)), x.id, amount),
        a.PhaseOutUntil(source.controller, source.id, x.id),
        a.Destroy(source.controller, source.id),
    )


def damaged_out_and_in_scenarios(caps: Caps) -> st.SearchStrategy[Scenario]:
    """A damaged creature phases out and back in within a turn, then more."""
    return planned_scenarios(
        set(caps) - _QUIET,
        _damage_then_out_and_in,
        kinds=(a.DealDamage, a.PhaseOut, a.PhaseOutUntil, a.Destroy, a.PassTurn),
        max_actions=3,
        min_permanents=2,
        permanent_kinds=("creature", "creature", "artifact"),
    )


def damaged_out_then_in(trace: Trace) -> Iterator[tuple[Step, str, int, int]]:
    """Each creature the engine showed with damage marked as it phased out
    and that phased in again in the same turn (no cleanup between, 514.2):
    (the step it phased in, its id, the damage it went out with, the damage
    it came back with)."""
    out: dict[str, tuple[int, int]] = {}  # id → (damage, turn) as it went out
    for step in trace.steps:
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is not None and b.damage > 0 and was_in_went_out(step, c.id):
                out[c.id] = (b.damage, step.after.turn)
            elif c.id in out and was_out_came_in(step, c.id):
                damage, turn = out.pop(c.id)
                if turn == step.after.turn:
                    yield step, c.id, damage, c.damage


def _damaged_out_then_in_still_damaged(trace: Trace) -> bool:
    """514.2: a creature the engine showed with damage marked phased out,
    and phased in again in the same turn showing that damage."""
    return any(went == came for _, _, went, came in damaged_out_then_in(trace))


@rule_property(
    "514.2",
    needs=OUT_AND_IN_NEEDS,
    scenarios=damaged_out_and_in_scenarios,
    exercised=_damaged_out_then_in_still_damaged,
)
def damage_stays_marked_while_phased_out(trace: Trace) -> None:
    """514.2 removes damage from phased-out permanents at cleanup, and only
    then (120.6: damage marked on a creature remains until the cleanup
    step): a creature that phases out with damage marked and back in within
    the turn still has it. (Nothing can deal it damage while it is phased
    out, 702.26b, nor, in this vocabulary, in the rest of the action that
    phases it in.) The Mirage rules removed it as it phased out (502.15e)."""
    for step, pid, went, came in damaged_out_then_in(trace):
        expect(
            came == went,
            "514.2",
            f"{where(trace, step)}, {pid}",
            f"{went} damage marked, as when it phased out (removed only at cleanup)",
            f"{came} damage marked",
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
        # A land creature is a land (300.2): its mana ability is judged the
        # same way, whatever a creature's {T} abilities are checked for.
        permanent_kinds=("land", "land creature"),
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
