"""Properties of a phased-out permanent's non-existence (702.26b, c, e;
506.4; R2017-nonexistent, R2017-targets). The properties of its static
abilities, and of resolving effects, are in `conformance.properties.statics`."""

from __future__ import annotations

from collections.abc import Callable, Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.history import (
    carried_out,
    creature_ids,
    released_by_leaving,
    took_effect,
    until_sources,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup
from conformance.strategies import scenarios
from conformance.strategies._draw import pick

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP}

#: Actions that put a position's rule to the test, played before the drawn
#: ones: built from the setup, the capabilities, and draws.
Lead = Callable[[st.DrawFn, Setup, Collection[C]], tuple[a.Action, ...]]


def led(caps: Collection[C], lead: Lead, **options: object) -> st.SearchStrategy[Scenario]:
    """Scenarios drawn with `options` whose actions begin with `lead`'s: the
    situation a rule is about arises in most examples, and what follows is
    as varied as ever."""

    @st.composite
    def draw_led(draw: st.DrawFn) -> Scenario:
        s = draw(scenarios(caps, **options))  # type: ignore[arg-type]
        return Scenario(s.setup, (*lead(draw, s.setup, caps), *s.actions))

    return draw_led()


def ready_creatures(setup: Setup, player: int | None = None) -> list[Permanent]:
    """Phased-in creatures (of `player`) that are untapped and not sick."""
    return [
        p
        for p in setup.permanents
        if p.is_creature
        and p.phased_out is None
        and not p.tapped
        and not p.sick
        and (player is None or p.controller == player)
    ]


def turns_to_untap(setup: Setup, player: int) -> tuple[a.Action, ...]:
    """The PassTurns that bring `player`'s next untap step, where what
    phased out under them phases in (702.26a); players who leave excepted."""
    n = (player - setup.active) % setup.players or setup.players
    return (a.PassTurn(),) * n


def _phase_out_then(
    draw: st.DrawFn, setup: Setup, caps: Collection[C], then: Callable[[Permanent], tuple]
) -> tuple[a.Action, ...]:
    """A phased-in creature phases out at its controller's hand, then
    `then(creature)`; nothing when no creature or no targeting."""
    creatures = [p for p in setup.permanents if p.is_creature and p.phased_out is None]
    if not creatures or C.TARGETING not in caps:
        return ()
    x = pick(draw, creatures)
    return (a.PhaseOut(x.controller, (x.id,)), *then(x))


def drawn(step: Step, player: int) -> int:
    """Cards `player` drew during `step`."""
    return step.after.player(player).cards_drawn - step.before.player(player).cards_drawn


def counted(trace: Trace, obs: Observation, player: int) -> list[str]:
    """The creatures "for each creature you control" counts for `player` in
    `obs`: the phased-in ones (702.26b, 702.26c)."""
    creatures = creature_ids(trace.scenario)
    return [
        p.id for p in obs.permanents if p.phased_in and p.id in creatures and p.controller == player
    ]


def _drew_with_a_creature_phased_out(trace: Trace) -> bool:
    """702.26b: a "draw a card for each creature you control" resolved and
    drew cards while its caster controlled a phased-out creature."""
    creatures = creature_ids(trace.scenario)
    for step, x in carried_out(trace, a.DrawPerCreature):
        out = [
            p
            for p in step.before.permanents
            if p.on_battlefield and p.phased_out and p.id in creatures and p.controller == x.player
        ]
        if out and drawn(step, x.player) > 0:
            return True
    return False


@rule_property(
    "702.26b",
    needs={C.COUNT_CREATURES},
    scenarios=lambda caps: led(
        caps,
        lambda draw, setup, caps: _phase_out_then(
            draw, setup, caps, lambda x: (a.DrawPerCreature(x.controller),)
        ),
        kinds=(a.DrawPerCreature, a.PhaseOut, a.PassTurn),
        min_permanents=2,
        permanent_kinds=("creature",),
    ),
    exercised=_drew_with_a_creature_phased_out,
)
def phased_out_creatures_are_not_counted(trace: Trace) -> None:
    """ "Draw a card for each creature you control" counts phased-in
    creatures only."""
    for step, x in carried_out(trace, a.DrawPerCreature):
        ids = counted(trace, step.before, x.player)
        n = drawn(step, x.player)
        expect(
            n == len(ids),
            "702.26b",
            where(trace, step),
            f"{len(ids)} card(s), for {', '.join(ids) or 'no creature'}",
            f"{n} card(s) drawn",
        )


