"""Properties of replacement effects: under a life total that can't change
(Teferi's Protection), an event replaced by gaining life is replaced by
nothing (R2017-replaced-by-life), and gaining or losing life can't be
replaced by another event (R2017-life-replacement); both are exercised only
where the engine also showed the replacement apply to a player whose life
could change. And a phased-out permanent's replacement abilities apply
nothing (702.26b, R2017-nonexistent), exercised only where the engine also
showed the same ability apply while phased in."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.history import abilities
from conformance.properties.history import owners as owners_of
from conformance.properties.life import DRAWING_SPELLS, scenarios_of
from conformance.properties.players import (
    draws,
    free_through,
    life,
    life_change,
    locked_through,
    protected_scenarios,
    replaced_around,
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


# Replacement abilities of phased-out permanents (702.26b, R2017-nonexistent).

#: The replacement abilities of draws and life (docs/vocabulary.md) that
#: make their controller draw instead.
_DRAWING_INSTEAD: tuple[Ability, ...] = ("gain_to_draw", "lose_to_draw")
#: Each replacement ability of draws and life, and the spells of an opponent
#: it replaces part of, if it applies.
_REPLACES: dict[Ability, tuple[type, ...]] = {
    "draw_to_life": DRAWING_SPELLS,
    "gain_to_draw": (a.GainLife,),
    "lose_to_draw": (a.LoseLife,),
}


def _out_with(trace: Trace, step: Step, ability: Ability, player: int) -> dict[str, int]:
    """The permanents with `ability` of `player`'s opponents that are phased
    out both before and after `step`, by id, with their controller (their
    owner if the engine shows none while out)."""
    owner = owners_of(trace.scenario)

    def out(obs: Observation) -> dict[str, int]:
        return {
            p.id: p.controller if p.controller is not None else owner[p.id]
            for p in obs.permanents
            if p.on_battlefield and p.phased_out and ability in abilities(trace.scenario, p.id)
        }

    before, after = out(step.before), out(step.after)
    return {pid: c for pid, c in before.items() if pid in after and c != player}


def _spells(trace: Trace) -> Iterator[tuple[Step, int]]:
    """Each spell that makes its caster draw a card, carried out, with its caster."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, DRAWING_SPELLS) and step.after.refused is None:
            yield step, x.player


def _drawing_instead(trace: Trace, step: Step, player: int) -> set[int]:
    """The opponents of `player` whose phased-in permanents make them draw
    instead of `player` gaining or losing life, before or after `step`."""
    return {
        c
        for ability in _DRAWING_INSTEAD
        for obs in (step.before, step.after)
        for c in replacing(trace, obs, ability, player)
    }


def _applies_only_phased_in(trace: Trace) -> bool:
    """702.26b: for one replacement ability, the engine showed it replace a
    player's spell while phased in ("if an opponent would draw a card, that
    player gains 2 life instead": the spell's card not drawn; "... you draw
    that many cards instead": its controller drew), and the same spell
    resolve while every permanent with it was phased out."""
    for ability, replaced in _REPLACES.items():
        shown_in = shown_out = False
        for step, p in _spells(trace):
            if not isinstance(step.action, replaced):
                continue
            around = replaced_around(trace, step, ability, p)
            if ability == "draw_to_life":
                shown_in = shown_in or (around and draws(step, p) == 0)
            else:
                drew = {c for c in replacing(trace, step.before, ability, p) if draws(step, c)}
                shown_in = shown_in or bool(drew)
            shown_out = shown_out or (not around and bool(_out_with(trace, step, ability, p)))
        if shown_in and shown_out:
            return True
    return False


@rule_property(
    "702.26b",
    "R2017-nonexistent",
    needs=(C.LIFE_REPLACEMENT, C.LIFE_SPELLS),
    scenarios=protected_scenarios(
        players.replacement_phases_out,
        a.GainLife,
        a.LoseLife,
        focused=(
            C.LIFE_REPLACEMENT,
            C.LOSS_REPLACEMENT,
            C.LIFE_SPELLS,
            C.TARGETING,
            C.PHASE_OUT_ALL,
        ),
    ),
    exercised=_applies_only_phased_in,
    reads=("life", "cards_drawn"),
)
def phased_out_replacement_effects_apply_nothing(trace: Trace) -> None:
    """702.26b, R2017-nonexistent: the static abilities of a phased-out
    permanent apply nothing, replacement effects included: while every
    permanent with "if an opponent would draw a card, that player gains 2
    life instead" is phased out, a spell's card is drawn; while every one of
    a player's permanents with "if an opponent would gain (lose) life, you
    draw that many cards instead" is phased out, that player draws nothing
    for it."""
    for step, p in _spells(trace):
        at = f"{where(trace, step)}, player {p}'s spell"
        out = _out_with(trace, step, "draw_to_life", p)
        if out and not replaced_around(trace, step, "draw_to_life", p):
            expect(
                draws(step, p) == 1,
                "702.26b",
                at,
                f"its card drawn ({', '.join(sorted(out))} phased out: "
                "its replacement applies nothing)",
                f"{draws(step, p)} drawn, life {life(step.before, p)} -> {life(step.after, p)}",
            )
        drawing = _drawing_instead(trace, step, p)
        for ability in _DRAWING_INSTEAD:
            out = _out_with(trace, step, ability, p)
            for c in sorted(set(out.values()) - drawing):
                theirs = sorted(pid for pid, controller in out.items() if controller == c)
                expect(
                    draws(step, c) == 0,
                    "702.26b",
                    at,
                    f"player {c} draws nothing ({', '.join(theirs)} phased out: "
                    "its replacement applies nothing)",
                    f"player {c} drew {draws(step, c)}",
                )
