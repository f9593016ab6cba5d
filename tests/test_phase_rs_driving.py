"""The phase.rs adapter plays what the reference engine plays, in the
situations where its driving once made it refuse or fail: a spell cast right
after a concession (timing, 104.3a, 704.3), a player who would draw from an
empty library (704.5b, which the suite's scenarios don't model), also in
the middle of an action, a Destroy answered by the controller of a target
that is gone, and triggers whose life gain changed no life total.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "phase", reason="phase-python is not installed; pip install 'phasecert[phase-rs]'"
)

from adapters.phase_rs import PhaseRsEngine
from adapters.phase_rs.cards import PHASE_OUT
from adapters.phase_rs.driving import DriverError
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.running import play
from conformance.scenario import Scenario
from conformance.setup import Permanent, PhasedOut, Setup
from conformance.trace_comparison import trace_differences

AURA: dict[str, Any] = {"types": ("enchantment",), "attachment": "aura"}


def creature(pid: str, **fields: Any) -> Permanent:
    return Permanent(pid, power=1, toughness=1, **fields)


#: Player 1 controls "if an opponent would gain life, you draw that many
#: cards instead" (`g`).
GAIN_TO_DRAW = Setup(
    permanents=(
        Permanent("g", owner=1, controller=1, types=("enchantment",), abilities=("gain_to_draw",)),
    )
)


#: Each scenario with, per action, whether the reference refuses it.
SCENARIOS: dict[str, tuple[Scenario, list[bool]]] = {
    # The Aura on the leaver goes to the graveyard (704.5m) only where a
    # player next receives priority: after the spell is cast, not before.
    "phase out an Aura on a player who just conceded": (
        Scenario(
            Setup(players=3, permanents=(Permanent("u", attached_to=1, **AURA),)),
            (a.Concede(1), a.PhaseOut(2, ("u",))),
        ),
        [False, False],
    ),
    "destroy an Aura on a player who just conceded, in another player's turn": (
        Scenario(
            Setup(players=3, permanents=(Permanent("u", owner=1, attached_to=0, **AURA),)),
            (a.PassTurn(), a.Concede(0), a.Destroy(2, "u")),
        ),
        [False, False, False],
    ),
    "two concessions, then a spell": (
        Scenario(
            Setup(players=4, permanents=(Permanent("u", attached_to=1, **AURA),)),
            (a.Concede(1), a.Concede(2), a.Destroy(3, "u")),
        ),
        [False, False, False],
    ),
    # Six creatures: four Census draw 24 cards, more than a library holds.
    "more draws than a library holds": (
        Scenario(
            Setup(permanents=tuple(creature(f"c{i}") for i in range(6))),
            (*[a.DrawPerCreature(0)] * 4, a.PassTurn(), a.PassTurn()),
        ),
        [False] * 6,
    ),
    # Player 1's "if an opponent would gain life, you draw that many cards
    # instead" makes player 0's gain of 10 (their life total becoming 30,
    # 119.5) 10 cards, more than a library is dealt: the game is dealt
    # again with more, and played again.
    "a replacement draws more than a library holds": (
        Scenario(
            GAIN_TO_DRAW,
            (a.PassTurn(), a.PassTurn(), a.SetLife(0, 30), a.PassTurn()),
        ),
        [False] * 4,
    ),
    # Dealt again at the last gain, the game decks player 1 out at the one
    # before it (their library is refilled at other times): it is dealt
    # again once more.
    "replacements draw past a library dealt again": (
        Scenario(
            GAIN_TO_DRAW,
            (
                a.GainLife(0, 3),
                a.PhaseOut(1, ("g",)),
                a.GainLife(0, 3),
                a.PassTurn(),
                a.GainLife(0, 3),
                a.GainLife(0, 1),
            ),
        ),
        [False] * 6,
    ),
    # Player 0's "whenever this phases in" (64 life) becomes player 1's 64
    # cards: the reader finds the trigger by the cards, as no life changed.
    "a phase-in trigger whose gain is drawn instead": (
        Scenario(
            Setup(
                active=1,
                permanents=(
                    *GAIN_TO_DRAW.permanents,
                    Permanent(
                        "y",
                        types=("enchantment",),
                        abilities=("phases_in",),
                        phased_out=PhasedOut("direct", under=0),
                    ),
                ),
            ),
            (a.PassTurn(),),
        ),
        [False],
    ),
    # "Whenever this phases out" resolves while its controller's life total
    # can't change (R2017-life-no-effect): a trigger all the same.
    "a phase-out trigger whose gain changes nothing": (
        Scenario(
            Setup(permanents=(Permanent("y", types=("enchantment",), abilities=("phases_out",)),)),
            (a.TeferisProtection(0),),
        ),
        [False],
    ),
    # The target is in the graveyard and its controller left: no response
    # is fetched for them, and the spell is refused for its target.
    "destroy with a response, the target gone and its controller left": (
        Scenario(
            Setup(players=3, active=2, permanents=(creature("c"),)),
            (a.Destroy(0, "c"), a.Concede(0), a.Destroy(2, "c", phased_out_in_response=True)),
        ),
        [False, False, True],
    ),
    # The Aura on the leaver goes to the graveyard (704.5m) as the responder
    # receives priority: there is nothing to respond on, and the spell does
    # nothing (608.2b).
    "destroy with a response, the target put away as the responder gets priority": (
        Scenario(
            Setup(players=3, permanents=(Permanent("u", attached_to=1, **AURA),)),
            (a.Concede(1), a.Destroy(2, "u", phased_out_in_response=True)),
        ),
        [False, False],
    ),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_phase_rs_plays_as_the_reference_plays(name: str) -> None:
    s, refused = SCENARIOS[name]
    ours, theirs = play(PhaseRsEngine(), s), play(ReferenceEngine(), s)
    assert [step.after.refused is not None for step in theirs.steps] == refused
    assert [step.after.refused is not None for step in ours.steps] == refused
    assert [str(d) for d in trace_differences(theirs, ours)] == []


def _phase_out_cast(game: Any, seat: int, target: int) -> Any:
    """Save the game (`save_for`), then cast the phase-out spell at
    `target` and choose no target."""
    driver = game.driver
    driver.ensure_in_hand([(seat, PHASE_OUT)])
    hand = {o["id"] for o in driver.game.hand(seat) if o["name"] == PHASE_OUT.name}
    move = next(m for m in driver.game.actions() if m.kind == "CastSpell" and m.object_id in hand)
    saved = driver.save_for(seat, [target])
    driver.apply(seat, move)
    return saved


def test_a_refused_cast_at_a_phased_in_permanent_is_cancelled_by_the_engine() -> None:
    """`Driver.save_for` exports nothing where the caster holds priority and
    the target is a phased-in permanent: a refusal there is undone by the
    engine's CancelCast (601.2i), and the game is as it was."""
    game = PhaseRsEngine().start(Setup(permanents=(creature("c"), creature("d"))))
    before = game.observe()
    saved = _phase_out_cast(game, 0, game.reader.ids["c"])
    assert saved.exported is None
    # Refused here, as a target the engine doesn't offer is (601.2c).
    assert game.driver.waiting()["type"] == "TargetSelection"
    game.driver.restore(0, saved)
    assert game.driver.quiet() and game.driver.game.priority_player() == 0
    assert [o["name"] for o in game.driver.game.hand(0)] == [PHASE_OUT.name]
    assert game.observe() == before
    assert game.perform(a.PhaseOut(0, ("c",))).permanents[0].phased_out


