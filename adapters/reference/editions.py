"""The reference engine's older editions of the phasing rules: each is the
set of rule decisions where it differs from today's, as a `Rules` subclass
overriding the methods its text changes (conformance/editions.py lists the
rules of each edition)."""

from __future__ import annotations

from adapters.reference.rules import Rules
from adapters.reference.state import Card
from conformance.catalog import Edition
from conformance.observation import Event


class Pre2017Rules(Rules):
    """CR 702.25 before 2017: today's rules, except that a phased-out token
    ceases to exist as a state-based action (702.25k)."""

    def one_round_of_sba(self) -> bool:
        """704.3: today's state-based actions, and at the same time 702.25k:
        phased-out tokens cease to exist."""
        ceasing = [c for c in self.state.in_play() if c.token and c.phased_out is not None]
        acted = super().one_round_of_sba()
        for card in ceasing:
            self.phased_out_token_ceases(card)
        return acted or any(not c.on_battlefield for c in ceasing)

    def phased_out_token_ceases(self, card: Card) -> None:
        """702.25k, 217.8d: the token is gone; it was treated as though it
        didn't exist, so nothing triggers (702.25b). What phased out
        indirectly with it stays phased out for the rest of the game
        (217.8d): it phases in only with its host (702.25f). What waited
        "until" it left is released (610.4)."""
        card.zone = "none"
        card.attached_to = None
        card.counters.clear()
        self.state.events.append(Event("zone_change", card.id, "battlefield->none"))
        self.release_until(card)


class MirageRules(Pre2017Rules):
    """The Mirage-era rules 502.15 and 217.8: phased-out tokens cease to
    exist (217.8d, as before 2017), and what phases in can attack and use
    {T} abilities as if it had haste (502.15m)."""

    def phase_in_with_attachments(self, card: Card) -> None:
        """502.15m: a permanent that phases in can attack and pay {T} as if it
        had haste while it stays under the same controller (a control change
        makes it summoning sick again, 302.6)."""
        super().phase_in_with_attachments(card)
        card.sick = False


#: The rules the reference engine plays in each edition.
EDITION_RULES: dict[Edition, type[Rules]] = {
    "current": Rules,
    "pre-2017": Pre2017Rules,
    "mirage": MirageRules,
}
