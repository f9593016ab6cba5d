"""The refusals protection from everything causes in phase.rs are the
engine's own (R2017-protection), and the adapter takes a refused spell back.
The player actions' capability scenarios are in test_phase_rs_capabilities."""

from __future__ import annotations

import json

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import PhaseRsEngine, cards
from adapters.phase_rs import player_cards as pc
from adapters.protocol import Inexpressible
from conformance import actions as a
from conformance.setup import Ability, Permanent, Setup


def test_a_protected_player_cant_be_targeted_and_the_game_stays() -> None:
    """R2017-protection (702.16b): phase.rs offers no spell at player 0;
    "any target" then falls to the only other legal one, player 1, which the
    adapter reports as a refusal and takes back."""
    game = PhaseRsEngine().start(Setup())
    game.perform(a.TeferisProtection(0))
    for action in (a.DealDamage(1, 0, 2), a.ExchangeLife(1, 0)):
        seen = game.perform(action)
        assert seen.refused is not None and "not legal targets" in seen.refused
        assert [(v.life, v.cards_drawn) for v in seen.players] == [(20, 0), (20, 0)]
    assert game.perform(a.GainLife(1, 2)).players[1].life == 22


def test_teferis_protection_phases_out_its_casters_permanents_directly() -> None:
    """R2017-protection, 702.26a: the engine's own card phases out what its
    caster controls, and they phase in at that player's next untap step."""
    setup = Setup(
        permanents=(
            Permanent("c", power=2, toughness=2),
            Permanent("d", owner=1, controller=1, power=2, toughness=2),
        )
    )
    game = PhaseRsEngine().start(setup)
    seen = game.perform(a.TeferisProtection(0))
    assert seen.refused is None
    assert (seen.permanent("c").phased_out, seen.permanent("c").cause) == (True, "direct")
    assert not seen.permanent("d").phased_out
    game.perform(a.PassTurn())
    assert not game.perform(a.PassTurn()).permanent("c").phased_out


@pytest.mark.parametrize("spec", pc.PLAYER_SPELLS, ids=lambda s: s.name)
def test_every_player_card_parses_whole(spec: cards.CardSpec) -> None:
    """The engine parses each card of the player actions, with nothing left
    over (a card parsed into something else would test the wrong thing)."""
    assert cards.unparsed(cards.face(spec)) == [], spec.text


def test_teferis_protection_parses_into_its_three_effects() -> None:
    """R2017-protection, R2017-life-no-effect: can't gain or lose life and
    protection from everything for its caster, and a phase-out of all they
    control (how long each lasts is the engine's parse: D12)."""
    text = json.dumps(cards.face(pc.TEFERIS_PROTECTION))
    for piece in ('"CantGainLife"', '"CantLoseLife"', '"Everything"', '"PhaseOut"'):
        assert piece in text


@pytest.mark.parametrize(
    ("ability", "event", "effect"),
    [("draw_to_life", "Draw", "GainLife"), ("gain_to_draw", "GainLife", "Draw")],
)
def test_life_replacements_are_replacement_abilities(
    ability: Ability, event: str, effect: str
) -> None:
    """614.1a: each replaces the event of an opponent with its effect."""
    p = Permanent("r", types=("enchantment",), abilities=(ability,))
    face = cards.face(cards.permanent_card(p))
    assert cards.unparsed(face) == []
    [replacement] = face["replacements"]
    assert (replacement["event"], replacement["valid_player"]) == (event, "Opponent")
    assert replacement["execute"]["effect"]["type"] == effect


def test_gain_life_cost_with_several_opponents_is_set_aside() -> None:
    """R2017-gain-life-cost: phase.rs offers no choice of the opponent who
    gains life for Invigorate's cost, so with two opponents the action can't
    be expressed (not a refusal: the rules allow it); with one it is cast."""
    game = PhaseRsEngine().start(Setup(players=3))
    with pytest.raises(Inexpressible, match="no choice of the opponent"):
        game.perform(a.GiveLife(0, 2, 1))
    two = PhaseRsEngine().start(Setup())
    assert two.perform(a.GiveLife(0, 1, 1)).refused is None


def test_each_opponent_discards_a_keepsake_from_their_opening_hand() -> None:
    """701.9a, R2017-nothing-else: the engine's hands start empty, so an
    opponent whose hand holds nothing there (but `OPENING_HAND` cards in
    the suite's vocabulary) gets a keepsake, and the engine's own discard
    moves it to their graveyard, protection from everything or not."""
    game = PhaseRsEngine().start(Setup(players=3))
    assert [len(game.driver.game.hand(s)) for s in range(3)] == [0] * 3
    game.perform(a.TeferisProtection(2))
    seen = game.perform(a.OpponentsDiscard(0))
    assert [v.cards_discarded for v in seen.players] == [0, 1, 1]
    engine = game.driver.game
    for seat in (1, 2):
        names = [engine.object(i)["name"] for i in engine.player(seat)["graveyard"]]
        assert names.count(pc.KEEPSAKE.name) == 1


def test_a_drawn_card_is_discarded_before_a_keepsake_is_given() -> None:
    """701.9a: a hand that holds a drawn card discards it; no keepsake is
    added (the suite's hand holds `OPENING_HAND` + 1 cards then)."""
    game = PhaseRsEngine().start(Setup())
    game.perform(a.PassTurn())
    assert len(game.driver.game.hand(1)) == 1
    seen = game.perform(a.OpponentsDiscard(0))
    assert seen.players[1].cards_discarded == 1
    engine = game.driver.game
    names = [engine.object(i)["name"] for i in engine.player(1)["graveyard"]]
    assert pc.KEEPSAKE.name not in names and len(names) == 1