def test_a_refusal_the_engine_cannot_cancel_is_an_error() -> None:
    """With one legal target, the engine picks it itself and the spell is
    cast: a refusal then can't be cancelled, and `save_for` would have
    exported the game (say, for a phased-out target). Were it not, the
    driver says so rather than play on from a wrong position."""
    game = PhaseRsEngine().start(Setup(permanents=(creature("c"),)))
    saved = _phase_out_cast(game, 0, game.reader.ids["c"])
    assert saved.exported is None and len(game.driver.game.stack()) == 1
    with pytest.raises(DriverError, match="did not cancel"):
        game.driver.restore(0, saved)


def test_the_driver_picks_which_of_two_replacements_applies_first() -> None:
    """Two opponents' "if an opponent would draw a card, that player gains
    2 life instead" apply to player 0's draws: phase.rs asks player 0 which
    applies first (616.1), and the driver answers; no card is drawn."""
    setup = Setup(
        players=3,
        active=2,
        permanents=tuple(
            Permanent(f"r{p}", p, p, ("enchantment",), abilities=("draw_to_life",)) for p in (1, 2)
        ),
    )
    trace = play(PhaseRsEngine(), Scenario(setup, (a.PassTurn(), a.GainLife(0, 1))))
    assert [step.after.refused for step in trace.steps] == [None, None]
    assert trace.steps[-1].after.players[0].cards_drawn == 0
