"""Each capability the phase.rs adapter declares is really played: one small
scenario per capability, which needs it, is played by phase.rs without a
refusal and agrees with the reference engine at every step.

A capability declared but refused, or played as something else, would make
every property needing it pass or fail for the wrong reason.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import CAPABILITIES, PhaseRsEngine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.actions import action_needs
from conformance.capabilities import Capability as C
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Duration, Permanent, PhasedOut, Setup, SkipUntap
from conformance.trace_comparison import trace_differences


def creature(pid: str, **fields: Any) -> Permanent:
    return Permanent(pid, power=2, toughness=2, **fields)


def artifact(pid: str, **fields: Any) -> Permanent:
    return Permanent(pid, types=("artifact",), **fields)


def scenario(permanents: tuple[Permanent, ...], *actions: a.Action, **setup: Any) -> Scenario:
    return Scenario(Setup(permanents=permanents, **setup), actions)


AURA: dict[str, Any] = {"types": ("enchantment",), "attachment": "aura"}
TWO_TURNS = (a.PassTurn(), a.PassTurn())
#: One scenario per declared capability (none of them meets a known deviation).
SCENARIOS: dict[C, Scenario] = {
    C.TOKENS: scenario((), a.CreateToken(0, "t", 0), a.CreateToken(0, "u", 1), *TWO_TURNS),
    C.DEFAULT_CONTROLLER: scenario(
        (creature("d", owner=0, controller=1, default_controller=1, phasing=1),), *TWO_TURNS
    ),
    C.AURAS: scenario(
        (creature("h", phasing=1), Permanent("u", attached_to="h", **AURA)),
        *TWO_TURNS,
    ),
    C.PLAYER_AURAS: scenario(
        (Permanent("u", attached_to=1, **AURA),),
        a.PhaseOut(0, ("u",)),
        *TWO_TURNS,
    ),
    C.EQUIPMENT: scenario(
        (creature("h"), artifact("q", attachment="equipment", attached_to="h")),
        a.PhaseOut(0, ("h",)),
        *TWO_TURNS,
    ),
    C.FORTIFICATIONS: scenario(
        (
            Permanent("l", types=("land",)),
            artifact("f", attachment="fortification", attached_to="l"),
        ),
        a.PhaseOut(0, ("l",)),
        *TWO_TURNS,
    ),
    C.COUNTERS: scenario(
        (creature("c", counters=(("+1/+1", 2),)),), a.PhaseOut(0, ("c",)), *TWO_TURNS
    ),
    C.REDUNDANT_PHASING: scenario((creature("c", phasing=2),), *TWO_TURNS, a.PassTurn()),
    C.TRIGGERS: scenario((creature("c", abilities=("ltb", "dies")),), a.Destroy(1, "c")),
    C.PHASE_TRIGGERS: scenario(
        (creature("c", abilities=("phases_in", "phases_out")),), a.PhaseOut(0, ("c",)), *TWO_TURNS
    ),
    C.ANTHEM: scenario(
        (creature("c"), Permanent("e", types=("enchantment",), abilities=("anthem",))),
        a.PhaseOut(0, ("e",)),
    ),
    C.ACTIVATED_ABILITIES: scenario(
        (artifact("x", abilities=("tap_gain_life",)),), a.Activate(0, "x")
    ),
    C.CHOICES: scenario((creature("c", chosen="blue"),), a.PhaseOut(0, ("c",)), *TWO_TURNS),
    C.CONTROL_CHANGE: scenario(
        (creature("c", owner=1, controller=1),),
        a.GainControl(0, "c", Duration("end_of_turn")),
        a.PassTurn(),
    ),
    C.CONTROL_AS_LONG_AS: scenario(
        (artifact("x"), creature("c", owner=1, controller=1)),
        a.GainControl(0, "c", Duration("as_long_as_you_control", "x")),
        a.PhaseOut(0, ("x",)),
        *TWO_TURNS,
    ),
    C.PT_BOOST: scenario((creature("c"),), a.PumpTeam(0), a.PassTurn()),
    C.SKIP_UNTAP: scenario(
        (creature("c", phasing=1),), *TWO_TURNS, *TWO_TURNS, effects=(SkipUntap(0),)
    ),
    C.MULTIPLAYER: scenario(
        (creature("c", owner=2, controller=2, phasing=1),), *TWO_TURNS, a.PassTurn(), players=3
    ),
    C.TARGETING: scenario(
        (creature("c"), creature("d"), creature("e", owner=1, controller=1)),
        a.PhaseOut(1, ("c", "d")),
        a.PhaseOut(0, ("e",)),
    ),
    C.PHASE_OUT_ALL: scenario(
        (creature("c"), Permanent("l", types=("land",)), creature("d", owner=1, controller=1)),
        a.PhaseOutAll(0),
        *TWO_TURNS,
    ),
    C.PHASE_OUT_UNTIL: scenario(
        (artifact("s"), creature("c", owner=1, controller=1)), a.PhaseOutUntil(0, "s", "c")
    ),
    C.DESTROY: scenario(
        (creature("c"), creature("d"), creature("e", owner=1, controller=1)),
        a.PhaseOut(0, ("c",)),
        a.Destroy(0, "e", phased_out_in_response=True),
        a.DestroyAll(1),
    ),
    C.COUNT_CREATURES: scenario(
        (creature("c"), creature("d")), a.PhaseOut(0, ("c",)), a.DrawPerCreature(0)
    ),
    C.COMBAT: scenario(
        (creature("c"), creature("d")),
        a.PhaseOut(0, ("d",)),
        a.DeclareAttackers(0, ("c",), 1),
        a.PassTurn(),
    ),
    C.MANA_ABILITIES: scenario(
        (Permanent("l", types=("land",)), Permanent("m", types=("land",))),
        a.PhaseOut(0, ("m",)),
        a.TapForMana(0, "l"),
        *TWO_TURNS,
        a.TapForMana(0, "m"),
    ),
    C.BLOCKING: scenario(
        (creature("c"), creature("d"), creature("e", owner=1, controller=1)),
        a.DeclareAttackers(0, ("c", "d"), 1),
        a.DeclareBlockers(1, (("e", "c"),)),
        a.PhaseOut(1, ("e",)),
        a.PassTurn(),
    ),
    C.DAMAGE_MARKED: scenario(
        (
            Permanent("c", power=2, toughness=3),
            creature("d"),
            Permanent("e", power=1, toughness=3, counters=(("+1/+1", 3),)),
        ),
        a.DealDamage(1, "c", 2),
        a.DealDamage(1, "d", 3),
        # Lethal in one spell, as the 610.4 plan deals it.
        a.DealDamage(1, "e", 6),
        a.DealDamage(0, 1, 1),
        a.PhaseOut(0, ("c",)),
        *TWO_TURNS,
    ),
    C.LEGEND_RULE: scenario(
        (
            creature("c", legendary=True, name="Legend"),
            creature("d", legendary=True, name="Legend", phased_out=PhasedOut("direct", 0)),
        ),
        *TWO_TURNS,
    ),
    C.UPKEEP_TRIGGERS: scenario(
        (creature("c", phased_out=PhasedOut("direct", 0), abilities=("phases_in_tap",)),),
        *TWO_TURNS,
    ),
    C.HISTORY: scenario(
        (creature("c"), creature("d", phased_out=PhasedOut("direct", 0))),
        *TWO_TURNS,
        a.CreateToken(0, "t", 0),
        a.DrawPerEntered(0),
    ),
    C.LEAVE_GAME: scenario(
        (creature("c", owner=2, controller=2),), a.Concede(2), a.PassTurn(), players=3
    ),
    # The player actions, with the engine's own cards (players.py), clear of
    # the deviations they meet (D12, D13; test_phase_rs_players.py).
    # R2017-protection: the damage is prevented, so lifelink gains nothing.
    C.PLAYER_PROTECTION: scenario(
        (creature("c"), creature("d", owner=1, controller=1)),
        a.TeferisProtection(0),
        a.DamageOpponents(1, 2),
        *TWO_TURNS,
    ),
    # R2017-life-no-effect, R2017-set-life, R2017-exchange.
    C.LIFE_LOCK: scenario(
        (creature("c"),),
        a.LoseLife(1, 3),
        a.TeferisProtection(0),
        a.GainLife(0, 2),
        a.LoseLife(0, 1),
        a.SetLife(0, 15),
        a.ExchangeLife(0, 1),
    ),
    C.LIFE_SPELLS: scenario(
        (), a.GainLife(0, 3), a.LoseLife(1, 2), a.SetLife(0, 12), a.ExchangeLife(0, 1)
    ),
    # 119.4: life paid as a cost (GiveLife's cost is paid by nobody in
    # phase.rs, D14).
    C.LIFE_COSTS: scenario((), a.PayLife(0, 2), a.PayLife(1, 0)),
    # R2017-life-replacement: a gain replaced by draws, then under Teferi's
    # Protection no gain to replace ("that player gains 2 life instead"
    # goes to the wrong player in phase.rs, D15).
    C.LIFE_REPLACEMENT: scenario(
        (
            Permanent(
                "s", owner=1, controller=1, types=("enchantment",), abilities=("gain_to_draw",)
            ),
        ),
        a.GainLife(0, 3),
        a.TeferisProtection(0),
        a.GainLife(0, 2),
    ),
    # 601.2c, R2017-protection-targets: two phrases of targets; a player
    # answers with Teferi's Protection, making theirs illegal (608.2b).
    C.MULTI_TARGET: scenario(
        (creature("c"), creature("d", owner=1, controller=1)),
        a.TapAndDamage(0, ("c", "d", 1), 2),
        a.TapAndDamage(0, ("c", "d", 1), 1, protected_in_response=1),
    ),
    # 303.4a, R2017-protection: Auras cast at a player; the one on a player
    # who gains protection goes (704.5m), the next can't target them.
    C.CAST_AURAS: scenario(
        (creature("c"),),
        a.EnchantPlayer(1, "a1", 0),
        a.EnchantPlayer(0, "a2", 0),
        a.TeferisProtection(0),
        a.EnchantPlayer(1, "a3", 1),
        *TWO_TURNS,
    ),
    # 120.3a, 702.15b: damage to players; lifelink.
    C.PLAYER_DAMAGE: scenario(
        (creature("d", owner=1, controller=1),),
        a.DealDamage(1, 0, 3),
        a.DamageOpponents(0, 2, unpreventable=True),
        a.DamageOpponents(1, 1),
    ),
    # 702.90b: infect damage to a player gives poison counters (and its
    # lifelink still gains its controller life, 702.15b).
    C.INFECT: scenario(
        (),
        a.DamageOpponents(0, 2, infect=True),
        a.DamageOpponents(1, 1, unpreventable=True, infect=True),
    ),
    # 701.9a, R2017-nothing-else: opening hands; an untargeted discard
    # reaches a player with protection from everything.
    C.DISCARD: scenario(
        (creature("c"),),
        a.OpponentsDiscard(1),
        a.TeferisProtection(0),
        a.OpponentsDiscard(1),
        *TWO_TURNS,
    ),
}


def test_every_declared_capability_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(CAPABILITIES)


@pytest.mark.parametrize("capability", sorted(SCENARIOS), ids=str)
def test_the_capability_is_played_as_the_reference_plays_it(capability: C) -> None:
    s = SCENARIOS[capability]
    needs = s.setup.capabilities().union(*(action_needs(x) for x in s.actions))
    assert capability in needs
    ours, theirs = play(PhaseRsEngine(), s), play(ReferenceEngine(), s)
    assert [step.after.refused for step in ours.steps] == [None] * len(s.actions)
    assert [str(d) for d in trace_differences(theirs, ours)] == []
