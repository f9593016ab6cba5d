"""Mutants of the untap step (702.26a, m, p; 502.1; 110.5; R2017-tokens,
R2017-haste)."""

from __future__ import annotations

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card
from conformance import actions as a


@mutant(
    "phasing-ignores-controller",
    "702.26a",
    "every phasing permanent phases out in any player's untap step",
    kills=("untap_step_phases_out_and_in_at_once",),
)
class PhasingIgnoresController(Rules):
    def phases_out_in_untap(self, card: Card, player: int) -> bool:
        return card.phasing > 0


@mutant(
    "sequential-phasing",
    "702.26a",
    "phases in first, then phases out what has phasing: a returning phaser goes back out, and "
    "an attachment returning onto a host with phasing goes out with it, triggering",
    kills=("untap_step_phases_out_and_in_at_once", "phase_triggers_trigger"),
)
class SequentialPhasing(Rules):
    def phasing_event(self, player: int) -> None:
        coming_in = [c for c in self.state.in_play() if self.phases_in_in_untap(c, player)]
        self.state.released.clear()
        self.phase_in(coming_in)
        self.phase_out([c for c in self.state.phased_in() if self.phases_out_in_untap(c, player)])


@mutant(
    "phase-out-one-at-a-time",
    "702.26a",
    "the untap step phases the player's permanents with phasing out one at a time, updating "
    "control after each: one whose 'for as long as you control X' control ended as X phased "
    "out first stays phased in",
    kills=("untap_step_phases_out_and_in_at_once",),
)
class PhaseOutOneAtATime(Rules):
    def phasing_event(self, player: int) -> None:
        going_out = [c for c in self.state.phased_in() if self.phases_out_in_untap(c, player)]
        coming_in = [c for c in self.state.in_play() if self.phases_in_in_untap(c, player)]
        self.state.released.clear()
        for card in going_out:
            # `phase_out` ends the control effects its phasing ends.
            if card.phased_in and self.phases_out_in_untap(card, player):
                self.phase_out([card])
        self.phase_in(coming_in)


@mutant(
    "next-turn-effects-end-after-untap",
    "702.26a",
    "'until your next turn' effects end after that turn's untap step, so a borrowed phasing "
    "permanent phases out under the borrower",
    kills=("untap_step_phases_out_and_in_at_once",),
)
class NextTurnEffectsEndAfterUntap(Rules):
    def begin_turn(self, player: int) -> None:
        self.state.active = player
        self.state.turn += 1
        for card in self.state.cards.values():
            if card.controller == player:
                card.sick = False
        self.untap_step(player)
        self.end_effects("your_next_turn", player)


@mutant(
    "phased-out-untap",
    "502.1",
    "untaps every permanent the active player controls, phased out or not",
    kills=("untap_step_untaps_after_phasing",),
)
class PhasedOutUntap(Rules):
    def untap(self, player: int) -> None:
        for card in self.state.in_play():
            if card.controller == player:
                card.tapped = False


@mutant(
    "untap-before-phasing",
    "502.1",
    "untaps before phasing, so what phases in stays tapped",
    kills=("untap_step_untaps_after_phasing",),
)
class UntapBeforePhasing(Rules):
    def untap_step(self, player: int) -> None:
        if self.state.skips[player] > 0:
            self.state.skips[player] -= 1
            return
        self.untap(player)
        self.phasing_event(player)


@mutant(
    "skip-untap-still-phases",
    "702.26m",
    "a skipped untap step skips untapping but still phases",
    kills=("skipped_untap_step_has_no_phasing",),
)
class SkipUntapStillPhases(Rules):
    def untap_step(self, player: int) -> None:
        if self.state.skips[player] > 0:
            self.state.skips[player] -= 1
            self.phasing_event(player)
            return
        self.phasing_event(player)
        self.untap(player)


