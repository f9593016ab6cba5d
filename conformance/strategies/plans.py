"""Scenarios built around a plan: a property's situation, drawn on purpose.

Some rules are about a sequence no random draw makes often ("gain control of
T for as long as you control X, then X phases out"; "phase out until S
leaves, then S is destroyed"). A *plan* draws that sequence for a drawn setup
(and may add a continuous effect to it); the scenario plays it first, then
actions drawn as `conformance.strategies.scenarios` draws them, so that the
situation arises in most examples and what follows it still varies.

The plans themselves are in their families' modules: `hosts`, `as_long_as`,
`durations`, `until_leaves`, `leavers`, `phase_triggers` and `players`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.legality import setup_problems
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies._draw import Caps, composite
from conformance.strategies.plays import ACTION_KINDS, action_lists
from conformance.strategies.positions import setups

#: A plan: from the drawn setup and the engine's capabilities, the setup to
#: play (the same one, or one with an added effect) and the actions to play
#: first, all within the capabilities; () when the setup doesn't allow it.
Planned = tuple[Setup, Sequence[a.Action]]
Plan = Callable[[st.DrawFn, Setup, Caps], Planned]


@composite
def planned_scenarios(
    draw: st.DrawFn,
    caps: Caps,
    plan: Plan,
    *,
    kinds: Sequence[type] = ACTION_KINDS,
    min_actions: int = 0,
    max_actions: int = 8,
    plan_only: Caps = (),
    **setup_options: object,
) -> Scenario:
    """A legal setup, the actions `plan` draws for it, then more actions.
    `plan_only`: capabilities of the engine's that only the plan uses (the
    setup and the actions after the plan's are drawn without them)."""
    drawn = draw(setups(caps, **setup_options))  # type: ignore[arg-type]
    planning = {*caps, *plan_only}
    setup, first = plan(draw, drawn, planning)
    if setup is not drawn and setup_problems(setup):
        setup, first = drawn, ()
    first = tuple(x for x in first if a.action_needs(x) <= planning)
    rest = draw(action_lists(setup, caps, kinds=kinds, min_size=min_actions, max_size=max_actions))
    return Scenario(setup, first + rest)


def phased_in(setup: Setup) -> list[str]:
    return [p.id for p in setup.permanents if p.phased_out is None]


def with_phased_in(setup: Setup, ids: set[str]) -> Setup:
    """`setup` with the permanents `ids` phased in, and what phased out with
    them (702.26g); the same setup if they all were."""
    back = {p.id for p in setup.permanents if p.id in ids and p.phased_out is not None}
    if not back:
        return setup
    for p in setup.permanents:  # hosts come first: one pass finds the chain
        out = p.phased_out
        if p.attached_to in back and out is not None and out.cause == "indirect":
            back.add(p.id)
    permanents = tuple(replace(p, phased_out=None) if p.id in back else p for p in setup.permanents)
    return replace(setup, permanents=permanents)