def _destroy_all_spared_a_phased_out_creature(trace: Trace) -> bool:
    """702.26b: a "destroy all creatures" destroyed a phased-in creature and
    left a phased-out creature on the battlefield, still phased out."""
    creatures = creature_ids(trace.scenario)
    for step, _ in carried_out(trace, a.DestroyAll):
        destroyed = spared = False
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or b.id not in creatures or not b.on_battlefield:
                continue
            destroyed |= b.phased_in and not c.on_battlefield
            spared |= b.phased_out and c.on_battlefield and c.phased_out
        if destroyed and spared:
            return True
    return False


def _phase_out_then_destroy_all(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """A creature phases out, then "destroy all creatures"; a token is
    created first when no other creature would be there to destroy."""
    lead = _phase_out_then(draw, setup, caps, lambda x: (a.DestroyAll(x.controller),))
    alone = sum(p.is_creature and p.phased_out is None for p in setup.permanents) < 2
    if lead and alone and C.TOKENS in caps:
        return (a.CreateToken(lead[0].caster, "t1", 0), *lead)
    return lead


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs={C.DESTROY},
    scenarios=lambda caps: led(
        caps,
        _phase_out_then_destroy_all,
        kinds=(a.DestroyAll, a.PhaseOut, a.PhaseOutUntil, a.PassTurn),
        min_permanents=2,
        permanent_kinds=("creature", "creature", "aura", "equipment", "artifact"),
    ),
    exercised=_destroy_all_spared_a_phased_out_creature,
)
def phased_out_creatures_are_not_destroyed(trace: Trace) -> None:
    """ "Destroy all creatures" destroys phased-in creatures and leaves
    phased-out ones on the battlefield, still phased out."""
    auras = {p.id for p in trace.scenario.setup.permanents if p.attachment == "aura"}
    for step, waiting in zip(trace.steps, until_sources(trace), strict=True):
        if not isinstance(step.action, a.DestroyAll) or step.after.refused is not None:
            continue
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not b.on_battlefield:
                continue
            at = f"{where(trace, step)}, {b.id}"
            if b.phased_out and released_by_leaving(step, waiting, b.id):
                # 610.4: it phased in once the spell destroyed the source it
                # waited for (or its host's source, 702.26g), after the
                # destruction: nothing destroys it. An Aura phasing in
                # unattached then goes to the graveyard (704.5m).
                ok = c.on_battlefield or (b.id in auras and c.zone == "graveyard")
                expect(ok, "702.26b", at, "not destroyed (phased in after, 610.4)", c.zone)
            elif b.phased_out:
                expect(
                    c.on_battlefield and c.phased_out,
                    "702.26b",
                    at,
                    "not destroyed, still phased out",
                    "phased in" if c.on_battlefield else c.zone,
                )
            elif b.power is not None:
                expect(not c.on_battlefield, "702.26b", at, "destroyed", "still there")


def targets(x: a.Action) -> tuple[str, ...]:
    """What a targeted spell of the scenarios targets."""
    if isinstance(x, a.PhaseOut):
        return x.targets
    if isinstance(x, a.Destroy | a.GainControl):
        return (x.target,)
    return ()


def _targets_phased_out(step: Step) -> list[str]:
    return [
        t for t in targets(step.action) if (v := view(step.before, t)) is not None and v.phased_out
    ]


_TARGETED = (a.PhaseOut, a.Destroy, a.GainControl, a.PassTurn)


def _refused_a_phased_out_target_and_took_effect(trace: Trace) -> bool:
    """R2017-nonexistent: a spell targeting a phased-out permanent was
    refused, and in the same trace a spell targeting phased-in ones took
    effect (they phased out, were destroyed or changed controller)."""
    refused = any(s.after.refused is not None and _targets_phased_out(s) for s in trace.steps)
    return refused and any(took_effect(s) for s in trace.steps)


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.TARGETING},
    scenarios=lambda caps: scenarios(caps, kinds=_TARGETED, min_actions=3, min_permanents=2),
    exercised=_refused_a_phased_out_target_and_took_effect,
)
def phased_out_permanents_cannot_be_targeted(trace: Trace) -> None:
    """A spell targeting a phased-out permanent can't be cast."""
    for step in trace.steps:
        out = _targets_phased_out(step)
        if out:
            expect(
                step.after.refused is not None,
                "R2017-nonexistent",
                where(trace, step),
                f"refused: {', '.join(out)} phased out, not a legal target",
                "the spell was cast",
            )


