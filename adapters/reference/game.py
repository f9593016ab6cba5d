"""A game of the reference engine: plays actions through `Rules` and reports
observations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.reference.rules import Refused, Rules
from adapters.reference.state import Card, GameState, state_from_setup
from conformance import actions as a
from conformance.legality import check_setup
from conformance.observation import Observation, PermanentView, PlayerView
from conformance.setup import Setup

_PLAY: dict[type, Callable[[Rules, Any], None]] = {
    a.PassTurn: lambda rules, _: rules.pass_turn(),
    a.PhaseOut: Rules.phase_out_targets,
    a.PhaseOutAll: Rules.phase_out_all,
    a.PhaseOutUntil: Rules.phase_out_until,
    a.DestroyAll: Rules.destroy_all,
    a.Destroy: Rules.destroy_target,
    a.DrawPerCreature: Rules.draw_per_creature,
    a.GainControl: Rules.gain_control,
    a.PumpTeam: Rules.pump_team,
    a.CreateToken: Rules.create_token,
    a.Activate: Rules.activate,
    a.DeclareAttackers: Rules.declare_attackers,
    a.Concede: Rules.concede,
}


class ReferenceGame:
    """Implements `adapters.protocol.Game` for the reference engine."""

    def __init__(self, setup: Setup, rules: type[Rules] = Rules) -> None:
        check_setup(setup)
        self.state: GameState = state_from_setup(setup)
        self.rules = rules(self.state)
        self.rules.refresh()

    def perform(self, action: a.Action) -> Observation:
        refused = None
        try:
            _PLAY[type(action)](self.rules, action)
            self.rules.resolve_triggers()
            self.rules.state_based_actions()
        except Refused as e:
            refused = str(e)
        return self.observe(refused)

    def observe(self, refused: str | None = None) -> Observation:
        s = self.state
        events, s.events = tuple(s.events), []
        return Observation(
            turn=s.turn,
            active=s.active,
            players=tuple(
                PlayerView(i, s.in_game[i], s.life[i], s.drawn[i]) for i in range(s.players)
            ),
            permanents=tuple(self._view(c) for c in s.cards.values()),
            events=events,
            refused=refused,
        )

    def _view(self, card: Card) -> PermanentView:
        if not card.on_battlefield:
            return PermanentView(card.id, card.zone)
        pt = self.rules.power_toughness(card)
        return PermanentView(
            id=card.id,
            zone="battlefield",
            phased_out=card.phased_out is not None,
            cause=None if card.phased_out is None else card.phased_out.cause,
            controller=card.controller,
            tapped=card.tapped,
            counters=tuple(sorted((k, n) for k, n in card.counters.items() if n > 0)),
            attached_to=card.attached_to,
            power=None if pt is None else pt[0],
            toughness=None if pt is None else pt[1],
            attacking=card.attacking,
            chosen=card.chosen,
        )
