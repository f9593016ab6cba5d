"""Properties of "your life total can't change" (Teferi's Protection):
life spells still resolve doing nothing to it (R2017-life-no-effect), set
and exchanged totals stay (R2017-set-life, R2017-exchange), life costs
can't be paid (R2017-pay-life, R2017-gain-life-cost), and replacement
effects of life and draws (R2017-replaced-by-life, R2017-life-replacement).

Each is exercised only where the engine also showed the same kind of
change happen to a player whose life could change, and showed the card
resolve: an engine that never changes a life total earns nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.players import (
    draws,
    free_through,
    life,
    life_change,
    locked_through,
    played,
    protected_scenarios,
    replaced_around,
    shown_resolving,
    tried,
)
from conformance.properties.registry import ScenarioFactory, expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import plans, players

_LOCK = (C.PLAYER_PROTECTION, C.LIFE_LOCK, C.PHASE_OUT_ALL)
_SPELLS = (*_LOCK, C.LIFE_SPELLS)
_READS = ("life", "cards_drawn")
#: The spells that make their caster draw a card as they resolve.
DRAWING_SPELLS = (a.GainLife, a.LoseLife, a.SetLife, a.PayLife)


def scenarios_of(plan: plans.Plan, *kinds: type, extra: tuple[C, ...] = ()) -> ScenarioFactory:
    """Scenarios of `plan` followed by up to two more actions of `kinds` (or
    turns passing), from small positions of phased-in permanents."""
    return protected_scenarios(
        plan,
        *kinds,
        focused=(*_SPELLS, C.LIFE_COSTS, *extra),
        permanent_kinds=("creature", "artifact"),
    )


def _draws_its_card(trace: Trace, step: Step, player: int) -> bool:
    """The spell's own draw is a draw: nothing replaces it (R2017-replaced-by-life)."""
    return not replaced_around(trace, step, "draw_to_life", player)


def _locked_spells(trace: Trace, kinds: tuple[type, ...]) -> Iterator[tuple[int, Step, Any]]:
    for i, step in enumerate(trace.steps):
        x = step.action
        if isinstance(x, kinds) and locked_through(trace, i, x.player):  # type: ignore[attr-defined]
            yield i, step, x


def _spell_changed_life(trace: Trace, kinds: tuple[type, ...]) -> bool:
    """A spell of `kinds` changed the life total of a player who could change it."""
    return any(
        isinstance(step.action, kinds)
        and step.after.refused is None
        and free_through(trace, i, step.action.player)  # type: ignore[attr-defined]
        and life_change(step, step.action.player)  # type: ignore[attr-defined]
        for i, step in enumerate(trace.steps)
    )


def _life_spells_did_nothing(trace: Trace) -> bool:
    """R2017-life-no-effect: the engine showed Teferi's Protection resolve,
    then a life-gain or life-loss spell of that player resolve (its card
    drawn) leaving their life total as it was, and elsewhere such a spell
    change a life total that could change."""
    return _spell_changed_life(trace, (a.GainLife, a.LoseLife)) and any(
        step.after.refused is None
        and draws(step, x.player) == 1
        and not life_change(step, x.player)
        and shown_resolving(trace, x.player)
        for _, step, x in _locked_spells(trace, (a.GainLife, a.LoseLife))
    )


def _locked_lifelink(trace: Trace) -> Iterator[tuple[Step, int]]:
    """Each lifelink spell the engine carried out whose caster's life total
    couldn't change, with that caster."""
    for i, step, x in played(trace, a.DamageOpponents):
        if locked_through(trace, i, x.caster):
            yield step, x.caster


def _dealt_damage(step: Step, caster: int) -> bool:
    """The spell of `caster` visibly dealt damage: an opponent lost life or
    got poison counters (702.90b)."""
    return any(
        p.index != caster
        and (life_change(step, p.index) < 0 or p.poison > step.before.players[p.index].poison)
        for p in step.after.players
    )


def _lifelink_did_nothing(trace: Trace) -> bool:
    """R2017-life-no-effect, its lifelink half: the engine showed a lifelink
    spell gain its caster life (702.15b), and, after showing that caster's
    Teferi's Protection resolve, one deal damage leaving their life total."""
    gained = any(
        life_change(step, x.caster) > 0 and free_through(trace, i, x.caster)
        for i, step, x in played(trace, a.DamageOpponents)
    )
    return gained and any(
        _dealt_damage(step, caster)
        and not life_change(step, caster)
        and shown_resolving(trace, caster)
        for step, caster in _locked_lifelink(trace)
    )


def _locked_life_did_nothing(trace: Trace) -> bool:
    """R2017-life-no-effect: a locked player's life spell or lifelink
    spell left their life total, as the rule says."""
    return _life_spells_did_nothing(trace) or _lifelink_did_nothing(trace)


