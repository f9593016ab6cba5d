"""Blocking and phasing (702.26b, 506.4, 509.1h, 510.1c; R2017-nonexistent):
a phased-out creature can't block; a blocker that phases out is removed from
combat, and the attacker it blocked stays blocked and deals no combat damage
to the player, but all of it to the one creature still blocking it, if one
is."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.combats import Combat, combats, unblocked_damage
from conformance.properties.history import carried_out, view, was_in_went_out
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import Permanent, Setup
from conformance.strategies._draw import integer, maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP, C.LEAVE_GAME, C.ANTHEM, C.PT_BOOST}
_KINDS = (a.DeclareAttackers, a.DeclareBlockers, a.PhaseOut, a.PassTurn)


def _sides(setup: Setup, attackers: int, blockers: int) -> tuple[Setup, list[str], list[str]]:
    """The setup with its first creatures given to the active player (able
    to deal damage: power 1 or more) and to the next player, who defends;
    the ids of each side. All are ready: phased in, untapped, not sick."""
    creatures = [p for p in setup.permanents if p.is_creature and p.attached_to is None]
    defender = (setup.active + 1) % setup.players
    sides = [setup.active] * attackers + [defender] * blockers
    given: dict[str, Permanent] = {}
    for p, player in zip(creatures, sides, strict=False):
        power = max(p.power or 0, 1) if player == setup.active else p.power
        given[p.id] = replace(
            p, owner=player, controller=player, default_controller=None, power=power
        )
    permanents = tuple(given.get(p.id, p) for p in setup.permanents)
    ids = list(given)
    return replace(setup, permanents=permanents), ids[:attackers], ids[attackers:]


def _refused_a_phased_out_blocker_and_blocked(trace: Trace) -> bool:
    """702.26b: a declaration of blockers naming a phased-out creature was
    refused, and another declaration in the same trace was carried out: its
    blockers were blocking and their attackers blocked."""
    refused = blocked = False
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.DeclareBlockers):
            continue
        out = any((v := view(step.before, b)) is not None and v.phased_out for b, _ in x.blocks)
        if out and step.after.refused is not None:
            refused = True
        elif step.after.refused is None:
            shown = [(view(step.after, b), view(step.after, t)) for b, t in x.blocks]
            blocked |= all(
                b is not None and t is not None and b.blocking == t.id and t.blocked
                for b, t in shown
            )
    return refused and blocked


def _block_with_one_phased_out(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """The defender's creature phases out; the active player attacks; the
    defender blocks with the phased-out creature, then with another."""
    if C.TARGETING not in caps or setup.players < 2:
        return setup, ()
    setup, (x,), blockers = _sides(setup, 1, 2)
    if len(blockers) < 2:
        return setup, ()
    gone, other = blockers if pick(draw, [True, False]) else blockers[::-1]
    defender = (setup.active + 1) % setup.players
    return setup, (
        a.PhaseOut(defender, (gone,)),
        a.DeclareAttackers(setup.active, (x,), defender),
        a.DeclareBlockers(defender, ((gone, x),)),
        a.DeclareBlockers(defender, ((other, x),)),
    )


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.BLOCKING, C.TARGETING},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _block_with_one_phased_out,
        kinds=_KINDS,
        max_actions=3,
        min_permanents=3,
        permanent_kinds=("creature",),
        ready=True,
        effects=False,
    ),
    exercised=_refused_a_phased_out_blocker_and_blocked,
)
def phased_out_creatures_cannot_block(trace: Trace) -> None:
    """R2017-nonexistent, 702.26b: a phased-out creature can't be declared
    as a blocker."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.DeclareBlockers):
            out = [b for b, _ in x.blocks if (v := view(step.before, b)) and v.phased_out]
            if out:
                expect(
                    step.after.refused is not None,
                    "R2017-nonexistent",
                    where(trace, step),
                    f"refused: {', '.join(out)} phased out",
                    "the block was declared",
                )


