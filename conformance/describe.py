"""Plain-English renderings of scenarios, for counterexamples a person reads."""

from __future__ import annotations

from conformance import actions as a
from conformance.scenario import Scenario
from conformance.setup import BoostEffect, ControlEffect, Duration, Effect, Permanent, Setup


def describe_scenario(scenario: Scenario) -> str:
    lines = describe_setup(scenario.setup)
    lines.append("Actions:" if scenario.actions else "Actions: none")
    lines += [f"  {i}. {describe_action(x)}" for i, x in enumerate(scenario.actions, 1)]
    return "\n".join(lines)


def describe_setup(setup: Setup) -> list[str]:
    lines = [
        f"{setup.players} players; turn {setup.turn}, player {setup.active}'s first main phase",
    ]
    lines += [f"  {describe_permanent(p)}" for p in setup.permanents] or ["  (no permanents)"]
    lines += [f"  effect: {describe_effect(e)}" for e in setup.effects]
    return lines


def describe_permanent(p: Permanent) -> str:
    kind = p.attachment.capitalize() if p.attachment else "/".join(p.types)
    parts = [f"{p.id}: {'token ' if p.token else ''}{kind}"]
    if p.power is not None:
        parts[0] += f" {p.power}/{p.toughness}"
    if p.phasing:
        parts.append("phasing" if p.phasing == 1 else f"phasing ×{p.phasing}")
    parts.append(
        f"owner {p.owner}"
        + (
            f", entered under player {p.default_controller}"
            if p.default_controller is not None
            else ""
        )
        + (f", controller {p.controller}" if p.controller != p.owner else "")
    )
    if p.tapped:
        parts.append("tapped")
    if p.sick:
        parts.append("summoning sick")
    if p.counters:
        parts.append("counters " + ", ".join(f"{k}×{n}" for k, n in p.counters))
    if p.attached_to is not None:
        host = f"player {p.attached_to}" if isinstance(p.attached_to, int) else p.attached_to
        parts.append(f"attached to {host}")
    if p.abilities:
        parts.append("abilities " + ", ".join(p.abilities))
    if p.chosen:
        parts.append(f"chose {p.chosen}")
    if p.legendary or p.name is not None:
        parts.append(("legendary, " if p.legendary else "") + f"named {p.card_name!r}")
    if p.phased_out is not None:
        out = p.phased_out
        until = f", until {out.until} leaves" if out.until else ""
        parts.append(f"PHASED OUT ({out.cause}, under player {out.under}{until})")
    return "; ".join(parts)


def describe_duration(d: Duration) -> str:
    if d.kind == "as_long_as_you_control":
        return f"for as long as they control {d.of}"
    return {"end_of_turn": "until end of turn", "your_next_turn": "until their next turn"}.get(
        d.kind, "indefinitely"
    )


def describe_effect(e: Effect) -> str:
    if isinstance(e, ControlEffect):
        return f"player {e.controller} controls {e.target} {describe_duration(e.duration)}"
    if isinstance(e, BoostEffect):
        return (
            f"{', '.join(e.targets)} get +{e.power}/+{e.toughness} "
            f"{describe_duration(e.duration)} (player {e.controller}'s effect)"
        )
    return f"player {e.player} skips their next untap step"


def _target(target: str | int) -> str:
    return target if isinstance(target, str) else f"player {target}"


def describe_action(x: a.Action) -> str:
    match x:
        case a.PassTurn():
            return "pass the turn (the next player's untap step happens)"
        case a.PhaseOut(caster, targets):
            return f"player {caster}: {', '.join(targets)} phase(s) out"
        case a.PhaseOutAll(player):
            return f"player {player}: all permanents you control phase out"
        case a.PhaseOutUntil(caster, source, target):
            return f"player {caster} activates {source}: {target} phases out until {source} leaves"
        case a.DestroyAll(caster):
            return f"player {caster}: destroy all creatures"
        case a.Destroy(caster, target, response):
            reply = " (it phases out in response)" if response else ""
            return f"player {caster}: destroy {target}, draw a card{reply}"
        case a.DestroyThroughPhasing(caster, target, source):
            return (
                f"player {caster}: destroy {target}, draw a card (in response {target} phases "
                f"out until {source} leaves, then player {caster} destroys {source})"
            )
        case a.DrawPerCreature(player):
            return f"player {player}: draw a card for each creature you control"
        case a.GainControl(player, target, duration):
            return f"player {player} gains control of {target} {describe_duration(duration)}"
        case a.PumpTeam(player):
            return f"player {player}: creatures you control get +1/+1 until end of turn"
        case a.CreateToken(player, pid, phasing):
            return f"player {player} creates 1/1 token {pid}" + (" with phasing" if phasing else "")
        case a.Activate(player, source):
            return f"player {player} activates {source}: {{T}}: gain 1 life"
        case a.DeclareAttackers(player, attackers, defender):
            return f"player {player} attacks player {defender} with {', '.join(attackers)}"
        case a.Concede(player):
            return f"player {player} concedes (leaves the game)"
        case a.TeferisProtection(player):
            return f"player {player} casts Teferi's Protection"
        case a.DealDamage(caster, target, amount):
            return f"player {caster}: deal {amount} damage to {_target(target)}"
        case a.TapAndDamage(caster, targets, amount, responder):
            reply = (
                ""
                if responder is None
                else f" (player {responder} casts Teferi's Protection in response)"
            )
            named = ", ".join(map(_target, targets))
            return (
                f"player {caster} targets {named}: tap the permanents, {amount} damage "
                f"to the players, draw a card{reply}"
            )
        case a.DamageOpponents(caster, amount, unpreventable, infect):
            cant = ", can't be prevented" if unpreventable else ""
            poison = ", infect" if infect else ""
            return f"player {caster}: {amount} damage to each opponent (lifelink{poison}{cant})"
        case a.OpponentsDiscard(caster):
            return f"player {caster}: each opponent discards a card"
        case a.GainLife(player, amount):
            return f"player {player}: gain {amount} life, draw a card"
        case a.LoseLife(player, amount):
            return f"player {player}: lose {amount} life, draw a card"
        case a.SetLife(player, life):
            return f"player {player}: your life total becomes {life}, draw a card"
        case a.ExchangeLife(player, target):
            return f"player {player}: exchange life totals with player {target}, draw a card"
        case a.PayLife(player, amount):
            return f"player {player}: pay {amount} life, draw a card"
        case a.GiveLife(player, opponent, amount):
            return f"player {player}: player {opponent} gains {amount} life (a cost), draw a card"
        case a.EnchantPlayer(caster, aura, player):
            return f"player {caster} casts Aura {aura} enchanting player {player}"
        case a.DrawPerEntered(player):
            return (
                f"player {player}: draw a card for each creature you control that entered "
                "the battlefield this turn"
            )
        case a.TapForMana(player, land):
            return f"player {player} taps {land} for mana"
        case a.DeclareBlockers(player, blocks):
            pairs = ", ".join(f"{b} blocks {x}" for b, x in blocks)
            return f"player {player} declares blockers: {pairs}"
    raise TypeError(f"not an action: {x!r}")
