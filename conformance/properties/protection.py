"""Properties of protection from everything on a player (Teferi's
Protection): damage to them is prevented and unpreventable damage keeps
its other effects (R2017-protection, R2017-unpreventable); they can't be
targeted and no Aura stays on them (R2017-protection, 704.5m); nothing else
is prevented (R2017-nothing-else)."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.history import view
from conformance.properties.players import (
    free_through,
    life,
    life_change,
    played,
    protected,
    protected_scenarios,
    replaced_around,
    shown_resolving,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import players

_PROTECTION = (C.PLAYER_PROTECTION, C.LIFE_LOCK, C.PHASE_OUT_ALL)
_DAMAGE = (*_PROTECTION, C.PLAYER_DAMAGE)


def opponents(obs: Observation, caster: int) -> list[int]:
    return [p.index for p in obs.players if p.in_game and p.index != caster]


def blasts(trace: Trace, unpreventable: bool) -> Iterator[tuple[Step, a.DamageOpponents, set[int]]]:
    """Each lifelink "damage to each opponent" spell carried out while one of
    its caster's opponents was under Teferi's Protection, its caster's life
    free to change and not replaced; with the protected opponents."""
    shield = protected(trace)
    for i, step, x in played(trace, a.DamageOpponents):
        if x.unpreventable != unpreventable or not free_through(trace, i, x.caster):
            continue
        if replaced_around(trace, step, "gain_to_draw", x.caster):
            continue
        shielded = set(opponents(step.before, x.caster)) & shield[i] & shield[i + 1]
        if shielded:
            yield step, x, shielded


def _prevented(trace: Trace) -> bool:
    """R2017-protection: the engine showed Teferi's Protection resolve, then
    a lifelink spell damaging each opponent gain its caster nothing for the
    protected one; and elsewhere lifelink gain life from damage dealt."""
    works = any(life_change(step, x.caster) > 0 for _, step, x in played(trace, a.DamageOpponents))
    return works and any(
        x.amount > 0 and all(shown_resolving(trace, p) for p in shielded)
        for _, x, shielded in blasts(trace, False)
    )


#: Lifelink damage to each opponent of a player who cast Teferi's
#: Protection (R2017-protection, R2017-unpreventable).
_lifelink_at_the_protected = protected_scenarios(
    players.damage_protected, a.DamageOpponents, focused=_DAMAGE
)


@rule_property(
    "R2017-protection",
    needs=_DAMAGE,
    scenarios=_lifelink_at_the_protected,
    exercised=_prevented,
    reads=("life",),
)
def protection_prevents_damage_to_the_player(trace: Trace) -> None:
    """R2017-protection: all damage that would be dealt to a player with
    protection from everything is prevented: a lifelink source gains
    nothing from them (702.15b)."""
    for step, x, shielded in blasts(trace, False):
        dealt = len(opponents(step.before, x.caster)) - len(shielded)
        expect(
            life_change(step, x.caster) == x.amount * dealt,
            "R2017-protection",
            f"{where(trace, step)}, player {x.caster}'s lifelink",
            f"gains {x.amount * dealt} life: the damage to player(s) "
            f"{sorted(shielded)} (protection from everything) is prevented",
            f"life {life(step.before, x.caster)} -> {life(step.after, x.caster)}",
        )


def _dealt_unpreventable(trace: Trace) -> bool:
    """R2017-unpreventable: the engine showed Teferi's Protection resolve,
    then unpreventable lifelink damage to that player gain its caster life
    while the player's life total stayed."""
    return any(
        x.amount > 0
        and life_change(step, x.caster) > 0
        and all(not life_change(step, p) and shown_resolving(trace, p) for p in shielded)
        for step, x, shielded in blasts(trace, True)
    )


