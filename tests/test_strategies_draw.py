"""The suite's `composite` (conformance.strategies._draw) is Hypothesis's
`st.composite` made cheaper per call: from the same choices it must draw the
same values, or every derandomized run, and with it the examples each mutant
takes to fail (reports/detection.md), would move."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conformance.capabilities import ALL_CAPABILITIES
from conformance.strategies import scenarios, setups
from conformance.strategies.durations import boost_then_phase_out
from conformance.strategies.plans import planned_scenarios

DRAWS = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def drawn(strategy: st.SearchStrategy[Any]) -> list[Any]:
    found: list[Any] = []

    @DRAWS
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


@pytest.mark.parametrize(
    ("ours", "args"),
    [
        (setups, (ALL_CAPABILITIES,)),
        (scenarios, (ALL_CAPABILITIES,)),
        (planned_scenarios, (ALL_CAPABILITIES, boost_then_phase_out)),
    ],
    ids=["setups", "scenarios", "planned_scenarios"],
)
def test_composite_draws_what_hypothesis_composite_draws(ours: Any, args: tuple) -> None:
    theirs = st.composite(ours.__wrapped__)
    # The label marks the draw's span, which the shrinker works on.
    assert ours(*args).label == theirs(*args).label
    assert drawn(ours(*args)) == drawn(theirs(*args))
