"""Properties of replacement effects and a life total that can't change
(Teferi's Protection): an event replaced by gaining life is replaced by
nothing (R2017-replaced-by-life); gaining or losing life can't be replaced
by another event (R2017-life-replacement). Both are exercised only where the engine
also showed the replacement apply to a player whose life could change."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.life import scenarios_of
from conformance.properties.players import (
    draws,
    free_through,
    life,
    life_change,
    locked_through,
    replacing,
    shown_resolving,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import Ability
from conformance.strategies import players

_LOCK = (C.PLAYER_PROTECTION, C.LIFE_LOCK, C.PHASE_OUT_ALL, C.LIFE_SPELLS)
_NEEDS = (*_LOCK, C.LIFE_REPLACEMENT)
_LOSS_NEEDS = (*_LOCK, C.LOSS_REPLACEMENT)
#: The spells that make their caster draw a card as they resolve.
_DRAWING = (a.GainLife, a.LoseLife, a.PayLife)


def _draws_replaced(trace: Trace, free: bool) -> Iterator[tuple[Step, int]]:
    """Each drawing spell carried out while an opponent's "draw into life"
    replacement applies to its caster, whose life can change (`free`) or
    can't."""
    for i, step in enumerate(trace.steps):
        x = step.action
        if not isinstance(x, _DRAWING) or step.after.refused is not None:
            continue
        through = free_through if free else locked_through
        if through(trace, i, x.player) and _always(trace, step, "draw_to_life", x.player):
            yield step, x.player


def _always(trace: Trace, step: Step, ability: str, player: int) -> bool:
    """`ability` applies to `player` both before and after `step`."""
    return bool(
        replacing(trace, step.before, ability, player)  # type: ignore[arg-type]
        and replacing(trace, step.after, ability, player)  # type: ignore[arg-type]
    )


def _draw_became_nothing(trace: Trace) -> bool:
    """R2017-replaced-by-life: the engine showed Teferi's Protection resolve,
    then a spell of that player resolve with its draw replaced by gaining
    life, which did nothing; and the same replacement turn a draw into life
    for a player whose life could change (life up, no card)."""
    shown = any(
        draws(step, p) == 0 and life_change(step, p) > 0 for step, p in _draws_replaced(trace, True)
    )
    return shown and any(
        draws(step, p) == 0 and not life_change(step, p) and shown_resolving(trace, p)
        for step, p in _draws_replaced(trace, False)
    )


@rule_property(
    "R2017-replaced-by-life",
    needs=_NEEDS,
    scenarios=scenarios_of(
        players.draw_to_life_locked,
        a.GainLife,
        a.LoseLife,
        a.PayLife,
        extra=(C.LIFE_REPLACEMENT,),
    ),
    exercised=_draw_became_nothing,
    reads=("life", "cards_drawn"),
)
def draws_replaced_by_life_become_nothing(trace: Trace) -> None:
    """R2017-replaced-by-life: an effect replacing a draw with gaining life
    ("if an opponent would draw a card, that player gains 2 life instead")
    still applies to a player whose life can't change: the draw is replaced
    by nothing."""
    for step, p in _draws_replaced(trace, False):
        at = f"{where(trace, step)}, player {p} (life total can't change)"
        expect(
            draws(step, p) == 0,
            "R2017-replaced-by-life",
            at,
            "no card drawn: the draw is replaced by gaining life, which does nothing",
            f"{draws(step, p)} drawn",
        )


def _changes(
    trace: Trace, free: bool, ability: Ability, kind: type[a.GainLife | a.LoseLife]
) -> Iterator[tuple[Step, a.GainLife | a.LoseLife, set[int]]]:
    """Each spell of `kind` (gaining or losing life) carried out while an
    opponent's replacement `ability` of that life change applies to its
    caster, whose life can change (`free`) or can't; with the replacements'
    controllers."""
    for i, step in enumerate(trace.steps):
        x = step.action
        if not isinstance(x, kind) or step.after.refused is not None:
            continue
        through = free_through if free else locked_through
        if through(trace, i, x.player) and _always(trace, step, ability, x.player):
            yield step, x, set(replacing(trace, step.before, ability, x.player))


def _could_not_apply(trace: Trace, ability: Ability, kind: type[a.GainLife | a.LoseLife]) -> bool:
    """Shown both: `ability` replacing a `kind` change of a life total that
    could change, and not replacing one of a total that couldn't."""
    shown = any(
        any(draws(step, c) == x.amount for c in owners)
        for step, x, owners in _changes(trace, True, ability, kind)
    )
    return shown and any(
        not any(draws(step, c) for c in owners) and shown_resolving(trace, x.player)
        for step, x, owners in _changes(trace, False, ability, kind)
    )


def _gain_could_not_be_replaced(trace: Trace) -> bool:
    """R2017-life-replacement: the engine showed Teferi's Protection resolve,
    then that player gain life with an opponent's "if an opponent would gain
    life, you draw that many cards instead" in play, and nobody drew; and
    the replacement apply to a player whose life could change (its
    controller drew)."""
    return _could_not_apply(trace, "gain_to_draw", a.GainLife)


def _loss_could_not_be_replaced(trace: Trace) -> bool:
    """R2017-life-replacement, its loss half: the engine showed Teferi's
    Protection resolve, then that player lose life with an opponent's "if
    an opponent would lose life, you draw that many cards instead" in play,
    and nobody drew; and the replacement apply to a player whose life could
    change (its controller drew)."""
    return _could_not_apply(trace, "lose_to_draw", a.LoseLife)


def _nobody_drew(
    trace: Trace, ability: Ability, kind: type[a.GainLife | a.LoseLife], change: str
) -> None:
    for step, x, owners in _changes(trace, False, ability, kind):
        for c in owners:
            expect(
                draws(step, c) == 0,
                "R2017-life-replacement",
                f"{where(trace, step)}, player {x.player} (life total can't change)",
                f"player {c} draws nothing: {change} life is impossible, so it can't be replaced",
                f"player {c} drew {draws(step, c)} (life {life(step.after, x.player)})",
            )


@rule_property(
    "R2017-life-replacement",
    needs=_NEEDS,
    scenarios=scenarios_of(
        players.gain_to_draw_locked, a.GainLife, a.SetLife, extra=(C.LIFE_REPLACEMENT,)
    ),
    exercised=_gain_could_not_be_replaced,
    reads=("life", "cards_drawn"),
)
def life_gain_replacements_cannot_apply(trace: Trace) -> None:
    """R2017-life-replacement: an effect replacing a player's gaining life
    with another event ("you draw that many cards instead") can't apply
    while that player's life can't change: nothing happens."""
    _nobody_drew(trace, "gain_to_draw", a.GainLife, "gaining")


@rule_property(
    "R2017-life-replacement",
    needs=_LOSS_NEEDS,
    scenarios=scenarios_of(
        players.lose_to_draw_locked, a.LoseLife, a.SetLife, extra=(C.LOSS_REPLACEMENT,)
    ),
    exercised=_loss_could_not_be_replaced,
    reads=("life", "cards_drawn"),
)
def life_loss_replacements_cannot_apply(trace: Trace) -> None:
    """R2017-life-replacement, its loss half: an effect replacing a player's
    losing life with another event ("if an opponent would lose life, you
    draw that many cards instead") can't apply while that player's life
    can't change: nothing happens."""
    _nobody_drew(trace, "lose_to_draw", a.LoseLife, "losing")
