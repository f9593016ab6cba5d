"""Properties of attachments: Auras, Equipment and Fortifications follow
their host (702.26g–j, 704.5m, 704.5n, R2017-auras, R2017-attached)."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation, PermanentView
from conformance.properties.history import view, was_in_went_out, was_out_came_in
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.scenario import Scenario
from conformance.strategies import scenarios

_ATTACHMENTS = ("creature", "land", "aura", "equipment", "fortification")
_PHASING = (a.PassTurn, a.PhaseOut, a.PhaseOutAll)


def _phasing_hosts(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """Hosts and what is attached to them, and the actions that phase them."""
    return scenarios(caps, kinds=_PHASING, permanent_kinds=_ATTACHMENTS, min_actions=1)


def _attachment_kinds(scenario: Scenario) -> dict[str, str]:
    return {p.id: p.attachment for p in scenario.setup.permanents if p.attachment}


def _attached(obs: Observation, host: str) -> list[PermanentView]:
    return [p for p in obs.permanents if p.on_battlefield and p.attached_to == host]


@rule_property(
    "702.26g",
    needs={C.AURAS},
    scenarios=_phasing_hosts,
)
def attachments_phase_out_with_their_host(trace: Trace) -> None:
    """What is attached to a permanent that phases out phases out with it,
    indirectly; an indirectly phased-out permanent is never in while its
    host is out."""
    for step in trace.steps:
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
        for b in step.before.permanents:
            c = view(step.after, b.id)
            host_after = view(step.after, b.attached_to) if isinstance(b.attached_to, str) else None
            if b.phased_out and b.cause == "indirect" and host_after and host_after.phased_out:
                expect(
                    c is not None and c.on_battlefield and c.phased_out,
                    "702.26g",
                    f"{where(trace, step)}, {b.id}",
                    f"still phased out with its host {b.attached_to}",
                    "phased in" if c is not None and c.on_battlefield else "gone",
                )
        for c in step.after.permanents:
            if c.phased_in and isinstance(c.attached_to, str):
                host_view = view(step.after, c.attached_to)
                expect(
                    host_view is not None and host_view.phased_in,
                    "702.26g",
                    f"{where(trace, step)}, {c.id}",
                    f"phased in only with its host {c.attached_to}",
                    "phased in, attached to a phased-out or missing host",
                )


@rule_property(
    "R2017-attached",
    "702.26g",
    needs={C.AURAS},
    scenarios=_phasing_hosts,
)
def attachments_return_with_their_host(trace: Trace) -> None:
    """What phased out indirectly with its host phases in with it, still
    attached to it."""
    for step in trace.steps:
        for host in step.after.permanents:
            if not was_out_came_in(step, host.id):
                continue
            for b in _attached(step.before, host.id):
                c = view(step.after, b.id)
                if b.phased_out and b.cause == "indirect" and c is not None:
                    expect(
                        c.phased_in and c.attached_to == host.id,
                        "R2017-attached",
                        f"{where(trace, step)}, {b.id} with host {host.id}",
                        f"phased in, attached to {host.id}",
                        f"{c.zone}, phased out={c.phased_out}, attached to {c.attached_to}",
                    )


@rule_property(
    "702.26g",
    "702.26b",
    needs={C.AURAS},
    scenarios=_phasing_hosts,
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


@rule_property(
    "702.26h",
    needs={C.AURAS},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.PhaseOutAll, a.PhaseOut, a.PassTurn),
        permanent_kinds=("creature", "aura", "equipment"),
        min_actions=1,
        phased_out=False,
    ),
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


@rule_property(
    "702.26i",
    "R2017-auras",
    needs={C.AURAS, C.TARGETING, C.DESTROY},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.PassTurn, a.PhaseOut, a.DestroyAll),
        permanent_kinds=("creature", "aura", "equipment"),
        min_actions=2,
    ),
)
def directly_phased_out_attachments_find_their_host(trace: Trace) -> None:
    """An attachment that phased out on its own phases in attached to the
    same object if it is still there; otherwise it phases in unattached, and
    an unattached Aura then goes to the graveyard (704.5m)."""
    kinds = _attachment_kinds(trace.scenario)
    hosts: dict[str, str | int] = {}
    for step in trace.steps:
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or b.id not in kinds:
                continue
            if b.phased_out and b.cause == "direct" and b.attached_to is not None:
                hosts.setdefault(b.id, b.attached_to)
            if not (b.phased_out and b.on_battlefield and b.cause == "direct"):
                continue
            if not (c.phased_in or not c.on_battlefield) or b.id not in hosts:
                continue
            host = hosts.pop(b.id)
            at = f"{where(trace, step)}, {kinds[b.id]} {b.id} (was on {host})"
            there = _host_there(step.after, host)
            if there:
                expect(
                    c.phased_in and c.attached_to == host,
                    "702.26i",
                    at,
                    f"phased in attached to {host}",
                    f"{c.zone}, attached to {c.attached_to}",
                )
            elif kinds[b.id] == "aura":
                expect(
                    not c.on_battlefield,
                    "702.26i",
                    at,
                    f"phased in unattached ({host} is gone), then put into the graveyard",
                    f"{c.zone}, attached to {c.attached_to}",
                )
            else:
                expect(
                    c.phased_in and c.attached_to is None,
                    "702.26i",
                    at,
                    f"phased in unattached ({host} is gone) and stays",
                    f"{c.zone}, attached to {c.attached_to}",
                )


def _host_there(obs: Observation, host: str | int) -> bool:
    if isinstance(host, int):
        return 0 <= host < len(obs.players) and obs.players[host].in_game
    v = view(obs, host)
    return v is not None and v.phased_in


@rule_property(
    "702.26j",
    needs={C.TRIGGERS, C.AURAS},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.Destroy),
        permanent_kinds=_ATTACHMENTS,
        min_actions=1,
    ),
    reads={"events"},
)
def phasing_never_attaches_or_unattaches(trace: Trace) -> None:
    """Phasing in or out never makes anything become attached or unattached:
    no attach events and no "becomes (un)attached" triggers for what phased."""
    for step in trace.steps:
        phased = {e.subject for e in step.after.events if e.kind in ("phased_in", "phased_out")}
        for e in step.after.events:
            attach_event = e.kind in ("attached", "unattached")
            attach_trigger = e.kind == "trigger" and e.detail in ("attached", "unattached")
            if e.subject in phased and (attach_event or attach_trigger):
                expect(
                    False,
                    "702.26j",
                    f"{where(trace, step)}, {e.subject}",
                    "no attach or unattach event for a permanent that phased",
                    f"{e.kind} {e.detail}".strip(),
                )


@rule_property(
    "704.5m",
    needs={C.AURAS},
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.DestroyAll, a.PhaseOut, a.PassTurn), permanent_kinds=("creature", "aura")
    ),
)
def no_aura_stays_unattached(trace: Trace) -> None:
    """After every action, each phased-in Aura is attached to a phased-in
    permanent or a player in the game (state-based actions)."""
    auras = {pid for pid, kind in _attachment_kinds(trace.scenario).items() if kind == "aura"}
    for step in trace.steps:
        for pid in auras:
            c = view(step.after, pid)
            if c is not None and c.phased_in:
                ok = c.attached_to is not None and _host_there(step.after, c.attached_to)
                expect(
                    ok,
                    "704.5m",
                    f"{where(trace, step)}, Aura {pid}",
                    "attached to something there, or in the graveyard",
                    f"on the battlefield attached to {c.attached_to}",
                )


@rule_property(
    "704.5n",
    needs={C.EQUIPMENT},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.DestroyAll, a.PhaseOut, a.PassTurn, a.Destroy),
        permanent_kinds=("creature", "equipment"),
    ),
)
def equipment_stays_when_unattached(trace: Trace) -> None:
    """Equipment and Fortifications whose host is gone become unattached and
    stay on the battlefield; phased in, they are attached to nothing gone."""
    kinds = _attachment_kinds(trace.scenario)
    for step in trace.steps:
        for pid, kind in kinds.items():
            if kind == "aura":
                continue
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not b.on_battlefield:
                continue
            targeted = isinstance(step.action, a.Destroy) and step.action.target == pid
            if b.phased_in and not targeted:
                expect(c.on_battlefield, "704.5n", f"{where(trace, step)}, {pid}", "stays", c.zone)
            if c.phased_in and c.attached_to is not None:
                expect(
                    _host_there(step.after, c.attached_to),
                    "704.5n",
                    f"{where(trace, step)}, {kind} {pid}",
                    "attached to a permanent that is there, or unattached",
                    f"attached to {c.attached_to}",
                )
