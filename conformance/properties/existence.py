"""Properties of a phased-out permanent's non-existence (702.26b, 702.26c;
R2017-nonexistent, R2017-targets): it isn't counted, destroyed or targeted,
and it is again once phased in. Its static abilities and resolving effects
are in `conformance.properties.statics`, combat and activated abilities in
`conformance.properties.combat`."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.history import (
    carried_out,
    ceased_while_phased_out,
    creature_ids,
    indirectly_out,
    released_by_leaving,
    took_effect,
    until_sources,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.leads import led, phase_out_then, target_once_back, target_while_out
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import Setup
from conformance.strategies import scenarios
from conformance.strategies._draw import pick


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
        lambda draw, setup, caps: phase_out_then(
            draw, setup, caps, lambda x: (a.DrawPerCreature(x.controller),)
        ),
        kinds=(a.DrawPerCreature, a.PhaseOut, a.PassTurn),
        min_permanents=2,
        permanent_kinds=("creature",),
    ),
    exercised=_drew_with_a_creature_phased_out,
    reads={"cards_drawn"},
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
    """A creature phases out, plainly or until another creature leaves the
    battlefield (610.4: the sweep then phases it in), then "destroy all
    creatures"; a token is created first when no other creature would be
    there to destroy (and to be the source)."""
    creatures = [p for p in setup.permanents if p.is_creature and p.phased_out is None]
    if not creatures or C.TARGETING not in caps:
        return ()
    x = pick(draw, creatures)
    others = [(p.controller, p.id) for p in creatures if p.id != x.id]
    token: tuple[a.Action, ...] = ()
    if not others and C.TOKENS in caps:
        token, others = (a.CreateToken(0, "t1", 0),), [(0, "t1")]
    out: a.Action = a.PhaseOut(x.controller, (x.id,))
    if C.PHASE_OUT_UNTIL in caps and others and pick(draw, (False, True)):
        # The source is a creature: it dies in the sweep, which phases x in
        # while the sweep is under way (an engine destroying one at a time
        # then sees x).
        controller, source = pick(draw, others)
        out = a.PhaseOutUntil(controller, source, x.id)
    return (*token, out, a.DestroyAll(x.controller))


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
    reads={"events"},
)
def phased_out_creatures_are_not_destroyed(trace: Trace) -> None:
    """ "Destroy all creatures" destroys phased-in creatures and leaves
    phased-out ones on the battlefield, still phased out."""
    auras = {p.id for p in trace.scenario.setup.permanents if p.attachment == "aura"}
    history = zip(trace.steps, until_sources(trace), indirectly_out(trace), strict=True)
    for step, waiting, indirect in history:
        if not isinstance(step.action, a.DestroyAll) or step.after.refused is not None:
            continue
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not b.on_battlefield:
                continue
            at = f"{where(trace, step)}, {b.id}"
            if b.phased_out and released_by_leaving(step, waiting, indirect, b.id):
                # 610.4: it phased in once the spell destroyed the source it
                # waited for (or its host's source, 702.26g), after the
                # destruction: nothing destroys it. An Aura phasing in
                # unattached then goes to the graveyard (704.5m).
                ok = c.on_battlefield or (b.id in auras and c.zone == "graveyard")
                expect(ok, "702.26b", at, "not destroyed (phased in after, 610.4)", c.zone)
            elif b.phased_out and not ceased_while_phased_out(step, b.id):
                # A phased-out token that ceased to exist (702.25k, 217.8d,
                # in the editions where it does) was not destroyed.
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
    scenarios=lambda caps: led(caps, target_while_out, kinds=_TARGETED, min_permanents=2),
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


@rule_property(
    "702.26c",
    needs={C.TARGETING},
    scenarios=lambda caps: led(
        set(caps) - {C.LEAVE_GAME},
        target_once_back,
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
    reads={"cards_drawn"},
)
def spell_whose_target_phased_out_does_nothing(trace: Trace) -> None:
    """A spell whose only target phases out in response doesn't resolve:
    the target isn't destroyed and the caster draws no card."""
    for step, x in carried_out(trace, a.Destroy):
        if not x.phased_out_in_response:
            continue
        c = view(step.after, x.target)
        n = drawn(step, x.caster)
        # A token target that phased out may then cease to exist (702.25k,
        # 217.8d, in the editions where it does): not destroyed either.
        stayed = c is not None and (c.on_battlefield or ceased_while_phased_out(step, x.target))
        expect(
            stayed and n == 0,
            "R2017-targets",
            f"{where(trace, step)}, {x.target}",
            "still on the battlefield (phased out) and no card drawn",
            f"{'gone' if c is None else c.zone}, {n} card(s) drawn",
        )
