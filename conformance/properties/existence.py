"""Properties of a phased-out permanent's non-existence (702.26b, c, e;
506.4; R2017-nonexistent, R2017-targets)."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import abilities, view
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.scenario import Scenario
from conformance.strategies import scenarios

_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP}


@rule_property(
    "702.26b",
    needs={C.COUNT_CREATURES},
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.DrawPerCreature, a.PhaseOut, a.PassTurn), min_actions=1
    ),
    reads={"cards_drawn"},
)
def phased_out_creatures_are_not_counted(trace: Trace) -> None:
    """ "Draw a card for each creature you control" counts phased-in
    creatures only."""
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.DrawPerCreature) or step.after.refused is not None:
            continue
        counted = [
            p.id
            for p in step.before.permanents
            if p.phased_in and p.power is not None and p.controller == x.player
        ]
        drawn = step.after.player(x.player).cards_drawn - step.before.player(x.player).cards_drawn
        expect(
            drawn == len(counted),
            "702.26b",
            where(trace, step),
            f"{len(counted)} card(s), for {', '.join(counted) or 'no creature'}",
            f"{drawn} card(s) drawn",
        )


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs={C.DESTROY},
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.DestroyAll, a.PhaseOut, a.PassTurn), min_actions=1
    ),
    reads={"events"},
)
def phased_out_creatures_are_not_destroyed(trace: Trace) -> None:
    """ "Destroy all creatures" destroys phased-in creatures and leaves
    phased-out ones on the battlefield, still phased out."""
    for step in trace.steps:
        if not isinstance(step.action, a.DestroyAll) or step.after.refused is not None:
            continue
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not b.on_battlefield:
                continue
            at = f"{where(trace, step)}, {b.id}"
            if b.phased_out and not step.after.events_of("phased_in", b.id):
                # What waited "until" a destroyed source phases in (610.4);
                # an Aura on that source then goes to the graveyard (704.5m).
                expect(c.on_battlefield, "702.26b", at, "not destroyed", c.zone)
            elif b.power is not None:
                expect(not c.on_battlefield, "702.26b", at, "destroyed", "still there")


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.TARGETING},
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.PhaseOut, a.Destroy, a.GainControl, a.PassTurn), min_actions=2
    ),
)
def phased_out_permanents_cannot_be_targeted(trace: Trace) -> None:
    """A spell targeting a phased-out permanent can't be cast."""
    for step in trace.steps:
        targets = _targets(step.action)
        out = [t for t in targets if (v := view(step.before, t)) is not None and v.phased_out]
        if out:
            expect(
                step.after.refused is not None,
                "R2017-nonexistent",
                where(trace, step),
                f"refused: {', '.join(out)} phased out, not a legal target",
                "the spell was cast",
            )


def _targets(x: a.Action) -> tuple[str, ...]:
    if isinstance(x, a.PhaseOut):
        return x.targets
    if isinstance(x, a.Destroy | a.GainControl):
        return (x.target,)
    return ()


@rule_property(
    "702.26c",
    needs={C.TARGETING},
    scenarios=lambda caps: scenarios(
        set(caps) - {C.LEAVE_GAME},
        kinds=(a.PhaseOut, a.Destroy, a.GainControl, a.PassTurn),
        min_actions=2,
    ),
)
def phased_in_permanents_can_be_targeted_again(trace: Trace) -> None:
    """Once phased in, a permanent is seen again: a spell may target it."""
    for step in trace.steps:
        targets = _targets(step.action)
        caster = getattr(step.action, "caster", getattr(step.action, "player", None))
        views = [view(step.before, t) for t in targets]
        legal = targets and all(v is not None and v.phased_in for v in views)
        if legal and caster is not None and step.before.player(caster).in_game:
            expect(
                step.after.refused is None,
                "702.26c",
                where(trace, step),
                f"{', '.join(targets)} phased in: a legal target",
                f"refused: {step.after.refused}",
            )


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.ANTHEM},
    scenarios=lambda caps: scenarios(
        set(caps) - {C.PT_BOOST},
        kinds=(a.PhaseOut,),
        min_actions=1,
        effects=False,
        ready=True,
        permanent_kinds=("creature", "enchantment"),
    ),
)
def phased_out_static_abilities_apply_nothing(trace: Trace) -> None:
    """When an anthem ("other creatures you control get +1/+1") phases out,
    each other creature of its controller loses the bonus at once."""
    for step in trace.steps:
        if step.after.refused is not None:
            continue
        went_out = [
            p
            for p in step.before.permanents
            if p.phased_in
            and "anthem" in abilities(trace.scenario, p.id)
            and (c := view(step.after, p.id)) is not None
            and c.phased_out
        ]
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None or not (b.phased_in and c.phased_in) or b.power is None:
                continue
            lost = sum(1 for s in went_out if s.controller == c.controller and s.id != c.id)
            expect(
                c.power == b.power - lost,
                "R2017-nonexistent",
                f"{where(trace, step)}, {c.id}",
                f"power {b.power - lost} ({lost} anthem(s) phased out)",
                f"power {c.power}",
            )


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.COMBAT},
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.DeclareAttackers, a.PhaseOut, a.PassTurn), permanent_kinds=("creature",)
    ),
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


