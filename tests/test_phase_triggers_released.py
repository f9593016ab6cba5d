"""603.10b, 610.4: "whenever this phases in" triggers however the permanent
phases in, also mid-turn as the source it waited for leaves the battlefield.
The reference passes `phase_triggers_trigger` there and exercises it; an
engine firing the trigger in the untap step only (the mutant
until-release-no-phase-in-trigger, an outside engine's bug) fails it. What
else the destruction may change (the source's own leave trigger, a draw
replaced by life) leaves the player it changes unjudged."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine, reference_of
from conformance import actions as a
from conformance.properties import REGISTRY, Violation, in_edition
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Ability, ControlEffect, Duration, Permanent, Setup

PROP = REGISTRY["phase_triggers_trigger"]


def released(
    source_controller: int, source_abilities: tuple[Ability, ...] = (), *others: Permanent
) -> Scenario:
    """x (player 0's, "whenever this phases in") phases out until s leaves;
    s is destroyed by its controller."""
    x = Permanent("x", power=2, toughness=2, abilities=("phases_in",))
    s = Permanent(
        "s", source_controller, source_controller, ("artifact",), abilities=source_abilities
    )
    return Scenario(
        Setup(permanents=(x, s, *others)),
        (a.PhaseOutUntil(source_controller, "s", "x"), a.Destroy(source_controller, "s")),
    )


@pytest.mark.parametrize("source_controller", [0, 1], ids=["its-controllers", "an-opponents"])
def test_what_a_source_leaving_phases_in_triggers(source_controller: int) -> None:
    case = released(source_controller)
    trace = play(ReferenceEngine(), case)
    PROP.check(trace)
    assert PROP.exercised is not None and PROP.exercised(trace)
    with pytest.raises(Violation, match=r"603\.10b.*action 2.*player 0"):
        PROP.check(play(mutant_engine("until-release-no-phase-in-trigger"), case))


@pytest.mark.parametrize(
    "case",
    [
        released(0, ("ltb",)),
        released(0, (), Permanent("d", 1, 1, ("artifact",), abilities=("draw_to_life",))),
    ],
    ids=["source-leave-trigger", "draw-replaced-by-life"],
)
def test_what_else_the_destruction_changes_is_not_judged(case: Scenario) -> None:
    """Player 0 gains more than the phase trigger's life there: from s's
    "when this leaves the battlefield", or from the Destroy's draw replaced
    by 2 life (614.1a)."""
    trace = play(ReferenceEngine(), case)
    assert trace.steps[1].after.player(0).life > 20 + 64
    PROP.check(trace)


def test_a_limited_control_effect_ended_by_phasing_in_the_mirage_edition() -> None:
    """Mirage 502.15g: player 1's control of p2 "until their next turn"
    ends as p2 phases out with x; released mid-turn under player 0, p2
    phases out in player 0's untap step, its trigger theirs (today the
    effect would still last there and p2 stay in under player 1)."""
    aura = Permanent(
        "p2",
        0,
        1,
        ("enchantment",),
        attachment="aura",
        phasing=1,
        attached_to="x",
        abilities=("phases_out",),
    )
    case = released(0, (), aura)
    setup = replace(
        case.setup,
        active=1,
        effects=(ControlEffect("p2", 1, Duration("your_next_turn")),),
    )
    trace = play(reference_of("mirage"), Scenario(setup, (*case.actions, a.PassTurn())))
    assert trace.steps[2].after.player(0).life == 20 + 64 + 128
    in_edition("mirage")["phase_triggers_trigger"].check(trace)
