"""702.26j: phasing in or out never makes anything become attached or
unattached, and an attachment phased out on its own stays as it is while
out (702.26b), whatever its host does. Where an attachment becomes
unattached after phasing, by state-based actions (reading A, 704.5n), it may
trigger."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.attachments import ATTACHMENTS, HOSTS_LEAVING, LEAD, history_steps
from conformance.properties.effects import Out, phased_out_history
from conformance.properties.history import (
    shown_phased_out,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.strategies import plans, scenarios
from conformance.strategies.hosts import attachment_loses_host, equipment_out_loses_host

#: Abilities that show attach and unattach triggers, and the engine's
#: triggers where something phases (702.26j).
_ATTACH_ABILITIES = ("attached", "unattached", "phases_out")


def _unattached_by_sba(trace: Trace, k: int, pid: str) -> bool:
    """Reading A (docs/readings.md): `pid` phased in at step k, directly
    phased out from a host that is phased out: read literally, 702.26i
    attaches it (the host is on the battlefield), then 704.5m/n unattaches
    it, which is not phasing (702.26j), so it may trigger."""
    out = phased_out_history(trace)[k - 1].get(pid)
    if out is None or out.cause != "direct" or not isinstance(out.host, str):
        return False
    return shown_phased_out(view(trace.steps[k - 1].after, out.host))


def _host_left_after_phasing_in(step: Step, pid: str) -> bool:
    """704.5n, not phasing: `pid` phased in with its host in `step`, which
    then left the battlefield (destroyed as it came back from "phases out
    until", or by the legend rule), so it became unattached after phasing."""
    was = view(step.before, pid)
    host = was.attached_to if was is not None else None
    came_in = {e.subject for e in step.after.events if e.kind == "phased_in"}
    gone = view(step.after, host) if isinstance(host, str) else None
    return isinstance(host, str) and {pid, host} <= came_in and not (gone and gone.on_battlefield)


def _attach_triggers_while_phasing(trace: Trace) -> bool:
    """702.26j: an attachment with a "becomes attached" or "becomes
    unattached" ability phased out and one phased in (both halves of the
    rule), in a trace where the engine shows triggered abilities
    triggering."""
    watched = {
        p.id
        for p in trace.scenario.setup.permanents
        if {"attached", "unattached"} & set(p.abilities)
    }
    triggers = any(e.kind == "trigger" for s in trace.steps for e in s.after.events)
    moved = [(step, pid) for step in trace.steps for pid in watched]
    return (
        triggers
        and any(was_in_went_out(step, pid) for step, pid in moved)
        and any(was_out_came_in(step, pid) for step, pid in moved)
    )


def _attach_scenarios(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """Random scenarios of attachments with attach and unattach triggers,
    two in three; else an attachment phased out on its own loses its host
    and phases in later (`hosts.attachment_loses_host`, or, half the time,
    `hosts.equipment_out_loses_host`: its host destroyed while it is out),
    which is phasing, not becoming unattached (702.26i), and nothing happens
    to it while it is out (702.26b): random actions rarely build it, and
    injected bugs in blind engines (an "unattached" trigger as it phases
    in, or as its host is destroyed while it is out) passed ci."""
    random = scenarios(
        caps,
        # Turns pass often (what phased out comes back at an untap step),
        # and every ability drawn is an attach or unattach trigger, or a
        # phasing one that shows the engine's triggers where something
        # phases.
        kinds=(a.PassTurn, a.PassTurn, a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.Destroy),
        permanent_kinds=ATTACHMENTS,
        min_actions=4,
        chains=True,
        lead=LEAD,
        abilities=_ATTACH_ABILITIES,
    )
    losing_host = (
        plans.planned_scenarios(
            caps,
            plan,
            kinds=HOSTS_LEAVING,
            permanent_kinds=ATTACHMENTS,
            max_actions=3,
            chains=True,
            lead=LEAD,
            abilities=_ATTACH_ABILITIES,
        )
        for plan in (attachment_loses_host, equipment_out_loses_host)
    )
    # Random two in three: one_of would merge the repeated branch.
    branches = (random, random, *losing_host, random, random)
    return st.sampled_from(branches).flatmap(lambda drawn: drawn)


@rule_property(
    "702.26j",
    needs={C.TRIGGERS, C.AURAS},
    scenarios=_attach_scenarios,
    exercised=_attach_triggers_while_phasing,
    reads={"events"},
)
def phasing_never_attaches_or_unattaches(trace: Trace) -> None:
    """Phasing in or out never makes anything become attached or unattached:
    no attach events and no "becomes (un)attached" triggers for what phased,
    nor "becomes unattached" triggers for an attachment phased out on its
    own that stays out: whatever its host does, it doesn't exist for the
    game until it phases in (702.26b: its abilities don't trigger), then
    unattached (702.26i). An engine may record it as unattached already when
    its host leaves (an event, no trigger): no rule says when a phased-out
    permanent's host is forgotten, only how it phases in. An indirectly
    phased-out one is not judged (docs/readings.md, B)."""
    for k, step, before, after in history_steps(trace):
        phased = {e.subject for e in step.after.events if e.kind in ("phased_in", "phased_out")}
        for e in step.after.events:
            attach_event = e.kind in ("attached", "unattached")
            attach_trigger = e.kind == "trigger" and e.detail in ("attached", "unattached")
            if not (attach_event or attach_trigger):
                continue
            if "unattached" in (e.kind, e.detail) and (
                _unattached_by_sba(trace, k, e.subject)
                or _host_left_after_phasing_in(step, e.subject)
            ):
                continue
            expect(
                e.subject not in phased,
                "702.26j",
                f"{where(trace, step)}, {e.subject}",
                "no attach or unattach event for a permanent that phased",
                f"{e.kind} {e.detail}".strip(),
            )
            expect(
                not (attach_trigger and _directly_out_through(step, before, after, e.subject)),
                "702.26j",
                f"{where(trace, step)}, {e.subject} (phased out on its own)",
                "its triggers don't trigger while it is out (702.26b): it phases in "
                "unattached, triggering nothing (702.26i)",
                f"{e.kind} {e.detail}".strip(),
            )


def _directly_out_through(
    step: Step, before: dict[str, Out], after: dict[str, Out], pid: str
) -> bool:
    """`pid` is phased out directly before and after `step` (its history, and shown so)."""
    direct = [out.cause for out in (before.get(pid), after.get(pid)) if out] == ["direct"] * 2
    return direct and all(shown_phased_out(view(obs, pid)) for obs in (step.before, step.after))
