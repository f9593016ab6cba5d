"""Facts about a trace that properties need but an observation alone doesn't
show: phasing instances, who a permanent phased out under, and the abilities
a permanent was set up with."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from conformance import actions as a
from conformance.observation import Observation, PermanentView
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Ability, Permanent, SkipUntap

T = TypeVar("T")


def per_permanent(
    scenario: Scenario,
    of_setup: Callable[[Permanent], T],
    of_token: Callable[[a.CreateToken], T],
) -> dict[str, T]:
    """One fact about each permanent of `scenario`: those set up, then the
    tokens its actions create (the first creation of an id counts)."""
    facts = {p.id: of_setup(p) for p in scenario.setup.permanents}
    for action in scenario.actions:
        if isinstance(action, a.CreateToken):
            facts.setdefault(action.id, of_token(action))
    return facts


def phasing_instances(scenario: Scenario) -> dict[str, int]:
    """Phasing instances per permanent (702.26p)."""
    return per_permanent(scenario, lambda p: p.phasing, lambda token: token.phasing)


def owners(scenario: Scenario) -> dict[str, int]:
    """Who owns each permanent: as set up, or the player who created the token."""
    return per_permanent(scenario, lambda p: p.owner, lambda token: token.player)


def default_controllers(scenario: Scenario) -> dict[str, int]:
    """Who controls each permanent when no control effect applies (110.2):
    the player it entered under, as set up, or the player who created the
    token (111.2)."""
    return per_permanent(scenario, lambda p: p.controller_by_default, lambda token: token.player)


def abilities(scenario: Scenario, pid: str) -> tuple[Ability, ...]:
    for p in scenario.setup.permanents:
        if p.id == pid:
            return p.abilities
    return ()


def untap_steps(trace: Trace) -> Iterator[tuple[Step, int]]:
    """Each PassTurn the engine carried out, with the player whose untap
    step it played."""
    for step in trace.steps:
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            yield step, step.after.active


def skips_untap(scenario: Scenario) -> set[int]:
    return {e.player for e in scenario.setup.effects if isinstance(e, SkipUntap)}


def was_in_went_out(step: Step, pid: str) -> bool:
    b, c = view(step.before, pid), view(step.after, pid)
    return b is not None and c is not None and b.phased_in and c.phased_out and c.on_battlefield


def was_out_came_in(step: Step, pid: str) -> bool:
    b, c = view(step.before, pid), view(step.after, pid)
    return b is not None and c is not None and b.phased_out and b.on_battlefield and c.phased_in


def view(obs: Observation, pid: str) -> PermanentView | None:
    try:
        return obs.permanent(pid)
    except KeyError:
        return None


def until_waiting(scenario: Scenario) -> set[str]:
    """Permanents that phased out 'until' something (610.4), from the setup
    and PhaseOutUntil actions."""
    ids = {
        p.id
        for p in scenario.setup.permanents
        if p.phased_out is not None and p.phased_out.until is not None
    }
    ids |= {x.target for x in scenario.actions if isinstance(x, a.PhaseOutUntil)}
    return ids
