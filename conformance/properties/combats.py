"""The combats of a trace, by the declarations the engine carried out, not by
its `attacking`, `blocking` and `blocked` flags, which may be what is wrong
(506.4, 509.1g, 509.1h, 510.1c)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from conformance import actions as a
from conformance.properties.history import in_game, view
from conformance.properties.players import protected, replaced_around
from conformance.running import Step, Trace


@dataclass(frozen=True)
class Combat:
    """A combat the engine carried out up to its combat damage: the index of
    the declaration of attackers and of the PassTurn dealing the damage, the
    defending player, the attackers, and the blocks declared between them
    (the index of each declaration, blocker, attacker)."""

    declared: int
    damage: int
    defender: int
    attackers: tuple[str, ...]
    blocks: tuple[tuple[int, str, str], ...]

    def since(self, pid: str) -> int:
        """The index of the declaration that put `pid` in combat."""
        return next((i for i, b, _ in self.blocks if b == pid), self.declared)

    def fighting(self) -> list[str]:
        return [*self.attackers, *(b for _, b, _ in self.blocks)]

    def opponents(self, pid: str) -> set[str]:
        """What `pid` blocks, or the creatures blocking it."""
        return {t if b == pid else b for _, b, t in self.blocks if pid in (b, t)}

    def blocked(self) -> set[str]:
        """The attackers blocked: a creature blocked stays blocked for the
        rest of combat, whatever becomes of its blockers (509.1h)."""
        return {t for *_, t in self.blocks}

    def stayed_in(self, trace: Trace, pid: str) -> bool:
        """`pid` stayed in combat from its declaration to the combat damage
        (`in_combat_since`)."""
        return in_combat_since(trace, self.since(pid), self.damage, pid)


def combats(trace: Trace) -> Iterator[Combat]:
    """Each combat the engine carried out and reached combat damage in: a
    declaration of attackers, the blocks declared after it, and the PassTurn
    that ends the turn, combat damage first (511.3: combat ends that turn)."""
    declared: a.DeclareAttackers | None = None
    start, blocks = 0, []
    for i, step in enumerate(trace.steps):
        x = step.action
        if step.after.refused is not None:
            continue
        if isinstance(x, a.DeclareAttackers):
            declared, start, blocks = x, i, []
        elif isinstance(x, a.DeclareBlockers) and declared is not None:
            blocks += [(i, b, t) for b, t in x.blocks]
        elif isinstance(x, a.PassTurn):
            if declared is not None:
                yield Combat(start, i, declared.defender, declared.attackers, tuple(blocks))
            declared = None


def player_damage_judged(trace: Trace, combat: Combat) -> bool:
    """Whether the life the defending player lost at `combat`'s damage is
    the combat damage dealt to them, so a property may compare the two:
    not where they are under Teferi's Protection (R2017-protection: that
    damage is prevented, and their life total can't change), nor where a
    "lose_to_draw" ability replaces their loss of life by an opponent's
    draws (damage to a player is life loss, 120.3a; R2017-life-replacement),
    nor where they have left the game (readings.md L: no certified rule
    says whether creatures attacking them stay attacking, and damage to
    them is dealt to nobody)."""
    step, defender = trace.steps[combat.damage], combat.defender
    shield = protected(trace)
    return (
        in_game(step.before, defender)
        and in_game(step.after, defender)
        and defender not in shield[combat.damage] | shield[combat.damage + 1]
        and not replaced_around(trace, step, "lose_to_draw", defender)
    )


def unblocked_damage(trace: Trace) -> list[tuple[Step, int, list[str], int, int]]:
    """Each combat damage the engine dealt with attackers shown, where the
    defender's loss of life is that damage (`player_damage_judged`): the
    PassTurn, the defender, the attackers still phased in and unblocked (a
    blocked one deals its damage to its blockers, or none once they are
    gone: 509.1h, 510.1c), the damage they deal (none below 0 power,
    510.1a), and the life the defender lost."""
    found = []
    for combat in combats(trace):
        step = trace.steps[combat.damage]
        if not player_damage_judged(trace, combat) or not any(
            p.attacking for p in step.before.permanents
        ):
            continue
        blocked = combat.blocked()
        hitting = [
            p for p in step.before.permanents if p.attacking and p.phased_in and p.id not in blocked
        ]
        damage = sum(max(p.power or 0, 0) for p in hitting)
        lost = step.before.player(combat.defender).life - step.after.player(combat.defender).life
        found.append((step, combat.defender, [p.id for p in hitting], damage, lost))
    return found


def in_combat_since(trace: Trace, declared: int, upto: int, pid: str) -> bool:
    """`pid` stayed phased in on the battlefield under one controller in
    every observation from the action at index `declared` up to the one
    before index `upto`: not removed from combat by phasing out, even if
    back since, nor by a change of control (506.4), nor by leaving the
    battlefield."""
    shown = [view(step.after, pid) for step in trace.steps[declared:upto]]
    return all(v is not None and v.phased_in for v in shown) and (
        len({v.controller for v in shown if v is not None}) == 1
    )
