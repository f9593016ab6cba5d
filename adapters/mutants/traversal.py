"""Mutants that walk the battlefield wrongly, where real engines do: an
attachment chain followed one level deep, a battlefield list changed while
it is iterated (702.26g, R2017-attached, 702.26b)."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card
from conformance import actions as a
from conformance.observation import Event
from conformance.setup import PhasedOut


@mutant(
    "chain-phases-out-one-level",
    "702.26g",
    "a permanent phasing out takes what is attached to it, but not what is attached to that: "
    "an Aura on an Equipment on a creature stays phased in",
    kills=("attachments_phase_out_with_their_host",),
)
class ChainPhasesOutOneLevel(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        group = {c.id: c for c in roots if c.phased_in}
        for root in list(group.values()):
            for attached in self.state.attachments_of(root.id):
                if attached.phased_in:
                    group.setdefault(attached.id, attached)
        for card in group.values():
            cause = "indirect" if card.attached_to in group else "direct"
            link = until if cause == "direct" else None
            card.phased_out = PhasedOut(cause, card.controller, link)
            self.removed_from_combat(card)
            self.state.events.append(Event("phased_out", card.id, cause))
            self.phase_trigger(card, "phases_out")
        self.refresh()


@mutant(
    "chain-phases-in-one-level",
    "R2017-attached",
    "a permanent phasing in brings back what phased out with it, but not what was attached "
    "to that, which stays phased out for good",
    kills=("attachments_return_with_their_host",),
)
class ChainPhasesInOneLevel(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        for phasing in [card, *self.state.attachments_of(card.id)]:
            out = phasing.phased_out
            if out is None or (phasing is not card and out.cause != "indirect"):
                continue
            phasing.phased_out = None
            self.state.events.append(Event("phased_in", phasing.id))
            self.phase_trigger(phasing, "phases_in")


@mutant(
    "destroy-all-skips-next",
    "702.26b",
    '"destroy all creatures" removes each creature from the battlefield list it is iterating, '
    "so the permanent after each destroyed one is skipped",
    kills=("phased_out_creatures_are_not_destroyed",),
)
class DestroyAllSkipsNext(Rules):
    def destroy_all(self, action: a.DestroyAll) -> None:
        self.check_player(action.caster)
        battlefield = self.state.in_play()  # stands for the engine's own battlefield list
        for card in battlefield:
            if card.is_creature and card.phased_in:
                self.destroy([card])
                battlefield.remove(card)


@mutant(
    "destroy-all-catches-phased-in",
    "702.26b",
    '"destroy all creatures" destroys creatures one at a time until none is left, so one that '
    'phases in during the destruction (its "until" source died) is destroyed too',
    kills=("phased_out_creatures_are_not_destroyed",),
)
class DestroyAllCatchesPhasedIn(Rules):
    def destroy_all(self, action: a.DestroyAll) -> None:
        self.check_player(action.caster)
        while victims := [c for c in self.state.phased_in() if c.is_creature]:
            self.destroy(victims[:1])
