"""Starting a phase.rs game for its actions (`PhaseRsEngine.start_scenario`):
the spells they will cast wait in their casters' libraries, so a first cast
is a move of the engine instead of an export and a load of the game. The
forecast (`supply.spells_for`) must name what the handlers cast, and the
game must play as one started from the setup alone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from hypothesis import HealthCheck, given, settings

from adapters.phase_rs import PhaseRsEngine
from adapters.phase_rs import cards as phase_cards
from adapters.phase_rs import player_cards as pc
from adapters.phase_rs.driving import Driver
from adapters.phase_rs.supply import spells_for
from adapters.protocol import Inexpressible
from conformance import actions as a
from conformance.observation import Observation
from conformance.scenario import Scenario
from conformance.setup import Duration, Permanent, Setup
from conformance.strategies import scenarios

ENGINE = PhaseRsEngine()
#: Cards the forecast doesn't name: which Aura card a player's Aura is
#: depends on the game so far.
UNFORESEEN = {aura.name for aura in pc.PLAYER_AURAS}


def _unforeseen(actions: tuple[a.Action, ...]) -> set[str]:
    """And a response to Destroy goes to whoever controls the target then,
    which the forecast takes to be its controller in the setup."""
    if any(isinstance(x, a.Destroy) and x.phased_out_in_response for x in actions):
        return UNFORESEEN | {phase_cards.PHASE_OUT.name}
    return UNFORESEEN


def _drawn(count: int) -> list[Scenario]:
    found: list[Scenario] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(scenarios(ENGINE.capabilities))
    def draw(scenario: Scenario) -> None:
        found.append(scenario)

    draw()
    return found[-count:]


def _play(game: Any, actions: tuple[a.Action, ...]) -> list[Observation]:
    """Every observation; refusals by whether there was one (their text
    names engine object ids, which stocked cards shift)."""
    seen = [game.observe()]
    for action in actions:
        seen.append(game.perform(action))
    return [replace(o, refused=o.refused is not None) for o in seen]


@pytest.fixture
def wanted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Each (seat, card name) the driver is asked to put in a hand."""
    asked: list[tuple[int, str]] = []
    original = Driver.ensure_in_hand

    def recording(self: Driver, cards: list[tuple[int, Any]]) -> None:
        asked.extend((seat, spec.name) for seat, spec in cards)
        original(self, cards)

    monkeypatch.setattr(Driver, "ensure_in_hand", recording)
    return asked


def test_the_forecast_names_what_is_cast_and_changes_no_play(
    wanted: list[tuple[int, str]],
) -> None:
    forecast_used = 0
    for scenario in _drawn(80):
        wanted.clear()
        try:
            from_setup = _play(ENGINE.start(scenario.setup), scenario.actions)
        except Inexpressible:  # set aside, as a property run does
            continue
        forecast = {(seat, spec.name) for seat, spec in spells_for(scenario)}
        exempt = _unforeseen(scenario.actions)
        unforeseen = {(s, n) for s, n in wanted if (s, n) not in forecast and n not in exempt}
        assert not unforeseen, f"{scenario.actions} cast {sorted(unforeseen)}, not forecast"
        forecast_used += len(forecast & set(wanted))
        assert _play(ENGINE.start_scenario(scenario), scenario.actions) == from_setup, scenario
    # The stock is put to use: over 40 of its cards were asked for.
    assert forecast_used > 40


#: An action of each kind the drawn scenarios above never hold (the player
#: actions have strategies of their own), and more of the kinds they do.
ONE_ACTION = (
    a.TeferisProtection(player=0),
    a.GainLife(player=0, amount=2),
    a.LoseLife(player=1, amount=1),
    a.SetLife(player=0, life=15),
    a.PayLife(player=0, amount=2),
    a.GiveLife(player=0, opponent=1, amount=3),
    a.ExchangeLife(player=0, target=1),
    a.DealDamage(caster=0, target="p", amount=2),
    a.DealDamage(caster=1, target=0, amount=3),
    a.DamageOpponents(caster=0, amount=2, unpreventable=True),
    a.DamageOpponents(caster=1, amount=1, infect=True),
    a.OpponentsDiscard(caster=0),
    a.TapAndDamage(caster=0, targets=("p", 1), amount=2, protected_in_response=1),
    a.DrawPerEntered(player=1),
    a.CreateToken(player=0, id="t", phasing=0),
    a.GainControl(player=1, target="p", duration=Duration("your_next_turn")),
    a.PhaseOut(caster=1, targets=("p", "q")),
    a.Destroy(caster=1, target="p", phased_out_in_response=True),
)


@pytest.mark.parametrize("action", ONE_ACTION, ids=lambda x: type(x).__name__)
def test_the_forecast_names_the_spell_of_each_action(
    wanted: list[tuple[int, str]], action: a.Action
) -> None:
    creature = Permanent("p", power=1, toughness=1)
    setup = Setup(permanents=(creature, Permanent("q", owner=1, types=("artifact",))))
    observations = _play(ENGINE.start(setup), (action,))
    assert not observations[-1].refused
    forecast = {(seat, spec.name) for seat, spec in spells_for(Scenario(setup, (action,)))}
    assert {w for w in wanted if w[1] not in UNFORESEEN} == forecast


def test_a_forecast_spell_is_cast_without_a_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[object] = []
    original = Driver.load
    monkeypatch.setattr(Driver, "load", lambda self, e: (loads.append(e), original(self, e)))
    scenario = Scenario(
        Setup(permanents=(Permanent("p", power=1, toughness=1),)),
        (a.PhaseOut(0, ("p",)), a.PassTurn(), a.PumpTeam(1), a.PassTurn(), a.PhaseOut(0, ("p",))),
    )
    assert _play(ENGINE.start_scenario(scenario), scenario.actions) == _play(
        ENGINE.start(scenario.setup), scenario.actions
    )
    # Started from the setup: the first copy of each spell costs a load.
    assert len(loads) == 2
    loads.clear()
    game = ENGINE.start_scenario(scenario)
    observations = _play(game, scenario.actions)
    assert loads == []
    assert not any(o.refused for o in observations)
    assert observations[-1].permanents[0].phased_out
