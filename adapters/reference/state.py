"""The reference engine's mutable game state, built from a `Setup`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from conformance.observation import Event, Zone
from conformance.setup import (
    STARTING_LIFE,
    Ability,
    Attachment,
    BoostEffect,
    CardType,
    ControlEffect,
    PhasedOut,
    Setup,
    SkipUntap,
)


class Refused(Exception):
    """The engine refuses an action; the message says why."""


@dataclass(eq=False, slots=True)
class Card:
    """A permanent as the reference engine tracks it. `controller` is derived
    from the control effects and refreshed after every event (613.1b);
    `default_controller` is who controls it when none applies (110.2)."""

    id: str
    owner: int
    controller: int
    types: tuple[CardType, ...]
    attachment: Attachment | None
    token: bool
    phasing: int
    tapped: bool
    counters: Counter[str]
    attached_to: str | int | None
    phased_out: PhasedOut | None
    abilities: frozenset[Ability]
    power: int | None
    toughness: int | None
    chosen: str | None
    sick: bool
    default_controller: int
    zone: Zone = "battlefield"
    attacking: bool = False
    #: Damage marked on it (120.3), removed at cleanup (514.2).
    damage: int = 0
    #: The turn it entered the battlefield, if during the scenario (a
    #: setup's permanents entered before it began).
    entered_turn: int | None = None
    #: Its card name and whether it is legendary (704.5j).
    name: str = ""
    legendary: bool = False
    #: The attacker it blocks (509.1g), and whether it is a blocked attacker
    #: (509.1h: it stays blocked once its blockers are gone).
    blocking: str | None = None
    blocked: bool = False

    @property
    def is_creature(self) -> bool:
        return "creature" in self.types

    @property
    def on_battlefield(self) -> bool:
        return self.zone == "battlefield"

    @property
    def phased_in(self) -> bool:
        """On the battlefield and seen by the game (702.26b)."""
        return self.zone == "battlefield" and self.phased_out is None


@dataclass
class Timed:
    """A continuous effect with the timestamp it was created at (613.7)."""

    effect: ControlEffect | BoostEffect
    timestamp: int


Step = Literal["main", "combat"]


@dataclass
class GameState:
    players: int
    active: int
    turn: int
    cards: dict[str, Card]
    effects: list[Timed]
    skips: Counter[int]
    in_game: list[bool] = field(default_factory=list)
    life: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    #: Poison counters (122.1f), from damage by sources with infect (702.90b).
    poison: list[int] = field(default_factory=list)
    #: Cards discarded (701.9a); a hand holds OPENING_HAND + drawn - discarded.
    discarded: list[int] = field(default_factory=list)
    step: Step = "main"
    attacked: bool = False
    #: Blockers were declared this combat (509.1: once).
    blocks_declared: bool = False
    defender: int = 0
    clock: int = 0
    #: Players who left and whose turn would have begun since: what phased out
    #: under them phases in at the next untap step (702.26n).
    released: set[int] = field(default_factory=set)
    events: list[Event] = field(default_factory=list)
    #: Players with protection from everything, and players whose life
    #: total can't change, until their next turn (Teferi's Protection).
    protected: set[int] = field(default_factory=set)
    locked: set[int] = field(default_factory=set)
    triggers: list[tuple[str, Ability, int]] = field(default_factory=list)
    #: Cards by what they are attached to, while `attachment_index` is open:
    #: a host missing from it has nothing attached, which the phasing hot
    #: path checks with one lookup instead of a call to `attachments_of`.
    attached: dict[str | int, list[Card]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    #: What waits "until" a source leaves, by source, while `waiting_index`
    #: is open and once asked for (`False`: open, not built yet).
    waiting: dict[str, list[Card]] | bool | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def stamp(self) -> int:
        self.clock += 1
        return self.clock

    def in_play(self) -> list[Card]:
        return [c for c in self.cards.values() if c.on_battlefield]

    def phased_in(self) -> list[Card]:
        return [c for c in self.cards.values() if c.phased_in]

    def attachments_of(self, host: str) -> list[Card]:
        if self.attached is None:
            candidates: Iterable[Card] = self.cards.values()
        elif host in self.attached:
            candidates = self.attached[host]
        else:
            return []
        # `Card.on_battlefield`, inlined: the phasing hot path calls this.
        return [c for c in candidates if c.zone == "battlefield" and c.attached_to == host]

    def with_attachments(self, roots: list[Card]) -> dict[str, Card]:
        """`roots` and, over and over, the phased-in cards attached to them,
        by id (702.26g: what phases out with its host). Only the cards the
        attachment index lists as hosts are looked into: on a big board, most
        cards of a phasing event have nothing attached."""
        with self.attachment_index() as attached:
            group = {card.id: card for card in roots}
            hosts = [card.id for card in roots if card.id in attached]
            while hosts:
                host = hosts.pop()
                # `attachments_of`, inlined (a call and a list per host): on
                # the battlefield and attached to it, and phased in.
                for card in attached[host]:
                    if (
                        card.zone == "battlefield"
                        and card.attached_to == host
                        and card.phased_out is None
                        and card.id not in group
                    ):
                        group[card.id] = card
                        if card.id in attached:
                            hosts.append(card.id)
        return group

    @contextmanager
    def attachment_index(
        self, built: dict[str | int, list[Card]] | None = None
    ) -> Iterator[dict[str | int, list[Card]]]:
        """Within the block, `attachments_of` looks in an index built by one
        scan instead of scanning every card per call, which made a phasing
        event O(n²) on big boards. Only for code that attaches nothing new, as
        phasing never does (702.26g, 702.26i): each lookup still checks its
        candidates, so a card that leaves or becomes unattached meanwhile is
        left out, but one that became attached to a new host would be missed.
        The block is given the index: every card attached to something, by
        host, in the order of the cards; `built` is that index if the caller
        made it in a pass of its own (the phasing event's)."""
        if self.attached is not None:
            yield self.attached
            return
        index = built
        if index is None:
            index = {}
            # Filter first: on a big board most cards are attached to nothing.
            for card in [c for c in self.cards.values() if c.attached_to is not None]:
                index.setdefault(card.attached_to, []).append(card)  # type: ignore[arg-type]
        self.attached = index
        try:
            yield index
        finally:
            self.attached = None

    def waiting_for(self, source: str) -> list[Card]:
        """The permanents phased out "until" `source` leaves the battlefield
        (610.4), in the order of the cards."""
        if self.waiting is False:
            index: dict[str, list[Card]] = {}
            for card in self.cards.values():
                out = card.phased_out
                if out is not None and out.until is not None:
                    index.setdefault(out.until, []).append(card)
            self.waiting = index
        if isinstance(self.waiting, dict):
            candidates: Iterable[Card] = self.waiting.get(source, ())
        else:
            candidates = self.cards.values()
        return [
            c
            for c in candidates
            if c.on_battlefield and c.phased_out is not None and c.phased_out.until == source
        ]

    @contextmanager
    def waiting_index(self) -> Iterator[None]:
        """Within the block, `waiting_for` looks in an index built by one scan
        the first time it is asked, instead of scanning every card for each
        permanent that leaves, which made destroying a board O(n²). Only for
        code that phases nothing out "until", as moving permanents out of
        play never does: each lookup still checks its candidates, so what
        phased in or left meanwhile is left out."""
        if self.waiting is not None:
            yield
            return
        self.waiting = False
        try:
            yield
        finally:
            self.waiting = None

    @property
    def game_over(self) -> bool:
        return sum(self.in_game) <= 1


@cache
def _ability_set(abilities: tuple[Ability, ...]) -> frozenset[Ability]:
    """Immutable, so cards with the same abilities (most have none) share
    one: a frozenset per card was 40 % of a big game's memory, and memory is
    what makes big untap steps grow faster than their work."""
    return frozenset(abilities)


def state_from_setup(setup: Setup) -> GameState:
    """Build the engine state for a legal `setup` (see conformance.legality)."""
    state = GameState(
        players=setup.players,
        active=setup.active,
        turn=setup.turn,
        cards={},
        effects=[],
        skips=Counter(),
        in_game=[True] * setup.players,
        life=[STARTING_LIFE] * setup.players,
        drawn=[0] * setup.players,
        poison=[0] * setup.players,
        discarded=[0] * setup.players,
    )
    for p in setup.permanents:
        state.cards[p.id] = Card(
            id=p.id,
            owner=p.owner,
            controller=p.controller,
            types=p.types,
            attachment=p.attachment,
            token=p.token,
            phasing=p.phasing,
            tapped=p.tapped,
            counters=Counter(dict(p.counters)),
            attached_to=p.attached_to,
            phased_out=p.phased_out,
            abilities=_ability_set(p.abilities),
            power=p.power,
            toughness=p.toughness,
            chosen=p.chosen,
            sick=p.sick,
            default_controller=p.controller_by_default,
            name=p.card_name,
            legendary=p.legendary,
        )
    explicit = {e.target for e in setup.effects if isinstance(e, ControlEffect)}
    for p in setup.permanents:
        if p.controller != p.controller_by_default and p.id not in explicit:
            state.effects.append(Timed(ControlEffect(p.id, p.controller), state.stamp()))
    for e in setup.effects:
        if isinstance(e, SkipUntap):
            state.skips[e.player] += 1
        else:
            state.effects.append(Timed(e, state.stamp()))
    return state