@rule_property(
    "R2017-unpreventable",
    needs=_DAMAGE,
    scenarios=_lifelink_at_the_protected,
    exercised=_dealt_unpreventable,
    reads=("life",),
)
def unpreventable_damage_still_has_its_other_effects(trace: Trace) -> None:
    """R2017-unpreventable: damage that can't be prevented is dealt to a
    player with protection from everything; their life total doesn't
    change, but the damage's other effects happen: lifelink gains its
    controller that much life (702.15b)."""
    for step, x, shielded in blasts(trace, True):
        at = f"{where(trace, step)}, unpreventable damage to player(s) {sorted(shielded)}"
        dealt = len(opponents(step.before, x.caster))
        expect(
            life_change(step, x.caster) == x.amount * dealt,
            "R2017-unpreventable",
            at,
            f"player {x.caster} gains {x.amount * dealt} life from lifelink: the damage is dealt",
            f"life {life(step.before, x.caster)} -> {life(step.after, x.caster)}",
        )
        for p in shielded:
            expect(
                not life_change(step, p),
                "R2017-unpreventable",
                at,
                f"player {p}'s life total stays (it can't change)",
                f"life {life(step.before, p)} -> {life(step.after, p)}",
            )


def targeted_players(x: a.Action) -> tuple[int, ...]:
    """The players `x` targets (R2017-protection)."""
    match x:
        case a.DealDamage(_, int(target), _):
            return (target,)
        case a.ExchangeLife(_, target) | a.EnchantPlayer(_, _, target):
            return (target,)
        case a.TapAndDamage(_, targets, _, _):
            return tuple(t for t in targets if isinstance(t, int))
    return ()


def _targeting_protected(trace: Trace) -> Iterator[tuple[Step, set[int]]]:
    shield = protected(trace)
    for i, step in enumerate(trace.steps):
        hit = set(targeted_players(step.action)) & shield[i]
        if hit:
            yield step, hit


def _refused_targeting(trace: Trace) -> bool:
    """R2017-protection: the engine showed Teferi's Protection resolve, then
    refused a spell targeting that player; and elsewhere played a spell
    targeting a player without protection."""
    shield = protected(trace)
    works = any(
        step.after.refused is None and set(targeted_players(step.action)) - shield[i]
        for i, step in enumerate(trace.steps)
    )
    return works and any(
        step.after.refused is not None and all(shown_resolving(trace, p) for p in hit)
        for step, hit in _targeting_protected(trace)
    )


@rule_property(
    "R2017-protection",
    needs=(*_PROTECTION, C.TARGETING),
    scenarios=protected_scenarios(
        players.target_protected,
        a.DealDamage,
        a.ExchangeLife,
        a.EnchantPlayer,
        focused=(
            *_DAMAGE,
            C.TARGETING,
            C.LIFE_SPELLS,
            C.MULTI_TARGET,
            C.CAST_AURAS,
            C.PLAYER_AURAS,
        ),
    ),
    exercised=_refused_targeting,
)
def protected_players_cannot_be_targeted(trace: Trace) -> None:
    """R2017-protection: a player with protection from everything can't be
    the target of spells or abilities (an Aura spell included: Auras can't
    be attached to them)."""
    for step, hit in _targeting_protected(trace):
        expect(
            step.after.refused is not None,
            "R2017-protection",
            f"{where(trace, step)}, player(s) {sorted(hit)} (protection from everything)",
            "the spell can't target them: refused",
            "it was cast",
        )


def _auras_on(obs: Observation, players_: frozenset[int]) -> list[str]:
    return [
        p.id
        for p in obs.permanents
        if p.phased_in and isinstance(p.attached_to, int) and p.attached_to in players_
    ]


def _phased_in_onto(
    shield: tuple[frozenset[int], ...], i: int, step: Step
) -> Iterator[tuple[str, int]]:
    """Each Aura phased out before step i, attached to a player who has
    protection from everything through it (`shield`, by observation), and
    in the graveyard after it (R2017-auras: it phased in unattached and
    went, 704.5m); with that player."""
    for b in step.before.permanents:
        v = view(step.after, b.id)
        host = b.attached_to
        if (
            b.phased_out
            and b.on_battlefield
            and isinstance(host, int)
            and host in shield[i] & shield[i + 1]
            and v is not None
            and v.zone == "graveyard"
        ):
            yield b.id, host


