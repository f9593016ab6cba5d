"""The refusals protection from everything causes in phase.rs are the
engine's own (R2017-protection), and the adapter takes a refused spell back.
The player actions' capability scenarios are in test_phase_rs_capabilities."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import PhaseRsEngine
from conformance import actions as a
from conformance.setup import Permanent, Setup


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
