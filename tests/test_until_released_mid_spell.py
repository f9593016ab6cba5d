"""610.4: what phased out "until S leaves the battlefield" phases in
immediately after S leaves, within the spell that destroyed S and before the
rest of it. The reference passes `what_waited_is_back_before_the_rest_of_the_spell`
and exercises it; an engine releasing it as a delayed trigger, after the
spell (the mutant until-release-after-spell-resolves, an outside engine's
bug), lets the caster draw and fails it. Other replacements and a life total
that can't change leave the caster without a card all the same; a caster who
may draw because another player's life changed is not judged."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine, reference_of
from conformance import actions as a
from conformance.properties import REGISTRY, Violation
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Ability, Permanent, PhasedOut, Setup

PROP = REGISTRY["what_waited_is_back_before_the_rest_of_the_spell"]
MUTANT = "until-release-after-spell-resolves"

#: p1, player 1's "if an opponent would draw a card, that player gains 2
#: life instead", waits for p2, player 0's artifact.
WAITER = Permanent("p1", 1, 1, ("enchantment",), abilities=("draw_to_life",))
SOURCE = Permanent("p2", 0, 0, ("artifact",))


def released(*others: Permanent, first: tuple[a.Action, ...] = (), source: int = 0) -> Scenario:
    """p1 phases out until p2 (player `source`'s artifact) leaves, by p2's
    ability, then player 0 casts Destroy on p2."""
    artifact = Permanent("p2", source, source, ("artifact",))
    return Scenario(
        Setup(permanents=(WAITER, artifact, *others)),
        (a.PhaseOutUntil(source, "p2", "p1"), *first, a.Destroy(0, "p2")),
    )


def enchantment(pid: str, player: int, ability: Ability) -> Permanent:
    return Permanent(pid, player, player, ("enchantment",), abilities=(ability,))


SET_UP_OUT = Scenario(
    Setup(
        permanents=(
            Permanent(
                "p1",
                1,
                1,
                ("enchantment",),
                abilities=("draw_to_life",),
                phased_out=PhasedOut("direct", 1, until="p2"),
            ),
            SOURCE,
        )
    ),
    (a.Destroy(0, "p2"),),
)


@pytest.mark.parametrize(
    "case",
    [
        released(),
        SET_UP_OUT,
        # The caster's life can't change: the draw is replaced by nothing.
        # (Player 1's p2 doesn't phase out with the caster's permanents.)
        released(first=(a.TeferisProtection(0),), source=1),
        # The caster's 2 life become player 1's 2 cards (614.1a).
        released(enchantment("p3", 1, "gain_to_draw")),
        # The caster's own replacement applies to their opponents only.
        released(enchantment("p3", 0, "draw_to_life")),
        # A third player's artifact; the caster isn't its controller.
        Scenario(
            Setup(players=3, permanents=(WAITER, Permanent("p2", 2, 2, ("artifact",)))),
            (a.PhaseOutUntil(2, "p2", "p1"), a.Destroy(0, "p2")),
        ),
    ],
    ids=["by-ability", "set-up", "life-locked", "gain-to-draw", "own-draw-to-life", "third"],
)
def test_what_waited_is_back_before_the_draw(case: Scenario) -> None:
    trace = play(ReferenceEngine(), case)
    assert trace.steps[-1].after.player(0).cards_drawn == 0
    PROP.check(trace)
    assert PROP.exercised is not None and PROP.exercised(trace)
    with pytest.raises(Violation, match=r"610\.4.*Destroy of p2.*no card drawn.*1 drawn"):
        PROP.check(play(mutant_engine(MUTANT), case))


def test_the_older_editions_release_it_within_the_spell_too() -> None:
    trace = play(reference_of("pre-2017"), released())
    PROP.check(trace)
    assert PROP.exercised is not None and PROP.exercised(trace)


def test_a_caster_who_may_draw_for_another_reason_is_not_judged() -> None:
    """The caster's "if an opponent would gain life, you draw that many
    cards instead" turns the life of p2's leave trigger, player 1's, into
    the caster's cards, here each replaced by p1 in turn (2 life a card):
    whether the caster draws depends on more than the order."""
    source = Permanent("p2", 1, 1, ("artifact",), abilities=("ltb",))
    case = Scenario(
        Setup(permanents=(WAITER, source, enchantment("p3", 0, "gain_to_draw"))),
        (a.PhaseOutUntil(1, "p2", "p1"), a.Destroy(0, "p2")),
    )
    trace = play(ReferenceEngine(), case)
    assert trace.steps[-1].after.player(0).life == 20 + 2 + 4 * 2
    PROP.check(trace)
    assert PROP.exercised is not None and not PROP.exercised(trace)
    PROP.check(play(mutant_engine(MUTANT), case))


def test_a_source_that_left_otherwise_is_not_judged() -> None:
    """p2, an Aura on p3, goes to the graveyard as a state-based action
    after the Destroy of p3 (704.5m): p1 phases in after the spell, rightly,
    and the caster draws."""
    host = Permanent("p3", 0, 0, power=1, toughness=1)
    aura = Permanent("p2", 0, 0, ("enchantment",), attachment="aura", attached_to="p3")
    case = Scenario(
        Setup(permanents=(host, aura, WAITER)),
        (a.PhaseOutUntil(0, "p2", "p1"), a.Destroy(0, "p3")),
    )
    trace = play(ReferenceEngine(), case)
    assert trace.steps[-1].after.permanent("p1").phased_in
    assert trace.steps[-1].after.player(0).cards_drawn == 1
    PROP.check(trace)
    assert PROP.exercised is not None and not PROP.exercised(trace)