def _aura_fell_off(trace: Trace) -> bool:
    """R2017-protection, 704.5m: the engine showed Teferi's Protection
    resolve, and an Aura another player controlled, attached to that
    player, put into the graveyard: as it resolved, or as the Aura phased
    in onto them later (R2017-auras)."""
    shield = protected(trace)
    for i, step in enumerate(trace.steps):
        x = step.action
        if isinstance(x, a.TeferisProtection) and step.after.refused is None:
            on = _auras_on(step.before, frozenset({x.player}))
            if shown_resolving(trace, x.player) and any(
                (v := view(step.after, pid)) is not None and v.zone == "graveyard" for pid in on
            ):
                return True
        if any(shown_resolving(trace, p) for _, p in _phased_in_onto(shield, i, step)):
            return True
    return False


@rule_property(
    "R2017-protection",
    "704.5m",
    needs=(*_PROTECTION, C.AURAS, C.PLAYER_AURAS),
    scenarios=protected_scenarios(
        players.aura_on_protected,
        focused=(*_PROTECTION, C.AURAS, C.PLAYER_AURAS),
        permanent_kinds=("creature", "aura"),
    ),
    exercised=_aura_fell_off,
)
def auras_cannot_stay_on_protected_players(trace: Trace) -> None:
    """R2017-protection: Auras can't be attached to a player with protection
    from everything; one on them as they gain it, or phasing in onto them
    while they have it (R2017-auras, 702.26i), goes to its owner's
    graveyard as a state-based action (704.5m)."""
    shield = protected(trace)
    for i, step in enumerate(trace.steps):
        if step.after.refused is not None or isinstance(step.action, a.Concede):
            continue  # 704.3: nobody received priority
        for pid in _auras_on(step.after, shield[i + 1]):
            expect(
                False,
                "R2017-protection",
                f"{where(trace, step)}, Aura {pid}",
                "no Aura stays on a player with protection from everything (704.5m)",
                f"{pid} attached to player {view(step.after, pid).attached_to}",  # type: ignore[union-attr]
            )


def _attacked_protected(trace: Trace) -> Iterator[tuple[Step, a.DeclareAttackers]]:
    shield = protected(trace)
    for i, step, x in played(trace, a.DeclareAttackers):
        if x.defender in shield[i]:
            yield step, x


def _attack_went_on(trace: Trace) -> bool:
    """R2017-nothing-else: the engine showed Teferi's Protection resolve,
    then creatures attacking that player."""
    return any(
        shown_resolving(trace, x.defender)
        and all((v := view(step.after, c)) is not None and v.attacking for c in x.attackers)
        for step, x in _attacked_protected(trace)
    )


@rule_property(
    "R2017-nothing-else",
    needs=(*_PROTECTION, C.COMBAT),
    scenarios=protected_scenarios(
        players.attack_protected, focused=(*_DAMAGE, C.COMBAT), max_actions=1, ready=True
    ),
    exercised=_attack_went_on,
    reads=("life",),
)
def protected_players_can_still_be_attacked(trace: Trace) -> None:
    """R2017-nothing-else: protection from everything prevents nothing but
    damage, Auras and targeting: creatures can still attack the player (a
    refusal of the attack is held against the engine; the combat damage is
    prevented, R2017-protection)."""
    for step, x in _attacked_protected(trace):
        for c in x.attackers:
            v = view(step.after, c)
            expect(
                v is not None and v.attacking,
                "R2017-nothing-else",
                f"{where(trace, step)}, {c}",
                f"attacks player {x.defender}, who has protection from everything",
                "not attacking",
            )
