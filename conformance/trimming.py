"""Shrinking past Hypothesis: deleting the permanents a counterexample
doesn't need.

Setup ids are positional (p1, p2, ... in the order they were drawn) and
actions name them, so Hypothesis's shrinker can't delete an early permanent
without renaming every later one, which usually loses the failure: a
counterexample can keep a bystander. This pass deletes, one at a time, each
permanent that no action, effect or other permanent names, as long as the
setup stays legal (`conformance.legality`) and the same failure remains.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from conformance.codec import to_data
from conformance.legality import setup_problems
from conformance.scenario import Scenario

F = TypeVar("F")


def trim(
    scenario: Scenario, failure: Callable[[Scenario], F | None], found: F
) -> tuple[Scenario, F]:
    """The smallest scenario this pass reaches from `scenario`, which fails
    with `found`, and the failure it shows. `failure(candidate)` plays a
    candidate and returns its failure if it is the same one, else None."""
    changed = True
    while changed:
        changed = False
        named = _named(scenario)
        for permanent in scenario.setup.permanents:
            if permanent.id in named:
                continue
            kept = tuple(p for p in scenario.setup.permanents if p.id != permanent.id)
            candidate = replace(scenario, setup=replace(scenario.setup, permanents=kept))
            if setup_problems(candidate.setup):
                continue
            again = failure(candidate)
            if again is not None:
                scenario, found, changed = candidate, again, True
                break
    return scenario, found


def _named(scenario: Scenario) -> set[str]:
    """Every id the scenario's actions, effects and permanents refer to."""
    data = to_data(scenario)
    permanents = data["setup"].pop("permanents", [])
    names = _strings(data)
    for permanent in permanents:
        permanent.pop("id")
        names |= _strings(permanent)
    return names


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data))
    return set()
