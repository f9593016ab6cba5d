"""Properties of attachments: Auras, Equipment and Fortifications phase out
and in with their host (702.26g, 702.26h, 702.26j, R2017-attached); what
becomes of one whose host is gone is in `unattached`, attach triggers
(702.26j) in `attach_triggers`.

Where the rules leave the outcome open, every outcome they allow passes
(docs/readings.md): a directly phased-out attachment phasing in while its
host is phased out (reading A), an indirectly phased-out Aura whose host
left the game (reading B), state-based actions after a Concede (704.3).
A phased-out attachment leaves the game with a player who owns it (800.4a,
702.26k), or may with one who controlled it by default (reading F)."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import Out, phased_out_history, sba_may_wait
from conformance.properties.history import (
    default_controllers,
    in_game,
    owners,
    players_who_left,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.strategies import plans, scenarios
from conformance.strategies.hosts import host_phases_out_and_in

#: The kinds of permanent of attachment scenarios.
ATTACHMENTS = ("creature", "land", "aura", "equipment", "fortification")
#: A creature with an Equipment on it and an Aura on that (a chain two
#: levels deep), so that every scenario has something attached.
LEAD = ("creature", "equipment", "aura")
#: Phasing, "phases out until" (610.4) and destruction: hosts leave while
#: attachments are out, and attachments wait on a host that waits itself.
HOSTS_LEAVING = (a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.PhaseOutUntil, a.Destroy)


def phasing_hosts(
    caps: Collection[C], plan: plans.Plan = host_phases_out_and_in
) -> st.SearchStrategy[Scenario]:
    """Hosts and what is attached to them, chains included, and the actions
    that phase them or make them leave: `plan`, then more."""
    return plans.planned_scenarios(
        caps,
        plan,
        kinds=HOSTS_LEAVING,
        permanent_kinds=ATTACHMENTS,
        max_actions=5,
        chains=True,
        lead=LEAD,
    )


def attachment_kinds(scenario: Scenario) -> dict[str, str]:
    return {p.id: p.attachment for p in scenario.setup.permanents if p.attachment}


def _attached(obs: Observation, host: str) -> list[PermanentView]:
    return [p for p in obs.permanents if p.on_battlefield and p.attached_to == host]


def history_steps(trace: Trace) -> Iterator[tuple[int, Step, dict[str, Out], dict[str, Out]]]:
    """Each step k (from 1) with how permanents were phased out before and
    after it, from the scenario's history (`phased_out_history`)."""
    history = phased_out_history(trace)
    for k, step in enumerate(trace.steps, 1):
        yield k, step, history[k - 1], history[k]


def _taken_by(trace: Trace, step: Step, pid: str, leavers: Collection[int]) -> int | None:
    """The player who left the game in `step` and may take `pid` along,
    phased out as it is: its owner (800.4a, 702.26k: it must leave), or the
    player who controlled it by default and still did (800.4a exiles what
    they control; open for a phased-out permanent, docs/readings.md F)."""
    owner = owners(trace.scenario).get(pid)
    if owner in leavers:
        return owner
    b = view(step.before, pid)
    controller = b.controller if b is not None else None
    if controller in leavers and default_controllers(trace.scenario).get(pid) == controller:
        return controller
    return None


def _went_out_with_host(trace: Trace) -> bool:
    """702.26g: a permanent phased out and the engine showed an attachment
    that was phased in on it phased out with it."""
    return any(
        was_in_went_out(step, host.id) and was_in_went_out(step, b.id)
        for step in trace.steps
        for host in step.before.permanents
        for b in _attached(step.before, host.id)
    )