def _targeted_after_phasing_in(trace: Trace) -> bool:
    """702.26c: a permanent the engine showed phasing in was later the
    target of a spell that took effect on it."""
    came_in: set[str] = set()
    for step in trace.steps:
        if came_in & set(targets(step.action)) and took_effect(step):
            return True
        came_in |= {p.id for p in step.after.permanents if was_out_came_in(step, p.id)}
    return False


def _target_once_back(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> tuple[a.Action, ...]:
    """A permanent phases out, phases in at its controller's untap step, and
    is targeted by one of the players."""
    ids = [p for p in setup.permanents if p.phased_out is None]
    if not ids:
        return ()
    x = pick(draw, ids)
    player = pick(draw, range(setup.players))
    again: list[a.Action] = [a.PhaseOut(player, (x.id,))]
    if C.DESTROY in caps:
        again.append(a.Destroy(player, x.id))
    if C.CONTROL_CHANGE in caps:
        again.append(a.GainControl(player, x.id))
    return (
        a.PhaseOut(x.controller, (x.id,)),
        *turns_to_untap(setup, x.controller),
        pick(draw, again),
    )


@rule_property(
    "702.26c",
    needs={C.TARGETING},
    scenarios=lambda caps: led(
        set(caps) - {C.LEAVE_GAME},
        _target_once_back,
        kinds=_TARGETED,
        min_permanents=2,
    ),
    exercised=_targeted_after_phasing_in,
)
def phased_in_permanents_can_be_targeted_again(trace: Trace) -> None:
    """Once phased in, a permanent is seen again: a spell may target it."""
    for step in trace.steps:
        ids = targets(step.action)
        caster = getattr(step.action, "caster", getattr(step.action, "player", None))
        views = [view(step.before, t) for t in ids]
        legal = ids and all(v is not None and v.phased_in for v in views)
        if legal and caster is not None and step.before.player(caster).in_game:
            expect(
                step.after.refused is None,
                "702.26c",
                where(trace, step),
                f"{', '.join(ids)} phased in: a legal target",
                f"refused: {step.after.refused}",
            )


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
    """The active player phases out one of their creatures, attacks with it
    (and maybe others), then with the others."""
    mine = ready_creatures(setup, setup.active)
    if len(mine) < 2 or C.TARGETING not in caps:
        return ()
    x, *others = mine
    defender = pick(draw, [p for p in range(setup.players) if p != setup.active])
    rest = tuple(p.id for p in others)
    return (
        a.PhaseOut(setup.active, (x.id,)),
        a.DeclareAttackers(
            setup.active, (x.id, *rest[: pick(draw, range(len(rest) + 1))]), defender
        ),
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


def _combat_damage(trace: Trace) -> list[tuple[Step, int, list[str], int]]:
    """Each PassTurn the engine carried out with attackers declared: the
    defender, the attackers still phased in, and the life the defender lost."""
    found = []
    for step, _ in carried_out(trace, a.PassTurn):
        if any(p.attacking for p in step.before.permanents):
            defender = _defender(trace, step)
            attackers = [p.id for p in step.before.permanents if p.attacking and p.phased_in]
            lost = step.before.player(defender).life - step.after.player(defender).life
            found.append((step, defender, attackers, lost))
    return found


def _an_attacker_phased_out_and_others_dealt_damage(trace: Trace) -> bool:
    """506.4: an attacking creature phased out and was no longer attacking,
    and in the same trace the engine dealt combat damage."""
    removed = any(
        b.attacking and was_in_went_out(step, b.id) and not step.after.permanent(b.id).attacking
        for step, _ in carried_out(trace, a.PhaseOut)
        for b in step.before.permanents
    )
    return removed and any(lost > 0 for *_, lost in _combat_damage(trace))


def _attack_then_phase_out(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """The active player attacks with their creatures; one of them phases
    out, by the hand of any player; then combat damage."""
    mine = ready_creatures(setup, setup.active)
    if not mine:
        return ()
    defender = pick(draw, [p for p in range(setup.players) if p != setup.active])
    x = pick(draw, mine)
    return (
        a.DeclareAttackers(setup.active, tuple(p.id for p in mine), defender),
        a.PhaseOut(pick(draw, range(setup.players)), (x.id,)),
        a.PassTurn(),
    )


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
)
def phasing_out_removes_from_combat(trace: Trace) -> None:
    """A creature that phases out is removed from combat: it is no longer
    attacking and deals no combat damage."""
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
    for step, defender, attackers, lost in _combat_damage(trace):
        damage = sum(step.before.permanent(p).power or 0 for p in attackers)
        expect(
            lost == damage,
            "506.4",
            f"{where(trace, step)} (combat damage to player {defender})",
            f"{damage} damage from {', '.join(attackers) or 'no attacker'}",
            f"{lost} life lost",
        )


def _defender(trace: Trace, step: Step) -> int:
    index = trace.steps.index(step)
    for earlier in reversed(trace.steps[:index]):
        if isinstance(earlier.action, a.DeclareAttackers) and earlier.after.refused is None:
            return earlier.action.defender
    raise AssertionError("attackers without a declaration")


def _fizzled_and_resolved(trace: Trace) -> bool:
    """R2017-targets: a "destroy target permanent, draw a card" whose target
    phased out in response left it on the battlefield, phased out, and drew
    nothing, while another such spell in the same trace destroyed its target
    and drew a card."""
    fizzled = resolved = False
    for step, x in carried_out(trace, a.Destroy):
        if x.phased_out_in_response:
            fizzled |= was_in_went_out(step, x.target) and drawn(step, x.caster) == 0
        else:
            resolved |= took_effect(step) and drawn(step, x.caster) == 1
    return fizzled and resolved


@rule_property(
    "R2017-targets",
    needs={C.DESTROY, C.TARGETING},
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.Destroy,), min_actions=2, min_permanents=2, phased_out=False
    ),
    exercised=_fizzled_and_resolved,
)
def spell_whose_target_phased_out_does_nothing(trace: Trace) -> None:
    """A spell whose only target phases out in response doesn't resolve:
    the target isn't destroyed and the caster draws no card."""
    for step, x in carried_out(trace, a.Destroy):
        if not x.phased_out_in_response:
            continue
        c = view(step.after, x.target)
        n = drawn(step, x.caster)
        expect(
            c is not None and c.on_battlefield and n == 0,
            "R2017-targets",
            f"{where(trace, step)}, {x.target}",
            "still on the battlefield (phased out) and no card drawn",
            f"{'gone' if c is None else c.zone}, {n} card(s) drawn",
        )