def _blocker_left_and_attacker_stayed_blocked(trace: Trace) -> bool:
    """506.4, 509.1h: a blocking creature phased out and was no longer
    blocking, while the attacker it blocked was still attacking and blocked;
    then combat damage was dealt, the unblocked attackers' only."""
    stayed = False
    for step, _ in carried_out(trace, a.PhaseOut):
        for b in step.before.permanents:
            if b.blocking is None or not was_in_went_out(step, b.id):
                continue
            attacker = view(step.after, b.blocking)
            stayed |= (
                step.after.permanent(b.id).blocking is None
                and attacker is not None
                and attacker.attacking
                and attacker.blocked
            )
    dealt = any(damage > 0 and lost == damage for *_, damage, lost in unblocked_damage(trace))
    return stayed and dealt


def _block_then_blocker_phases_out(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """The active player attacks with two creatures, the defender blocks one
    of them, the blocker phases out at any player's hand, then combat
    damage."""
    if C.TARGETING not in caps or setup.players < 2:
        return setup, ()
    setup, attackers, blockers = _sides(setup, 2, 1)
    if len(attackers) < 2 or not blockers:
        return setup, ()
    defender = (setup.active + 1) % setup.players
    (y,), x = blockers, pick(draw, attackers)
    return setup, (
        a.DeclareAttackers(setup.active, tuple(attackers), defender),
        a.DeclareBlockers(defender, ((y, x),)),
        a.PhaseOut(pick(draw, range(setup.players)), (y,)),
        a.PassTurn(),
    )


@rule_property(
    "509.1h",
    "506.4",
    needs={C.BLOCKING, C.TARGETING},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _block_then_blocker_phases_out,
        kinds=_KINDS,
        max_actions=2,
        min_permanents=3,
        permanent_kinds=("creature",),
        ready=True,
        effects=False,
    ),
    exercised=_blocker_left_and_attacker_stayed_blocked,
    reads={"life"},
)
def blocked_attackers_stay_blocked_when_blockers_phase_out(trace: Trace) -> None:
    """506.4: a blocking creature that phases out is removed from combat.
    509.1h: the attacker it blocked remains blocked, and 510.1c: with no
    creature blocking it, it deals no combat damage, to the player least of
    all."""
    for step, x in carried_out(trace, a.PhaseOut):
        for t in x.targets:
            c = view(step.after, t)
            expect(
                c is None or not c.phased_out or c.blocking is None,
                "506.4",
                f"{where(trace, step)}, {t}",
                "removed from combat: blocking nothing",
                f"still blocking {c.blocking if c else None}",
            )
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if b.blocked and c is not None and c.attacking:
                expect(
                    c.blocked,
                    "509.1h",
                    f"{where(trace, step)}, {b.id}",
                    "still blocked after its blocker left combat",
                    "unblocked",
                )
    for step, defender, hitting, damage, lost in unblocked_damage(trace):
        expect(
            lost == damage,
            "509.1h",
            f"{where(trace, step)} (combat damage to player {defender})",
            f"{damage} damage from the unblocked {', '.join(hitting) or 'none'}",
            f"{lost} life lost",
        )


def _still_blocking(trace: Trace, combat: Combat) -> dict[str, tuple[int, list[str]]]:
    """Before `combat`'s damage: each attacker still in combat that
    creatures were declared to block, with how many were and those still in
    combat too (by the declarations the engine carried out and what it
    showed since, not by its `blocking`: 509.1g, 506.4)."""
    blocks: dict[str, tuple[int, list[str]]] = {}
    for _, b, x in combat.blocks:
        if x in combat.attackers and combat.stayed_in(trace, x):
            n, left = blocks.get(x, (0, []))
            blocks[x] = (n + 1, [*left, b] if combat.stayed_in(trace, b) else left)
    return blocks


