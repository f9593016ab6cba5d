"""Properties of what Teferi's Protection leaves happening to its player:
unpreventable damage from a source with infect still gives them poison
counters while their life total stays (R2017-unpreventable)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.effects import focus
from conformance.properties.players import free_through, life, life_change, played, shown_resolving
from conformance.properties.protection import blasts, opponents
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.strategies import plans, players
from conformance.strategies._draw import Caps

_INFECT = (C.PLAYER_PROTECTION, C.LIFE_LOCK, C.PHASE_OUT_ALL, C.PLAYER_DAMAGE, C.INFECT)


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


def _infect_at_the_protected(caps: Caps) -> st.SearchStrategy[Scenario]:
    """Lifelink infect damage to each opponent of a player who cast
    Teferi's Protection (R2017-unpreventable)."""
    return plans.planned_scenarios(
        focus(caps, *_INFECT),
        players.infect_protected,
        kinds=(a.PassTurn, a.DamageOpponents),
        max_actions=2,
        max_permanents=2,
        phased_out=False,
        effects=False,
    )


@rule_property(
    "R2017-unpreventable",
    needs=_INFECT,
    scenarios=_infect_at_the_protected,
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
