"""Continuous effects: control, power/toughness, and when durations end
(611.2b, 613, 702.26e, 702.26f, 800.4a, 800.4m)."""

from __future__ import annotations

from adapters.reference.state import Card, GameState, Timed
from conformance.setup import BoostEffect, ControlEffect, Duration


class ContinuousRules:
    state: GameState

    def control(self) -> dict[str, int]:
        """613.1b: the controller each control effect gives, by target; the
        newest effect on a permanent applies (effects are kept in timestamp
        order, so a later one overwrites). Phasing is not a control change
        (702.26d): effects keep applying to a phased-out permanent until they
        end (702.26f)."""
        return {
            t.effect.target: t.effect.controller
            for t in self.state.effects
            if isinstance(t.effect, ControlEffect)
        }

    def controller_of(self, card: Card) -> int:
        """613.1b: the newest control effect on it applies, else the player
        who controls it by default (110.2)."""
        return self.control().get(card.id, card.default_controller)

    def refresh(self) -> None:
        """Recompute controllers until "for as long as" effects are stable
        (702.26f, R2017-for-as-long-as); a permanent whose controller changed
        is summoning sick again (302.6) and removed from combat (506.4), also
        when a control effect ended because its X phased out. One `control`
        lookup per pass keeps this linear in permanents plus effects: it runs
        after every event.
        A permanent left to a player who left the game is exiled
        (`exile_orphans`), which can end more "for as long as" effects."""
        while True:
            control = self.control()
            # Compared in a comprehension, faster than a loop's body: this
            # pass runs after every event and few cards, if any, change; and
            # with no control effect (most of the time), without a lookup.
            if control:
                changed = [
                    c
                    for c in self.state.cards.values()
                    if control.get(c.id, c.default_controller) != c.controller
                ]
            else:
                changed = [
                    c for c in self.state.cards.values() if c.default_controller != c.controller
                ]
            for card in changed:
                card.controller = control.get(card.id, card.default_controller)
                card.sick = True
                self.removed_from_combat(card)  # type: ignore[attr-defined]
            ended = [t for t in self.state.effects if not self.condition_holds(t)]
            for timed in ended:
                self.state.effects.remove(timed)
            # Only once no more effects end is a controller final.
            if not ended and not self.exile_orphans():
                return

    def exile_orphans(self) -> bool:
        """800.4a: what a player who left still controls once their control
        effects ended is exiled; 800.4c: so is a permanent whose control
        effect ends with no other one giving it to a player in the game, when
        the player who controls it by default has left. Both at once, not as
        state-based actions; phased out or not (see docs/readings.md). No
        leaves-the-battlefield trigger: its controller is gone (800.4a)."""
        if all(self.state.in_game):
            return False
        orphans = [
            c
            for c in self.state.in_play()
            if not self.state.in_game[c.controller] and self.state.in_game[c.owner]
        ]
        for card in orphans:
            self.leave_battlefield(card, "exile")  # type: ignore[attr-defined]
        return bool(orphans)

    def condition_holds(self, timed: Timed) -> bool:
        """702.26f, 611.2b: "for as long as you control X" ends once X is
        phased out, gone, or controlled by someone else; 800.4a: effects that
        give a player who left control of something end."""
        e = timed.effect
        if isinstance(e, ControlEffect) and not self.state.in_game[e.controller]:
            return False
        return self.duration_condition(e.duration, e.controller)

    def duration_condition(self, duration: Duration, player: int) -> bool:
        """611.2b, 702.26f: "for as long as you control X" holds while X is
        phased in and controlled by `player`."""
        if duration.kind != "as_long_as_you_control" or duration.of is None:
            return True
        card = self.state.cards.get(duration.of)
        return card is not None and card.phased_in and card.controller == player

    def end_effects(self, kind: str, player: int | None = None) -> None:
        """End effects of duration `kind` ("until end of turn" at cleanup,
        514.2; "until your next turn" as `player`'s turn begins, 611.2a, or
        would have begun, 800.4m)."""
        self.state.effects = [
            t
            for t in self.state.effects
            if not (
                t.effect.duration.kind == kind and (player is None or t.effect.controller == player)
            )
        ]
        self.refresh()

    def add_effect(self, effect: ControlEffect | BoostEffect) -> None:
        """611.2b: an effect whose "for as long as" duration can't start does
        nothing at all."""
        if not self.duration_condition(effect.duration, effect.controller):
            return
        self.state.effects.append(Timed(effect, self.state.stamp()))
        self.refresh()

    def power_toughness(
        self, card: Card, anthems: list[Card] | None = None
    ) -> tuple[int, int] | None:
        """613.4: base, then +1/+1 counters, boosts that include it, and the
        anthems of other permanents its controller controls; `anthems` are
        the anthem sources, found once per observation."""
        if not card.is_creature or not card.phased_in:
            return None
        assert card.power is not None and card.toughness is not None
        sources = self.anthem_sources() if anthems is None else anthems
        power = toughness = card.counters["+1/+1"] + sum(
            1 for s in sources if s is not card and s.controller == card.controller
        )
        for timed in self.state.effects:
            e = timed.effect
            if isinstance(e, BoostEffect) and card.id in e.targets:
                power += e.power
                toughness += e.toughness
        return card.power + power, card.toughness + toughness

    def anthem_sources(self) -> list[Card]:
        """702.26b: only phased-in anthems apply (R2017-nonexistent)."""
        return [s for s in self.state.phased_in() if "anthem" in s.abilities]
