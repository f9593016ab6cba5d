"""Mutants of players leaving the game (702.26k, 702.26n, 800.4a, 800.4c,
800.4m)."""

from __future__ import annotations

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card, Timed
from conformance.observation import Event
from conformance.setup import ControlEffect

_LEAVE = ("leaving_player_takes_what_they_own",)
_RETURN = ("phased_out_under_a_leaver_returns_after_their_turn",)
_NEXT_TURN = ("leavers_until_next_turn_effects_last_until_that_turn",)


@mutant(
    "phased-out-stay-when-owner-leaves",
    "702.26k",
    "a leaving player's permanents leave the game, but not the phased-out ones the game can't see",
    kills=_LEAVE,
)
class PhasedOutStayWhenOwnerLeaves(Rules):
    def leave_game(self, player: int) -> None:
        self.state.in_game[player] = False
        for card in list(self.state.cards.values()):
            if card.owner == player and card.zone != "none" and card.phased_out is None:
                was_on_battlefield = card.on_battlefield
                card.zone = "none"
                card.attached_to = None
                if was_on_battlefield:
                    self.state.events.append(Event("zone_change", card.id, "battlefield->none"))
                    self.release_until(card)
        self.state.triggers = [t for t in self.state.triggers if t[2] != player]
        self.refresh()


@mutant(
    "owner-leaving-triggers-ltb",
    "702.26k",
    "phased-out permanents leaving with their owner trigger their leaves-the-battlefield abilities",
    kills=_LEAVE,
)
class OwnerLeavingTriggersLtb(Rules):
    def leave_game(self, player: int) -> None:
        hidden = [
            c
            for c in self.state.in_play()
            if c.owner == player and c.phased_out is not None and "ltb" in c.abilities
        ]
        super().leave_game(player)
        self.state.triggers += [(c.id, "ltb", c.controller) for c in hidden]


@mutant(
    "leave-game-by-controller",
    "800.4a",
    "a leaving player takes what they control, not what they own",
    kills=_LEAVE,
)
class LeaveGameByController(Rules):
    def leave_game(self, player: int) -> None:
        self.state.in_game[player] = False
        for card in list(self.state.cards.values()):
            if card.controller == player and card.on_battlefield:
                card.zone = "none"
                card.attached_to = None
                self.state.events.append(Event("zone_change", card.id, "battlefield->none"))
                self.release_until(card)
        self.state.triggers = [t for t in self.state.triggers if t[2] != player]
        self.refresh()


@mutant(
    "leaver-keeps-phased-out-control",
    "800.4a",
    "control effects of a player who left end only for permanents the game can see",
    kills=("leaving_players_control_ends",),
)
class LeaverKeepsPhasedOutControl(Rules):
    def condition_holds(self, timed: Timed) -> bool:
        e = timed.effect
        card = self.state.cards.get(e.target) if isinstance(e, ControlEffect) else None
        if card is not None and card.phased_out is not None:
            return self.duration_condition(e.duration, e.controller)
        return super().condition_holds(timed)


@mutant(
    "control-reverts-to-a-departed-player",
    "800.4c",
    "when a control effect ends, the permanent goes back to its default controller even if "
    "that player left the game, instead of being exiled",
    kills=("control_ending_exiles_when_the_default_controller_left",),
)
class ControlRevertsToADepartedPlayer(Rules):
    """Exiles what a leaver controls only as they leave (800.4a); a control
    effect ending later hands the permanent back to its default controller,
    gone or not (as phase.rs 0.103 does)."""

    def exile_orphans(self) -> bool:
        return False

    def leave_game(self, player: int) -> None:
        super().leave_game(player)
        for card in [c for c in self.state.in_play() if c.controller == player]:
            self.leave_battlefield(card, "exile")
        self.refresh()


@mutant(
    "leaver-phased-out-phase-in-at-once",
    "702.26n",
    "what phased out under a player who leaves phases in as they leave",
    kills=_RETURN,
)
class LeaverPhasedOutPhaseInAtOnce(Rules):
    def leave_game(self, player: int) -> None:
        super().leave_game(player)
        self.phase_in(
            c
            for c in self.state.in_play()
            if c.phased_out is not None
            and c.phased_out.cause == "direct"
            and c.phased_out.until is None
            and c.phased_out.under == player
        )


@mutant(
    "leaver-phased-out-stuck",
    "702.26n",
    "what phased out under a player who left waits for their untap step, which never comes",
    kills=_RETURN,
)
class LeaverPhasedOutStuck(Rules):
    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        out = card.phased_out
        if out is None or out.cause != "direct" or out.until is not None:
            return False
        return out.under == player


@mutant(
    "leaver-next-turn-effects-end-at-once",
    "800.4m",
    "'until your next turn' effects of a player who leaves end as they leave",
    kills=_NEXT_TURN,
)
class LeaverNextTurnEffectsEndAtOnce(Rules):
    def leave_game(self, player: int) -> None:
        super().leave_game(player)
        self.end_effects("your_next_turn", player)


@mutant(
    "leaver-next-turn-effects-never-end",
    "800.4m",
    "'until your next turn' effects of a player who left never end: that turn never comes",
    kills=_NEXT_TURN,
)
class LeaverNextTurnEffectsNeverEnd(Rules):
    def turn_would_have_begun(self, seat: int) -> None:
        self.state.released.add(seat)


@mutant(
    "leavers-in-a-row-only-first-passed-over",
    "702.26n",
    "when the turn passes over several players in a row who left, only the first one's turn "
    "would have begun",
    kills=(*_RETURN, *_NEXT_TURN),
)
class LeaversInARowOnlyFirstPassedOver(Rules):
    """Counts a seat as passed over only right after a seat still played
    (or the active one): the next leaver's turn never would have begun, and
    what phased out under them stays out (800.4m's effects last too)."""

    def turn_would_have_begun(self, seat: int) -> None:
        before = (seat - 1) % self.state.players
        if before == self.state.active or self.state.in_game[before]:
            super().turn_would_have_begun(seat)


@mutant(
    "leaver-return-ignores-skipped-untap",
    "702.26n",
    "what phased out under a player who left phases in as the next turn begins, even when "
    "that turn's untap step is skipped",
    kills=_RETURN,
)
class LeaverReturnIgnoresSkippedUntap(Rules):
    """702.26n done as a beginning-of-turn hook: a skipped untap step
    (702.26m) still brings back what phased out under a player whose turn
    would have begun, instead of leaving it for the next untap step that
    happens."""

    def untap_step(self, player: int) -> None:
        if self.state.skips[player] > 0:
            self.phase_in(
                c
                for c in self.state.in_play()
                if c.phased_out is not None
                and c.phased_out.cause == "direct"
                and c.phased_out.until is None
                and c.phased_out.under in self.state.released
            )
            self.state.released.clear()
        super().untap_step(player)