def _lone_blockers(trace: Trace) -> Iterator[tuple[Step, str, int, list[str], bool]]:
    """At each combat damage the engine dealt, each creature that is the
    only one still blocking one or more attackers: the combat damage those
    attackers deal it (510.1c: all of theirs; an attacker with several
    blockers left divides its damage as its player chooses, so what it adds
    is unknown and not counted), those attackers, and whether one of them
    was blocked by more creatures, now gone."""
    for combat in combats(trace):
        step = trace.steps[combat.damage]
        dealt: dict[str, tuple[int, list[str], bool]] = {}
        for x, (declared, left) in _still_blocking(trace, combat).items():
            attacker = view(step.before, x)
            if len(left) != 1 or attacker is None or attacker.power is None:
                continue
            amount, by, shared = dealt.get(left[0], (0, [], False))
            dealt[left[0]] = (amount + max(attacker.power, 0), [*by, x], shared or declared > 1)
        for b, (amount, by, shared) in dealt.items():
            yield step, b, amount, by, shared


def _lethal(step: Step, blocker: str, amount: int) -> bool:
    """`amount` more damage is lethal to `blocker` as the engine showed it
    before combat damage (704.5g: damage marked at least its toughness)."""
    v = step.before.permanent(blocker)
    return amount > 0 and v.toughness is not None and v.damage + amount >= v.toughness


def _the_blocker_left_took_lethal_damage(trace: Trace) -> bool:
    """506.4, 510.1c: an attacker that two creatures blocked, one of which
    left combat (phased out), dealt the other, the only one still blocking
    it, lethal combat damage, and the engine showed that one leave the
    battlefield (704.5g)."""
    return any(
        shared
        and _lethal(step, b, amount)
        and (c := view(step.after, b)) is not None
        and not c.on_battlefield
        for step, b, amount, _, shared in _lone_blockers(trace)
    )


def _double_block_then_one_phases_out(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> Planned:
    """The active player attacks with a creature, mostly one with power
    enough to kill either blocker; the defender blocks it with two
    creatures; one of them, the first declared or the second, phases out
    at any player's hand; then combat damage."""
    if C.TARGETING not in caps or setup.players < 2:
        return setup, ()
    setup, attackers, blockers = _sides(setup, 1, 2)
    if not attackers or len(blockers) < 2:
        return setup, ()
    (x,) = attackers
    if integer(draw, 0, 3) > 0:
        toughest = max(p.toughness or 0 for p in setup.permanents if p.id in blockers)
        setup = replace(
            setup,
            permanents=tuple(
                replace(p, power=max(p.power or 0, toughest)) if p.id == x else p
                for p in setup.permanents
            ),
        )
    first, second = blockers if maybe(draw) else blockers[::-1]
    defender = (setup.active + 1) % setup.players
    return setup, (
        a.DeclareAttackers(setup.active, (x,), defender),
        a.DeclareBlockers(defender, ((first, x), (second, x))),
        a.PhaseOut(pick(draw, range(setup.players)), (pick(draw, [first, second]),)),
        a.PassTurn(),
    )


@rule_property(
    "506.4",
    needs={C.BLOCKING, C.TARGETING, C.DAMAGE_MARKED},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _double_block_then_one_phases_out,
        kinds=_KINDS,
        max_actions=2,
        min_permanents=3,
        permanent_kinds=("creature",),
        ready=True,
        effects=False,
    ),
    exercised=_the_blocker_left_took_lethal_damage,
)
def the_blocker_left_is_dealt_the_attackers_damage(trace: Trace) -> None:
    """506.4: a blocker that phases out is removed from combat, and is no
    longer blocking. 510.1c: a blocked attacker assigns its combat damage to
    the creatures blocking it; with only one left, that one is dealt all of
    it, and dies if that is lethal (704.5g). The plan blocks an attacker
    with two creatures and phases one out. With two or more still blocking,
    the attacker's player divides the damage: nothing is expected of it."""
    for step, b, amount, by, _ in _lone_blockers(trace):
        if not _lethal(step, b, amount):
            continue
        v, c = step.before.permanent(b), view(step.after, b)
        expect(
            c is None or not c.on_battlefield,
            "506.4",
            f"{where(trace, step)}, {b} ({v.toughness} toughness, {v.damage} damage marked)",
            f"dealt {amount} combat damage by {', '.join(by)}, which it alone still blocks "
            "(510.1c): destroyed (704.5g)",
            f"{b} still on the battlefield",
        )
