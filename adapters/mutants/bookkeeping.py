"""Mutants whose bug is in the engine's bookkeeping, where real engines
have them: registries of static abilities, counters set aside while a
permanent is out, "phases out until" links, who controls a trigger
(702.26c, R2017-counters, R2017-nonexistent, 610.4, R2017-until-leaves,
603.10b)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card, GameState
from conformance.setup import PhasedOut


@mutant(
    "anthem-not-reregistered",
    "702.26c",
    "static abilities are registered as their permanent enters and unregistered as it phases "
    "out, but not registered again as it phases in: an anthem that phased out and in no "
    "longer applies",
    kills=("phased_out_static_abilities_apply_nothing",),
)
class AnthemNotReregistered(Rules):
    """Keeps the sources of static abilities in a registry instead of
    scanning the battlefield, as engines with a layer system do."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.statics = {c.id for c in state.phased_in() if "anthem" in c.abilities}

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        super().phase_out(roots, until)
        self.statics -= {c.id for c in self.state.cards.values() if c.phased_out is not None}

    def anthem_sources(self) -> list[Card]:
        return [c for c in self.state.phased_in() if c.id in self.statics]


@mutant(
    "anthem-of-indirectly-phased-out",
    "R2017-nonexistent",
    "the static-ability layer asks whether a permanent phased out itself, so an anthem on an "
    "Aura or Equipment that phased out with its host still applies",
    kills=("phased_out_static_abilities_apply_nothing",),
)
class AnthemOfIndirectlyPhasedOut(Rules):
    def anthem_sources(self) -> list[Card]:
        return [
            c
            for c in self.state.in_play()
            if "anthem" in c.abilities and (c.phased_out is None or c.phased_out.cause != "direct")
        ]


@mutant(
    "counters-doubled-on-phase-in",
    "R2017-counters",
    "counters are set aside as a permanent phases out and added back as it phases in, "
    "without being taken off: they double",
    kills=("phasing_keeps_the_same_permanent",),
)
class CountersDoubledOnPhaseIn(Rules):
    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.set_aside: dict[str, Counter[str]] = {}

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        before = {c.id for c in self.state.cards.values() if c.phased_out is not None}
        super().phase_out(roots, until)
        for card in self.state.cards.values():
            if card.phased_out is not None and card.id not in before:
                self.set_aside[card.id] = Counter(card.counters)

    def phase_in_with_attachments(self, card: Card) -> None:
        # Counter.update adds: the counters come back on top of themselves.
        card.counters.update(self.set_aside.pop(card.id, Counter()))
        super().phase_in_with_attachments(card)


@mutant(
    "until-link-dropped-when-source-phases-out",
    "R2017-until-leaves",
    'a source that phases out drops its "until" links, as if it had left: what it phased out '
    "then phases in at the next untap step of the player it phased out under",
    kills=("source_phasing_out_is_not_leaving",),
)
class UntilLinkDroppedWhenSourcePhasesOut(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        super().phase_out(roots, until)
        gone = {c.id for c in self.state.cards.values() if c.phased_out is not None}
        for card in self.state.in_play():
            out = card.phased_out
            if out is not None and out.until in gone:
                card.phased_out = PhasedOut(out.cause, out.under)


@mutant(
    "until-not-ended-by-leaving-game",
    "610.4",
    '"until this leaves the battlefield" ends only in the engine\'s move-to-a-zone code: a '
    "source that leaves with its owner, who left the game, never lets its target phase in",
    kills=("phased_out_until_waits_for_its_source",),
)
class UntilNotEndedByLeavingGame(Rules):
    """Ends "until" durations in its move-to-a-zone code; removing a
    leaving player's permanents doesn't go through it."""

    leaving = False

    def leave_game(self, player: int) -> None:
        self.leaving = True
        try:
            super().leave_game(player)
        finally:
            self.leaving = False

    def release_until(self, source: Card) -> None:
        if not self.leaving:
            super().release_until(source)


@mutant(
    "leaver-releases-what-they-controlled",
    "610.4",
    'a player leaving the game releases what waits "until" any permanent they owned or '
    "controlled leaves: a source they only controlled goes back to its owner and stays, yet "
    "what waited for it phases in",
    kills=("phased_out_until_waits_for_its_source",),
)
class LeaverReleasesWhatTheyControlled(Rules):
    """Collects the leaver's permanents by controller as well as by owner
    for the "until" links it ends."""

    def leave_game(self, player: int) -> None:
        controlled = [c for c in self.state.in_play() if c.controller == player]
        super().leave_game(player)
        with self.state.waiting_index():
            for card in controlled:
                self.release_until(card)


@mutant(
    "exile-of-leavers-permanent-releases-nothing",
    "610.4",
    "a permanent exiled because the player who left still controlled it (800.4a, 800.4c) goes "
    'through the engine\'s left-the-game path, which ends no "until": what waited for it to '
    "leave the battlefield never phases in",
    kills=("phased_out_until_waits_for_its_source",),
)
class ExileOfLeaversPermanentReleasesNothing(Rules):
    """Moves what a player who left still controls to exile without the
    "until" bookkeeping of its other zone changes (the reference engine
    exiles nothing else)."""

    def leave_battlefield(self, card: Card, zone: str, release: bool = True) -> None:
        super().leave_battlefield(card, zone, release and zone != "exile")


@mutant(
    "until-token-source-forgotten",
    "610.4",
    'a token ceases to exist as it leaves, and its "until" links are dropped with it: what '
    "it phased out never phases in",
    kills=("phased_out_until_waits_for_its_source",),
)
class UntilTokenSourceForgotten(Rules):
    def release_until(self, source: Card) -> None:
        if not source.token:
            super().release_until(source)


@mutant(
    "phase-trigger-for-owner",
    "603.10b",
    '"whenever this phases in/out" is put on the stack under its owner\'s control, not its '
    "controller's",
    kills=("phase_triggers_trigger",),
)
class PhaseTriggerForOwner(Rules):
    def phase_trigger(self, card: Card, kind: str) -> None:
        if kind in card.abilities:
            self.state.triggers.append((card.id, kind, card.owner))  # type: ignore[arg-type]
