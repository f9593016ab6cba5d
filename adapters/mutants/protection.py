"""Mutants of protection from everything on a player, of Teferi's
Protection's duration and of what its phasing out takes (R2017-protection,
R2017-protection-targets, R2017-nothing-else, R2017-targets,
R2017-skip-untap, R2017-control, R2017-auras, 702.26g)."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.rules import Refused
from adapters.reference.state import Card
from conformance import actions as a
from conformance.observation import Event
from conformance.setup import PhasedOut


@mutant(
    "protection-prevents-no-damage",
    "R2017-protection",
    "protection from everything doesn't prevent damage to the player (lifelink sees it dealt)",
    kills=("protection_prevents_damage_to_the_player",),
)
class ProtectionPreventsNoDamage(Rules):
    def damage_player(
        self, player: int, amount: int, preventable: bool = True, infect: bool = False
    ) -> int:
        return super().damage_player(player, amount, False, infect)


@mutant(
    "protection-checked-on-resolution-only",
    "R2017-protection",
    "a player with protection from everything can be chosen as a target (the spell then does "
    "nothing to them)",
    kills=("protected_players_cannot_be_targeted",),
)
class ProtectionCheckedOnResolutionOnly(Rules):
    def target_player(self, player: int) -> None:
        self.check_player(player)


@mutant(
    "auras-stay-on-protected-players",
    "704.5m",
    "an Aura on a player who gains protection from everything stays attached",
    kills=("auras_cannot_stay_on_protected_players",),
)
class AurasStayOnProtectedPlayers(Rules):
    def can_enchant_player(self, player: int) -> bool:
        return self.state.in_game[player]


@mutant(
    "auras-dropped-only-as-protection-resolves",
    "R2017-protection",
    "Auras on a player go to the graveyard once, as their Teferi's Protection resolves; an "
    "Aura phasing in onto them later stays attached (it isn't a state-based action)",
    kills=("auras_cannot_stay_on_protected_players",),
)
class AurasDroppedOnlyAsProtectionResolves(Rules):
    def can_enchant_player(self, player: int) -> bool:
        return self.state.in_game[player]

    def protect(self, player: int) -> None:
        super().protect(player)
        for card in self.state.phased_in():
            if card.attachment == "aura" and card.attached_to == player:
                self.aura_to_graveyard(card)


@mutant(
    "protection-covers-owned-permanents",
    "R2017-nothing-else",
    "protection from everything is looked up by a permanent's owner too: a permanent the "
    "protected player owns but another player controls can't be targeted",
    kills=("protected_players_permanents_others_control_can_be_targeted",),
)
class ProtectionCoversOwnedPermanents(Rules):
    def is_legal_target(self, card: Card) -> bool:
        return super().is_legal_target(card) and not self.is_protected(card.owner)


@mutant(
    "protected-players-cannot-be-attacked",
    "R2017-nothing-else",
    "creatures can't attack a player with protection from everything",
    kills=("protected_players_can_still_be_attacked",),
)
class ProtectedPlayersCannotBeAttacked(Rules):
    def declare_attackers(self, action: a.DeclareAttackers) -> None:
        if self.is_protected(action.defender):
            raise Refused(f"player {action.defender} has protection from everything")
        super().declare_attackers(action)


@mutant(
    "protection-ignored-on-the-stack",
    "R2017-protection-targets",
    "a player who gains protection while targeted stays a legal target of the spell",
    kills=("spell_targeting_a_player_who_gains_protection_does_what_it_can",),
)
class ProtectionIgnoredOnTheStack(Rules):
    def still_legal(self, target: str | int) -> bool:
        if isinstance(target, int):
            return self.state.in_game[target]
        return super().still_legal(target)


@mutant(
    "response-rechecks-the-protected-players-own",
    "R2017-targets",
    "after Teferi's Protection in response, only the protected player and the permanents they "
    "control are illegal targets; another player's Aura on one of them, phased out with it "
    "(702.26g), is still tapped",
    kills=(
        "spell_whose_target_phased_out_does_what_it_can",
        "spell_targeting_a_player_who_gains_protection_does_what_it_can",
    ),
)
class ResponseRechecksTheProtectedPlayersOwn(Rules):
    def still_legal(self, target: str | int) -> bool:
        if isinstance(target, int):
            return super().still_legal(target)
        card = self.state.cards[target]
        return card.on_battlefield and not self.is_protected(card.controller)


@mutant(
    "one-illegal-target-counters-the-spell",
    "R2017-targets",
    "a spell with one illegal target as it resolves does nothing, though others are legal",
    kills=(
        "spell_whose_target_phased_out_does_what_it_can",
        "spell_targeting_a_player_who_gains_protection_does_what_it_can",
    ),
)
class OneIllegalTargetCountersTheSpell(Rules):
    def tap_and_damage(self, action: a.TapAndDamage) -> None:
        self.check_player(action.caster)
        for t in action.targets:
            if isinstance(t, int):
                self.target_player(t)
            else:
                self.target(t)
        self.receive_priority()
        responder = action.protected_in_response
        if responder is not None and self.state.in_game[responder]:
            self.protect(responder)
            self.resolve_triggers()
        if not all(self.still_legal(t) for t in action.targets):
            return
        for t in action.targets:
            if isinstance(t, int):
                self.damage_player(t, action.amount)
            else:
                self.state.cards[t].tapped = True
        self.draw(action.caster, 1)


@mutant(
    "protection-lasts-through-a-skipped-untap",
    "R2017-skip-untap",
    "Teferi's Protection ends in its caster's untap step, so a skipped one keeps it a turn more",
    kills=("protection_ends_as_your_turn_begins",),
)
class ProtectionLastsThroughASkippedUntap(Rules):
    def end_protection(self, player: int) -> None:
        if self.state.skips[player] == 0:
            super().end_protection(player)


@mutant(
    "protection-stops-discard",
    "R2017-nothing-else",
    "protection from everything also stops 'each opponent discards a card', which doesn't target",
    kills=("protected_players_still_discard",),
)
class ProtectionStopsDiscard(Rules):
    def discard(self, player: int) -> None:
        if not self.is_protected(player):
            super().discard(player)


@mutant(
    "phase-out-all-by-owner",
    "R2017-control",
    '"all permanents you control phase out" takes the permanents the player owns',
    kills=("phase_out_all_takes_what_its_caster_controls",),
)
class PhaseOutAllByOwner(Rules):
    def all_you_control(self, player: int) -> list[Card]:
        return [c for c in self.state.phased_in() if c.owner == player]


@mutant(
    "phase-out-all-only-unattached",
    "R2017-auras",
    '"all permanents you control phase out" takes unattached permanents only, leaving '
    "attachments to phase out with their hosts (so not those on another player's)",
    kills=("phase_out_all_takes_what_its_caster_controls",),
)
class PhaseOutAllOnlyUnattached(Rules):
    def all_you_control(self, player: int) -> list[Card]:
        return [c for c in super().all_you_control(player) if c.attached_to is None]


@mutant(
    "phase-out-all-attachments-indirect",
    "702.26g",
    '"all permanents you control phase out" phases every Aura and Equipment it takes out '
    "indirectly, also one on a permanent that stays: it never phases in",
    kills=("phase_out_events_say_how_it_phased_out",),
)
class PhaseOutAllAttachmentsIndirect(Rules):
    def phase_out_all(self, action: a.PhaseOutAll) -> None:
        self.check_player(action.player)
        self.receive_priority()
        self.take_all(self.all_you_control(action.player))

    def protect(self, player: int) -> None:
        self.state.protected.add(player)
        self.state.locked.add(player)
        self.take_all(self.all_you_control(player))

    def take_all(self, cards: Sequence[Card]) -> None:
        self.phase_out([c for c in cards if c.attachment is None])
        for card in cards:
            if card.attachment is not None and card.phased_in:
                card.phased_out = PhasedOut("indirect", card.controller)
                self.removed_from_combat(card)
                self.state.events.append(Event("phased_out", card.id, "indirect"))
                self.phase_trigger(card, "phases_out")
        self.refresh()
