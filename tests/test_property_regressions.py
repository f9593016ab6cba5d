"""Scenarios on which a property once failed the reference engine although
the engine followed the rules: each is a property bug found by a random
certify run, kept so that it can't come back. Every property must pass on
the reference engine here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.cli import main
from conformance.codec import from_data
from conformance.properties import REGISTRY
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import (
    TRIGGER_LIFE,
    ControlEffect,
    Duration,
    Permanent,
    PhasedOut,
    Setup,
)

#: Issue 9: the leaver owns both x and the source x waits for (610.4); x
#: used to phase in (firing its triggers) before leaving (702.26k).
LEAVER_OWNS_THE_UNTIL_SOURCE = {
    "setup": {
        "players": 3,
        "active": 1,
        "permanents": [
            {"id": "src", "owner": 2, "controller": 2, "types": ["artifact"]},
            {
                "id": "x",
                "owner": 2,
                "controller": 0,
                "types": ["creature"],
                "power": 2,
                "toughness": 2,
                "abilities": ["ltb", "phases_in"],
                "phased_out": {"cause": "direct", "under": 0, "until": "src"},
            },
        ],
        "effects": [{"type": "ControlEffect", "target": "x", "controller": 0}],
    },
    "actions": [{"type": "Concede", "player": 2}],
}

AURA = {"types": ("enchantment",), "attachment": "aura"}
EQUIPMENT = {"types": ("artifact",), "attachment": "equipment"}
ARTIFACT = Permanent("s", types=("artifact",))


def as_long_as(of: str) -> Duration:
    return Duration("as_long_as_you_control", of)


REGRESSIONS = {
    # An Aura phases in as its host phases out, then goes to the graveyard
    # (704.5m): it did phase in (702.26a).
    "aura phases in onto a host phasing out": Scenario(
        Setup(
            active=1,
            permanents=(
                Permanent("p1", power=1, toughness=1, phasing=1),
                Permanent("p2", attached_to="p1", phased_out=PhasedOut("direct", 0), **AURA),  # type: ignore[arg-type]
            ),
        ),
        (a.PassTurn(),),
    ),
    # p3 phases out under player 2; the phasing ends the control effect, so
    # its controller afterwards (0) is not who it phased out under.
    "control ends because of the phasing": Scenario(
        Setup(
            players=3,
            active=1,
            permanents=(
                Permanent("p1", phasing=1, owner=0, controller=2, attached_to=0, **AURA),  # type: ignore[arg-type]
                Permanent("p3", types=("land",), phasing=1, owner=0, controller=2),
            ),
            effects=(ControlEffect("p3", 2, as_long_as("p1")),),
        ),
        (a.PassTurn(), a.PassTurn()),
    ),
    # The same through a chain: p4 was player 1's as player 0's untap step
    # began, so it doesn't phase out there (702.26p's property).
    "a chain of 'for as long as' effects": Scenario(
        Setup(
            players=3,
            active=2,
            permanents=(
                Permanent("p1", types=("land",), owner=0, controller=1),
                Permanent("p2", phasing=1, **EQUIPMENT),  # type: ignore[arg-type]
                Permanent("p3", owner=0, controller=1, attached_to="p2", **AURA),  # type: ignore[arg-type]
                Permanent("p4", types=("land",), phasing=2, owner=0, controller=1),
            ),
            effects=(
                ControlEffect("p1", 1, as_long_as("p3")),
                ControlEffect("p4", 1, as_long_as("p1")),
            ),
        ),
        (a.PassTurn(),),
    ),
    # Two effects depending on each other, both holding as the step began.
    "a cycle of 'for as long as' effects": Scenario(
        Setup(
            active=1,
            permanents=(
                Permanent("p1", types=("land",), owner=1, controller=0),
                Permanent("p3", phasing=1, owner=1, controller=0, **EQUIPMENT),  # type: ignore[arg-type]
            ),
            effects=(
                ControlEffect("p1", 0, as_long_as("p3")),
                ControlEffect("p3", 0, as_long_as("p1")),
            ),
        ),
        (a.PassTurn(),),
    ),
    # Destroying the source releases the Aura phased out "until" it leaves
    # (610.4), which then goes to the graveyard (704.5m): not destroyed.
    "destroying the source an Aura waited for": Scenario(
        Setup(
            permanents=(
                Permanent("p1", power=0, toughness=1),
                Permanent(
                    "p6",
                    owner=0,
                    controller=1,
                    attached_to="p1",
                    phased_out=PhasedOut("direct", 0, "p1"),
                    **AURA,  # type: ignore[arg-type]
                ),
            ),
        ),
        (a.DestroyAll(0),),
    ),
    "the leaver owns what waits and what it waits for": from_data(
        Scenario, LEAVER_OWNS_THE_UNTIL_SOURCE
    ),
    # Issue 9, certify seed 302: player 0's untap step phases p1 out and p2
    # in at once (702.26a), ending the control effect on p2 (702.26f); p2
    # phases in on a host treated as though it doesn't exist and goes to the
    # graveyard (704.5m), but its "phases in" trigger fired (603.2) for its
    # controller as it phased in (603.3a): player 1 once the effect ended.
    "an Aura's 'phases in' trigger as it phases in on a host phasing out": Scenario(
        Setup(
            permanents=(
                Permanent("p1", owner=1, phasing=1, power=0, toughness=1),
                Permanent(
                    "p2",
                    owner=1,
                    attached_to="p1",
                    phased_out=PhasedOut("direct", 0),
                    abilities=("phases_in",),
                    **AURA,  # type: ignore[arg-type]
                ),
            ),
            effects=(ControlEffect("p2", 0, as_long_as("p1")),),
        ),
        (a.PassTurn(), a.PassTurn()),
    ),
    # A source targeting itself (610.4): it waits for itself to leave.
    "a 'phases out until' source targeting itself": Scenario(
        Setup(players=3, permanents=(Permanent("p1", owner=1, phasing=1, power=1, toughness=1),)),
        (a.PhaseOutUntil(0, "p1", "p1"), a.PassTurn(), a.PassTurn(), a.Concede(1)),
    ),
    # blind6 report 2b: the waiting spell destroys its target once it has
    # phased out and back in (702.26d, Mirage 502.15n);
    # phasing_keeps_the_same_permanent expected it still on the battlefield.
    "a target destroyed after phasing out and in": Scenario(
        Setup(permanents=(Permanent("y", power=2, toughness=2), ARTIFACT)),
        (a.DestroyThroughPhasing(0, "y", "s"),),
    ),
    "an anthem destroyed after phasing out and in": Scenario(
        Setup(
            permanents=(
                Permanent("y", power=2, toughness=2),
                ARTIFACT,
                Permanent("a", types=("enchantment",), abilities=("anthem",)),
            )
        ),
        (a.DestroyThroughPhasing(0, "a", "s"), a.PassTurn()),
    ),
    # blind6 report 2b: player 1's "if an opponent would gain life, you draw
    # that many cards instead" replaces the life of y's "phases out" trigger;
    # the trigger properties expected player 0 to gain it.
    "a phase trigger's gain replaced by an opponent's draws": Scenario(
        Setup(
            permanents=(
                Permanent("y", power=2, toughness=2, abilities=("phases_out",)),
                Permanent("g", 1, 1, ("enchantment",), abilities=("gain_to_draw",)),
            )
        ),
        (a.PhaseOut(0, ("y",)),),
    ),
}


@pytest.mark.parametrize("scenario", REGRESSIONS.values(), ids=REGRESSIONS.keys())
def test_every_property_passes_on_the_reference(scenario: Scenario) -> None:
    trace = play(ReferenceEngine(), scenario)
    for prop in REGISTRY.values():
        prop.check(trace)


def test_replaying_the_issue_scenario_passes_on_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "leaver.json"
    scenario.write_text(json.dumps(LEAVER_OWNS_THE_UNTIL_SOURCE))
    argv = ["replay", str(scenario), "--engine", "reference"]
    code = main([*argv, "--property", "leaving_player_takes_what_they_own"])
    assert code == 0, capsys.readouterr().out
    assert "passes on this engine" in capsys.readouterr().out


def test_a_phases_in_trigger_of_an_aura_that_then_left_counts() -> None:
    """The seed-302 scenario exercises 603.10b: the reference gives the life
    of p2's trigger to player 1, and the property's model expects it."""
    scenario = REGRESSIONS["an Aura's 'phases in' trigger as it phases in on a host phasing out"]
    trace = play(ReferenceEngine(), scenario)
    last = trace.steps[-1]
    assert last.after.player(1).life - last.before.player(1).life == TRIGGER_LIFE["phases_in"]
    assert not last.after.permanent("p2").on_battlefield
    prop = REGISTRY["phase_triggers_trigger"]
    prop.check(trace)
    assert prop.exercised(trace)