@rule_property(
    "702.26g",
    needs={C.AURAS},
    scenarios=phasing_hosts,
    exercised=_went_out_with_host,
)
def attachments_phase_out_with_their_host(trace: Trace) -> None:
    """What is attached to a permanent that phases out phases out with it,
    indirectly; an indirectly phased-out permanent is never in while its
    host is out."""
    for k, step, before, _after in history_steps(trace):
        for host in step.before.permanents:
            if not was_in_went_out(step, host.id):
                continue
            for b in _attached(step.before, host.id):
                c = view(step.after, b.id)
                if b.phased_in and c is not None:
                    expect(
                        c.phased_out and c.cause == "indirect",
                        "702.26g",
                        f"{where(trace, step)}, {b.id} attached to {host.id}",
                        "phased out indirectly with its host",
                        f"phased out={c.phased_out}, cause={c.cause}",
                    )
        leavers = players_who_left(step)
        for pid, out in before.items():
            c = view(step.after, pid)
            host_after = view(step.after, out.host) if isinstance(out.host, str) else None
            # An indirectly phased-out permanent whose host left (the game,
            # with its owner) is reading B of docs/readings.md: any outcome.
            if out.cause == "indirect" and host_after is not None and host_after.phased_out:
                leaver = _taken_by(trace, step, pid, leavers)
                kept = c is not None and c.on_battlefield and c.phased_out
                left = leaver is not None and c is not None and not c.on_battlefield
                expect(
                    kept or left,
                    "702.26g",
                    f"{where(trace, step)}, {pid}",
                    f"still phased out with its host {out.host}"
                    + ("" if leaver is None else f", or gone with player {leaver}, who left"),
                    "phased in" if c is not None and c.on_battlefield else "gone",
                )
        waits = sba_may_wait(trace, k)
        for c in step.after.permanents:
            if not (c.phased_in and isinstance(c.attached_to, str)):
                continue
            host_view = view(step.after, c.attached_to)
            out = before.get(c.id)
            # Where state-based actions may not have been checked yet (704.3),
            # it may still be attached to a host that left, or (reading A) to
            # a phased-out host it phased in onto, having phased out directly.
            if waits and (
                host_view is None
                or not host_view.on_battlefield
                or (out is not None and out.cause == "direct")
            ):
                continue
            expect(
                host_view is not None and host_view.phased_in,
                "702.26g",
                f"{where(trace, step)}, {c.id}",
                f"phased in only with its host {c.attached_to}",
                "phased in, attached to a phased-out or missing host",
            )


def _came_back_with_host(trace: Trace) -> bool:
    """R2017-attached: a permanent phased in and an attachment that had
    phased out with it (by the scenario's history) phased in with it,
    attached to it."""
    for _, step, before, _after in history_steps(trace):
        for pid, out in before.items():
            c = view(step.after, pid)
            if (
                out.cause == "indirect"
                and isinstance(out.host, str)
                and was_out_came_in(step, out.host)
                and c is not None
                and c.phased_in
                and c.attached_to == out.host
            ):
                return True
    return False


@rule_property(
    "R2017-attached",
    "702.26g",
    needs={C.AURAS},
    scenarios=phasing_hosts,
    exercised=_came_back_with_host,
)
def attachments_return_with_their_host(trace: Trace) -> None:
    """What phased out indirectly with its host phases in with it, still
    attached to it."""
    for _, step, before, _after in history_steps(trace):
        for pid, out in before.items():
            host, c = out.host, view(step.after, pid)
            if out.cause != "indirect" or not isinstance(host, str) or c is None:
                continue
            if was_out_came_in(step, host):
                expect(
                    c.phased_in and c.attached_to == host,
                    "R2017-attached",
                    f"{where(trace, step)}, {pid} with host {host}",
                    f"phased in, attached to {host}",
                    f"{c.zone}, phased out={c.phased_out}, attached to {c.attached_to}",
                )


def _host_left_direct_one_out(trace: Trace) -> bool:
    """702.26g, 702.26b: a permanent phased out while an attachment on it was
    already phased out directly, and the engine showed that attachment still
    phased out directly after."""
    for _, step, before, _after in history_steps(trace):
        for pid, out in before.items():
            c = view(step.after, pid)
            if (
                out.cause == "direct"
                and isinstance(out.host, str)
                and was_in_went_out(step, out.host)
                and c is not None
                and c.on_battlefield
                and c.phased_out
                and c.cause == "direct"
            ):
                return True
    return False