def _refused_a_phased_out_ability_and_activated(trace: Trace) -> bool:
    """702.26b: an activation of a phased-out permanent's ability was
    refused, and an activation of a phased-in one in the same trace was
    carried out: its source became tapped and its controller gained life."""
    refused = activated = False
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.Activate):
            continue
        b, c = view(step.before, x.source), view(step.after, x.source)
        if b is None or c is None or not b.on_battlefield:
            continue
        if b.phased_out:
            refused |= step.after.refused is not None
        elif step.after.refused is None:
            gained = step.after.player(x.player).life > step.before.player(x.player).life
            activated |= not b.tapped and c.tapped and gained
    return refused and activated


def _activate_each(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> tuple[a.Action, ...]:
    """A permanent with "{T}: You gain 1 life" phases out and its controller
    tries to activate it; each other one's controller activates it; the
    first phases in at its controller's untap step and is activated again."""
    able = [p for p in setup.permanents if "tap_gain_life" in p.abilities]
    if not able or C.TARGETING not in caps:
        return ()
    x = pick(draw, able)
    return (
        a.PhaseOut(x.controller, (x.id,)),
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
)
def phased_out_abilities_cannot_be_activated(trace: Trace) -> None:
    """A phased-out permanent's activated abilities can't be activated: it
    is treated as though it doesn't exist."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.Activate):
            source = view(step.before, x.source)
            if source is not None and source.on_battlefield and source.phased_out:
                expect(
                    step.after.refused is not None,
                    "702.26b",
                    where(trace, step),
                    f"refused: {x.source} is phased out",
                    "the ability was activated",
                )
