"""What an engine shows after each action: the observable game state and the
events since the previous observation.

Observations are the only thing properties look at, so every field is
something any engine can report. Phased-out permanents are still listed (the
suite must see that they exist, 702.26d) with their status and cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from conformance.setup import PhaseCause

Zone = Literal["battlefield", "graveyard", "exile", "none"]
EventKind = Literal[
    "phased_out",  # detail: "direct" or "indirect"
    "phased_in",
    "zone_change",  # detail: "battlefield->graveyard", ...
    "trigger",  # detail: the ability ("etb", "dies", "phases_out", ...)
    "attached",  # detail: what it became attached to
    "unattached",
]


@dataclass(frozen=True)
class Event:
    """Something the engine reports happened to permanent `subject`."""

    kind: EventKind
    subject: str
    detail: str = ""


@dataclass(frozen=True)
class PermanentView:
    """One permanent as the engine sees it. `zone` "none" means it ceased to
    exist (a token off the battlefield, 704.5d) or left the game (800.4a).
    `power`/`toughness` are reported for phased-in creatures only, and so is
    `damage`, the damage marked on it (514.2, 704.5g). `blocking` is the
    attacker a blocking creature blocks; `blocked` says an attacking
    creature is blocked (509.1h), even once its blockers are gone."""

    id: str
    zone: Zone
    phased_out: bool = False
    cause: PhaseCause | None = None
    controller: int | None = None
    tapped: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    attached_to: str | int | None = None
    power: int | None = None
    toughness: int | None = None
    attacking: bool = False
    chosen: str | None = None
    damage: int = 0
    blocking: str | None = None
    blocked: bool = False

    @property
    def on_battlefield(self) -> bool:
        return self.zone == "battlefield"

    @property
    def phased_in(self) -> bool:
        return self.zone == "battlefield" and not self.phased_out


@dataclass(frozen=True)
class PlayerView:
    """One player as the engine sees it. `poison` is their poison counters
    (122.1f; given by damage from a source with infect, 702.90b);
    `cards_discarded` the cards they discarded since the start (701.9a)."""

    index: int
    in_game: bool = True
    life: int = 20
    cards_drawn: int = 0
    poison: int = 0
    cards_discarded: int = 0


@dataclass(frozen=True)
class Observation:
    """The game after an action. `refused` says why the engine refused the
    last action (an illegal target, a creature that can't attack, ...), or is
    None if it was carried out."""

    turn: int
    active: int
    players: tuple[PlayerView, ...]
    permanents: tuple[PermanentView, ...]
    events: tuple[Event, ...] = ()
    refused: str | None = None

    @cached_property
    def _by_id(self) -> dict[str, PermanentView]:
        return {p.id: p for p in self.permanents}

    def permanent(self, pid: str) -> PermanentView:
        return self._by_id[pid]

    def player(self, index: int) -> PlayerView:
        return self.players[index]

    @property
    def phased_out_zone(self) -> tuple[PermanentView, ...]:
        """The Mirage rules' phased-out zone (217.8a), which any player may
        look at (217.8b): the permanents phased out. Today's rules keep them
        on the battlefield with a status (702.26b), which is how every
        engine reports them; this is the same set, seen as a zone."""
        return tuple(p for p in self.permanents if p.on_battlefield and p.phased_out)

    def events_of(self, kind: EventKind, subject: str | None = None) -> tuple[Event, ...]:
        return tuple(
            e for e in self.events if e.kind == kind and (subject is None or e.subject == subject)
        )