@rule_property(
    "702.26g",
    "702.26b",
    needs={C.AURAS},
    scenarios=phasing_hosts,
    exercised=_host_left_direct_one_out,
    reads={"events"},
)
def phased_out_permanents_keep_how_they_phased_out(trace: Trace) -> None:
    """A phased-out permanent is treated as though it doesn't exist (702.26b),
    so nothing changes how it phased out until it phases in. An attachment
    already phased out directly doesn't become "indirect" when its host
    phases out later: only what is phased in phases out with its host
    (702.26g), and it still phases in at its own untap step."""
    for step in trace.steps:
        came_in = {e.subject for e in step.after.events if e.kind == "phased_in"}
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if not (b.phased_out and b.on_battlefield and c is not None and c.on_battlefield):
                continue
            if c.phased_out and b.id not in came_in:
                expect(
                    c.cause == b.cause,
                    "702.26g",
                    f"{where(trace, step)}, {b.id}",
                    f"still phased out {b.cause}",
                    f"phased out {c.cause}, without phasing in",
                )


def _would_phase_out_directly(trace: Trace, step: Step, pid: str) -> bool:
    """Whether `pid` had its own reason to phase out in `step`: a target of
    PhaseOut, controlled by the player of a PhaseOutAll, or with phasing at
    its controller's untap step (702.26a)."""
    x, b = step.action, view(step.before, pid)
    if b is None:
        return False
    if isinstance(x, a.PhaseOut):
        return pid in x.targets
    if isinstance(x, a.PhaseOutAll):
        return b.controller == x.player
    if isinstance(x, a.PassTurn):
        setup = {p.id: p.phasing for p in trace.scenario.setup.permanents}
        return setup.get(pid, 0) > 0 and b.controller == step.after.active
    return False


def _phased_out_both_ways(trace: Trace) -> bool:
    """702.26h: an attachment with its own reason to phase out (targeted,
    phasing, Teferi's Protection) phased out in the same event as its host."""
    return any(
        isinstance(c.attached_to, str)
        and was_in_went_out(step, c.id)
        and was_in_went_out(step, c.attached_to)
        and _would_phase_out_directly(trace, step, c.id)
        for step in trace.steps
        for c in step.before.permanents
    )


def both_ways_scenarios(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """Chains of attachments on phased-in hosts, phased out all at once, one
    at a time or in the untap step: where one can phase out both ways."""
    return scenarios(
        caps,
        kinds=(a.PhaseOutAll, a.PhaseOut, a.PassTurn),
        permanent_kinds=("creature", "aura", "equipment"),
        min_actions=1,
        phased_out=False,
        chains=True,
        lead=LEAD,
    )


@rule_property(
    "702.26h",
    needs={C.AURAS},
    scenarios=both_ways_scenarios,
    exercised=_phased_out_both_ways,
)
def phasing_out_both_ways_is_indirect(trace: Trace) -> None:
    """An attachment that phases out in the same event as its host — even
    if it has phasing or was targeted itself — phases out indirectly."""
    for step in trace.steps:
        for c in step.after.permanents:
            b = view(step.before, c.id)
            host = b.attached_to if b is not None else None
            if (
                isinstance(host, str)
                and was_in_went_out(step, c.id)
                and was_in_went_out(step, host)
            ):
                expect(
                    c.cause == "indirect",
                    "702.26h",
                    f"{where(trace, step)}, {c.id} on {host}",
                    "phased out indirectly",
                    f"cause {c.cause}",
                )


def host_there(obs: Observation, host: str | int) -> bool:
    if isinstance(host, int):
        return in_game(obs, host)
    v = view(obs, host)
    return v is not None and v.phased_in
