"""Properties of what Teferi's Protection leaves happening to its player:
unpreventable damage from a source with infect still gives them poison
counters while their life total stays (R2017-unpreventable), an effect
that doesn't target them still makes them discard, and the permanents they
own that other players control can still be targeted (R2017-nothing-else)."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.history import in_game, owners, view
from conformance.properties.players import (
    free_through,
    life,
    life_change,
    played,
    protected,
    protected_scenarios,
    shown_resolving,
)
from conformance.properties.protection import blasts, opponents
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import players

_PROTECTION = (C.PLAYER_PROTECTION, C.LIFE_LOCK, C.PHASE_OUT_ALL)
_INFECT = (*_PROTECTION, C.PLAYER_DAMAGE, C.INFECT)
_DISCARD = (*_PROTECTION, C.DISCARD)


def poison(obs: Observation, player: int) -> int:
    return obs.players[player].poison


def poisoned(step: Step, player: int) -> int:
    """The poison counters `player` got during `step`."""
    return poison(step.after, player) - poison(step.before, player)


def _poisoned_through_the_lock(trace: Trace) -> bool:
    """R2017-unpreventable: the engine showed infect damage give a player
    whose life could change poison counters, and, after showing Teferi's
    Protection resolve, unpreventable infect damage give its player poison
    counters while their life total stayed."""
    shown = any(
        poisoned(step, p) > 0
        for i, step, x in played(trace, a.DamageOpponents)
        if x.infect
        for p in opponents(step.before, x.caster)
        if free_through(trace, i, p)
    )
    return shown and any(
        x.infect
        and all(
            poisoned(step, p) > 0 and not life_change(step, p) and shown_resolving(trace, p)
            for p in shielded
        )
        for step, x, shielded in blasts(trace, True)
    )


@rule_property(
    "R2017-unpreventable",
    needs=_INFECT,
    # Lifelink infect damage to each opponent of a player who cast it.
    scenarios=protected_scenarios(players.infect_protected, a.DamageOpponents, focused=_INFECT),
    exercised=_poisoned_through_the_lock,
    reads=("life",),
)
def unpreventable_infect_damage_still_poisons(trace: Trace) -> None:
    """R2017-unpreventable: damage that can't be prevented, from a source
    with infect, is dealt to a player with protection from everything whose
    life total can't change; it has its other effects: they get that many
    poison counters (702.90b), and their life total stays."""
    for step, x, shielded in blasts(trace, True):
        if not x.infect:
            continue
        for p in shielded:
            at = f"{where(trace, step)}, unpreventable infect damage to player {p}"
            expect(
                poisoned(step, p) == x.amount,
                "R2017-unpreventable",
                at,
                f"player {p} gets {x.amount} poison counters: the damage is dealt",
                f"poison {poison(step.before, p)} -> {poison(step.after, p)}",
            )
            expect(
                not life_change(step, p),
                "R2017-unpreventable",
                at,
                f"player {p}'s life total stays (it can't change)",
                f"life {life(step.before, p)} -> {life(step.after, p)}",
            )


def discarded(step: Step, player: int) -> int:
    """The cards `player` discarded during `step`."""
    return step.after.players[player].cards_discarded - step.before.players[player].cards_discarded


def _discards(trace: Trace, shielded: bool) -> Iterator[tuple[Step, a.OpponentsDiscard, set[int]]]:
    """Each "each opponent discards a card" carried out, with its caster's
    opponents under Teferi's Protection throughout (`shielded`) or under
    none."""
    shield = protected(trace)
    for i, step, x in played(trace, a.OpponentsDiscard):
        them = set(opponents(step.before, x.caster))
        around = shield[i] | shield[i + 1]
        chosen = them & shield[i] & shield[i + 1] if shielded else them - around
        if chosen:
            yield step, x, chosen


def _discarded_through_protection(trace: Trace) -> bool:
    """R2017-nothing-else: the engine showed a player without protection
    discard to "each opponent discards a card", and, after showing Teferi's
    Protection resolve, its player discard to it too."""
    shown = any(
        all(discarded(step, p) == 1 for p in them) for step, _, them in _discards(trace, False)
    )
    return shown and any(
        all(discarded(step, p) == 1 and shown_resolving(trace, p) for p in them)
        for step, _, them in _discards(trace, True)
    )


@rule_property(
    "R2017-nothing-else",
    needs=_DISCARD,
    scenarios=protected_scenarios(players.discard_protected, a.OpponentsDiscard, focused=_DISCARD),
    exercised=_discarded_through_protection,
)
def protected_players_still_discard(trace: Trace) -> None:
    """R2017-nothing-else: protection from everything prevents only damage,
    Auras and targeting; "each opponent discards a card" doesn't target, so
    a player with protection from everything still discards (their hand
    holds more cards than a scenario discards, `OPENING_HAND`)."""
    for step, x, them in _discards(trace, True):
        for p in them:
            expect(
                discarded(step, p) == 1,
                "R2017-nothing-else",
                f"{where(trace, step)}, player {p} (protection from everything)",
                f"player {p} discards a card: player {x.caster}'s spell doesn't target them",
                f"{discarded(step, p)} discarded",
            )


def _targets(x: a.Action) -> tuple[str | int, ...]:
    """What a Destroy or a TapAndDamage cast without a response targets."""
    if isinstance(x, a.Destroy) and not x.phased_out_in_response:
        return (x.target,)
    if isinstance(x, a.TapAndDamage) and x.protected_in_response is None:
        return x.targets
    return ()


def _borrowed_targets(trace: Trace) -> Iterator[tuple[Step, a.Action, int]]:
    """Each Destroy or TapAndDamage whose targets are all permanents, phased
    in, owned by one player who has protection from everything and
    controlled by players who don't; with that owner."""
    shield, owner = protected(trace), owners(trace.scenario)
    for i, step in enumerate(trace.steps):
        x = step.action
        targets = _targets(x)
        if not isinstance(x, a.Destroy | a.TapAndDamage) or not targets:
            continue
        views = [view(step.before, t) for t in targets if isinstance(t, str)]
        distinct = len(set(targets)) == len(targets) == len(views)
        if not distinct or not in_game(step.before, x.caster):
            continue
        owning = {owner.get(str(t)) for t in targets}
        controlling = {v.controller for v in views if v is not None and v.phased_in}
        if (
            all(v is not None and v.phased_in for v in views)
            and len(owning) == 1
            and owning <= shield[i]
            and not controlling & shield[i]
        ):
            yield step, x, next(iter(owning))  # type: ignore[arg-type]