def _protections_cast(trace: Trace) -> Iterator[tuple[Step, int]]:
    """Each Teferi's Protection the engine carried out, with its caster,
    but one cast right after a player left the game: triggers of that
    leaving may still wait (800.4a: no player received priority), and they
    resolve before the spell is cast."""
    for i, step in enumerate(trace.steps):
        x = step.action
        after_leaving = i > 0 and isinstance(trace.steps[i - 1].action, a.Concede)
        if isinstance(x, a.TeferisProtection) and step.after.refused is None and not after_leaving:
            yield step, x.player


@rule_property(
    "R2017-life-no-effect",
    needs=_SPELLS,
    scenarios=scenarios_of(
        players.life_spells_locked,
        a.GainLife,
        a.LoseLife,
        extra=(C.PHASE_TRIGGERS, C.PLAYER_DAMAGE),
    ),
    exercised=_locked_life_did_nothing,
    reads=_READS,
)
def locked_life_spells_resolve_without_changing_life(trace: Trace) -> None:
    """R2017-life-no-effect: while a player's life total can't change, their
    spells that gain or lose life still resolve (the card is drawn); the
    life part has no effect. So has the life gain of their lifelink spell
    (702.15b: its damage makes its controller gain that much life; 119.10:
    a player whose life total can't change gains none), whatever it dealt.
    So does the life gain of "whenever this phases out, you gain life" of a
    permanent Teferi's Protection phases out: the life total can't change
    from its first instruction on (608.2c), and the trigger is put on the
    stack only after the spell has resolved (603.3): the caster's life total
    stays through the spell."""
    for _, step, x in _locked_spells(trace, (a.GainLife, a.LoseLife)):
        _resolved_leaving_life(trace, step, x.player, "R2017-life-no-effect")
    for step, caster in _locked_lifelink(trace):
        expect(
            not life_change(step, caster),
            "R2017-life-no-effect",
            f"{where(trace, step)}, player {caster} (life total can't change)",
            "their life total stays: their lifelink spell's life gain has no effect",
            f"life {life(step.before, caster)} -> {life(step.after, caster)}",
        )
    for step, player in _protections_cast(trace):
        expect(
            not life_change(step, player),
            "R2017-life-no-effect",
            f"{where(trace, step)}, player {player} casting Teferi's Protection",
            "their life total stays: it can't change from the spell's first instruction, "
            "before the triggers of what it phases out resolve (608.2c, 603.3)",
            f"life {life(step.before, player)} -> {life(step.after, player)}",
        )


def _resolved_leaving_life(trace: Trace, step: Step, player: int, rule: str) -> None:
    at = f"{where(trace, step)}, player {player} (life total can't change)"
    expect(
        step.after.refused is None, rule, at, "the spell resolves", f"refused: {step.after.refused}"
    )
    expect(
        not life_change(step, player),
        rule,
        at,
        "their life total stays",
        f"life {life(step.before, player)} -> {life(step.after, player)}",
    )
    if _draws_its_card(trace, step, player):
        expect(
            draws(step, player) == 1,
            rule,
            at,
            "the spell's card drawn",
            f"{draws(step, player)} drawn",
        )


def _set_did_nothing(trace: Trace) -> bool:
    """R2017-set-life: the engine showed Teferi's Protection resolve, then a
    spell setting that player's life to another number resolve leaving it,
    and elsewhere such a spell set a life total that could change."""
    return _spell_changed_life(trace, (a.SetLife,)) and any(
        step.after.refused is None
        and x.life != life(step.before, x.player)
        and not life_change(step, x.player)
        and shown_resolving(trace, x.player)
        for _, step, x in _locked_spells(trace, (a.SetLife,))
    )


@rule_property(
    "R2017-set-life",
    needs=_SPELLS,
    scenarios=scenarios_of(players.set_life_locked, a.SetLife),
    exercised=_set_did_nothing,
    reads=_READS,
)
def setting_a_locked_life_total_does_nothing(trace: Trace) -> None:
    """R2017-set-life (119.5: setting a life total is gaining or losing the
    difference): while it can't change, "your life total becomes N" does
    nothing to it; the rest of the spell resolves."""
    for _, step, x in _locked_spells(trace, (a.SetLife,)):
        _resolved_leaving_life(trace, step, x.player, "R2017-set-life")


def _locked_exchanges(trace: Trace) -> Iterator[tuple[int, Step, a.ExchangeLife]]:
    for i, step, x in tried(trace, a.ExchangeLife):
        if locked_through(trace, i, x.player) or locked_through(trace, i, x.target):
            yield i, step, x


