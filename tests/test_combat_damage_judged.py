"""The combat-damage properties compare the defending player's loss of life
with the damage of the attackers still in combat only where that loss is
the damage (`player_damage_judged`): not under Teferi's Protection
(R2017-protection), not where a "lose_to_draw" ability replaces the loss
(120.3a, R2017-life-replacement), not once the defender has left the game
(readings.md L). On each such legal scenario the reference engine passes;
where the loss is judged, a mutant that mishandles combat is still failed."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.properties.combats import combats, player_damage_judged
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup

PROPERTIES = (
    "phasing_out_removes_from_combat",
    "blocked_attackers_stay_blocked_when_blockers_phase_out",
    "control_change_removes_from_combat",
    "the_blocker_left_is_dealt_the_attackers_damage",
)

Y = Permanent("y", power=2, toughness=2)
Z = Permanent("z", power=2, toughness=2)
B = Permanent("b", owner=1, controller=1, power=2, toughness=2)
LOSS_TO_DRAW = Permanent("d", types=("enchantment",), abilities=("lose_to_draw",))
GAIN_TO_DRAW = Permanent(
    "g", owner=1, controller=1, types=("enchantment",), abilities=("gain_to_draw",)
)
ATTACK = a.DeclareAttackers(0, ("y",), 1)
BLOCK = a.DeclareBlockers(1, (("b", "y"),))


def scenario(*permanents: Permanent, actions: tuple[a.Action, ...], players: int = 2) -> Scenario:
    return Scenario(Setup(players=players, permanents=permanents), actions)


#: Each legal scenario, and whether the defender's loss of life is judged.
CASES = {
    "protected_before_the_attack": (
        scenario(Y, actions=(a.TeferisProtection(1), ATTACK, a.PassTurn())),
        False,
    ),
    "protected_in_response_after_the_attack": (
        scenario(
            Y,
            Z,
            actions=(ATTACK, a.TapAndDamage(0, ("z", 1), 1, protected_in_response=1), a.PassTurn()),
        ),
        False,
    ),
    "protected_after_blocking": (
        scenario(Y, B, actions=(ATTACK, BLOCK, a.TeferisProtection(1), a.PassTurn())),
        False,
    ),
    "loss_replaced_by_draws": (
        scenario(Y, LOSS_TO_DRAW, actions=(ATTACK, a.PassTurn())),
        False,
    ),
    "blocker_phases_out_and_loss_replaced": (
        scenario(Y, B, LOSS_TO_DRAW, actions=(ATTACK, BLOCK, a.PhaseOut(1, ("b",)), a.PassTurn())),
        False,
    ),
    "defender_concedes": (
        scenario(Y, actions=(ATTACK, a.Concede(1), a.PassTurn()), players=3),
        False,
    ),
    # A gain replacement of the defender's does not touch their loss.
    "defender_replaces_gains_only": (
        scenario(Y, GAIN_TO_DRAW, actions=(ATTACK, a.PassTurn())),
        True,
    ),
    "plain_attack": (scenario(Y, actions=(ATTACK, a.PassTurn())), True),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("prop", PROPERTIES)
def test_reference_passes(name: str, prop: str) -> None:
    REGISTRY[prop].check(play(ReferenceEngine(), CASES[name][0]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_whether_the_loss_is_judged(name: str) -> None:
    case, judged = CASES[name]
    trace = play(ReferenceEngine(), case)
    (combat,) = combats(trace)
    assert player_damage_judged(trace, combat) is judged


def test_an_attacker_kept_in_combat_is_still_failed() -> None:
    """506.4: y phases out mid-combat; the mutant keeps it attacking."""
    case = scenario(
        Y,
        Z,
        actions=(a.DeclareAttackers(0, ("y", "z"), 1), a.PhaseOut(0, ("y",)), a.PassTurn()),
    )
    prop = REGISTRY["phasing_out_removes_from_combat"]
    prop.check(play(ReferenceEngine(), case))
    with pytest.raises(Violation, match=r"506\.4"):
        prop.check(play(mutant_engine("stays-in-combat"), case))


def test_a_blocked_attacker_unblocked_is_still_failed() -> None:
    """509.1h: y's blocker phases out; the mutant unblocks y. The reference
    exercises the property: z's damage to player 1 is judged."""
    case = scenario(
        Y,
        Z,
        B,
        actions=(
            a.DeclareAttackers(0, ("y", "z"), 1),
            BLOCK,
            a.PhaseOut(1, ("b",)),
            a.PassTurn(),
        ),
    )
    prop = REGISTRY["blocked_attackers_stay_blocked_when_blockers_phase_out"]
    trace = play(ReferenceEngine(), case)
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace)
    with pytest.raises(Violation, match=r"509\.1h"):
        prop.check(play(mutant_engine("blockers-leaving-unblock"), case))
