"""Named engine capabilities.

An adapter declares which parts of the scenario vocabulary its engine can
express. A property or scenario needing a capability the engine lacks is
reported "not applicable", never silently passed.
"""

from __future__ import annotations

from enum import StrEnum


class Capability(StrEnum):
    """One feature of the scenario vocabulary an engine may or may not support."""

    TOKENS = "tokens"
    AURAS = "auras"
    PLAYER_AURAS = "player-auras"
    EQUIPMENT = "equipment"
    FORTIFICATIONS = "fortifications"
    COUNTERS = "counters"
    REDUNDANT_PHASING = "redundant-phasing"
    CHOICES = "choices"
    TRIGGERS = "triggers"
    PHASE_TRIGGERS = "phase-triggers"
    ANTHEM = "anthem"
    ACTIVATED_ABILITIES = "activated-abilities"
    CONTROL_CHANGE = "control-change"
    #: "For as long as you control X" control durations (611.2b, 702.26f).
    #: X is a phased-in permanent of the player gaining control, as the
    #: effect begins.
    CONTROL_AS_LONG_AS = "control-for-as-long-as"
    #: ... and with any other X, whose duration never starts (611.2b).
    CONTROL_AS_LONG_AS_OTHER = "control-for-as-long-as-other"
    #: A phased-out permanent that phased out under another player than its
    #: current controller (R2017-control).
    PHASED_OUT_UNDER_OTHER = "phased-out-under-other"
    PT_BOOST = "pt-boost"
    SKIP_UNTAP = "skip-untap"
    MULTIPLAYER = "multiplayer"
    TARGETING = "targeting"
    PHASE_OUT_ALL = "phase-out-all"
    PHASE_OUT_UNTIL = "phase-out-until"
    DESTROY = "destroy"
    COUNT_CREATURES = "count-creatures"
    COMBAT = "combat"
    LEAVE_GAME = "leave-game"
    #: A permanent whose controller by default, the player it entered the
    #: battlefield under (110.2), is not its owner (800.4a, 800.4c).
    DEFAULT_CONTROLLER = "default-controller"
    #: A player with protection from everything (Teferi's Protection,
    #: R2017-protection): damage to them prevented, Auras can't be attached
    #: to them, they can't be targeted.
    PLAYER_PROTECTION = "player-protection"
    #: "Your life total can't change" (Teferi's Protection): gains, losses,
    #: setting and exchanging do nothing, life can't be paid.
    LIFE_LOCK = "life-lock"
    #: Spells that gain, lose, set or exchange life totals (GainLife,
    #: LoseLife, SetLife, ExchangeLife).
    LIFE_SPELLS = "life-spells"
    #: Costs paid with life: "pay N life" and "an opponent gains N life".
    LIFE_COSTS = "life-costs"
    #: Static replacement effects "if an opponent would draw a card, that
    #: player gains 2 life instead" and "if an opponent would gain life, you
    #: draw that many cards instead".
    LIFE_REPLACEMENT = "life-replacement"
    #: The static replacement effect "if an opponent would lose life, you
    #: draw that many cards instead" (R2017-life-replacement, its loss half).
    LOSS_REPLACEMENT = "loss-replacement"
    #: Damage dealt to players by spells (DealDamage at a player,
    #: DamageOpponents with lifelink, possibly unpreventable).
    PLAYER_DAMAGE = "player-damage"
    #: "Each opponent discards a card." (`OpponentsDiscard`), shown in
    #: `PlayerView.cards_discarded` (R2017-nothing-else: protection from
    #: everything doesn't stop it).
    DISCARD = "discard"
    #: Damage to players from a source with infect (`DamageOpponents` with
    #: `infect`): poison counters instead of life loss (702.90b), shown in
    #: `PlayerView.poison` (R2017-unpreventable).
    INFECT = "infect"
    #: A spell with several targets, creatures and players (TapAndDamage).
    MULTI_TARGET = "multi-target"
    #: Casting an Aura with "enchant player" (EnchantPlayer).
    CAST_AURAS = "cast-auras"
    #: Damage marked on creatures (`DealDamage`, `PermanentView.damage`):
    #: lethal damage destroys (704.5g), cleanup removes it (514.2).
    DAMAGE_MARKED = "damage-marked"
    #: Lands tapped for mana through their mana ability (`TapForMana`, 605).
    MANA_ABILITIES = "mana-abilities"
    #: Declaring blockers (`DeclareBlockers`) and showing who blocks and
    #: what is blocked (`PermanentView.blocking`, `blocked`; 509, 510.1c).
    BLOCKING = "blocking"
    #: Legendary permanents with names (`Permanent.legendary`, `name`) and
    #: the legend rule as a state-based action (704.5j).
    LEGEND_RULE = "legend-rule"
    #: Effects that look at what happened this turn: `DrawPerEntered`
    #: counts creatures that entered the battlefield this turn (702.26d).
    HISTORY = "history"
    #: The ability "Whenever this phases in, tap it.": when it resolves
    #: (in the upkeep, after untapping, 502.4) shows in what it taps.
    UPKEEP_TRIGGERS = "upkeep-triggers"
    #: Responses stacked on a waiting spell, each resolving before it: a
    #: target phased out in response, then phased back in by a second
    #: response (`DestroyThroughPhasing`; 702.26d, Mirage 502.15n).
    STACKED_RESPONSES = "stacked-responses"


ALL_CAPABILITIES: frozenset[Capability] = frozenset(Capability)
