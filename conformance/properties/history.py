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
from conformance.setup import Ability, Permanent, PhaseCause

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


def was_in_went_out(step: Step, pid: str) -> bool:
    b, c = view(step.before, pid), view(step.after, pid)
    return b is not None and c is not None and b.phased_in and c.phased_out and c.on_battlefield


def was_out_came_in(step: Step, pid: str) -> bool:
    b, c = view(step.before, pid), view(step.after, pid)
    return b is not None and c is not None and b.phased_out and b.on_battlefield and c.phased_in


def fell_off_in_place(step: Step, pid: str) -> str | None:
    """What `pid` was attached to before `step`, if the engine shows it
    attached to nothing after it though neither it nor that host phased or
    left the battlefield: a state-based action's doing (704.5n), never
    phasing's (702.26j)."""
    b, c = view(step.before, pid), view(step.after, pid)
    if b is None or c is None or c.attached_to is not None or not isinstance(b.attached_to, str):
        return None
    was, now = view(step.before, b.attached_to), view(step.after, b.attached_to)
    if was is None or now is None:
        return None
    stayed = all(v.on_battlefield and v.phased_in for v in (b, c, was, now))
    return b.attached_to if stayed else None


def tap_ability(x: a.Action) -> tuple[str, int] | None:
    """The permanent whose {T} ability `x` activates, and who activates it:
    `Activate`'s source, or the land of `TapForMana` (a mana ability, 605)."""
    if isinstance(x, a.Activate):
        return x.source, x.player
    if isinstance(x, a.TapForMana):
        return x.land, x.player
    return None


def tapped_for(step: Step, pid: str, player: int) -> bool:
    """The engine carried out `step`'s {T} ability of `pid` (`tap_ability`)
    for `player`: `pid` became tapped and, for `Activate`'s ability ("{T}:
    You gain 1 life"), `player` gained life."""
    b, c = view(step.before, pid), view(step.after, pid)
    gained = step.after.player(player).life > step.before.player(player).life
    paid = isinstance(step.action, a.TapForMana) or gained
    return b is not None and c is not None and not b.tapped and c.tapped and paid


def view(obs: Observation, pid: str) -> PermanentView | None:
    try:
        return obs.permanent(pid)
    except KeyError:
        return None


def shown_phased_out(v: PermanentView | None) -> bool:
    """`v` (a `view`, None if not shown) is on the battlefield, phased out."""
    return v is not None and v.on_battlefield and v.phased_out


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


def creature_ids(scenario: Scenario) -> set[str]:
    """The permanents that are creatures: set up as creatures, or tokens the
    actions create (1/1 creatures). A phased-out one shows no power, so its
    observation can't say."""
    kinds = per_permanent(scenario, lambda p: p.is_creature, lambda token: True)
    return {pid for pid, creature in kinds.items() if creature}


def carried_out(trace: Trace, kind: type[T]) -> Iterator[tuple[Step, T]]:
    """Each action of `kind` the engine carried out (did not refuse)."""
    for step in trace.steps:
        if isinstance(step.action, kind) and step.after.refused is None:
            yield step, step.action


def took_effect(step: Step) -> bool:
    """A targeted spell the engine carried out visibly did its thing to its
    targets: they phased out (PhaseOut, PhaseOutUntil, a Destroy answered by
    phasing out), left the battlefield (Destroy) or changed controller to the
    caster (GainControl)."""
    x = step.action
    if step.after.refused is not None:
        return False
    if isinstance(x, a.PhaseOut):
        return all(was_in_went_out(step, t) for t in x.targets)
    if isinstance(x, a.PhaseOutUntil):
        return was_in_went_out(step, x.target)
    if isinstance(x, a.Destroy):
        c = view(step.after, x.target)
        if x.phased_out_in_response:
            return was_in_went_out(step, x.target)
        return c is not None and not c.on_battlefield
    if isinstance(x, a.GainControl):
        b, c = view(step.before, x.target), view(step.after, x.target)
        return b is not None and c is not None and b.controller != x.player == c.controller
    return False


def until_sources(trace: Trace) -> list[dict[str, str]]:
    """For each step, before it: the permanents directly phased out "until"
    a source leaves the battlefield (610.4), with that source; from the
    setup and the PhaseOutUntil actions that phased their target out. Each
    is dropped once the engine shows it phased in."""
    waiting = {
        p.id: p.phased_out.until
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None and p.phased_out.until is not None
    }
    out = []
    for step in trace.steps:
        out.append(dict(waiting))
        x = step.action
        if isinstance(x, a.PhaseOutUntil) and was_in_went_out(step, x.target):
            waiting[x.target] = x.source
        for pid in list(waiting):
            c = view(step.after, pid)
            if c is None or not c.on_battlefield or c.phased_in:
                del waiting[pid]
    return out


def indirectly_out(trace: Trace) -> list[set[str]]:
    """For each step, before it: the permanents phased out indirectly
    (702.26g, h), from the history rather than the engine's word: set up so,
    or phased out in the same step as the permanent they were attached to.
    Each is dropped once the engine shows it phased in."""
    out = {
        p.id
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None and p.phased_out.cause == "indirect"
    }
    found = []
    for step in trace.steps:
        found.append(set(out))
        out |= {
            b.id
            for b in step.before.permanents
            if isinstance(b.attached_to, str)
            and was_in_went_out(step, b.id)
            and was_in_went_out(step, b.attached_to)
        }
        out = {pid for pid in out if (c := view(step.after, pid)) is not None and c.phased_out}
    return found


def released_by_leaving(step: Step, waiting: dict[str, str], indirect: set[str], pid: str) -> bool:
    """610.4, 702.26g: `pid` had to phase in during `step` because the
    source it waited for left the battlefield, or because it phased out
    indirectly (`indirect`) with a permanent it is attached to that did."""
    seen: set[str] = set()
    while pid not in seen:
        seen.add(pid)
        source = waiting.get(pid)
        if source is not None:
            b, c = view(step.before, source), view(step.after, source)
            return b is not None and b.on_battlefield and (c is None or not c.on_battlefield)
        b = view(step.before, pid)
        if b is None or pid not in indirect or not isinstance(b.attached_to, str):
            return False
        pid = b.attached_to
    return False


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


def in_game(obs: Observation, index: int) -> bool:
    """Whether `index` is a player still in the game."""
    return 0 <= index < len(obs.players) and obs.players[index].in_game


def players_who_left(step: Step) -> set[int]:
    """The players who left the game during `step` (800.4a: what they own
    leaves with them, phased out or not, 702.26k)."""
    pairs = zip(step.before.players, step.after.players, strict=True)
    return {i for i, (b, c) in enumerate(pairs) if b.in_game and not c.in_game}


def a_player_left(step: Step) -> bool:
    """A player left the game during `step`."""
    return bool(players_who_left(step))


def ceased_while_phased_out(step: Step, pid: str) -> bool:
    """Before 2017 (702.25k) and in the Mirage rules (217.8d) a phased-out
    token ceases to exist as a state-based action: it was phased out before
    `step` or phased out during it, and is gone after it, with no zone but
    "none" to go to (not destroyed: that would be a move to a graveyard).
    Today only a leaving owner takes a phased-out permanent away like this
    (702.26k), which the properties of 702.26k judge."""
    b, c = view(step.before, pid), view(step.after, pid)
    moves = step.after.events_of("zone_change", pid)
    return (
        b is not None
        and b.on_battlefield
        and (b.phased_out or bool(step.after.events_of("phased_out", pid)))
        and c is not None
        and c.zone == "none"
        and bool(moves)
        and all(e.detail == "battlefield->none" for e in moves)
    )
