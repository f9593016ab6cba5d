"""Hypothesis strategies for legal setups and the actions played from them.

Everything generated is a legal position (checked by
`conformance.legality`), uses only what the engine's capabilities allow, and
shrinks toward few players, few plain creatures and few actions, so a
counterexample reads like a rules question.

The public strategies are here; `positions` draws setups, `plays` the
actions played from them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies._draw import Caps, composite, integer, pick
from conformance.strategies.plays import ACTION_KINDS, action_lists, next_actions
from conformance.strategies.positions import effect_lists, permanent_lists, setups

__all__ = [
    "ACTION_KINDS",
    "Caps",
    "action_lists",
    "conceding_scenarios",
    "effect_lists",
    "next_actions",
    "permanent_lists",
    "scenarios",
    "setups",
]


@composite
def scenarios(
    draw: st.DrawFn,
    caps: Caps,
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_actions: int = 0,
    max_actions: int = 8,
    **setup_options: object,
) -> Scenario:
    """A legal setup and actions from it, all within `caps`."""
    setup = draw(setups(caps, **setup_options))  # type: ignore[arg-type]
    actions = draw(
        action_lists(setup, caps, kinds=kinds, min_size=min_actions, max_size=max_actions)
    )
    return Scenario(setup, actions)


@composite
def conceding_scenarios(
    draw: st.DrawFn,
    caps: Caps,
    leavers: Callable[[Setup], Sequence[int]],
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_actions: int = 0,
    max_actions: int = 8,
    setup_strategy: st.SearchStrategy[Setup] | None = None,
    in_a_row: bool = False,
    **setup_options: object,
) -> Scenario:
    """Like `scenarios`, but three times in four the actions open with a
    concession by one of `leavers(setup)` other than the active player (the
    players a multiplayer rule is about), when the engine plays them. The
    setup is drawn from `setup_strategy` if given. With `in_a_row`, three
    times in four a player seated right before or after that leaver concedes
    next, on top of the actions drawn, if two players would still be in the
    game: one turn then passes over two players who left (702.26n, 800.4m)."""
    if setup_strategy is None:
        setup_strategy = setups(caps, **setup_options)  # type: ignore[arg-type]
    setup = draw(setup_strategy)
    candidates = sorted(set(leavers(setup)) - {setup.active})
    first: tuple[a.Concede, ...] = ()
    can_leave = {C.MULTIPLAYER, C.LEAVE_GAME} <= set(caps) and setup.players >= 3
    if can_leave and candidates and integer(draw, 0, 3) > 0:
        first = (a.Concede(pick(draw, candidates)),)
    size = len(first)
    if in_a_row and first and setup.players >= 4 and integer(draw, 0, 3) > 0:
        first += _a_neighbour_concedes(draw, setup, first[0].player)
    rest = draw(
        action_lists(
            setup,
            caps,
            kinds=kinds,
            min_size=max(0, min_actions - size),
            max_size=max_actions - size,
            left=[x.player for x in first],
        )
    )
    return Scenario(setup, first + rest)


def _a_neighbour_concedes(draw: st.DrawFn, setup: Setup, leaver: int) -> tuple[a.Concede, ...]:
    """A concession by the player seated right before `leaver` (two times in
    three) or right after, unless that is the active player. Before, so
    that `leaver`, the player the property is about, is the second of the
    row: an engine that counts a passed-over seat only next to a seat still
    played (800.4m) gets `leaver` wrong only then."""
    n = setup.players
    before, after = (leaver - 1) % n, (leaver + 1) % n
    seats = [s for s in (before, before, after) if s not in (setup.active, leaver)]
    return (a.Concede(pick(draw, seats)),) if seats else ()
