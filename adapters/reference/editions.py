"""The reference engine's older editions of the phasing rules: each is the
set of rule decisions where it differs from today's, as a `Rules` subclass
overriding the methods its text changes (conformance/editions.py lists the
rules of each edition)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from adapters.reference.rules import Rules
from adapters.reference.state import Card, GameState, Timed
from conformance.catalog import Edition
from conformance.observation import Event
from conformance.setup import ControlEffect


def without_limited_effects(effects: list[Timed], ids: set[str]) -> list[Timed]:
    """Mirage 502.15g: `effects` once those with a limited duration (until
    end of turn, until a player's next turn, for as long as something lasts)
    stop affecting the permanents `ids`, even if these phase in before the
    effects would end: a control effect on one ends, a boost leaves it out.
    Effects without a limited duration go on."""
    kept: list[Timed] = []
    for timed in effects:
        e = timed.effect
        if e.duration.kind == "indefinitely":
            kept.append(timed)
        elif isinstance(e, ControlEffect):
            if e.target not in ids:
                kept.append(timed)
        elif targets := tuple(t for t in e.targets if t not in ids):
            same = targets == e.targets
            kept.append(timed if same else replace(timed, effect=replace(e, targets=targets)))
    return kept


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
    exist (217.8d, as before 2017), what phases in can attack and use {T}
    abilities as if it had haste (502.15m), damage goes as a permanent phases
    out (502.15e) and so do the effects with a limited duration on it
    (502.15g), and legends of one name phasing in together all go to the
    graveyard (502.15k)."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        #: The ids of what each phasing in since state-based actions were
        #: last checked phased in, in order: those of one are "phasing in
        #: together" (502.15k).
        self.phased_in_together: list[list[str]] = []

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        """502.15e, 502.15g: what phasing out takes from a permanent, and
        from what phases out with it (502.15i): from every permanent this
        phasing reports phased out."""
        start = len(self.state.events)
        super().phase_out(roots, until)
        gone = [
            self.state.cards[e.subject] for e in self.state.events[start:] if e.kind == "phased_out"
        ]
        for card in gone:
            self.remove_damage(card)
        self.end_limited_effects({c.id for c in gone})

    def remove_damage(self, card: Card) -> None:
        """502.15e: when a permanent phases out, all damage on it is removed."""
        card.damage = 0

    def end_limited_effects(self, ids: set[str]) -> None:
        """502.15g: effects with a limited duration stop affecting the
        permanents `ids` that phased out (`without_limited_effects`); its
        controller as it phased out is remembered (502.15h): it phases in at
        that player's untap step, under its controller by default."""
        kept = without_limited_effects(self.state.effects, ids)
        if kept != self.state.effects:
            self.state.effects = kept
            self.refresh()

    def phase_in(self, roots: Iterable[Card]) -> None:
        """502.15b, 502.15k: what one event phases in (directly, or
        indirectly with its host, 502.15i) phases in simultaneously: noted
        for the legend rule."""
        start = len(self.state.events)
        super().phase_in(roots)
        events = self.state.events[start:]
        together = list(dict.fromkeys(e.subject for e in events if e.kind == "phased_in"))
        if together:
            self.phased_in_together.append(together)

    def phase_in_with_attachments(self, card: Card) -> None:
        """502.15m: a permanent that phases in can attack and pay {T} as if it
        had haste while it stays under the same controller (a control change
        makes it summoning sick again, 302.6)."""
        super().phase_in_with_attachments(card)
        card.sick = False

    def legend_rule(self) -> bool:
        """502.15k: two legends with the same name phasing in together both
        go to their owners' graveyards (the timestamps the active player
        gives them don't make either the older), whoever controls them;
        the rest as today's legend rule (704.5j, which the Mirage edition
        does not certify)."""
        groups, self.phased_in_together = self.phased_in_together, []
        doomed = [c for ids in groups for c in self.namesakes_phased_in_together(ids)]
        doomed = list(dict.fromkeys(doomed))  # once, if it phased in twice
        self.legends_die(doomed)
        return super().legend_rule() or bool(doomed)

    def namesakes_phased_in_together(self, ids: list[str]) -> list[Card]:
        """502.15k: the legendary permanents among `ids`, still phased in,
        that share their name with another of them."""
        legends = [c for i in ids if (c := self.state.cards[i]).legendary and c.phased_in]
        names = Counter(c.name for c in legends)
        return [c for c in legends if names[c.name] > 1]


#: The rules the reference engine plays in each edition.
EDITION_RULES: dict[Edition, type[Rules]] = {
    "current": Rules,
    "pre-2017": Pre2017Rules,
    "mirage": MirageRules,
}
