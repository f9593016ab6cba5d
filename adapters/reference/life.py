"""Life totals: gaining, losing, setting and exchanging life, paying life,
damage to players, and "your life total can't change" (119, 120.3a;
Teferi's Protection: R2017-life-no-effect, R2017-set-life, R2017-exchange,
R2017-pay-life, R2017-gain-life-cost, R2017-replaced-by-life,
R2017-life-replacement, R2017-unpreventable)."""

from __future__ import annotations

from adapters.reference.state import Card, GameState, Refused
from conformance import actions as a
from conformance.setup import DRAW_LIFE, Ability


class LifeRules:
    state: GameState

    def life_can_change(self, player: int) -> bool:
        """R2017-life-no-effect: until their next turn, a player who cast
        Teferi's Protection has a life total that can't change."""
        return player not in self.state.locked

    def gain_life(
        self, player: int, amount: int, replaced: frozenset[Ability] = frozenset()
    ) -> None:
        """R2017-life-replacement: while the player's life can't change,
        gaining life is impossible, so nothing replaces it and nothing
        happens; otherwise 616.1f: "if an opponent would gain life, you draw
        that many cards instead" applies once to the event."""
        if amount > 0:
            self.change_life(player, amount, "gain_to_draw", replaced)

    def draw(self, player: int, count: int, replaced: frozenset[Ability] = frozenset()) -> None:
        """R2017-replaced-by-life: "if an opponent would draw a card, that
        player gains 2 life instead" applies even while their life can't
        change, replacing the draw with nothing; 616.1f: once per event."""
        for _ in range(count):
            sources = [] if "draw_to_life" in replaced else self.replacing(player, "draw_to_life")
            if sources:
                self.gain_life(player, DRAW_LIFE, replaced | {"draw_to_life"})
            else:
                self.state.drawn[player] += 1

    def replacing(self, player: int, ability: Ability) -> list[Card]:
        """702.26b: only phased-in permanents' static abilities apply; these
        replacement abilities apply to their controller's opponents."""
        return [
            c for c in self.state.phased_in() if ability in c.abilities and c.controller != player
        ]

    def lose_life(
        self, player: int, amount: int, replaced: frozenset[Ability] = frozenset()
    ) -> None:
        """R2017-life-no-effect: losing life has no effect while the life
        total can't change; R2017-life-replacement: so nothing replaces it
        then; otherwise 616.1f: "if an opponent would lose life, you draw
        that many cards instead" applies once to the event."""
        if amount > 0:
            self.change_life(player, -amount, "lose_to_draw", replaced)

    def change_life(
        self, player: int, delta: int, replacement: Ability, replaced: frozenset[Ability]
    ) -> None:
        """Gaining or losing life, `delta` (nonzero): R2017-life-no-effect
        first, then `replacement`'s "you draw that many cards instead"
        (616.1f: once per event, so not if it already `replaced` it)."""
        if not self.life_can_change(player):
            return
        sources = [] if replacement in replaced else self.replacing(player, replacement)
        if sources:
            chosen = self.chosen_replacement(sources)
            self.draw(chosen.controller, abs(delta), replaced | {replacement})
        else:
            self.state.life[player] += delta

    def chosen_replacement(self, sources: list[Card]) -> Card:
        """616.1: of several replacement effects that would apply to one
        event, the affected player picks one; this player takes the
        permanent set up first (readings M: any pick is right)."""
        return sources[0]

    def damage_player(
        self, player: int, amount: int, preventable: bool = True, infect: bool = False
    ) -> int:
        """120.3a: damage to a player makes them lose that much life; 120.3b,
        702.90b: damage from a source with infect gives them that many
        poison counters instead; R2017-protection: protection from
        everything prevents it; R2017-unpreventable: damage that can't be
        prevented is dealt even while their life can't change, with its
        other effects (lifelink sees it, infect's poison counters are
        given). Returns the damage dealt."""
        if amount <= 0 or not self.state.in_game[player]:
            return 0
        if preventable and self.is_protected(player):  # type: ignore[attr-defined]
            return 0
        if infect:
            self.state.poison[player] += amount
        else:
            self.lose_life(player, amount)
        return amount

    # Spells (each draws a card, so that its resolving shows).

    def gain_life_spell(self, action: a.GainLife) -> None:
        """R2017-life-no-effect: the spell resolves; only its life gain has
        no effect while the life total can't change."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        self.gain_life(action.player, action.amount)
        self.draw(action.player, 1)

    def lose_life_spell(self, action: a.LoseLife) -> None:
        """R2017-life-no-effect: the spell resolves; only its life loss has
        no effect while the life total can't change."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        self.lose_life(action.player, action.amount)
        self.draw(action.player, 1)

    def set_life(self, action: a.SetLife) -> None:
        """119.5: setting a life total is gaining or losing the difference;
        R2017-set-life: so it does nothing while the total can't change."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        difference = action.life - self.state.life[action.player]
        if difference > 0:
            self.gain_life(action.player, difference)
        else:
            self.lose_life(action.player, -difference)
        self.draw(action.player, 1)

    def exchange_life(self, action: a.ExchangeLife) -> None:
        """R2017-exchange: if either player's life total can't change, the
        exchange doesn't happen and neither total changes (701.12b); the
        target must be a legal one (R2017-protection). 701.12c: otherwise
        each player gains or loses the life that makes their total the
        other's previous one, and replacement effects may modify these
        gains and losses ("you draw that many cards instead")."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.target_player(action.target)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        one, other = action.player, action.target
        if self.life_can_change(one) and self.life_can_change(other):
            difference = self.state.life[other] - self.state.life[one]
            for player, change in ((one, difference), (other, -difference)):
                if change > 0:
                    self.gain_life(player, change)
                else:
                    self.lose_life(player, -change)
        self.draw(action.player, 1)

    def can_pay_life(self, player: int, amount: int) -> bool:
        """119.4: a player can always pay 0 life, and more only up to their
        life total; R2017-pay-life: only 0 while their life can't change."""
        if amount == 0:
            return True
        return 0 < amount <= self.state.life[player] and self.life_can_change(player)

    def pay_life_spell(self, action: a.PayLife) -> None:
        """119.4, R2017-pay-life: the cost is paid as the spell is cast, or
        the spell can't be cast."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        if not self.can_pay_life(action.player, action.amount):
            raise Refused(f"player {action.player} can't pay {action.amount} life")
        self.lose_life(action.player, action.amount)
        self.receive_priority()  # type: ignore[attr-defined]
        self.draw(action.player, 1)

    def can_gain_life_as_cost(self, player: int, amount: int) -> bool:
        """R2017-gain-life-cost: a cost of a player gaining life can't be
        paid while that player's life can't change (118.3: a cost is paid
        in full or not at all)."""
        return amount > 0 and self.state.in_game[player] and self.life_can_change(player)

    def give_life_spell(self, action: a.GiveLife) -> None:
        """R2017-gain-life-cost: the alternative cost "an opponent gains N
        life" is paid as the spell is cast, or it can't be cast."""
        self.check_player(action.player)  # type: ignore[attr-defined]
        self.check_player(action.opponent)  # type: ignore[attr-defined]
        if action.opponent == action.player or not self.can_gain_life_as_cost(
            action.opponent, action.amount
        ):
            raise Refused(f"player {action.opponent} can't gain {action.amount} life")
        self.gain_life(action.opponent, action.amount)
        self.receive_priority()  # type: ignore[attr-defined]
        self.draw(action.player, 1)

    def damage_opponents(self, action: a.DamageOpponents) -> None:
        """R2017-protection: damage to an opponent with protection from
        everything is prevented, targeted or not (R2017-nothing-else: the
        spell itself is legal); R2017-unpreventable: damage that can't be
        prevented is dealt, and lifelink (702.15b) gains its controller that
        much, though the opponent's life total doesn't change; with infect,
        the opponent gets poison counters (702.90b)."""
        self.check_player(action.caster)  # type: ignore[attr-defined]
        self.receive_priority()  # type: ignore[attr-defined]
        opponents = [p for p in range(self.state.players) if p != action.caster]
        dealt = sum(
            self.damage_player(p, action.amount, not action.unpreventable, action.infect)
            for p in opponents
        )
        self.gain_life(action.caster, dealt)
