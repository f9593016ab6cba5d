"""The reference engine's work per action grows in step with the board.

Times belong to the benchmarks (reports/benchmarks.md); a test can count
something that doesn't wander instead: how many times one action, with the
observation after it, goes through every card. A rule that looks at the
whole board once per permanent makes that count grow with the board, and
the action quadratic: the untap step's attachments (702.26g), the
observation's anthems (613.4) and combat damage's powers (510.1) each did,
and each was found by a benchmark only after the fact.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, ValuesView

import pytest

from adapters.reference import reference_of
from conformance import actions as a
from conformance.actions import Action
from conformance.bench.boards import board
from conformance.catalog import Edition
from conformance.editions import EDITIONS
from conformance.observation import Observation
from conformance.setup import Setup

#: Whole-board actions of the active player (0) on a benchmark board, and
#: the turn passing twice (cleanup and combat, then each player's untap step).
ACTIONS: dict[str, tuple[Action, ...]] = {
    "pass turn twice": (a.PassTurn(), a.PassTurn()),
    "phase out all": (a.PhaseOutAll(0),),
    "destroy all": (a.DestroyAll(0),),
    "draw per creature": (a.DrawPerCreature(0),),
    "pump team": (a.PumpTeam(0),),
    "attack, then pass": (a.DeclareAttackers(0, ("b0.0",), 1), a.PassTurn()),
    "Teferi's Protection, then pass": (a.TeferisProtection(0), a.PassTurn()),
    "the board's controller concedes": (a.Concede(1),),
}


class _CountedCards(dict[str, object]):
    """A game's cards that count how often they are gone through."""

    scans = 0

    def __iter__(self) -> Iterator[str]:
        self.scans += 1
        return super().__iter__()

    def values(self) -> ValuesView[object]:
        self.scans += 1
        return super().values()

    def items(self) -> ItemsView[str, object]:
        self.scans += 1
        return super().items()


def _scans(
    setup: Setup, actions: tuple[Action, ...], edition: Edition
) -> tuple[int, list[Observation]]:
    game = reference_of(edition).start(setup)
    counted = _CountedCards(game.state.cards)
    game.state.cards = counted  # type: ignore[assignment]
    seen = [game.perform(action) for action in actions]
    return counted.scans, seen


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_whole_board_scans_do_not_grow_with_the_board(name: str, edition: Edition) -> None:
    small, seen = _scans(board(100), ACTIONS[name], edition)
    large, _ = _scans(board(1_000), ACTIONS[name], edition)
    assert small > 0, "the count saw no scan: the engine no longer keeps its cards there"
    assert large == small, (
        f"{name}: {small} scans of the board at 100 permanents, {large} at 1,000: "
        "something looks at the whole board once per permanent"
    )
    assert any(o.refused is None for o in seen), f"{name}: every action was refused"