def _done_to(step: Step, x: a.Action) -> bool:
    """The spell did what it says to its targets: destroyed, or tapped."""
    if isinstance(x, a.Destroy):
        v = view(step.after, x.target)
        return v is not None and not v.on_battlefield
    return all((v := view(step.after, str(t))) is not None and v.tapped for t in _targets(x))


def _borrowed_targeted(trace: Trace) -> bool:
    """R2017-nothing-else: the engine showed a player's Teferi's Protection
    resolve, then a spell destroy or tap a permanent that player owns and
    another player controls."""
    return any(
        step.after.refused is None and _done_to(step, x) and shown_resolving(trace, p)
        for step, x, p in _borrowed_targets(trace)
    )


_BORROWED = (*_PROTECTION, C.TARGETING, C.DESTROY, C.CONTROL_CHANGE)


@rule_property(
    "R2017-nothing-else",
    needs=_BORROWED,
    scenarios=protected_scenarios(
        players.borrowed_from_protected,
        a.Destroy,
        focused=(*_BORROWED, C.MULTI_TARGET, C.PLAYER_DAMAGE),
    ),
    exercised=_borrowed_targeted,
)
def protected_players_permanents_others_control_can_be_targeted(trace: Trace) -> None:
    """R2017-nothing-else: protection from everything is the player's
    (R2017-protection: they can't be targeted, Auras can't be attached to
    them); nothing else is illegal. A permanent they own but another player
    controls doesn't phase out with Teferi's Protection, which takes what
    they control, and a spell can target it: destroy or tap it."""
    for step, x, p in _borrowed_targets(trace):
        targets = ", ".join(map(str, _targets(x)))
        done = "destroyed" if isinstance(x, a.Destroy) else "tapped"
        expect(
            step.after.refused is None and _done_to(step, x),
            "R2017-nothing-else",
            f"{where(trace, step)}, {targets} (owned by player {p}, protected)",
            f"{done}: protection from everything is player {p}'s, not their permanents'; "
            "another player controls it",
            f"refused: {step.after.refused}" if step.after.refused else "not done",
        )
