"""302.6 and 702.26d on a fixed scenario: a creature borrowed "until end of
turn" and phased out under its borrower goes back to its owner in the
borrower's cleanup step, while phased out, and phases in under the owner at
the borrower's next untap step (R2017-control). The owner has controlled it
since their own turn began: its {T} ability can be activated during the
borrower's turn. The reference engine does so and exercises
`phasing_in_does_not_cure_summoning_sickness`; a mutant that takes phasing
in under another player for a control change refuses, and the
refused-legal-action check fails it."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.checking import hold
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import ControlEffect, Duration, Permanent, PhasedOut, Setup

PROPERTY = REGISTRY["phasing_in_does_not_cure_summoning_sickness"]
MUTANT = "phasing-in-under-another-controller-sickens"


def _returned(players: int, owner: int, mana: bool) -> Scenario:
    """y (owned by `owner`) controlled by player 0 until end of turn and
    phased out under them; a whole round of turns, then `owner` taps y."""
    y = Permanent(
        "y",
        owner=owner,
        controller=0,
        types=("land", "creature") if mana else ("creature",),
        phased_out=PhasedOut("direct", 0),
        abilities=("tap_gain_life",),
        power=2,
        toughness=2,
    )
    tap = a.TapForMana(owner, "y") if mana else a.Activate(owner, "y")
    return Scenario(
        Setup(
            players=players,
            permanents=(y,),
            effects=(ControlEffect("y", 0, Duration("end_of_turn")),),
        ),
        (*(a.PassTurn(),) * players, tap),
    )


CASES = [(2, 1, False), (2, 1, True), (3, 1, False), (3, 2, False)]


@pytest.mark.parametrize(("players", "owner", "mana"), CASES)
def test_the_owner_taps_what_came_back_to_them_while_phased_out(
    players: int, owner: int, mana: bool
) -> None:
    case = _returned(players, owner, mana)
    reference = play(ReferenceEngine(), case)
    hold(PROPERTY, ReferenceEngine(), reference)
    assert PROPERTY.exercised(reference)
    last = reference.steps[-1]
    assert last.after.refused is None
    assert last.before.active == 0
    assert last.after.permanent("y").tapped
    gained = last.after.player(owner).life - last.before.player(owner).life
    assert gained == (0 if mana else 1)


@pytest.mark.parametrize(("players", "owner", "mana"), CASES)
def test_an_engine_calling_it_sick_fails_and_exercises_nothing(
    players: int, owner: int, mana: bool
) -> None:
    engine = mutant_engine(MUTANT)
    bugged = play(engine, _returned(players, owner, mana))
    assert not PROPERTY.exercised(bugged)
    PROPERTY.check(bugged)  # the property's own checks can't tell: see its plan
    with pytest.raises(Violation, match=r"302\.6 after action .*it refused a legal action"):
        hold(PROPERTY, engine, bugged)


def test_borrowed_until_the_borrowers_next_turn_it_is_sick_for_the_owner() -> None:
    """The contrast (302.6): "until your next turn" ends as the borrower's
    turn begins, after the owner's: the owner's activation then is refused,
    and `ready_for_whom_it_came_back_to` does not count it."""
    case = _returned(2, 1, False)
    nxt = ControlEffect("y", 0, Duration("your_next_turn"))
    case = Scenario(
        Setup(players=2, permanents=case.setup.permanents, effects=(nxt,)),
        (a.PassTurn(), a.PassTurn(), a.Activate(1, "y")),
    )
    reference = play(ReferenceEngine(), case)
    hold(PROPERTY, ReferenceEngine(), reference)
    assert reference.steps[-1].after.refused is not None
    assert not PROPERTY.exercised(reference)
