"""What exercising each multiplayer property means: its predicate holds on
the reference engine's trace of a scenario built for the rule, and not on
the trace of an engine that refuses everything, or one that claims to carry
every action out while its game never changes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import Step, Trace, play
from conformance.scenario import Scenario
from conformance.setup import (
    BoostEffect,
    ControlEffect,
    Duration,
    Permanent,
    PhasedOut,
    Setup,
    SkipUntap,
)


def bear(pid: str, **kw: object) -> Permanent:
    return Permanent(pid, power=2, toughness=2, **kw)  # type: ignore[arg-type]


SCENARIOS = {
    # 702.26k: player 2's phased-out Equipment leaves with them.
    "leaving_player_takes_what_they_own": Scenario(
        Setup(
            players=3,
            permanents=(
                Permanent(
                    "p1",
                    owner=2,
                    controller=2,
                    types=("artifact",),
                    attachment="equipment",
                    phased_out=PhasedOut("direct", 2),
                ),
            ),
        ),
        (a.Concede(2),),
    ),
    # 800.4a: player 2's control of player 0's land ends as they leave.
    "leaving_players_control_ends": Scenario(
        Setup(players=3, permanents=(Permanent("p1", types=("land",), owner=0, controller=2),)),
        (a.Concede(2),),
    ),
    # 800.4c: player 2's control ends at cleanup; player 1, who controls p1
    # by default, has left.
    "control_ending_exiles_when_the_default_controller_left": Scenario(
        Setup(
            players=3,
            permanents=(bear("p1", owner=0, default_controller=1, controller=2),),
            effects=(ControlEffect("p1", 2, Duration("end_of_turn")),),
        ),
        (a.Concede(1), a.PassTurn()),
    ),
    # 702.26n: p1 phased out under player 1, who leaves; player 2's untap
    # step comes after player 1's turn would have begun.
    "phased_out_under_a_leaver_returns_after_their_turn": Scenario(
        Setup(
            players=3,
            permanents=(bear("p1", owner=2, controller=1, phased_out=PhasedOut("direct", 1)),),
        ),
        (a.Concede(1), a.PassTurn()),
    ),
    # 800.4m: player 1's boost lasts until their turn would have begun.
    "leavers_until_next_turn_effects_last_until_that_turn": Scenario(
        Setup(
            players=3,
            permanents=(bear("p1", owner=2, controller=2),),
            effects=(BoostEffect(("p1",), 1, duration=Duration("your_next_turn")),),
        ),
        (a.Concede(1), a.PassTurn(), a.PassTurn()),
    ),
}


def inert(trace: Trace) -> Trace:
    """The trace of an engine that refuses every action."""
    refused = replace(trace.initial, events=(), refused="not supported")
    steps = tuple(
        Step(s.action, trace.initial if i == 0 else refused, refused)
        for i, s in enumerate(trace.steps)
    )
    return replace(trace, steps=steps)


def frozen(trace: Trace) -> Trace:
    """The trace of an engine that carries every action out, and whose game
    never changes."""
    same = replace(trace.initial, events=())
    return replace(trace, steps=tuple(Step(s.action, same, same) for s in trace.steps))


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_reference_exercises_the_rule(name: str) -> None:
    prop = REGISTRY[name]
    trace = play(ReferenceEngine(), SCENARIOS[name])
    prop.check(trace)
    assert prop.exercised is not None and prop.exercised(trace)


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("degenerate", [inert, frozen])
def test_an_engine_that_does_nothing_does_not(name: str, degenerate: object) -> None:
    prop = REGISTRY[name]
    trace = play(ReferenceEngine(), SCENARIOS[name])
    assert prop.exercised is not None
    assert not prop.exercised(degenerate(trace))  # type: ignore[operator]


def test_every_multiplayer_property_says_what_exercising_it_means() -> None:
    mine = {
        n
        for n, p in REGISTRY.items()
        if p.check.__module__.endswith((".multiplayer", ".leaving_control"))
    }
    assert mine == set(SCENARIOS)
    assert all(REGISTRY[n].exercise_doc for n in mine)


#: Players 2 and 3, seated in a row, leave; the turn then passes from
#: player 1 to player 0 over both their seats (800.4m).
_IN_A_ROW = (a.Concede(2), a.Concede(3), a.PassTurn(), a.PassTurn())


@pytest.mark.parametrize(
    ("name", "case", "shown"),
    [
        # 702.26n: p1 phased out under player 3, the second of the two.
        (
            "phased_out_under_a_leaver_returns_after_their_turn",
            Scenario(
                Setup(
                    players=4,
                    permanents=(
                        bear("p1", owner=0, controller=3, phased_out=PhasedOut("direct", 3)),
                    ),
                ),
                _IN_A_ROW,
            ),
            "p1 \\(phased out under player 3, who left\\): expected phases in",
        ),
        # 800.4m: player 3's boost ends as their turn would have begun.
        (
            "leavers_until_next_turn_effects_last_until_that_turn",
            Scenario(
                Setup(
                    players=4,
                    permanents=(bear("p1", owner=0, controller=0),),
                    effects=(BoostEffect(("p1",), 3, duration=Duration("your_next_turn")),),
                ),
                _IN_A_ROW,
            ),
            "p1 \\(boosted by 3, who left\\): expected 2/2",
        ),
    ],
    ids=["702.26n", "800.4m"],
)
def test_every_seat_passed_over_counts_when_leavers_sit_in_a_row(
    name: str, case: Scenario, shown: str
) -> None:
    """702.26n, 800.4m: the turn passing over two players who left, seated
    in a row, would have begun for each of them, not only the first."""
    prop = REGISTRY[name]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    with pytest.raises(Violation, match=shown):
        prop.check(play(mutant_engine("leavers-in-a-row-only-first-passed-over"), case))


def test_a_skipped_untap_step_does_not_bring_back_what_phased_out_under_a_leaver() -> None:
    """702.26n, 702.26m, R2017-skip-untap: p1 phased out under player 1,
    who leaves; player 2, whose untap step comes next, skips it, so p1 stays
    out until player 0's untap step, the next one that happens."""
    case = Scenario(
        Setup(
            players=3,
            permanents=(bear("p1", owner=0, controller=1, phased_out=PhasedOut("direct", 1)),),
            effects=(SkipUntap(2),),
        ),
        (a.Concede(1), a.PassTurn(), a.PassTurn()),
    )
    prop = REGISTRY["phased_out_under_a_leaver_returns_after_their_turn"]
    reference = play(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    assert reference.steps[1].after.permanent("p1").phased_out
    with pytest.raises(Violation, match=r"but player 2 skips this untap step \(702\.26m\)"):
        prop.check(play(mutant_engine("leaver-return-ignores-skipped-untap"), case))
