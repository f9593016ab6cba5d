"""The replacement abilities of a phased-out permanent apply nothing
(702.26b, R2017-nonexistent): `phased_out_replacement_effects_apply_nothing`
on fixed scenarios, one per way the property judges a spell."""

from __future__ import annotations

import pytest

from adapters.degenerate import NoPhasingRefused
from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY
from conformance.properties.registry import Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Ability, Permanent, Setup

PROPERTY = REGISTRY["phased_out_replacement_effects_apply_nothing"]


def _scenario(ability: Ability, spell: a.Action, out: a.Action) -> Scenario:
    """Player 1's enchantment p1 has `ability`; player 0 casts `spell`, p1
    phases out by `out`, `spell` again, then player 1's untap step phases
    it back in, and `spell` once more."""
    p1 = Permanent("p1", owner=1, controller=1, types=("enchantment",), abilities=(ability,))
    return Scenario(Setup(permanents=(p1,)), (spell, out, spell, a.PassTurn(), spell))


SCENARIOS = {
    "draw_to_life": _scenario("draw_to_life", a.LoseLife(0, 1), a.PhaseOut(1, ("p1",))),
    "gain_to_draw": _scenario("gain_to_draw", a.GainLife(0, 2), a.PhaseOutAll(1)),
    "lose_to_draw": _scenario("lose_to_draw", a.LoseLife(0, 2), a.PhaseOut(1, ("p1",))),
}


@pytest.mark.parametrize("ability", sorted(SCENARIOS))
def test_the_reference_exercises_it_and_passes(ability: str) -> None:
    trace = play(ReferenceEngine(), SCENARIOS[ability])
    PROPERTY.check(trace)
    assert PROPERTY.exercised(trace)


@pytest.mark.parametrize("ability", sorted(SCENARIOS))
def test_an_engine_that_never_phases_does_not_exercise_it(ability: str) -> None:
    """Its replacement applied every time: nothing shows it phased out."""
    engine = ReferenceEngine(name="no-phasing", rules=NoPhasingRefused)
    assert not PROPERTY.exercised(play(engine, SCENARIOS[ability]))


@pytest.mark.parametrize(
    ("ability", "expected"),
    [
        ("draw_to_life", "player 0's spell: expected its card drawn (p1 phased out"),
        ("gain_to_draw", "player 0's spell: expected player 1 draws nothing (p1 phased out"),
        ("lose_to_draw", "player 0's spell: expected player 1 draws nothing (p1 phased out"),
    ],
)
def test_a_phased_out_replacement_that_applies_fails_it(ability: str, expected: str) -> None:
    trace = play(mutant_engine("phased-out-replacements-apply"), SCENARIOS[ability])
    with pytest.raises(Violation, match=r"702\.26b") as failure:
        PROPERTY.check(trace)
    assert expected in str(failure.value)
