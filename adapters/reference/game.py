"""A game of the reference engine: plays actions through `Rules` and reports
observations."""

from __future__ import annotations

from adapters.reference.rules import Refused, Rules
from adapters.reference.state import Card, GameState, state_from_setup
from conformance import actions as a
from conformance.legality import check_setup
from conformance.observation import Observation, PermanentView, PlayerView
from conformance.setup import Setup

#: The `Rules` method that plays each action, looked up by name so that a
#: mutant's override is the one called.
_PLAY: dict[type, str] = {
    a.PassTurn: "pass_turn",
    a.PhaseOut: "phase_out_targets",
    a.PhaseOutAll: "phase_out_all",
    a.PhaseOutUntil: "phase_out_until",
    a.DestroyAll: "destroy_all",
    a.Destroy: "destroy_target",
    a.DestroyThroughPhasing: "destroy_through_phasing",
    a.DrawPerCreature: "draw_per_creature",
    a.GainControl: "gain_control",
    a.PumpTeam: "pump_team",
    a.CreateToken: "create_token",
    a.Activate: "activate",
    a.DeclareAttackers: "declare_attackers",
    a.Concede: "concede",
    a.TeferisProtection: "teferis_protection",
    a.DealDamage: "deal_damage",
    a.TapAndDamage: "tap_and_damage",
    a.DamageOpponents: "damage_opponents",
    a.OpponentsDiscard: "opponents_discard",
    a.GainLife: "gain_life_spell",
    a.LoseLife: "lose_life_spell",
    a.SetLife: "set_life",
    a.ExchangeLife: "exchange_life",
    a.PayLife: "pay_life_spell",
    a.GiveLife: "give_life_spell",
    a.EnchantPlayer: "enchant_player",
    a.TapForMana: "tap_for_mana",
    a.DeclareBlockers: "declare_blockers",
    a.DrawPerEntered: "draw_per_entered",
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
            getattr(self.rules, _PLAY[type(action)])(action)
            self.rules.refresh()
            # 704.3: state-based actions and triggers only where a player
            # receives priority (not after a concession, 800.4a).
            self.rules.after_action(action)
        except Refused as e:
            refused = str(e)
        return self.observe(refused)

    def observe(self, refused: str | None = None) -> Observation:
        s = self.state
        events, s.events = tuple(s.events), []
        anthems = self.rules.anthem_sources()
        return Observation(
            turn=s.turn,
            active=s.active,
            players=tuple(
                PlayerView(i, s.in_game[i], s.life[i], s.drawn[i], s.poison[i], s.discarded[i])
                for i in range(s.players)
            ),
            permanents=tuple(self._view(c, anthems) for c in s.cards.values()),
            events=events,
            refused=refused,
        )

    def _view(self, card: Card, anthems: list[Card]) -> PermanentView:
        if not card.on_battlefield:
            return PermanentView(card.id, card.zone)
        pt = self.rules.power_toughness(card, anthems)
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
            damage=card.damage if pt is not None else 0,
            blocking=card.blocking,
            blocked=card.blocked,
        )
