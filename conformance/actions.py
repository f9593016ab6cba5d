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
class DestroyThroughPhasing:
    """`caster` casts "Destroy target permanent. Draw a card." on `target`.
    In response `source`'s controller activates it: "Target permanent phases
    out until [source] leaves the battlefield." on `target` (610.4); once
    that resolves, still before the first spell, `caster` casts "Destroy
    target permanent." on `source`, so `target` phases back in while the
    first spell waits (refused if `source` is `target`, is attached to it or
    isn't phased in). That spell then resolves on it normally: phasing is
    not a zone change, so it is the same permanent (702.26d, Mirage 502.15n)."""

    caster: int
    target: str
    source: str


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
    index (refused if that player has protection from everything,
    R2017-protection). Damage stays marked on a creature until cleanup
    (514.2); lethal damage destroys it (704.5g)."""

    caster: int
    target: str | int
    amount: int


@dataclass(frozen=True)
class TapForMana:
    """`player` taps `land`, a land they control, for mana (605: a mana
    ability; refused if it is tapped, phased out (702.26b), or a land
    creature that is summoning sick (302.6))."""

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


@dataclass(frozen=True)
class TeferisProtection:
    """`player` casts Teferi's Protection: "Until your next turn, your life
    total can't change and you gain protection from everything. All
    permanents you control phase out." (R2017-protection, R2017-life-no-effect)"""

    player: int


@dataclass(frozen=True)
class TapAndDamage:
    """`caster` casts "Tap any number of target permanents. Deal `amount`
    damage to any number of target players. Draw a card." on `targets`
    (permanent ids and player indexes). With `protected_in_response`, that
    player casts Teferi's Protection in response: their permanents phase
    out and they gain protection, so those targets become illegal
    (R2017-targets, R2017-protection-targets)."""

    caster: int
    targets: tuple[str | int, ...]
    amount: int
    protected_in_response: int | None = None


@dataclass(frozen=True)
class DamageOpponents:
    """`caster` casts a spell with lifelink: "Deal `amount` damage to each
    opponent." No targets. If `unpreventable`: "This damage can't be
    prevented." (R2017-protection, R2017-unpreventable) If `infect`, the
    spell also has infect: its damage to a player gives them that many
    poison counters instead of making them lose life (702.90b)."""

    caster: int
    amount: int
    unpreventable: bool = False
    infect: bool = False


@dataclass(frozen=True)
class OpponentsDiscard:
    """`caster` casts "Each opponent discards a card." No targets
    (R2017-nothing-else: protection from everything doesn't stop it). Each
    player begins the scenario with `OPENING_HAND` cards in hand, more than
    a scenario makes them discard; one with none discards nothing (701.9b)."""

    caster: int


@dataclass(frozen=True)
class GainLife:
    """`player` casts "You gain `amount` life. Draw a card." (R2017-life-no-effect)"""

    player: int
    amount: int


@dataclass(frozen=True)
class LoseLife:
    """`player` casts "You lose `amount` life. Draw a card." (R2017-life-no-effect)"""

    player: int
    amount: int


@dataclass(frozen=True)
class SetLife:
    """`player` casts "Your life total becomes `life`. Draw a card." (R2017-set-life)"""

    player: int
    life: int


@dataclass(frozen=True)
class ExchangeLife:
    """`player` casts "Exchange life totals with target player. Draw a card."
    on `target` (R2017-exchange)."""

    player: int
    target: int


@dataclass(frozen=True)
class PayLife:
    """`player` casts "As an additional cost to cast this spell, pay `amount`
    life. Draw a card." (refused if they can't pay: R2017-pay-life, 119.4)."""

    player: int
    amount: int


@dataclass(frozen=True)
class GiveLife:
    """`player` casts a spell for its alternative cost "`opponent` gains
    `amount` life" (Invigorate's): "Draw a card." (refused if that cost can't
    be paid: R2017-gain-life-cost)."""

    player: int
    opponent: int
    amount: int


@dataclass(frozen=True)
class EnchantPlayer:
    """`caster` casts an Aura with "enchant player", named `aura`, targeting
    `player`; it enters attached to them (refused if `player` can't be
    targeted: R2017-protection)."""

    caster: int
    aura: str
    player: int