@rule_property(
    "506.4",
    needs={C.COMBAT, C.TARGETING},
    scenarios=lambda caps: scenarios(
        set(caps) - _QUIET - {C.LEAVE_GAME},
        kinds=(a.DeclareAttackers, a.PhaseOut, a.PassTurn),
        permanent_kinds=("creature",),
        min_actions=2,
        ready=True,
    ),
    reads={"life"},
)
def phasing_out_removes_from_combat(trace: Trace) -> None:
    """A creature that phases out is removed from combat: it is no longer
    attacking and deals no combat damage."""
    for step in trace.steps:
        if isinstance(step.action, a.PhaseOut) and step.after.refused is None:
            for t in step.action.targets:
                c = view(step.after, t)
                expect(
                    c is None or not c.attacking,
                    "506.4",
                    f"{where(trace, step)}, {t}",
                    "removed from combat",
                    "still attacking",
                )
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            attackers = [p for p in step.before.permanents if p.attacking and p.phased_in]
            if not any(p.attacking for p in step.before.permanents):
                continue
            defender = _defender(trace, step)
            damage = sum(p.power or 0 for p in attackers)
            lost = step.before.player(defender).life - step.after.player(defender).life
            expect(
                lost == damage,
                "506.4",
                f"{where(trace, step)} (combat damage to player {defender})",
                f"{damage} damage from {', '.join(p.id for p in attackers) or 'no attacker'}",
                f"{lost} life lost",
            )


def _defender(trace: Trace, step: object) -> int:
    index = trace.steps.index(step)  # type: ignore[arg-type]
    for earlier in reversed(trace.steps[:index]):
        if isinstance(earlier.action, a.DeclareAttackers) and earlier.after.refused is None:
            return earlier.action.defender
    raise AssertionError("attackers without a declaration")


@st.composite
def _pump_while_phased_out(draw: st.DrawFn, caps: Collection[C]) -> Scenario:
    """p2 phases out until p1 leaves; p2's controller pumps their team;
    p1 is destroyed, so p2 phases in the same turn (610.4)."""
    base = draw(
        scenarios(
            set(caps) - {C.ANTHEM, C.CONTROL_CHANGE, C.COUNTERS, C.LEAVE_GAME},
            kinds=(a.PumpTeam, a.PhaseOut),
            max_actions=2,
            min_permanents=2,
            max_permanents=4,
            permanent_kinds=("creature",),
            ready=True,
        )
    )
    source, target = base.setup.permanents[:2]
    return Scenario(
        base.setup,
        (
            a.PhaseOutUntil(source.controller, source.id, target.id),
            *base.actions,
            a.PumpTeam(target.controller),
            a.Destroy(source.controller, source.id),
        ),
    )


@rule_property(
    "702.26e",
    needs={C.PT_BOOST, C.PHASE_OUT_UNTIL, C.DESTROY},
    scenarios=_pump_while_phased_out,
)
def resolving_effects_skip_phased_out_creatures(trace: Trace) -> None:
    """ "Creatures you control get +1/+1 until end of turn" doesn't include a
    creature that was phased out as it resolved, even after it phases in the
    same turn: its power is what it was before it phased out."""
    before_out: dict[str, int] = {}
    for step in trace.steps:
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None:
                continue
            if b.phased_in and c.phased_out and b.power is not None:
                before_out[c.id] = b.power
            if b.phased_out and c.phased_in and c.id in before_out:
                expect(
                    c.power == before_out[c.id],
                    "702.26e",
                    f"{where(trace, step)}, {c.id}",
                    f"power {before_out[c.id]}, as before it phased out",
                    f"power {c.power}",
                )


@rule_property(
    "R2017-targets",
    needs={C.DESTROY, C.TARGETING},
    scenarios=lambda caps: scenarios(caps, kinds=(a.Destroy,), min_actions=1),
    reads={"cards_drawn"},
)
def spell_whose_target_phased_out_does_nothing(trace: Trace) -> None:
    """A spell whose only target phases out in response doesn't resolve:
    the target isn't destroyed and the caster draws no card."""
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.Destroy) or not x.phased_out_in_response:
            continue
        if step.after.refused is not None:
            continue
        c = view(step.after, x.target)
        drawn = step.after.player(x.caster).cards_drawn - step.before.player(x.caster).cards_drawn
        expect(
            c is not None and c.on_battlefield and drawn == 0,
            "R2017-targets",
            f"{where(trace, step)}, {x.target}",
            "still on the battlefield (phased out) and no card drawn",
            f"{'gone' if c is None else c.zone}, {drawn} card(s) drawn",
        )


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs={C.ACTIVATED_ABILITIES},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.Activate, a.PhaseOut, a.PassTurn),
        min_actions=1,
        effects=False,
        permanent_kinds=("artifact", "creature"),
    ),
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
