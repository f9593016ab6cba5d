"""Properties of combat and activated abilities of phased-out permanents
(702.26b, 506.4, R2017-nonexistent): a phased-out creature can't attack,
one that phases out is removed from combat, and a phased-out permanent's
abilities can't be activated."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.combats import combats, unblocked_damage
from conformance.properties.history import (
    carried_out,
    shown_phased_out,
    tapped_for,
    view,
    was_in_went_out,
)
from conformance.properties.leads import led, ready_creatures, turns_to_untap
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.setup import Setup
from conformance.strategies._draw import maybe, pick

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP}
#: The actions a creature phases out by, in this module's scenarios.
_PHASING_OUT = (a.PhaseOut, a.PhaseOutUntil)


def _refused_a_phased_out_attacker_and_attacked(trace: Trace) -> bool:
    """R2017-nonexistent: a declaration of attackers naming a phased-out
    creature was refused, and another declaration in the same trace was
    carried out: its attackers were attacking."""
    refused = attacked = False
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.DeclareAttackers):
            continue
        out = any((v := view(step.before, t)) is not None and v.phased_out for t in x.attackers)
        if out and step.after.refused is not None:
            refused = True
        elif step.after.refused is None:
            shown = [view(step.after, t) for t in x.attackers]
            attacked |= all(v is not None and v.attacking for v in shown)
    return refused and attacked


def _attack_with_one_phased_out(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """The active player phases out one of their creatures and attacks with
    it (and maybe others), then with the others; with a single creature, it
    attacks once phased back in at their next turn's untap step."""
    mine = ready_creatures(setup, setup.active)
    if not mine or C.TARGETING not in caps:
        return ()
    x, *others = mine
    defender = pick(draw, [p for p in range(setup.players) if p != setup.active])
    rest = tuple(p.id for p in others)
    out = a.PhaseOut(setup.active, (x.id,))
    if not rest:
        declare = a.DeclareAttackers(setup.active, (x.id,), defender)
        return (out, declare, *turns_to_untap(setup, setup.active), declare)
    along = rest[: pick(draw, range(len(rest) + 1))]
    return (
        out,
        a.DeclareAttackers(setup.active, (x.id, *along), defender),
        a.DeclareAttackers(setup.active, rest, defender),
    )


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.COMBAT},
    scenarios=lambda caps: led(
        caps,
        _attack_with_one_phased_out,
        kinds=(a.DeclareAttackers, a.PhaseOut, a.PassTurn),
        min_permanents=2,
        permanent_kinds=("creature",),
        ready=True,
    ),
    exercised=_refused_a_phased_out_attacker_and_attacked,
)
def phased_out_creatures_cannot_attack(trace: Trace) -> None:
    """A phased-out creature can't be declared as an attacker."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.DeclareAttackers):
            out = [t for t in x.attackers if (v := view(step.before, t)) and v.phased_out]
            if out:
                expect(
                    step.after.refused is not None,
                    "R2017-nonexistent",
                    where(trace, step),
                    f"refused: {', '.join(out)} phased out",
                    "the attack was declared",
                )


def _an_attacker_phased_out_and_others_dealt_damage(trace: Trace) -> bool:
    """506.4: an attacking creature phased out and was no longer attacking,
    and in the same trace the engine dealt combat damage."""
    removed = any(
        b.attacking and was_in_went_out(step, b.id) and not step.after.permanent(b.id).attacking
        for step, _ in carried_out(trace, _PHASING_OUT)
        for b in step.before.permanents
    )
    return removed and any(lost > 0 for *_, lost in unblocked_damage(trace))


def _attack_then_phase_out(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """The active player attacks with their creatures; one of them phases
    out, by the hand of any player, or until another permanent S leaves,
    and S is destroyed, so it phases back in mid-combat; then combat
    damage."""
    mine = ready_creatures(setup, setup.active)
    if not mine:
        return ()
    defender = pick(draw, [p for p in range(setup.players) if p != setup.active])
    x = pick(draw, mine)
    declare = a.DeclareAttackers(setup.active, tuple(p.id for p in mine), defender)
    # S is none of the attackers, whose damage the exercise needs.
    sources = [p for p in setup.permanents if p not in mine and p.phased_out is None]
    if {C.PHASE_OUT_UNTIL, C.DESTROY} <= set(caps) and sources and maybe(draw):
        s = pick(draw, sources)
        out = (a.PhaseOutUntil(s.controller, s.id, x.id), a.Destroy(s.controller, s.id))
        return (declare, *out, a.PassTurn())
    return (declare, a.PhaseOut(pick(draw, range(setup.players)), (x.id,)), a.PassTurn())


@rule_property(
    "506.4",
    needs={C.COMBAT, C.TARGETING},
    scenarios=lambda caps: led(
        set(caps) - _QUIET - {C.LEAVE_GAME},
        _attack_then_phase_out,
        kinds=(a.DeclareAttackers, a.PhaseOut, a.PassTurn),
        permanent_kinds=("creature",),
        min_permanents=2,
        ready=True,
    ),
    exercised=_an_attacker_phased_out_and_others_dealt_damage,
    reads={"life"},
)
def phasing_out_removes_from_combat(trace: Trace) -> None:
    """A creature that phases out is removed from combat: it is no longer
    attacking and deals no combat damage, even once it phases back in
    during that combat (it doesn't rejoin it)."""
    for step, x in carried_out(trace, a.PhaseOut):
        for t in x.targets:
            c = view(step.after, t)
            expect(
                c is None or not c.attacking,
                "506.4",
                f"{where(trace, step)}, {t}",
                "removed from combat",
                "still attacking",
            )
    for combat in combats(trace):
        for pid in combat.attackers:
            out = False
            for step in trace.steps[combat.declared + 1 : combat.damage]:
                v = view(step.after, pid)
                out |= shown_phased_out(v)
                expect(
                    not (out and v is not None and v.attacking),
                    "506.4",
                    f"{where(trace, step)}, {pid}",
                    "removed from combat since it phased out, even phased back in",
                    "attacking",
                )
    for step, defender, attackers, damage, lost in unblocked_damage(trace):
        expect(
            lost == damage,
            "506.4",
            f"{where(trace, step)} (combat damage to player {defender})",
            f"{damage} damage from {', '.join(attackers) or 'no attacker'}",
            f"{lost} life lost",
        )


#: Activations of a permanent's ability: "{T}: You gain 1 life", and
#: "Target permanent phases out until [this] leaves the battlefield." (610.4).
_ACTIVATIONS = (a.Activate, a.PhaseOutUntil)


def _refused_a_phased_out_ability_and_activated(trace: Trace) -> bool:
    """702.26b: an activation of a phased-out permanent's ability was
    refused, and an activation of a phased-in one in the same trace was
    carried out: its source became tapped and its controller gained life."""
    refused = activated = False
    for step in trace.steps:
        x = step.action
        if not isinstance(x, _ACTIVATIONS):
            continue
        b, c = view(step.before, x.source), view(step.after, x.source)
        if b is None or c is None or not b.on_battlefield:
            continue
        if b.phased_out:
            refused |= step.after.refused is not None
        elif isinstance(x, a.Activate) and step.after.refused is None:
            activated |= tapped_for(step, x.source, x.player)
    return refused and activated


def _activate_each(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> tuple[a.Action, ...]:
    """A permanent with "{T}: You gain 1 life" phases out and its controller
    tries to activate it, and its "phases out until" ability too, where the
    engine has one; each other one's controller activates it; the first
    phases in at its controller's untap step and is activated again."""
    able = [p for p in setup.permanents if "tap_gain_life" in p.abilities]
    if not able or C.TARGETING not in caps:
        return ()
    x = pick(draw, able)
    others = [p.id for p in setup.permanents if p.id != x.id and p.phased_out is None]
    until: tuple[a.Action, ...] = ()
    if C.PHASE_OUT_UNTIL in caps and others:
        until = (a.PhaseOutUntil(x.controller, x.id, pick(draw, others)),)
    return (
        a.PhaseOut(x.controller, (x.id,)),
        *until,
        *(a.Activate(p.controller, p.id) for p in able),
        *turns_to_untap(setup, x.controller),
        a.Activate(x.controller, x.id),
    )


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs={C.ACTIVATED_ABILITIES},
    scenarios=lambda caps: led(
        caps,
        _activate_each,
        kinds=(a.Activate, a.PhaseOut, a.PassTurn),
        min_permanents=2,
        effects=False,
        permanent_kinds=("artifact", "creature"),
        abilities=("tap_gain_life",),
        ready=True,
    ),
    exercised=_refused_a_phased_out_ability_and_activated,
    reads={"life"},
)
def phased_out_abilities_cannot_be_activated(trace: Trace) -> None:
    """A phased-out permanent's activated abilities can't be activated: it
    is treated as though it doesn't exist. That is "{T}: You gain 1 life"
    and "target permanent phases out until [this] leaves" (610.4) alike."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, _ACTIVATIONS):
            source = view(step.before, x.source)
            if source is not None and source.on_battlefield and source.phased_out:
                expect(
                    step.after.refused is not None,
                    "702.26b",
                    where(trace, step),
                    f"refused: {x.source} is phased out",
                    "the ability was activated",
                )
