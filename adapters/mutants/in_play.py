"""Mutants of what phased-in permanents can do in play (302.6)."""

from __future__ import annotations

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card


@mutant(
    "phasing-in-cures-sickness",
    "302.6",
    "reads R2017-haste as 'a creature that phases in is never summoning sick', so one that "
    "phased in under a new controller taps at once",
    kills=("phasing_in_does_not_cure_summoning_sickness",),
)
class PhasingInCuresSickness(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        card.sick = False
