"""State-based actions and phasing (702.26b, 702.26c, R2017-nonexistent;
704.3): they don't see a phased-out creature, however its toughness falls,
they see a phased-in creature without the anthems that phased out, which
apply nothing (a creature whose damage then reaches its toughness dies,
704.5g), and they see a creature again as it phases in."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import sba_may_wait
from conformance.properties.history import (
    a_player_left,
    abilities,
    ceased_while_phased_out,
    creature_ids,
    default_controllers,
    in_game,
    indirectly_out,
    released_by_leaving,
    until_sources,
    view,
    was_in_went_out,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup
from conformance.strategies._draw import Caps, maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import new_id, with_permanents

#: Triggers, skipped untap steps, players leaving and boosts: none bears on
#: state-based actions here.
_QUIET = {C.TRIGGERS, C.PHASE_TRIGGERS, C.SKIP_UNTAP, C.LEAVE_GAME, C.PT_BOOST}


def _anthems(trace: Trace, obs: Observation, pid: str, controller: int) -> set[str]:
    """The phased-in anthems of `controller` in `obs` other than `pid`: those
    that raise `pid`'s toughness (613.4, 702.26b)."""
    return {
        p.id
        for p in obs.permanents
        if p.phased_in
        and p.controller == controller
        and p.id != pid
        and "anthem" in abilities(trace.scenario, p.id)
    }


def _outlived_lethal_damage_phased_out(trace: Trace) -> bool:
    """702.26b: a creature the engine showed with damage marked phased out;
    later in the turn (before cleanup, 514.2) an anthem of its controller
    that stayed as it went out stopped applying (it left, phased out or
    changed controller), so the damage reached the toughness the creature
    would have had with the anthems then phased in; and the engine still
    showed it phased out after that."""
    # id → (damage, toughness, anthems) as it went out, then the anthems
    # still applying once it was out.
    out: dict[str, tuple[int, int, set[str], set[str]]] = {}
    for step in trace.steps:
        if isinstance(step.action, a.PassTurn):
            out.clear()
            continue
        for pid, (damage, toughness, before, stayed) in out.items():
            c = view(step.after, pid)
            if c is None or not (c.on_battlefield and c.phased_out):
                continue
            now = _anthems(trace, step.after, pid, c.controller)
            would_be = toughness - len(before - now) + len(now - before)
            if stayed - now and would_be <= damage:
                return True
        for b in step.before.permanents:
            if b.damage > 0 and b.toughness is not None and was_in_went_out(step, b.id):
                before = _anthems(trace, step.before, b.id, b.controller)
                stayed = _anthems(trace, step.after, b.id, b.controller)
                out[b.id] = (b.damage, b.toughness, before, stayed)
    return False