@mutant(
    "skips-do-not-stack",
    "702.26m",
    "two effects that skip a player's untap step skip only one",
    kills=("skipped_untap_step_has_no_phasing",),
)
class SkipsDoNotStack(Rules):
    def untap_step(self, player: int) -> None:
        # A flag, not a count: the first skipped step uses up every skip.
        if self.state.skips[player] > 0:
            self.state.skips[player] = 0
            return
        super().untap_step(player)


@mutant(
    "phasing-per-instance",
    "702.26p",
    "each instance of phasing phases the permanent out or in again",
    kills=("phasing_instances_are_redundant",),
)
class PhasingPerInstance(Rules):
    def phasing_event(self, player: int) -> None:
        going_out = [c for c in self.state.phased_in() if self.phases_out_in_untap(c, player)]
        super().phasing_event(player)
        self.phase_in([c for c in going_out if c.phasing > 1])


@mutant(
    "phase-triggers-per-instance",
    "702.26p",
    "the untap step triggers a permanent's 'whenever this phases out' once for each instance "
    "of phasing it has, though it phases out once",
    kills=("redundant_phasing_triggers_once",),
)
class PhaseTriggersPerInstance(Rules):
    """Each instance of phasing is handled as an ability of its own in the
    untap step: the permanent phases out once, but every instance reports
    the phasing to the permanent's triggers."""

    in_phasing_event = False

    def phasing_event(self, player: int) -> None:
        self.in_phasing_event = True
        try:
            super().phasing_event(player)
        finally:
            self.in_phasing_event = False

    def phase_trigger(self, card: Card, kind: str) -> None:
        direct = card.phased_out is not None and card.phased_out.cause == "direct"
        instances = card.phasing if self.in_phasing_event and direct else 1
        for _ in range(max(1, instances)):
            super().phase_trigger(card, kind)


@mutant(
    "tokens-cease-to-exist",
    "704.5d",
    "a phased-out token ceases to exist (the rule before 2017)",
    kills=("phased_out_tokens_stay_and_phase_in",),
)
class TokensCeaseToExist(Rules):
    def removed_from_combat(self, card: Card) -> None:
        super().removed_from_combat(card)
        if card.token:
            card.zone = "none"


@mutant(
    "tokens-enter-phased-out",
    "110.5",
    "a token with phasing is created phased out",
    kills=("permanents_enter_phased_in",),
)
class TokensEnterPhasedOut(Rules):
    def create_token(self, action) -> None:  # type: ignore[no-untyped-def]
        super().create_token(action)
        card = self.state.cards[action.id]
        if card.phasing:
            self.phase_out([card])


@mutant(
    "phasing-in-is-entering",
    "R2017-haste",
    "a creature that phases in is summoning sick, as if it had just entered",
    kills=("creatures_that_phase_in_can_tap_and_attack",),
)
class PhasingInIsEntering(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        card.sick = True


@mutant(
    "tokens-made-without-phasing",
    "702.26a",
    "a token created with phasing is made without it, so it never phases out",
    kills=("untap_step_phases_out_and_in_at_once",),
)
class TokensMadeWithoutPhasing(Rules):
    def create_token(self, action: a.CreateToken) -> None:
        super().create_token(action)
        self.state.cards[action.id].phasing = 0


@mutant(
    "phased-out-tokens-stay-out",
    "R2017-tokens",
    "a phased-out token never phases back in",
    kills=("phased_out_tokens_stay_and_phase_in",),
)
class PhasedOutTokensStayOut(Rules):
    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        return not card.token and super().phases_in_in_untap(card, player)


@mutant(
    "skipped-untap-phases-in",
    "R2017-skip-untap",
    "a skipped untap step still phases in what phased out (but phases nothing out)",
    kills=("skipped_untap_step_has_no_phasing", "protection_ends_as_your_turn_begins"),
)
class SkippedUntapPhasesIn(Rules):
    def untap_step(self, player: int) -> None:
        if self.state.skips[player] > 0:
            self.state.skips[player] -= 1
            self.phase_in([c for c in self.state.in_play() if self.phases_in_in_untap(c, player)])
            return
        super().untap_step(player)
