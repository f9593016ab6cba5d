"""Facts about a trace that properties need but an observation alone doesn't
show: phasing instances, who a permanent phased out under, and the abilities
a permanent was set up with."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from conformance import actions as a
from conformance.observation import Observation, PermanentView
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Ability, Permanent, PhaseCause, SkipUntap

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


@dataclass(frozen=True)
class Phasing:
    """How a phased-out permanent came to be phased out, as the scenario's
    history says rather than the engine: `cause` (702.26g, h) and the source
    it waits for, if it phased out "until" (610.4)."""

    cause: PhaseCause
    until: str | None = None


def phasings(trace: Trace) -> list[dict[str, Phasing]]:
    """For each observation k (0 the initial one, k the one after action k):
    how each permanent phased out on the battlefield then had phased out.
    The setup says it for the start; after that, a permanent that phased out
    in a step did so indirectly if what it was attached to phased out in the
    same step (702.26g, h), else directly, "until" the source of the
    PhaseOutUntil that targeted it (610.4). The engine's own `cause` is not
    read: it is one of the things under test."""
    status = {
        p.id: Phasing(p.phased_out.cause, p.phased_out.until)
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None
    }
    result = [dict(status)]
    for step in trace.steps:
        x = step.action
        sources = (
            {x.target: x.source}
            if isinstance(x, a.PhaseOutUntil) and step.after.refused is None
            else {}
        )
        out = {q.id for q in step.after.permanents if q.on_battlefield and q.phased_out}
        went = out - set(status)
        for pid in went:
            host = getattr(view(step.before, pid), "attached_to", None)
            if isinstance(host, str) and host in went:
                status[pid] = Phasing("indirect")
            else:
                status[pid] = Phasing("direct", sources.get(pid))
        status = {pid: s for pid, s in status.items() if pid in out}
        result.append(dict(status))
    return result


def waiting_for_source(trace: Trace) -> list[set[str]]:
    """For each observation k: the permanents 610.4 governs there, those
    phased out "until" a source still on the battlefield (phased in or out:
    phasing out is not leaving, R2017-until-leaves). Once it phased in, or
    its source is gone, a permanent is an ordinary phased-out one again."""
    obs = [trace.initial, *(s.after for s in trace.steps)]
    return [
        {
            pid
            for pid, s in status.items()
            if s.until is not None
            and (source := view(o, s.until)) is not None
            and source.on_battlefield
        }
        for o, status in zip(obs, phasings(trace), strict=True)
    ]


def phased(step: Step) -> bool:
    """Whether the engine showed any permanent change phased status in `step`
    (on the battlefield before and after)."""
    return any(
        (b := view(step.before, c.id)) is not None
        and b.on_battlefield
        and c.on_battlefield
        and b.phased_out != c.phased_out
        for c in step.after.permanents
    )


def in_game(obs: Observation, index: int) -> bool:
    """Whether `index` is a player still in the game."""
    return 0 <= index < len(obs.players) and obs.players[index].in_game