def _damage_then_anthem_goes(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """A creature X is dealt damage one short of its toughness, which an
    anthem of its controller raises (`_damaged_under_an_anthem`). Then
    either it phases out and the anthem is destroyed, phases out or changes
    controller, so the damage reaches the toughness the creature would
    have; or it stays phased in and the anthem phases out, so the damage
    reaches its toughness."""
    setup, x, anthem, hits, player = _damaged_under_an_anthem(draw, setup)
    if maybe(draw):
        return setup, (*hits, a.PhaseOut(player, (anthem.id,)))
    goes: list[a.Action] = [a.PhaseOut(player, (anthem.id,))]
    if C.DESTROY in caps:
        goes.append(a.Destroy(player, anthem.id))
    if C.CONTROL_CHANGE in caps:
        others = [q for q in range(setup.players) if q != x.controller]
        goes.append(a.GainControl(pick(draw, others), anthem.id))
    return setup, (
        *hits,
        a.PhaseOut(x.controller, (x.id,)),
        pick(draw, goes),
    )


def _damaged_under_an_anthem(
    draw: st.DrawFn, setup: Setup
) -> tuple[Setup, Permanent, Permanent, tuple[a.Action, ...], int]:
    """A creature X, not a token (before 2017 a phased-out token ceases to
    exist, 702.25k; a 1/1 is added if no creature is phased in), an anthem
    of its controller added to the setup, the spells of a player dealing X
    damage one short of its toughness with the anthems, and that player."""
    creatures = [
        p for p in setup.permanents if p.is_creature and not p.token and p.phased_out is None
    ]
    if not creatures:
        player = pick(draw, range(setup.players))
        creatures = [Permanent(new_id(setup), player, player, power=1, toughness=1)]
        setup = with_permanents(setup, *creatures)
    x = pick(draw, creatures)
    anthem = Permanent(
        new_id(setup),
        owner=x.controller,
        controller=x.controller,
        types=("enchantment",),
        abilities=("anthem",),
    )
    setup = with_permanents(setup, anthem)
    anthems = [
        p
        for p in setup.permanents
        if "anthem" in p.abilities
        and p.phased_out is None
        and p.controller == x.controller
        and p.id != x.id
    ]
    toughness = (x.toughness or 1) + dict(x.counters).get("+1/+1", 0) + len(anthems)
    player = pick(draw, range(setup.players))
    # Spells of at most 3 damage each, as everywhere in the scenarios.
    damage = toughness - 1
    hits = tuple(a.DealDamage(player, x.id, min(3, damage - k)) for k in range(0, damage, 3))
    return setup, x, anthem, hits, player


def _back_with_lethal_damage(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26c: a creature X dealt damage one short of its toughness under
    an anthem (`_damaged_under_an_anthem`) phases out until S, a new
    artifact, leaves the battlefield; the anthem is destroyed; then S is,
    so X phases back in with its damage (kept until cleanup, 514.2)
    reaching its toughness."""
    setup, x, anthem, hits, player = _damaged_under_an_anthem(draw, setup)
    source = Permanent(new_id(setup), player, player, ("artifact",))
    setup = with_permanents(setup, source)
    return setup, (
        *hits,
        a.PhaseOutUntil(player, source.id, x.id),
        a.Destroy(player, anthem.id),
        a.Destroy(player, source.id),
    )


def _anthem_scenarios(
    caps: Caps, plan: Callable[[st.DrawFn, Setup, Caps], Planned] = _damage_then_anthem_goes
) -> st.SearchStrategy[Scenario]:
    """`plan` (by default `_damage_then_anthem_goes`), then a few more
    actions."""
    return planned_scenarios(
        set(caps) - _QUIET,
        plan,
        kinds=(a.DealDamage, a.PhaseOut, a.PhaseOutUntil, a.Destroy, a.GainControl, a.PassTurn),
        max_actions=3,
        min_permanents=1,
        permanent_kinds=("creature", "creature", "enchantment", "artifact"),
        effects=False,
    )


@rule_property(
    "702.26b",
    needs={C.DAMAGE_MARKED, C.TARGETING, C.ANTHEM},
    scenarios=_anthem_scenarios,
    exercised=_outlived_lethal_damage_phased_out,
)
def state_based_actions_ignore_phased_out_creatures(trace: Trace) -> None:
    """702.26b: a phased-out creature is treated as though it doesn't
    exist, so state-based actions don't see it: when the anthem that raised
    its toughness goes while it is phased out, the damage marked on it
    (kept until cleanup, 514.2) may reach its toughness, and it still stays
    on the battlefield. No action but a turn passing takes a phased-out
    creature off the battlefield, unless what it waited for left the
    battlefield (610.4: it phases in with its damage, and may then die),
    its owner left the game (702.26k, 800.4a), it was exiled as its control
    fell to a player who had left (800.4c; readings F leaves open whether a
    phased-out one is), or it was a token that ceased to exist (702.25k,
    217.8d, in the older editions). (That it
    doesn't phase in either is `phased_out_permanents_stay_out_between_untap_steps`.)"""
    creatures = creature_ids(trace.scenario)
    by_default = default_controllers(trace.scenario)
    history = zip(trace.steps, until_sources(trace), indirectly_out(trace), strict=True)
    for step, waiting, indirect in history:
        turn_passed = isinstance(step.action, a.PassTurn)
        if turn_passed or step.after.refused is not None or a_player_left(step):
            continue
        for b in step.before.permanents:
            if b.id not in creatures or not (b.on_battlefield and b.phased_out):
                continue
            released = released_by_leaving(step, waiting, indirect, b.id)
            if released or ceased_while_phased_out(step, b.id):
                continue
            c = view(step.after, b.id)
            if c is not None and c.zone == "exile" and not in_game(step.before, by_default[b.id]):
                continue  # 800.4c: its control fell to a player who left (readings F: open)
            expect(
                c is not None and c.on_battlefield,
                "702.26b",
                f"{where(trace, step)}, {b.id}",
                "still on the battlefield (state-based actions don't see it)",
                "gone" if c is None else c.zone,
            )


def _phasing_out(step: Step) -> list[str]:
    """What the engine showed phasing out during `step`."""
    return [b.id for b in step.before.permanents if was_in_went_out(step, b.id)]


def _died_as_its_anthem_phased_out(trace: Trace) -> bool:
    """702.26b, 704.5g: an anthem of a creature's controller phased out, and
    the creature, shown phased in with damage marked short of its toughness
    before, was put into a graveyard in that step."""
    for step in trace.steps:
        went_out = set(_phasing_out(step))
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if (
                b.phased_in
                and b.toughness is not None
                and 0 < b.damage < b.toughness
                and _anthems(trace, step.before, b.id, b.controller) & went_out
                and c is not None
                and c.zone == "graveyard"
            ):
                return True
    return False


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs={C.DAMAGE_MARKED, C.TARGETING, C.ANTHEM},
    scenarios=_anthem_scenarios,
    exercised=_died_as_its_anthem_phased_out,
)
def state_based_actions_ignore_phased_out_anthems(trace: Trace) -> None:
    """702.26b, R2017-nonexistent: a phased-out permanent's static
    abilities apply nothing, so an anthem that phases out no longer raises
    the toughness of its controller's creatures, for state-based actions
    too: one whose damage marked then reaches its toughness is destroyed
    (704.5g), one whose toughness is 0 or less goes to the graveyard
    (704.5f). After an action in which something phased out, no phased-in
    creature is shown with lethal damage or toughness 0 or less; except
    where state-based actions may not have been checked yet (704.3, case D
    of docs/readings.md)."""
    for k, step in enumerate(trace.steps, 1):
        if step.after.refused is not None or sba_may_wait(trace, k):
            continue
        went_out = _phasing_out(step)
        if not went_out:
            continue
        for c in step.after.permanents:
            if not c.phased_in or c.toughness is None:
                continue
            expect(
                c.toughness > 0 and c.damage < c.toughness,
                "702.26b",
                f"{where(trace, step)}, {c.id} ({c.toughness} toughness, {c.damage} damage marked)",
                f"gone as {', '.join(went_out)} phased out: state-based actions destroy a "
                "creature with lethal damage (704.5g), and one with toughness 0 or less goes "
                "to the graveyard (704.5f)",
                f"{c.id} still on the battlefield",
            )


def _phasing_in(step: Step) -> list[str]:
    """What the engine showed phasing in during `step`."""
    return [
        b.id
        for b in step.before.permanents
        if b.on_battlefield and b.phased_out and _phased_in(view(step.after, b.id))
    ]


def _phased_in(v: PermanentView | None) -> bool:
    return v is not None and v.phased_in


def _died_as_it_phased_in(trace: Trace) -> bool:
    """702.26c, 704.5g: a creature shown with damage marked earlier in the
    turn, then phased out (which shows no damage), was put into a graveyard
    in a step no turn passed in: nothing but phasing in with that damage
    reaching its toughness puts it there (state-based actions don't see it
    phased out, 702.26b, nor does a spell)."""
    damaged: set[str] = set()
    for step in trace.steps:
        if isinstance(step.action, a.PassTurn):
            damaged.clear()  # 514.2: damage is removed at cleanup
            continue
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if b.phased_out and b.id in damaged and c is not None and c.zone == "graveyard":
                return True
        damaged |= {c.id for c in step.after.permanents if c.phased_in and c.damage > 0}
    return False


@rule_property(
    "702.26c",
    # Damage stays marked while phased out, until cleanup (514.2): the
    # Mirage rules, which remove it as a permanent phases out, never meet
    # the case.
    "514.2",
    needs={C.DAMAGE_MARKED, C.TARGETING, C.ANTHEM, C.PHASE_OUT_UNTIL, C.DESTROY},
    scenarios=lambda caps: _anthem_scenarios(caps, _back_with_lethal_damage),
    exercised=_died_as_it_phased_in,
)
def phased_in_creatures_meet_state_based_actions(trace: Trace) -> None:
    """702.26c: a permanent that phases in is seen again, by state-based
    actions too: a creature that phases in mid-turn with damage marked
    (kept while it was out, 514.2) reaching a toughness that fell while it
    was out (its anthem left) is destroyed at once (704.5g), not left until
    cleanup; one with toughness 0 or less goes to the graveyard (704.5f).
    Except where state-based actions may not have been checked yet (704.3,
    case D of docs/readings.md)."""
    for k, step in enumerate(trace.steps, 1):
        if step.after.refused is not None or sba_may_wait(trace, k):
            continue
        for pid in _phasing_in(step):
            c = view(step.after, pid)
            if c is None or c.toughness is None:
                continue
            expect(
                c.toughness > 0 and c.damage < c.toughness,
                "702.26c",
                f"{where(trace, step)}, {pid} ({c.toughness} toughness, {c.damage} damage marked)",
                "gone as it phased in: state-based actions see it again and destroy a "
                "creature with lethal damage (704.5g); one with toughness 0 or less goes to "
                "the graveyard (704.5f)",
                f"{pid} phased in and still on the battlefield",
            )