Action = (
    PassTurn
    | PhaseOut
    | PhaseOutAll
    | PhaseOutUntil
    | DestroyAll
    | Destroy
    | DestroyThroughPhasing
    | DrawPerCreature
    | GainControl
    | PumpTeam
    | CreateToken
    | Activate
    | DeclareAttackers
    | Concede
    | TeferisProtection
    | DealDamage
    | TapAndDamage
    | DamageOpponents
    | OpponentsDiscard
    | GainLife
    | LoseLife
    | SetLife
    | ExchangeLife
    | PayLife
    | GiveLife
    | EnchantPlayer
    | TapForMana
    | DeclareBlockers
    | DrawPerEntered
)

#: Teferi's Protection whole: its three effects.
_TEFERI = frozenset({Capability.PLAYER_PROTECTION, Capability.LIFE_LOCK, Capability.PHASE_OUT_ALL})

_NEEDS: dict[type, frozenset[Capability]] = {
    PassTurn: frozenset(),
    PhaseOut: frozenset({Capability.TARGETING}),
    PhaseOutAll: frozenset({Capability.PHASE_OUT_ALL}),
    PhaseOutUntil: frozenset({Capability.PHASE_OUT_UNTIL}),
    DestroyAll: frozenset({Capability.DESTROY}),
    Destroy: frozenset({Capability.DESTROY, Capability.TARGETING}),
    DestroyThroughPhasing: frozenset(
        {
            Capability.DESTROY,
            Capability.TARGETING,
            Capability.PHASE_OUT_UNTIL,
            Capability.STACKED_RESPONSES,
        }
    ),
    DrawPerCreature: frozenset({Capability.COUNT_CREATURES}),
    GainControl: frozenset({Capability.CONTROL_CHANGE, Capability.TARGETING}),
    PumpTeam: frozenset({Capability.PT_BOOST}),
    CreateToken: frozenset({Capability.TOKENS}),
    Activate: frozenset({Capability.ACTIVATED_ABILITIES}),
    DeclareAttackers: frozenset({Capability.COMBAT}),
    Concede: frozenset({Capability.LEAVE_GAME, Capability.MULTIPLAYER}),
    TeferisProtection: _TEFERI,
    # The kind is drawn at players (strategies.players); at a creature, see below.
    DealDamage: frozenset({Capability.PLAYER_DAMAGE, Capability.TARGETING}),
    TapAndDamage: frozenset(
        {Capability.MULTI_TARGET, Capability.PLAYER_DAMAGE, Capability.TARGETING}
    ),
    DamageOpponents: frozenset({Capability.PLAYER_DAMAGE}),
    OpponentsDiscard: frozenset({Capability.DISCARD}),
    GainLife: frozenset({Capability.LIFE_SPELLS}),
    LoseLife: frozenset({Capability.LIFE_SPELLS}),
    SetLife: frozenset({Capability.LIFE_SPELLS}),
    ExchangeLife: frozenset({Capability.LIFE_SPELLS, Capability.TARGETING}),
    PayLife: frozenset({Capability.LIFE_COSTS}),
    GiveLife: frozenset({Capability.LIFE_COSTS}),
    EnchantPlayer: frozenset(
        {Capability.CAST_AURAS, Capability.PLAYER_AURAS, Capability.TARGETING}
    ),
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
    if isinstance(action, TapAndDamage) and action.protected_in_response is not None:
        need |= _TEFERI
    if isinstance(action, DamageOpponents) and action.infect:
        need |= {Capability.INFECT}
    if isinstance(action, DealDamage) and isinstance(action.target, str):
        # Damage to a creature is marked on it (120.3e), not life lost (120.3a).
        need = frozenset({Capability.DAMAGE_MARKED, Capability.TARGETING})
    return need


ACTION_TYPES: tuple[type, ...] = tuple(_NEEDS)
#: The actions about life totals and players (Teferi's Protection whole):
#: drawn only by the properties of those rulings, so that the other
#: properties' scenarios (and their derandomized examples) stay as they were.
PLAYER_ACTION_TYPES: tuple[type, ...] = (
    TeferisProtection,
    DealDamage,
    TapAndDamage,
    DamageOpponents,
    OpponentsDiscard,
    GainLife,
    LoseLife,
    SetLife,
    ExchangeLife,
    PayLife,
    GiveLife,
    EnchantPlayer,
)
