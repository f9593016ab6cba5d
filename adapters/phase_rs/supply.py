"""The cards a scenario's actions will give its players (the spells they
cast, the keepsakes a discard finds, the filler they draw), known before
the game starts
(`PhaseRsEngine.start_scenario`), so that `position.build` can put a copy of
each at the bottom of its player's library, from where the driver moves it
to their hand by the engine's debug move (`Driver.ensure_in_hand`).

Without it, the first copy of each spell comes by a setup edit: an export
and a load of the whole game, about 8 ms against a fraction of one for the
move, and most scenarios cast a spell or two. Stocking every spell in every
library instead made each state three times bigger, and every other export
and load slower (benchmarks/findings.md).

This is a forecast, not a rule: the handlers in `game` and `players` choose
what they cast, and a card forecast wrongly, or not at all, still comes by
the edit: a response to Destroy goes to whoever controls the target by
then (forecast: its controller in the setup), and which Aura card a
player's Aura is depends on how many were cast before. The tests hold the
forecast to what the handlers cast.
"""

from __future__ import annotations

from adapters.phase_rs import cards
from adapters.phase_rs import player_cards as pc
from adapters.phase_rs.cards import CardSpec
from adapters.phase_rs.position import FILLER_CARDS
from conformance import actions as a
from conformance.actions import Action
from conformance.scenario import Scenario


def spells_for(scenario: Scenario) -> list[tuple[int, CardSpec]]:
    """Which of the adapter's cards each player will be given for
    `scenario`'s actions: one (seat, card) pair each, in the order first
    needed (a second cast of a spell gets the first copy back from the
    graveyard)."""
    setup = scenario.setup
    controllers = {p.id: p.controller for p in setup.permanents}
    wanted: list[tuple[int, CardSpec]] = []
    for action in scenario.actions:
        for seat, spell in _casts(action, controllers, setup.players):
            if spell is not None and (seat, spell) not in wanted:
                wanted.append((seat, spell))
    return wanted


def filler_for(scenario: Scenario) -> int:
    """The filler cards each library is dealt for `scenario`: `FILLER_CARDS`,
    or where a player draws a card for each creature they control, enough
    for every permanent it may have (the setup's and the tokens created),
    so that the first such draw doesn't deck them out and deal the game
    again (`PhaseRsGame.perform`)."""
    actions = scenario.actions
    permanents = len(scenario.setup.permanents) + sum(isinstance(x, a.CreateToken) for x in actions)
    return max([FILLER_CARDS, *(draws(x, permanents) for x in actions)])


def draws(action: Action, permanents: int) -> int:
    """The cards a player may draw in `action` on a board of `permanents`
    before anything draws them more than the scenario asks: a card for each
    creature they control (every permanent, at most), or one (a draw step,
    a spell's "draw a card"). A replacement drawing "that many cards" may
    draw more; then the game is dealt again (`PhaseRsGame.perform`)."""
    if isinstance(action, a.DrawPerCreature | a.DrawPerEntered):
        return permanents + 1
    return 1


def _casts(
    action: Action, controllers: dict[str, int], players: int
) -> list[tuple[int, CardSpec | None]]:
    """The (seat, card) pairs `action` will ask for; None for a card the
    adapter doesn't have (the handler refuses the action)."""
    match action:
        case a.PhaseOut(caster=caster, targets=targets):
            return [(caster, cards.PHASE_OUT if len(targets) == 1 else cards.PHASE_OUT_TWO)]
        case a.PhaseOutAll(player=player):
            return [(player, cards.PHASE_OUT_ALL)]
        case a.DestroyAll(caster=caster):
            return [(caster, cards.DESTROY_ALL)]
        case a.Destroy(caster=caster, target=target, phased_out_in_response=True):
            response = [(controllers[target], cards.PHASE_OUT)] if target in controllers else []
            return [(caster, cards.DESTROY), *response]
        case a.Destroy(caster=caster):
            return [(caster, cards.DESTROY)]
        case a.DrawPerCreature(player=player):
            return [(player, cards.DRAW_PER_CREATURE)]
        case a.DrawPerEntered(player=player):
            return [(player, cards.DRAW_PER_ENTERED)]
        case a.PumpTeam(player=player):
            return [(player, cards.PUMP_TEAM)]
        case a.CreateToken(player=player, phasing=phasing):
            return [(player, cards.PHASING_TOKEN if phasing else cards.TOKEN)]
        case a.GainControl(player=player, duration=duration):
            return [(player, cards.GAIN_CONTROL.get(duration.kind))]
        case a.TeferisProtection(player=player):
            return [(player, pc.TEFERIS_PROTECTION)]
        case a.GainLife(player=player, amount=amount):
            return [(player, pc.GAIN_LIFE.get(amount))]
        case a.LoseLife(player=player, amount=amount):
            return [(player, pc.LOSE_LIFE.get(amount))]
        case a.SetLife(player=player, life=life):
            return [(player, pc.SET_LIFE.get(life))]
        case a.PayLife(player=player, amount=amount):
            return [(player, pc.PAY_LIFE.get(amount))]
        case a.GiveLife(player=player, amount=amount):
            return [(player, pc.GIVE_LIFE.get(amount))]
        case a.ExchangeLife(player=player):
            return [(player, pc.EXCHANGE_LIFE)]
        case a.DealDamage(caster=caster, amount=amount):
            return [(caster, pc.DEAL_DAMAGE.get(amount))]
        case a.DamageOpponents(caster=caster, amount=n, unpreventable=u, infect=i):
            return [(caster, pc.DAMAGE_OPPONENTS.get((n, u, i)))]
        case a.OpponentsDiscard(caster=caster):
            # An opponent whose hand is empty only in the engine discards a
            # keepsake (`players`).
            keepsakes = [(seat, pc.KEEPSAKE) for seat in range(players) if seat != caster]
            return [(caster, pc.DISCARD), *keepsakes]
        case a.TapAndDamage(caster=caster, amount=amount, protected_in_response=responder):
            response = [] if responder is None else [(responder, pc.TEFERIS_PROTECTION)]
            return [(caster, pc.TAP_AND_DAMAGE.get(amount)), *response]
    return []
