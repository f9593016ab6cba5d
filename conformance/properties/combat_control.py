"""Combat and control changes (506.4, 702.26f, 509.1h): a creature whose
controller changes is removed from combat, whether a spell gains control of
it or a "for as long as you control X" effect giving its controller control
ends as X phases out. It is no longer attacking or blocking and deals and is
dealt no combat damage; an attacker it blocked stays blocked."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.combats import Combat, combats, player_damage_judged
from conformance.properties.effects import focus
from conformance.properties.history import view
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import ControlEffect, Duration, Permanent, Setup
from conformance.strategies._draw import integer, maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import new_id, with_permanents
from conformance.strategies.positions import SIMPLE_DURATIONS

#: Combat, control changes, and players to hand creatures to: nothing else
#: that changes a life total or kills a creature as the turn passes.
_FOCUS = (
    C.COMBAT,
    C.BLOCKING,
    C.TARGETING,
    C.CONTROL_CHANGE,
    C.CONTROL_AS_LONG_AS,
    C.MULTIPLAYER,
)
_KINDS = (a.DeclareBlockers, a.PhaseOut, a.GainControl, a.PassTurn)


def _changed_hands(step: Step) -> Iterator[tuple[PermanentView, PermanentView]]:
    """Each creature in combat before `step`, an action other than a
    PassTurn (combat is over once the turn passes, 511.3), that the engine
    showed phased in under another controller after it: (before, after)."""
    if isinstance(step.action, a.PassTurn) or step.after.refused is not None:
        return
    for b in step.before.permanents:
        c = view(step.after, b.id)
        in_combat = b.phased_in and (b.attacking or b.blocking is not None)
        if in_combat and c is not None and c.phased_in and c.controller != b.controller:
            yield b, c


def _how(trace: Trace, step: Step, pid: str) -> str:
    """Why `pid`'s controller changed in `step`: a spell gained control of
    it, or a "for as long as you control X" effect ended as X phased out
    (702.26f)."""
    x = step.action
    if isinstance(x, a.GainControl):
        return f"player {x.player} gained control of it"
    anchors = [
        e.duration.of
        for e in trace.scenario.setup.effects
        if isinstance(e, ControlEffect) and e.target == pid and e.duration.of is not None
    ]
    anchors += [
        s.action.duration.of
        for s in trace.steps[: trace.steps.index(step)]
        if isinstance(s.action, a.GainControl)
        and s.action.target == pid
        and s.action.duration.of is not None
        and s.after.refused is None
    ]
    if anchors and isinstance(x, a.PhaseOut | a.PhaseOutAll):
        return (
            f"control of it for as long as its controller controls {anchors[-1]} "
            f"ended as {anchors[-1]} phased out (702.26f)"
        )
    return "its controller changed"


def _left_by_control_change(trace: Trace, combat: Combat, pid: str) -> bool:
    """`pid` stayed phased in on the battlefield from its declaration in
    `combat` to its combat damage, under more than one controller."""
    shown = [view(s.after, pid) for s in trace.steps[combat.since(pid) : combat.damage]]
    return all(v is not None and v.phased_in for v in shown) and (
        len({v.controller for v in shown if v is not None}) > 1
    )


def _damage(trace: Trace) -> Iterator[tuple[Step, Combat, set[str], list[str], int, int]]:
    """Each combat damage the engine dealt in a combat a creature left as
    its controller changed: (the PassTurn, the combat, those creatures, the
    unblocked attackers still in combat, the damage they deal, the life the
    defending player lost)."""
    for combat in combats(trace):
        changed = {p for p in combat.fighting() if _left_by_control_change(trace, combat, p)}
        if not changed:
            continue
        step = trace.steps[combat.damage]
        blocked = combat.blocked()
        hitting = [p for p in combat.attackers if p not in blocked and combat.stayed_in(trace, p)]
        damage = sum(max(step.before.permanent(p).power or 0, 0) for p in hitting)
        lost = step.before.player(combat.defender).life - step.after.player(combat.defender).life
        yield step, combat, changed, hitting, damage, lost


def _left_combat_as_x_phased_out(trace: Trace) -> bool:
    """506.4, 702.26f: a creature in combat changed controller as X phased
    out, ending a "for as long as you control X" effect, and the engine
    showed it out of combat, attacking and blocking nothing; at the combat
    damage that followed, the defending player lost the life the attackers
    still in combat deal, and that was some. (A spell gaining control of it
    is checked too, but involves no phasing: an engine that never phases
    anything gets it right.)"""
    shown = any(
        not c.attacking and c.blocking is None
        for step in trace.steps
        if isinstance(step.action, a.PhaseOut | a.PhaseOutAll)
        for _, c in _changed_hands(step)
    )
    return shown and any(
        lost == damage > 0 and player_damage_judged(trace, combat)
        for _, combat, *_, damage, lost in _damage(trace)
    )


def _given(p: Permanent, controller: int, owner: int, power: int) -> Permanent:
    """`p` controlled by `controller` (by default if they own it), with
    `power`."""
    return replace(p, owner=owner, controller=controller, default_controller=None, power=power)


def _control_changes_mid_combat(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """The active player attacks with two creatures, and the defending
    player blocks one, or doesn't; then a creature in combat, y, changes
    controller: "for as long as you control X", an effect of the setup
    giving y's controller y (it owns it not), ends as X, an artifact of
    theirs, phases out at any player's hand (702.26f); or another player
    gains control of y by a spell; then combat damage. y attacks, or blocks;
    y and the creature it may fight are each lethal to the other."""
    creatures = [p for p in setup.permanents if p.is_creature and p.phased_out is None]
    if C.TARGETING not in caps or len(creatures) < 3:
        return setup, ()
    n, active = setup.players, setup.active
    defender = pick(draw, [p for p in range(n) if p != active])
    y_blocks = C.BLOCKING in caps and maybe(draw)
    fights = y_blocks or (C.BLOCKING in caps and maybe(draw))
    side = defender if y_blocks else active
    as_long_as = C.CONTROL_AS_LONG_AS in caps and integer(draw, 0, 3) > 0
    owner = pick(draw, [p for p in range(n) if p != side]) if as_long_as else side
    y, foe, mate = creatures[:3]
    foes = active if y_blocks else defender
    given = {
        y.id: _given(y, side, owner, max(y.power or 0, foe.toughness or 0, 1)),
        foe.id: _given(foe, foes, foes, max(foe.power or 0, y.toughness or 0, 1)),
        mate.id: _given(mate, active, active, max(mate.power or 0, 1)),
    }
    setup = replace(setup, permanents=tuple(given.get(p.id, p) for p in setup.permanents))
    if as_long_as:
        x = new_id(setup)
        setup = with_permanents(setup, Permanent(x, side, side, ("artifact",)))
        effect = ControlEffect(y.id, side, Duration("as_long_as_you_control", x))
        setup = replace(setup, effects=(*setup.effects, effect))
        change: a.Action = a.PhaseOut(pick(draw, range(n)), (x,))
    else:
        gainer = pick(draw, [p for p in range(n) if p != side])
        change = a.GainControl(gainer, y.id, pick(draw, SIMPLE_DURATIONS))
    attacker = foe.id if y_blocks else y.id
    blocks = ((y.id, foe.id) if y_blocks else (foe.id, y.id),)
    return setup, (
        a.DeclareAttackers(active, (attacker, mate.id), defender),
        *((a.DeclareBlockers(defender, blocks),) if fights else ()),
        change,
        a.PassTurn(),
    )


@rule_property(
    "506.4",
    needs={C.COMBAT, C.TARGETING, C.CONTROL_CHANGE},
    scenarios=lambda caps: planned_scenarios(
        focus(caps, *_FOCUS),
        _control_changes_mid_combat,
        kinds=_KINDS,
        max_actions=2,
        min_permanents=3,
        max_permanents=4,
        permanent_kinds=("creature",),
        ready=True,
        effects=False,
    ),
    exercised=_left_combat_as_x_phased_out,
    reads={"life"},
)
def control_change_removes_from_combat(trace: Trace) -> None:
    """A creature whose controller changes is removed from combat: by a
    spell that gains control of it, or as a "for as long as you control X"
    effect giving its controller control of it ends, X having phased out
    (702.26f). It is no longer attacking or blocking, an attacker it blocked
    stays blocked (509.1h), and at combat damage it deals none and is dealt
    none: the defending player loses only the life the unblocked attackers
    still in combat deal (where that loss is the damage:
    `player_damage_judged`), and neither it nor a creature it alone fought
    dies."""
    for step in trace.steps:
        for b, c in _changed_hands(step):
            at = f"{where(trace, step)}, {b.id} ({_how(trace, step, b.id)})"
            expect(
                not c.attacking and c.blocking is None,
                "506.4",
                at,
                f"removed from combat as its controller changed from {b.controller} to "
                f"{c.controller}: attacking and blocking nothing",
                "still attacking" if c.attacking else f"still blocking {c.blocking}",
            )
            attacker = view(step.after, b.blocking) if b.blocking is not None else None
            if attacker is not None and attacker.attacking:
                expect(
                    attacker.blocked,
                    "506.4",
                    at,
                    f"{attacker.id}, which it blocked, still blocked (509.1h)",
                    f"{attacker.id} unblocked",
                )
    for step, combat, changed, hitting, damage, lost in _damage(trace):
        left = ", ".join(sorted(changed))
        if player_damage_judged(trace, combat):
            expect(
                lost == damage,
                "506.4",
                f"{where(trace, step)} (combat damage to player {combat.defender})",
                f"{damage} damage, from {', '.join(hitting) or 'no attacker'} "
                f"({left} left combat as its controller changed)",
                f"{lost} life lost",
            )
        for r in sorted(changed):
            for z in sorted({r} | combat.opponents(r)):
                others = combat.opponents(z) - changed - {r}
                c = view(step.after, z)
                if z != r and (z in changed or others):
                    continue
                expect(
                    c is not None and c.on_battlefield,
                    "506.4",
                    f"{where(trace, step)}, {z}",
                    "dealt no combat damage: "
                    + (
                        "it left combat as its controller changed"
                        if z == r
                        else f"{r}, which alone fought it, left combat as its controller changed"
                    ),
                    f"{z} {'gone' if c is None else c.zone}",
                )
