"""Teferi's Protection and protection from everything on a player
(R2017-protection, R2017-protection-targets, R2017-nothing-else,
R2017-targets, R2017-skip-untap), and the spells that target players."""

from __future__ import annotations

from collections import Counter

from adapters.reference.state import Card, GameState, Refused
from conformance import actions as a
from conformance.observation import Event
from conformance.setup import OPENING_HAND


class ProtectionRules:
    state: GameState

    def teferis_protection(self, action: a.TeferisProtection) -> None:
        """R2017-protection, R2017-life-no-effect: until the player's next
        turn their life total can't change and they have protection from
        everything; then all permanents they control phase out (702.26g)."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        self.protect(action.player)

    def protect(self, player: int) -> None:
        """Teferi's Protection resolving (R2017-protection): protection and
        the life lock first, then its permanents phase out."""
        self.state.protected.add(player)
        self.state.locked.add(player)
        self.phase_out(self.all_you_control(player))  # type: ignore[attr-defined]

    def end_protection(self, player: int) -> None:
        """611.2a, R2017-skip-untap: "until your next turn" ends as that turn
        begins, before its untap step, skipped or not; 800.4m: or as it
        would have begun."""
        self.state.protected.discard(player)
        self.state.locked.discard(player)

    def is_protected(self, player: int) -> bool:
        """R2017-protection: the player has protection from everything."""
        return player in self.state.protected

    def is_legal_player_target(self, player: int) -> bool:
        """R2017-protection: a player with protection from everything can't
        be the target of spells or abilities; 800.4a: nor one who left."""
        return (
            0 <= player < self.state.players
            and self.state.in_game[player]
            and not self.is_protected(player)
        )

    def target_player(self, player: int) -> None:
        """R2017-protection: choosing a player as a target, refused if illegal."""
        if not self.is_legal_player_target(player):
            raise Refused(f"player {player} is not a legal target")

    def can_enchant_player(self, player: int) -> bool:
        """R2017-protection: Auras can't be attached to a player with
        protection from everything (an Aura on them goes, 704.5m); 800.4a:
        nor to a player who left."""
        return self.state.in_game[player] and not self.is_protected(player)

    def tap_and_damage(self, action: a.TapAndDamage) -> None:
        """608.2b: targets are checked as the spell resolves; R2017-targets
        (a permanent that phased out) and R2017-protection-targets (a player
        who gained protection) are illegal then: with none legal nothing
        happens, else the spell does what it can and still draws."""
        self.check_player(action.caster)  # type: ignore[attr-defined]
        if not action.targets or len(set(action.targets)) != len(action.targets):
            raise Refused("targets must be distinct and at least one")
        for t in action.targets:
            if isinstance(t, int):
                self.target_player(t)
            else:
                self.target(t)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        responder = action.protected_in_response
        if responder is not None and self.state.in_game[responder]:
            self.protect(responder)
            self.resolve_triggers()  # type: ignore[attr-defined]
        legal = [t for t in action.targets if self.still_legal(t)]
        if not legal:
            return
        for t in legal:
            if isinstance(t, int):
                self.damage_player(t, action.amount)  # type: ignore[attr-defined]
            else:
                self.state.cards[t].tapped = True
        self.draw(action.caster, 1)  # type: ignore[attr-defined]

    def still_legal(self, target: str | int) -> bool:
        """608.2b: a target still legal as the spell resolves (702.26b: a
        phased-out permanent isn't; R2017-protection: a protected player isn't)."""
        if isinstance(target, int):
            return self.is_legal_player_target(target)
        return self.is_legal_target(self.state.cards[target])  # type: ignore[attr-defined]

    def enchant_player(self, action: a.EnchantPlayer) -> None:
        """303.4a: an Aura spell targets what it will enchant; R2017-protection:
        not a player with protection from everything. It enters attached."""
        self.check_player(action.caster)  # type: ignore[attr-defined]
        if not action.aura or action.aura in self.state.cards:
            raise Refused(f"can't cast an Aura named {action.aura!r}")
        self.target_player(action.player)
        self.receive_priority()  # type: ignore[attr-defined]
        if not self.is_legal_player_target(action.player):
            return
        self.state.cards[action.aura] = Card(
            id=action.aura,
            owner=action.caster,
            controller=action.caster,
            types=("enchantment",),
            attachment="aura",
            token=False,
            phasing=0,
            tapped=False,
            counters=Counter(),
            attached_to=action.player,
            phased_out=None,
            abilities=frozenset(),
            power=None,
            toughness=None,
            chosen=None,
            sick=False,
            default_controller=action.caster,
        )
        self.state.events.append(Event("zone_change", action.aura, "none->battlefield"))

    def opponents_discard(self, action: a.OpponentsDiscard) -> None:
        """R2017-nothing-else: "each opponent discards a card" doesn't target,
        so protection from everything doesn't stop it; 701.9b: a player with
        no cards in hand discards nothing; 800.4a: nor one who left."""
        self.check_player(action.caster)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        for p in range(self.state.players):
            if p != action.caster and self.state.in_game[p]:
                self.discard(p)

    def discard(self, player: int) -> None:
        """701.9a: a card moves from the player's hand to their graveyard;
        the hand holds the opening hand and the cards drawn, less those
        discarded."""
        s = self.state
        if OPENING_HAND + s.drawn[player] - s.discarded[player] > 0:
            s.discarded[player] += 1