def _exchange_did_nothing(trace: Trace) -> bool:
    """R2017-exchange: the engine showed Teferi's Protection resolve, then an
    exchange of different life totals with that player resolve changing
    neither, and elsewhere an exchange swap two totals that could change."""
    swapped = any(
        life_change(step, x.player) and free_through(trace, i, x.player)
        for i, step, x in played(trace, a.ExchangeLife)
    )
    return swapped and any(
        step.after.refused is None
        and life(step.before, x.player) != life(step.before, x.target)
        and not life_change(step, x.player)
        and not life_change(step, x.target)
        and shown_resolving(trace, x.player)
        for _, step, x in _locked_exchanges(trace)
    )


@rule_property(
    "R2017-exchange",
    needs=(*_SPELLS, C.TARGETING),
    scenarios=scenarios_of(
        players.exchange_locked, a.ExchangeLife, a.LoseLife, extra=(C.TARGETING,)
    ),
    exercised=_exchange_did_nothing,
    reads=("life",),
)
def locked_life_totals_are_not_exchanged(trace: Trace) -> None:
    """R2017-exchange: if either player's life total can't change, an
    exchange of life totals doesn't happen: neither total changes."""
    for _, step, x in _locked_exchanges(trace):
        if step.after.refused is not None:
            continue
        for p in (x.player, x.target):
            expect(
                not life_change(step, p),
                "R2017-exchange",
                f"{where(trace, step)}, player {p}",
                "no exchange: a life total can't change",
                f"life {life(step.before, p)} -> {life(step.after, p)}",
            )


def _refused_pay(trace: Trace) -> bool:
    """R2017-pay-life: the engine refused a locked player's spell costing
    more than 0 life after showing Teferi's Protection resolve, and
    elsewhere let a player whose life could change pay life for one."""
    paid = any(
        x.amount > 0
        and life_change(step, x.player) == -x.amount
        and free_through(trace, i, x.player)
        for i, step, x in played(trace, a.PayLife)
    )
    return paid and any(
        x.amount > 0 and step.after.refused is not None and shown_resolving(trace, x.player)
        for _, step, x in _locked_spells(trace, (a.PayLife,))
    )


@rule_property(
    "R2017-pay-life",
    needs=(*_LOCK, C.LIFE_COSTS),
    scenarios=scenarios_of(players.pay_life_locked, a.PayLife),
    exercised=_refused_pay,
    reads=("life",),
)
def locked_players_cannot_pay_life(trace: Trace) -> None:
    """R2017-pay-life: while a player's life total can't change, they can't
    pay a cost of any life other than 0 (119.4: 0 life can always be paid)."""
    for _, step, x in _locked_spells(trace, (a.PayLife,)):
        at = f"{where(trace, step)}, player {x.player} (life total can't change)"
        if x.amount > 0:
            expect(
                step.after.refused is not None,
                "R2017-pay-life",
                at,
                f"can't pay {x.amount} life: the spell can't be cast",
                f"cast it, life {life(step.before, x.player)} -> {life(step.after, x.player)}",
            )
        else:
            expect(
                step.after.refused is None,
                "R2017-pay-life",
                at,
                "pays 0 life: the spell is cast",
                f"refused: {step.after.refused}",
            )


def _locked_gifts(trace: Trace) -> Iterator[tuple[int, Step, a.GiveLife]]:
    for i, step, x in tried(trace, a.GiveLife):
        if locked_through(trace, i, x.opponent):
            yield i, step, x


def _refused_gift(trace: Trace) -> bool:
    """R2017-gain-life-cost: the engine refused a spell whose cost is that a
    locked player gains life, after showing their Teferi's Protection
    resolve, and elsewhere let that cost be paid by a player whose life
    could change (their life rose)."""
    paid = any(
        life_change(step, x.opponent) == x.amount and free_through(trace, i, x.opponent)
        for i, step, x in played(trace, a.GiveLife)
    )
    return paid and any(
        step.after.refused is not None and shown_resolving(trace, x.opponent)
        for _, step, x in _locked_gifts(trace)
    )


@rule_property(
    "R2017-gain-life-cost",
    needs=(*_LOCK, C.LIFE_COSTS),
    scenarios=scenarios_of(players.give_life_locked, a.GiveLife),
    exercised=_refused_gift,
    reads=("life",),
)
def locked_players_cannot_gain_life_as_a_cost(trace: Trace) -> None:
    """R2017-gain-life-cost: a cost of a player gaining life (an opponent's
    Invigorate) can't be paid while that player's life can't change."""
    for _, step, x in _locked_gifts(trace):
        expect(
            step.after.refused is not None,
            "R2017-gain-life-cost",
            f"{where(trace, step)}, player {x.opponent} (life total can't change)",
            f"the cost 'player {x.opponent} gains {x.amount} life' can't be paid",
            "the spell was cast",
        )
