"""An engine that draws in its draw step (504.1), which the suite leaves to
the engine, is not failed for the life an opponent's "If an opponent would
draw a card, that player gains 2 life instead" gives it there
(`conformance.draw_step`); life from nothing is still caught."""

from __future__ import annotations

from adapters.reference import ReferenceEngine, Rules
from conformance import actions as a
from conformance.checking import profile
from conformance.differential import run_agreement
from conformance.properties import REGISTRY, Violation
from conformance.running import Trace, play
from conformance.scenario import Scenario
from conformance.setup import DRAW_LIFE, Permanent, Setup
from conformance.trace_comparison import trace_differences


class DrawsInTheDrawStep(Rules):
    """Draws a card in each draw step, after the upkeep, as a full engine
    does; replacement effects apply to it."""

    def begin_turn(self, player: int) -> None:
        super().begin_turn(player)
        self.receive_priority()
        self.draw(player, 1)


class GainsLifeEachTurn(Rules):
    """Wrong: the new active player gains 2 life out of nothing."""

    def begin_turn(self, player: int) -> None:
        super().begin_turn(player)
        self.gain_life(player, DRAW_LIFE)


def _replacer(controller: int) -> Permanent:
    return Permanent(
        "p1",
        owner=controller,
        controller=controller,
        types=("enchantment",),
        abilities=("draw_to_life",),
    )


def trace_of(rules: type[Rules], controller: int) -> Trace:
    scenario = Scenario(Setup(permanents=(_replacer(controller),)), (a.PassTurn(), a.PassTurn()))
    return play(ReferenceEngine(name=rules.__name__, rules=rules), scenario)


def _violations(trace: Trace) -> list[str]:
    found = []
    for name, prop in REGISTRY.items():
        try:
            prop.check(trace)
        except Violation:
            found.append(name)
    return found


def test_a_draw_step_draw_replaced_by_life_is_accepted() -> None:
    reference, drawing = trace_of(Rules, 0), trace_of(DrawsInTheDrawStep, 0)
    assert drawing.steps[0].after.player(1).life == 20 + DRAW_LIFE
    assert trace_differences(reference, drawing) == []
    assert _violations(drawing) == []


def test_life_from_nothing_is_still_caught() -> None:
    """Player 1's own replacement doesn't replace their draws: a gain of 2
    as their turn begins has no cause."""
    reference, wrong = trace_of(Rules, 1), trace_of(GainsLifeEachTurn, 1)
    assert trace_differences(reference, wrong)
    assert "phase_triggers_trigger" in _violations(wrong)


def test_the_comparison_passes_an_engine_that_draws() -> None:
    engine = ReferenceEngine(name="draws", rules=DrawsInTheDrawStep)
    assert run_agreement(engine, using=profile("dev"), timeout=10).status == "pass"
