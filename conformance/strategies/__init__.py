"""Hypothesis strategies for legal setups and the actions played from them.

Everything generated is a legal position (checked by
`conformance.legality`), uses only what the engine's capabilities allow, and
shrinks toward few players, few plain creatures and few actions, so a
counterexample reads like a rules question.

The public strategies are here; `positions` draws setups, `plays` the
actions played from them.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from conformance.scenario import Scenario
from conformance.strategies._draw import Caps
from conformance.strategies.plays import ACTION_KINDS, action_lists, next_actions
from conformance.strategies.positions import effect_lists, permanent_lists, setups

__all__ = [
    "ACTION_KINDS",
    "Caps",
    "action_lists",
    "effect_lists",
    "next_actions",
    "permanent_lists",
    "scenarios",
    "setups",
]


@st.composite
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
