"""Facts about players under Teferi's Protection, worked out from a trace:
who has protection from everything and a life total that can't change at
each observation (R2017-protection, R2017-life-no-effect; "until your next
turn", 611.2a, 800.4m, R2017-skip-untap), whether the engine showed the card
resolve, and the replacement abilities of life and draws in play; and the
scenarios its properties draw (`protected_scenarios`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from conformance import actions as a
from conformance.capabilities import Capability
from conformance.observation import Observation
from conformance.properties.effects import focus, passed_over
from conformance.properties.history import abilities, in_game, was_in_went_out
from conformance.properties.registry import ScenarioFactory
from conformance.running import Step, Trace
from conformance.setup import Ability
from conformance.strategies import plans

T = TypeVar("T")


def protected_scenarios(
    plan: plans.Plan, *kinds: type, focused: tuple[Capability, ...], **settings: Any
) -> ScenarioFactory:
    """Scenarios of `plan` (Teferi's Protection and what it is about),
    followed by up to `max_actions` (2) more actions of `kinds` or turns
    passing, from positions of at most two phased-in permanents and no
    effects: the rulings are about players, so the board stays out of the
    way. `focused`: the capabilities the engine's draws are narrowed to;
    `settings` override `plans.planned_scenarios`'s."""
    options: dict[str, Any] = {
        "max_actions": 2,
        "max_permanents": 2,
        "phased_out": False,
        "effects": False,
        **settings,
    }
    return lambda caps: plans.planned_scenarios(
        focus(caps, *focused), plan, kinds=(a.PassTurn, *kinds), **options
    )


def protected(trace: Trace) -> tuple[frozenset[int], ...]:
    """Observation k (0 the initial one): the players under Teferi's
    Protection then, by the scenario's history. It begins when the card
    resolves (cast, or in response to a TapAndDamage) and ends as the
    player's next turn begins (611.2a, R2017-skip-untap: even if its untap
    step is skipped) or would have begun (800.4m)."""
    current: set[int] = set()
    out = [frozenset[int]()]
    for step in trace.steps:
        x = step.action
        if step.after.refused is None:
            if isinstance(x, a.PassTurn):
                current -= {step.after.active} | passed_over(step.before, step.after)
            elif isinstance(x, a.TeferisProtection) and in_game(step.before, x.player):
                current.add(x.player)
            elif isinstance(x, a.TapAndDamage) and x.protected_in_response is not None:
                current |= {x.protected_in_response} & _still_in(step.before)
        current = {p for p in current if in_game(step.after, p)}
        out.append(frozenset(current))
    return tuple(out)


def _still_in(obs: Observation) -> set[int]:
    return {p.index for p in obs.players if p.in_game}


def locked_through(trace: Trace, i: int, player: int) -> bool:
    """Whether `player` is under Teferi's Protection before and after step i."""
    shield = protected(trace)
    return player in shield[i] and player in shield[i + 1]


def free_through(trace: Trace, i: int, player: int) -> bool:
    """Whether `player` is under no Teferi's Protection around step i."""
    shield = protected(trace)
    return player not in shield[i] and player not in shield[i + 1]


def shown_resolving(trace: Trace, player: int) -> bool:
    """The engine showed `player`'s Teferi's Protection resolve: a permanent
    they controlled, phased in, phased out as it did."""
    for step in trace.steps:
        x = step.action
        responder = x.protected_in_response if isinstance(x, a.TapAndDamage) else None
        if step.after.refused is not None:
            continue
        if (isinstance(x, a.TeferisProtection) and x.player == player) or responder == player:
            mine = [p.id for p in step.before.permanents if p.controller == player]
            if any(was_in_went_out(step, pid) for pid in mine):
                return True
    return False


def replacing(trace: Trace, obs: Observation, ability: Ability, player: int) -> list[int]:
    """The controllers of the phased-in permanents with replacement
    `ability` applying to `player` (their opponent) in `obs` (702.26b: a
    phased-out one applies nothing)."""
    return [
        p.controller
        for p in obs.permanents
        if p.phased_in
        and p.controller is not None
        and p.controller != player
        and ability in abilities(trace.scenario, p.id)
    ]


def replaced_around(trace: Trace, step: Step, ability: Ability, player: int) -> bool:
    """Whether `ability` applies to `player` before or after `step`."""
    return bool(
        replacing(trace, step.before, ability, player)
        or replacing(trace, step.after, ability, player)
    )


def life(obs: Observation, player: int) -> int:
    return obs.players[player].life


def drawn(obs: Observation, player: int) -> int:
    return obs.players[player].cards_drawn


def life_change(step: Step, player: int) -> int:
    return life(step.after, player) - life(step.before, player)


def draws(step: Step, player: int) -> int:
    return drawn(step.after, player) - drawn(step.before, player)


def played(trace: Trace, kind: type[T]) -> Iterator[tuple[int, Step, T]]:
    """Each action of `kind` the engine carried out, with its index."""
    for i, step in enumerate(trace.steps):
        if isinstance(step.action, kind) and step.after.refused is None:
            yield i, step, step.action


def tried(trace: Trace, kind: type[T]) -> Iterator[tuple[int, Step, T]]:
    """Each action of `kind`, carried out or refused, with its index."""
    for i, step in enumerate(trace.steps):
        if isinstance(step.action, kind):
            yield i, step, step.action
