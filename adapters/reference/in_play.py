"""Permanents in play: damage, mana abilities and blocking, and what phasing
does to them (702.26b, 506.4, 509.1h, 510.1c, 514.2, 704.5g)."""

from __future__ import annotations

from adapters.reference.state import Card, GameState, Refused
from conformance import actions as a


class InPlayRules:
    state: GameState

    def deal_damage(self, action: a.DealDamage) -> None:
        """120.3: damage to a player is life lost, to a creature it is marked
        on it; "any target" (115.4) is a creature or a player, a phased-out
        creature can't be targeted (702.26b), nor a player with protection
        from everything (R2017-protection), whose damage is prevented if they
        gain it before the spell resolves."""
        self.check_player(action.caster)  # type: ignore[attr-defined]
        if action.amount < 0:
            raise Refused("damage can't be negative")
        if isinstance(action.target, int):
            self.check_player(action.target)  # type: ignore[attr-defined]
            self.target_player(action.target)  # type: ignore[attr-defined]
            self.receive_priority()  # type: ignore[attr-defined]
            if self.is_legal_player_target(action.target):  # type: ignore[attr-defined]
                self.damage_player(action.target, action.amount)  # type: ignore[attr-defined]
            return
        card = self.target(action.target)  # type: ignore[attr-defined]
        if not card.is_creature:
            raise Refused(f"{action.target} is not a creature")
        self.receive_priority()  # type: ignore[attr-defined]
        if self.is_legal_target(card):  # type: ignore[attr-defined]
            card.damage += action.amount

    def lethally_damaged(self) -> list[Card]:
        """704.5g: phased-in creatures with damage marked at least equal to
        their toughness (a phased-out one is ignored, 702.26b)."""
        lethal = []
        for card in self.state.phased_in():
            pt = self.power_toughness(card) if card.damage > 0 else None  # type: ignore[attr-defined]
            if pt is not None and pt[1] > 0 and card.damage >= pt[1]:
                lethal.append(card)
        return lethal

    def draw_per_entered(self, action: a.DrawPerEntered) -> None:
        """702.26d: a creature that phased in this turn did not enter the
        battlefield; 702.26b: phased-out creatures aren't counted."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        self.state.drawn[action.player] += sum(
            self.entered_this_turn(c)
            for c in self.creatures_of(action.player)  # type: ignore[attr-defined]
        )

    def entered_this_turn(self, card: Card) -> bool:
        """603.6, 702.26d: it entered the battlefield this turn; phasing in
        is not entering, so only a real zone change counts."""
        return card.entered_turn == self.state.turn

    def legend_rule(self) -> bool:
        """704.5j: a player controlling two or more phased-in legendary
        permanents with one name chooses one; the rest go to their owners'
        graveyards (they die, 700.4). Phased-out ones are ignored (702.26b),
        so one that phases in next to its namesake meets the rule at the
        next priority (704.3). The reference keeps the one listed first (the
        property accepts either choice)."""
        kept: set[tuple[int, str]] = set()
        rest = []
        for card in self.state.phased_in():
            if card.legendary:
                key = (card.controller, card.name)
                if key in kept:
                    rest.append(card)
                kept.add(key)
        self.legends_die(rest)
        return bool(rest)

    def legends_die(self, cards: list[Card]) -> None:
        """704.5j: the legends the rule removes go to their owners'
        graveyards: they leave the battlefield, and creatures die (700.4)."""
        for card in cards:
            self.trigger(card, "ltb")  # type: ignore[attr-defined]
            if card.is_creature:
                self.trigger(card, "dies")  # type: ignore[attr-defined]
            self.leave_battlefield(card, "graveyard")  # type: ignore[attr-defined]

    def remove_damage(self, card: Card) -> None:
        """514.2: all damage marked on permanents is removed at cleanup,
        phased-out permanents included."""
        card.damage = 0

    def tap_for_mana(self, action: a.TapForMana) -> None:
        """605.3a: a mana ability is activated and resolves at once, without
        the stack; a phased-out land's can't be activated (702.26b)."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        card = self.state.cards.get(action.land)
        if card is None or not self.can_tap_for_mana(card, action.player):
            raise Refused(f"{action.player} can't tap {action.land} for mana")
        card.tapped = True

    def can_tap_for_mana(self, card: Card, player: int) -> bool:
        """605.1a, 305.6: an untapped land its controller controls; 702.26b:
        phased in; 302.6: a land creature's {T} mana ability, like any {T}
        ability of a creature, waits until it is no longer summoning sick."""
        return (
            card.phased_in
            and "land" in card.types
            and card.controller == player
            and (not card.tapped)
            and not (card.is_creature and card.sick)
        )

    def declare_blockers(self, action: a.DeclareBlockers) -> None:
        """509.1a: the defending player declares untapped creatures they
        control as blockers, each blocking one attacker, once per combat;
        702.26b: a phased-out creature can't block (R2017-nonexistent)."""
        s = self.state
        self.check_player(action.player)  # type: ignore[attr-defined]
        if s.step != "combat" or s.blocks_declared or action.player != s.defender:
            raise Refused("blockers can't be declared now")
        blockers = [b for b, _ in action.blocks]
        if not action.blocks or len(set(blockers)) != len(blockers):
            raise Refused("blockers must be distinct and at least one")
        pairs = []
        for blocker, attacker in action.blocks:
            b, x = s.cards.get(blocker), s.cards.get(attacker)
            if b is None or not self.can_block(b, action.player):
                raise Refused(f"{blocker} can't block")
            if x is None or not x.attacking:
                raise Refused(f"{attacker} is not attacking")
            pairs.append((b, x))
        # 509.2: the active player receives priority once blocks are declared.
        self.receive_priority()  # type: ignore[attr-defined]
        for b, x in pairs:
            b.blocking = x.id
            x.blocked = True
        s.blocks_declared = True

    def can_block(self, card: Card, player: int) -> bool:
        """509.1a: an untapped creature the defending player controls;
        702.26b: phased in (R2017-nonexistent)."""
        return (
            card.phased_in and card.is_creature and card.controller == player and (not card.tapped)
        )

    def blocked_damage(self) -> list[tuple[Card, int]]:
        """510.1c, 510.1d: the damage blocked attackers and blockers still in
        combat deal each other: a blocked attacker's all to its first
        blocker, none if no creature blocks it any more (509.1h: it is still
        blocked); each blocker's to the attacker it blocks."""
        marked: list[tuple[Card, int]] = []
        fighting = [c for c in self.state.phased_in() if c.is_creature]
        # Only creatures in combat deal combat damage: the power of the rest
        # is never asked for, which kept a pass turn on a big board quadratic.
        blockers: dict[str, list[Card]] = {}
        for card in fighting:
            if card.blocking is not None:
                blockers.setdefault(card.blocking, []).append(card)
        for card in fighting:
            if not (card.attacking and card.blocked) and card.blocking is None:
                continue
            pt = self.power_toughness(card)  # type: ignore[attr-defined]
            power = 0 if pt is None else max(pt[0], 0)
            if card.attacking and card.blocked:
                if card.id in blockers and power:
                    marked.append((blockers[card.id][0], power))
            elif power:
                attacker = self.state.cards[card.blocking]
                if attacker.phased_in and attacker.attacking:
                    marked.append((attacker, power))
        return marked
