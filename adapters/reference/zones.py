"""Leaving the battlefield and the game: destruction, state-based actions,
triggered abilities and players leaving (702.26b, d, k; 704.5; 800.4a)."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.reference.state import Card, GameState
from conformance.observation import Event
from conformance.setup import TRIGGER_LIFE, Ability


class ZoneRules:
    state: GameState

    def destroy(self, cards: Iterable[Card]) -> None:
        """701.8: destroyed permanents go to their owner's graveyard at once;
        a phased-out one can't be destroyed (702.26b). What waited "until"
        one of them left phases in after all of them have left (610.4)."""
        destroyed = [c for c in cards if c.phased_in]
        for card in destroyed:
            self.trigger(card, "ltb")
            if card.is_creature:
                self.trigger(card, "dies")
            self.leave_battlefield(card, "graveyard", release=False)
        with self.state.waiting_index():
            for card in destroyed:
                self.release_until(card)  # type: ignore[attr-defined]

    def leave_battlefield(self, card: Card, zone: str, release: bool = True) -> None:
        """A real zone change; 704.5d: a token that leaves ceases to exist.
        `release`: what waited "until" it left phases in now (610.4); a
        caller moving several permanents in one event releases them after."""
        card.zone = "none" if card.token else zone  # type: ignore[assignment]
        self.state.events.append(Event("zone_change", card.id, f"battlefield->{zone}"))
        card.attached_to = None
        card.attacking = card.blocked = False
        card.blocking = None
        card.damage = 0
        card.tapped = False
        card.counters.clear()
        if release:
            self.release_until(card)  # type: ignore[attr-defined]

    def trigger(self, card: Card, kind: Ability) -> None:
        """702.26b: a phased-out permanent's abilities don't trigger."""
        if kind in card.abilities and card.phased_in:
            self.state.triggers.append((card.id, kind, card.controller))

    def resolve_triggers(self) -> None:
        """Each triggered ability gains its controller its life (603.3);
        abilities of a player who left the game don't resolve (800.4a)."""
        while self.state.triggers:
            source, kind, controller = self.state.triggers.pop(0)
            if self.state.in_game[controller]:
                if kind == "phases_in_tap":
                    self.tap_itself(self.state.cards[source])
                else:
                    self.gain_life(controller, TRIGGER_LIFE[kind])  # type: ignore[attr-defined]
                self.state.events.append(Event("trigger", source, kind))
            self.state_based_actions()

    def tap_itself(self, card: Card) -> None:
        """ "Whenever this phases in, tap it.": it taps if it is still there
        and phased in (702.26b)."""
        if card.phased_in:
            card.tapped = True

    def receive_priority(self) -> None:
        """704.3, 117.5: whenever a player would receive priority, state-based
        actions are checked, then triggered abilities go on the stack and
        resolve, each resolution giving priority again."""
        self.state_based_actions()
        self.resolve_triggers()

    def state_based_actions(self) -> None:
        """704.3: repeat until none apply; phased-out permanents are ignored
        (702.26b)."""
        while self.one_round_of_sba():
            pass

    def one_round_of_sba(self) -> bool:
        """704.3: one check of 704.5a, 704.5g, 704.5j, 704.5m and 704.5n."""
        lethal = self.lethally_damaged()  # type: ignore[attr-defined]
        self.destroy(lethal)
        acted = self.legend_rule() or bool(lethal)  # type: ignore[attr-defined]
        for player in range(self.state.players):
            if self.state.in_game[player] and self.state.life[player] <= 0:
                self.leave_game(player)  # 704.5a
                acted = True
        with self.state.waiting_index():
            for card in self.state.phased_in():
                if card.attachment is None:
                    continue
                if not self.attached_legally(card):
                    acted = True
                    if card.attachment == "aura":
                        self.aura_to_graveyard(card)
                    else:
                        self.unattach(card)
        return acted

    def attached_legally(self, card: Card) -> bool:
        """704.5m, 704.5n: attached to something still there that it can
        be attached to (R2017-protection: not a player with protection from
        everything)."""
        host = card.attached_to
        if host is None:
            return card.attachment != "aura"
        if isinstance(host, int):
            return self.can_enchant_player(host)  # type: ignore[attr-defined]
        target = self.state.cards[host]
        return target.on_battlefield and self.can_attach(card, target)  # type: ignore[attr-defined]

    def aura_to_graveyard(self, card: Card) -> None:
        """704.5m: an Aura attached to nothing or to something illegal goes
        to its owner's graveyard."""
        self.trigger(card, "ltb")
        self.leave_battlefield(card, "graveyard")

    def unattach(self, card: Card) -> None:
        """704.5n: Equipment or a Fortification attached illegally becomes
        unattached and stays on the battlefield."""
        card.attached_to = None
        self.state.events.append(Event("unattached", card.id))
        self.trigger(card, "unattached")

    def leave_game(self, player: int) -> None:
        """800.4a: everything the player owns leaves the game at once,
        phased-out permanents included and without leaves-the-battlefield
        triggers (702.26k); effects giving them control end; their own
        triggered abilities are gone. A phased-in permanent they own but
        another player controls does trigger its leaves-the-battlefield
        ability, for that player (603.10a). Only then is what waited "until"
        one of those permanents left released (610.4): a permanent that left
        with them is no longer there to phase in."""
        self.state.in_game[player] = False
        leaving = [c for c in self.state.cards.values() if c.owner == player and c.zone != "none"]
        gone = [c for c in leaving if c.on_battlefield]
        for card in gone:
            if card.phased_in and card.controller != player:
                self.trigger(card, "ltb")
        for card in leaving:
            card.zone = "none"
            card.attached_to = None
        for card in gone:
            self.state.events.append(Event("zone_change", card.id, "battlefield->none"))
        self.state.triggers = [t for t in self.state.triggers if t[2] != player]
        with self.state.waiting_index():
            for card in gone:
                self.release_until(card)  # type: ignore[attr-defined]
        self.refresh()  # type: ignore[attr-defined]
