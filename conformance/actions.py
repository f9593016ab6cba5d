"""What happens in a scenario, one action at a time.

Each action is something a player does or a spell does, phrased so that any
engine can play it with its own rules. Spells are instants cast and resolved
at once (nobody responds unless the action says so); triggered abilities
resolve before the next action. The engine under test must do the rule
itself: an adapter turns the action into the engine's own moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from conformance.capabilities import Capability
from conformance.setup import Duration


@dataclass(frozen=True)
class PassTurn:
    """End the turn (cleanup ends "until end of turn" effects, combat damage
    is dealt first if attackers were declared); the engine plays the next
    player's untap step (502.1, 702.26a) and stops in their first main phase."""


@dataclass(frozen=True)
class PhaseOut:
    """`caster` casts "Target permanents phase out." on `targets` (702.26b:
    refused if a target is phased out)."""

    caster: int
    targets: tuple[str, ...]


@dataclass(frozen=True)
class PhaseOutAll:
    """`player` casts "All permanents you control phase out." (Teferi's
    Protection); no targets."""

    player: int


@dataclass(frozen=True)
class PhaseOutUntil:
    """`caster` activates `source`: "Target permanent phases out until
    [source] leaves the battlefield." (610.4)"""

    caster: int
    source: str
    target: str


@dataclass(frozen=True)
class DestroyAll:
    """`caster` casts "Destroy all creatures." (702.26b)"""

    caster: int


@dataclass(frozen=True)
class Destroy:
    """`caster` casts "Destroy target permanent. Draw a card." If
    `phased_out_in_response`, the target's controller responds by phasing the
    target out, so the spell has no legal target (R2017-targets)."""

    caster: int
    target: str
    phased_out_in_response: bool = False


@dataclass(frozen=True)
class DrawPerCreature:
    """`player` casts "Draw a card for each creature you control." (702.26b)"""

    player: int


@dataclass(frozen=True)
class GainControl:
    """`player` casts "Gain control of target permanent" for `duration`."""

    player: int
    target: str
    duration: Duration = field(default_factory=Duration)


@dataclass(frozen=True)
class PumpTeam:
    """`player` casts "Creatures you control get +1/+1 until end of turn."
    (702.26e: the set is fixed as it resolves.)"""

    player: int


@dataclass(frozen=True)
class CreateToken:
    """`player` creates a 1/1 creature token named `id`, with `phasing`
    instances of phasing (110.5: it enters phased in)."""

    player: int
    id: str
    phasing: int = 1


@dataclass(frozen=True)
class Activate:
    """`player` activates `source`'s "{T}: You gain 1 life." (refused if it
    can't: phased out, tapped, or summoning sick)."""

    player: int
    source: str


@dataclass(frozen=True)
class DeclareAttackers:
    """The active player declares `attackers` attacking `defender` (refused if
    any of them can't attack: phased out, tapped, sick, not a creature they
    control, or attackers were already declared this turn)."""

    player: int
    attackers: tuple[str, ...]
    defender: int


@dataclass(frozen=True)
class DealDamage:
    """`caster` casts "Deal `amount` damage to any target.": `target` is a
    permanent's id (a creature; refused if phased out, 702.26b) or a player's
    index. Damage stays marked on a creature until cleanup (514.2); lethal
    damage destroys it (704.5g)."""

    caster: int
    target: str | int
    amount: int


@dataclass(frozen=True)
class TapForMana:
    """`player` taps `land`, a land they control, for mana (605: a mana
    ability; refused if it is tapped or phased out, 702.26b)."""

    player: int
    land: str


@dataclass(frozen=True)
class DeclareBlockers:
    """The defending player declares blocks, (blocker, attacker) pairs
    (509.1; refused if a blocker can't block: phased out, tapped, not a
    creature they control, or blockers were already declared). Combat damage
    is dealt at the next `PassTurn`."""

    player: int
    blocks: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DrawPerEntered:
    """`player` casts "Draw a card for each creature you control that entered
    the battlefield this turn." (702.26d: phasing in is not entering;
    702.26b: phased-out creatures aren't counted.)"""

    player: int


@dataclass(frozen=True)
class Concede:
    """`player`, who is not the active player, leaves the game (800.4a)."""

    player: int


Action = (
    PassTurn
    | PhaseOut
    | PhaseOutAll
    | PhaseOutUntil
    | DestroyAll
    | Destroy
    | DrawPerCreature
    | GainControl
    | PumpTeam
    | CreateToken
    | Activate
    | DeclareAttackers
    | Concede
    | DealDamage
    | TapForMana
    | DeclareBlockers
    | DrawPerEntered
)

_NEEDS: dict[type, frozenset[Capability]] = {
    PassTurn: frozenset(),
    PhaseOut: frozenset({Capability.TARGETING}),
    PhaseOutAll: frozenset({Capability.PHASE_OUT_ALL}),
    PhaseOutUntil: frozenset({Capability.PHASE_OUT_UNTIL}),
    DestroyAll: frozenset({Capability.DESTROY}),
    Destroy: frozenset({Capability.DESTROY, Capability.TARGETING}),
    DrawPerCreature: frozenset({Capability.COUNT_CREATURES}),
    GainControl: frozenset({Capability.CONTROL_CHANGE, Capability.TARGETING}),
    PumpTeam: frozenset({Capability.PT_BOOST}),
    CreateToken: frozenset({Capability.TOKENS}),
    Activate: frozenset({Capability.ACTIVATED_ABILITIES}),
    DeclareAttackers: frozenset({Capability.COMBAT}),
    Concede: frozenset({Capability.LEAVE_GAME, Capability.MULTIPLAYER}),
    DealDamage: frozenset({Capability.DAMAGE_MARKED, Capability.TARGETING}),
    TapForMana: frozenset({Capability.MANA_ABILITIES}),
    DeclareBlockers: frozenset({Capability.COMBAT, Capability.BLOCKING}),
    DrawPerEntered: frozenset({Capability.HISTORY}),
}


def action_needs(action: Action | type) -> frozenset[Capability]:
    """The capabilities an engine needs to play `action` (or that kind)."""
    if isinstance(action, type):
        return _NEEDS[action]
    need = _NEEDS[type(action)]
    if isinstance(action, GainControl) and action.duration.kind == "as_long_as_you_control":
        need |= {Capability.CONTROL_AS_LONG_AS}
    return need


ACTION_TYPES: tuple[type, ...] = tuple(_NEEDS)
