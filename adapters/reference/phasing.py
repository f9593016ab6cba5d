"""Phasing itself: the untap-step phasing event, phasing out and in, and what
happens to attachments (702.26a, g–j, m, n, p; 502.1; 610.4)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from adapters.reference.state import Card, GameState
from conformance.observation import Event
from conformance.setup import Ability, PhaseCause, PhasedOut

#: The triggered abilities each phasing event triggers.
_PHASE_ABILITIES: dict[str, tuple[Ability, ...]] = {
    "phases_out": ("phases_out",),
    "phases_in": ("phases_in", "phases_in_tap"),
}


@lru_cache(maxsize=1024)
def _status(cause: PhaseCause, under: int, until: str | None) -> PhasedOut:
    """A `PhasedOut` is an immutable value: share one per distinct status
    rather than build one per permanent (a frozen dataclass takes ~0.4 µs,
    a large part of the cost of a phasing event on a big board)."""
    return PhasedOut(cause, under, until)


class PhasingRules:
    state: GameState

    def untap_step(self, player: int) -> None:
        """502.1: phasing first, then untapping; 702.26m: a skipped untap step
        has no phasing event (R2017-skip-untap)."""
        if self.state.skips[player] > 0:
            self.state.skips[player] -= 1
            return
        self.phasing_event(player)
        self.untap(player)

    def phasing_event(self, player: int) -> None:
        """702.26a: the player's phased-in permanents with phasing phase out
        and, simultaneously, what phased out under them phases in. Both sets
        are fixed first, so nothing does both in one step."""
        going_out: list[Card] = []
        coming_in: list[Card] = []
        index: dict[str | int, list[Card]] = {}
        # One pass over the cards: this is the hot path of the untap step (the
        # zone test is `Card.on_battlefield`, inlined; the rule hooks are
        # looked up once, not per card). It also builds the attachment index
        # (`attachment_index`, 702.26g): on big boards a second pass cost more.
        phases_out, phases_in = self.phases_out_in_untap, self.phases_in_in_untap
        for card in self.state.cards.values():
            host = card.attached_to
            if host is not None:
                if host in index:
                    index[host].append(card)
                else:
                    index[host] = [card]
            if card.zone != "battlefield":
                continue
            if card.phased_out is None:
                # 702.26a: only permanents with phasing phase out; the rest
                # need no call.
                if card.phasing and phases_out(card, player):
                    going_out.append(card)
            elif phases_in(card, player):
                coming_in.append(card)
        self.state.released.clear()
        with self.state.attachment_index(index):
            self.phase_out(going_out)
            self.phase_in(coming_in)

    def phases_out_in_untap(self, card: Card, player: int) -> bool:
        """702.26a, 702.26p: any number of phasing instances phase it out once."""
        return card.phasing > 0 and card.controller == player

    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        """702.26a: it phased out directly under this player; 702.26n: or under
        a player who left and whose turn would have begun; 610.4: not if it
        waits for "until"; 702.26g: indirect ones come with their host."""
        out = card.phased_out
        if out is None or out.cause != "direct" or out.until is not None:
            return False
        return out.under == player or out.under in self.state.released

    def untap(self, player: int) -> None:
        """502.3: the active player's phased-in permanents untap, including
        those that just phased in (502.1)."""
        for card in self.state.cards.values():
            # `Card.phased_in`, inlined: this loop visits every card.
            if card.controller == player and card.phased_out is None and card.zone == "battlefield":
                card.tapped = False

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        """Phase `roots` out directly, and everything attached to them
        indirectly (702.26g); something phasing out both ways at once phases
        out indirectly (702.26h)."""
        # `Card.phased_in`, inlined: a big phasing event has many roots.
        group = self.state.with_attachments(
            [c for c in roots if c.zone == "battlefield" and c.phased_out is None]
        )
        # The hot path of a big phasing event: hooks and methods looked up
        # once, not per card, and the two statuses of each player made once
        # (a `_status` call per card, which hashes its arguments, cost as much
        # as the rest of the loop without the event).
        report = self.state.events.append
        removed_from_combat = self.removed_from_combat
        players = range(self.state.players)
        indirectly = [_status("indirect", player, None) for player in players]
        directly = [_status("direct", player, until) for player in players]
        for card in group.values():
            if card.attached_to in group:
                card.phased_out = indirectly[card.controller]
                removed_from_combat(card)
                report(Event("phased_out", card.id, "indirect"))
            else:
                card.phased_out = directly[card.controller]
                removed_from_combat(card)
                report(Event("phased_out", card.id, "direct"))
            if card.abilities:  # most permanents have none: no call
                self.phase_trigger(card, "phases_out")
        # 702.26f, R2017-for-as-long-as: "for as long as" effects tracking
        # what phased out end now, before anything else (e.g. untapping).
        self.refresh()  # type: ignore[attr-defined]

    def removed_from_combat(self, card: Card) -> None:
        """506.4: a permanent that phases out, or whose controller changes
        (`refresh`), is removed from combat: it is no longer attacking or
        blocking, and as an attacker no longer blocked. 509.1h: an attacker
        it blocked stays blocked."""
        card.attacking = False
        card.blocked = False
        card.blocking = None

    def phase_in(self, roots: Iterable[Card]) -> None:
        """Phase `roots` in with whatever phased out indirectly with them
        (702.26g, R2017-attached); then directly phased-out attachments find
        their host again or phase in unattached (702.26i)."""
        roots = [c for c in roots if c.zone == "battlefield" and c.phased_out is not None]
        phase_in_with_attachments = self.phase_in_with_attachments  # looked up once
        with self.state.attachment_index():
            for card in roots:
                phase_in_with_attachments(card)
        for card in roots:
            # 702.26i is about attachments: nothing to find for the rest.
            if card.attached_to is not None:
                self.reattach(card)

    def phase_in_with_attachments(self, card: Card) -> None:
        """702.26g: what phased out indirectly with `card` phases in with it;
        603.10b-style "whenever this phases in" triggers."""
        state = self.state
        card.phased_out = None
        state.events.append(Event("phased_in", card.id))
        if card.abilities:
            self.phase_trigger(card, "phases_in")
        index = state.attached
        if index is None:
            candidates: Iterable[Card] = state.attachments_of(card.id)
        elif card.id in index:
            candidates = index[card.id]
        else:
            return  # the index says nothing is attached to it
        for attached in candidates:
            # On the battlefield and attached to it, as `attachments_of`
            # checks (inlined: `phase_in` keeps the index open, and a call and
            # a list per host cost more than the checks). Phasing in moves
            # nothing and what comes back with its host stays attached
            # (702.26g), so checking as we go is checking first.
            out = attached.phased_out
            if (
                attached.zone == "battlefield"
                and attached.attached_to == card.id
                and out is not None
                and out.cause == "indirect"
            ):
                self.phase_in_with_attachments(attached)

    def reattach(self, card: Card) -> None:
        """702.26i, R2017-auras: a directly phased-out attachment phases in
        attached to the same object if it can still be attached to it, else
        unattached; 702.26j: without attach or unattach triggers."""
        host = card.attached_to
        if host is None:
            return
        if isinstance(host, int):
            legal = self.can_enchant_player(host)  # type: ignore[attr-defined]
        else:
            target = self.state.cards[host]
            legal = target.phased_in and self.can_attach(card, target)
        if not legal:
            card.attached_to = None

    def can_attach(self, card: Card, host: Card) -> bool:
        """301.5, 303.4: Equipment to creatures, Fortifications to lands."""
        if card.attachment == "equipment":
            return host.is_creature
        if card.attachment == "fortification":
            return "land" in host.types
        return True

    def phase_trigger(self, card: Card, kind: str) -> None:
        """603.10b: "whenever this phases out/in" triggers, which name phasing;
        603.3: they wait to be put on the stack until a player would receive
        priority (502.4: in the upkeep, for those of the untap step)."""
        for ability in _PHASE_ABILITIES[kind]:
            if ability in card.abilities:
                self.state.triggers.append((card.id, ability, card.controller))

    def release_until(self, source: Card) -> None:
        """610.4: what phased out "until [source] leaves the battlefield"
        phases in once it does (R2017-until-leaves: not when it phases out):
        right after the event that moved it, so after the effects that event
        ended (611.2b "for as long as", 800.4a control by a player who left).
        Its controller then controls its phase-in triggers (603.3a)."""
        waiting = self.state.waiting_for(source.id)
        if waiting:
            self.refresh()  # type: ignore[attr-defined]
            self.phase_in(waiting)
