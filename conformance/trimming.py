"""Shrinking past Hypothesis: deleting the permanents and actions a
counterexample doesn't need.

Setup ids are positional (p1, p2, ... in the order they were drawn) and
actions name them, so Hypothesis's shrinker can't delete an early permanent
without renaming every later one, which usually loses the failure: a
counterexample can keep a bystander. The stateful comparison's runs are not
shrunk action by action either, and keep turns that change nothing. This
pass deletes, one at a time, each permanent that no action, effect or other
permanent names, and each action whose token no later action names, as long
as the setup stays legal (`conformance.legality`) and the same failure
remains.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from conformance.actions import CreateToken
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
        for candidate in _smaller(scenario):
            again = failure(candidate)
            if again is not None:
                scenario, found, changed = candidate, again, True
                break
    return scenario, found


def _smaller(scenario: Scenario) -> Iterator[Scenario]:
    """Legal scenarios one permanent or one action smaller: the last actions
    first, since a failure usually shows at the end."""
    actions = scenario.actions
    for i in reversed(range(len(actions))):
        created = actions[i].id if isinstance(actions[i], CreateToken) else None
        if created is not None and created in _named(replace(scenario, actions=actions[i + 1 :])):
            continue
        yield replace(scenario, actions=actions[:i] + actions[i + 1 :])
    named = _named(scenario)
    for permanent in scenario.setup.permanents:
        if permanent.id in named:
            continue
        kept = tuple(p for p in scenario.setup.permanents if p.id != permanent.id)
        candidate = replace(scenario, setup=replace(scenario.setup, permanents=kept))
        if not setup_problems(candidate.setup):
            yield candidate


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
