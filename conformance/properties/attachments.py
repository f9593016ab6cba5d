"""Properties of attachments: Auras, Equipment and Fortifications follow
their host (702.26g–j, 704.5m, 704.5n, R2017-auras, R2017-attached).

Where the rules leave the outcome open, every outcome they allow passes
(docs/readings.md): a directly phased-out attachment phasing in while its
host is phased out (reading A), an indirectly phased-out Aura whose host
left the game (reading B), state-based actions after a Concede (704.3)."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import Out, phased_out_history, sba_may_wait
from conformance.properties.history import owners, view, was_in_went_out, was_out_came_in
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.strategies import plans, scenarios

_ATTACHMENTS = ("creature", "land", "aura", "equipment", "fortification")
#: A creature with an Equipment on it and an Aura on that (a chain two
#: levels deep), so that every scenario has something attached.
_LEAD = ("creature", "equipment", "aura")
#: Phasing, "phases out until" (610.4) and destruction: hosts leave while
#: attachments are out, and attachments wait on a host that waits itself.
_PHASING = (a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.PhaseOutUntil, a.Destroy)


def _phasing_hosts(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """Hosts and what is attached to them, chains included, and the actions
    that phase them or make them leave."""
    return plans.planned_scenarios(
        caps,
        plans.host_phases_out_and_in,
        kinds=_PHASING,
        permanent_kinds=_ATTACHMENTS,
        max_actions=5,
        chains=True,
        lead=_LEAD,
    )


def _attachment_kinds(scenario: Scenario) -> dict[str, str]:
    return {p.id: p.attachment for p in scenario.setup.permanents if p.attachment}


def _attached(obs: Observation, host: str) -> list[PermanentView]:
    return [p for p in obs.permanents if p.on_battlefield and p.attached_to == host]


def _steps(trace: Trace) -> Iterator[tuple[int, Step, dict[str, Out], dict[str, Out]]]:
    """Each step k (from 1) with how permanents were phased out before and
    after it, from the scenario's history (`phased_out_history`)."""
    history = phased_out_history(trace)
    for k, step in enumerate(trace.steps, 1):
        yield k, step, history[k - 1], history[k]


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
    scenarios=_phasing_hosts,
    exercised=_went_out_with_host,
)
def attachments_phase_out_with_their_host(trace: Trace) -> None:
    """What is attached to a permanent that phases out phases out with it,
    indirectly; an indirectly phased-out permanent is never in while its
    host is out."""
    for k, step, before, _after in _steps(trace):
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
        for pid, out in before.items():
            c = view(step.after, pid)
            host_after = view(step.after, out.host) if isinstance(out.host, str) else None
            # An indirectly phased-out permanent whose host left (the game,
            # with its owner) is reading B of docs/readings.md: any outcome.
            if out.cause == "indirect" and host_after is not None and host_after.phased_out:
                expect(
                    c is not None and c.on_battlefield and c.phased_out,
                    "702.26g",
                    f"{where(trace, step)}, {pid}",
                    f"still phased out with its host {out.host}",
                    "phased in" if c is not None and c.on_battlefield else "gone",
                )
        for c in step.after.permanents:
            out = before.get(c.id)
            # Reading A with state-based actions not yet checked (704.3).
            if out is not None and out.cause == "direct" and sba_may_wait(trace, k):
                continue
            if c.phased_in and isinstance(c.attached_to, str):
                host_view = view(step.after, c.attached_to)
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
    for _, step, before, _after in _steps(trace):
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
    scenarios=_phasing_hosts,
    exercised=_came_back_with_host,
)
def attachments_return_with_their_host(trace: Trace) -> None:
    """What phased out indirectly with its host phases in with it, still
    attached to it."""
    for _, step, before, _after in _steps(trace):
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
    for _, step, before, _after in _steps(trace):
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
    scenarios=_phasing_hosts,
    exercised=_host_left_direct_one_out,
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


@rule_property(
    "702.26h",
    needs={C.AURAS},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.PhaseOutAll, a.PhaseOut, a.PassTurn),
        permanent_kinds=("creature", "aura", "equipment"),
        min_actions=1,
        phased_out=False,
        chains=True,
        lead=_LEAD,
    ),
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


def _phase_ins(trace: Trace) -> Iterator[tuple[int, Step, str, Out, PermanentView]]:
    """Each attachment phased out directly (by the scenario's history) that
    phased in at step k: shown phased in, or off the battlefield while its
    owner is still in the game (it phased in and state-based actions put it
    into the graveyard); with how it phased out."""
    kinds = _attachment_kinds(trace.scenario)
    owner = owners(trace.scenario)
    for k, step, before, after in _steps(trace):
        for pid, out in before.items():
            c = view(step.after, pid)
            if pid not in kinds or out.cause != "direct" or out.host is None or c is None:
                continue
            if pid in after or (not c.on_battlefield and not _in_game(step.after, owner[pid])):
                continue  # still out, or gone with its owner (702.26k)
            yield k, step, pid, out, c


def _in_game(obs: Observation, player: int) -> bool:
    return 0 <= player < len(obs.players) and obs.players[player].in_game


def _lost_its_host(trace: Trace) -> bool:
    """702.26i: an attachment that phased out directly phased in with what it
    was attached to gone or phased out, and the engine showed it unattached
    (an Equipment or Fortification) or put into the graveyard (an Aura)."""
    kinds = _attachment_kinds(trace.scenario)
    return any(
        not _host_there(step.after, out.host)
        and (
            c.zone == "graveyard" if kinds[pid] == "aura" else c.phased_in and c.attached_to is None
        )
        for _, step, pid, out, c in _phase_ins(trace)
        if out.host is not None
    )


@rule_property(
    "702.26i",
    "R2017-auras",
    needs={C.AURAS, C.TARGETING, C.DESTROY},
    scenarios=lambda caps: plans.planned_scenarios(
        caps,
        plans.attachment_loses_host,
        kinds=(a.PassTurn, a.PhaseOut, a.DestroyAll, a.Destroy, a.PhaseOutUntil),
        permanent_kinds=("creature", "aura", "equipment"),
        min_actions=2,
        chains=True,
        lead=_LEAD,
    ),
    exercised=_lost_its_host,
)
def directly_phased_out_attachments_find_their_host(trace: Trace) -> None:
    """An attachment that phased out on its own phases in attached to the
    same object if it is still there; otherwise it phases in unattached, and
    an unattached Aura then goes to the graveyard (704.5m). Its host being
    phased out is reading A of docs/readings.md: attached then made
    unattached by 704.5m/n, or unattached at once, end the same."""
    kinds = _attachment_kinds(trace.scenario)
    for k, step, pid, out, c in _phase_ins(trace):
        host = out.host
        assert host is not None
        at = f"{where(trace, step)}, {kinds[pid]} {pid} (was on {host})"
        # 704.3: after a Concede state-based actions may wait for priority.
        waits = sba_may_wait(trace, k)
        if _host_there(step.after, host):
            expect(
                c.phased_in and c.attached_to == host,
                "702.26i",
                at,
                f"phased in attached to {host}",
                f"{c.zone}, attached to {c.attached_to}",
            )
        elif kinds[pid] == "aura":
            expect(
                c.zone == "graveyard" or (waits and c.phased_in and c.attached_to in (None, host)),
                "702.26i",
                at,
                f"phased in unattached ({host} is gone or phased out), then put into the graveyard",
                f"{c.zone}, attached to {c.attached_to}",
            )
        else:
            expect(
                c.phased_in and (c.attached_to is None or (waits and c.attached_to == host)),
                "702.26i",
                at,
                f"phased in unattached ({host} is gone or phased out) and stays",
                f"{c.zone}, attached to {c.attached_to}",
            )


def _host_there(obs: Observation, host: str | int) -> bool:
    if isinstance(host, int):
        return _in_game(obs, host)
    v = view(obs, host)
    return v is not None and v.phased_in


def _unattached_by_sba(trace: Trace, k: int, pid: str) -> bool:
    """Reading A (docs/readings.md): `pid` phased in at step k, directly
    phased out from a host that is phased out: read literally, 702.26i
    attaches it (the host is on the battlefield), then 704.5m/n unattaches
    it, which is not phasing (702.26j), so it may trigger."""
    out = phased_out_history(trace)[k - 1].get(pid)
    if out is None or out.cause != "direct" or not isinstance(out.host, str):
        return False
    host = view(trace.steps[k - 1].after, out.host)
    return host is not None and host.on_battlefield and host.phased_out


def _attach_triggers_while_phasing(trace: Trace) -> bool:
    """702.26j: an attachment with a "becomes attached" or "becomes
    unattached" ability phased out or in, in a trace where the engine shows
    triggered abilities triggering."""
    watched = {
        p.id
        for p in trace.scenario.setup.permanents
        if {"attached", "unattached"} & set(p.abilities)
    }
    triggers = any(e.kind == "trigger" for s in trace.steps for e in s.after.events)
    return triggers and any(
        was_in_went_out(step, pid) or was_out_came_in(step, pid)
        for step in trace.steps
        for pid in watched
    )


@rule_property(
    "702.26j",
    needs={C.TRIGGERS, C.AURAS},
    scenarios=lambda caps: scenarios(
        caps,
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.Destroy),
        permanent_kinds=_ATTACHMENTS,
        min_actions=1,
        chains=True,
        lead=_LEAD,
    ),
    exercised=_attach_triggers_while_phasing,
)
def phasing_never_attaches_or_unattaches(trace: Trace) -> None:
    """Phasing in or out never makes anything become attached or unattached:
    no attach events and no "becomes (un)attached" triggers for what phased."""
    for k, step in enumerate(trace.steps, 1):
        phased = {e.subject for e in step.after.events if e.kind in ("phased_in", "phased_out")}
        for e in step.after.events:
            attach_event = e.kind in ("attached", "unattached")
            attach_trigger = e.kind == "trigger" and e.detail in ("attached", "unattached")
            unattached = "unattached" in (e.kind, e.detail)
            if unattached and _unattached_by_sba(trace, k, e.subject):
                continue
            if e.subject in phased and (attach_event or attach_trigger):
                expect(
                    False,
                    "702.26j",
                    f"{where(trace, step)}, {e.subject}",
                    "no attach or unattach event for a permanent that phased",
                    f"{e.kind} {e.detail}".strip(),
                )


def _may_phase_in(step: Step, before: dict[str, Out], pid: str) -> bool:
    """Whether `pid`, phased out before `step`, may phase in during it: an
    untap step (702.26a), its "until" source leaving (610.4), its host
    phasing in (702.26g) or (reading B of docs/readings.md) an indirectly
    phased-out one whose host has left the game with its owner (702.26k,
    800.4a)."""
    out = before.get(pid)
    if isinstance(step.action, a.PassTurn):
        return True
    if out is None:
        return False
    if out.until is not None:
        source = view(step.after, out.until)
        return source is None or not source.on_battlefield
    if out.cause != "indirect" or not isinstance(out.host, str):
        return False
    host = view(step.after, out.host)
    return host is None or host.zone == "none" or _may_phase_in(step, before, out.host)


def _aura_to_graveyard(trace: Trace) -> bool:
    """704.5m: an Aura not itself destroyed was put into the graveyard as
    what it was attached to was gone."""
    auras = {pid for pid, kind in _attachment_kinds(trace.scenario).items() if kind == "aura"}
    for step in trace.steps:
        x = step.action
        for pid in auras:
            b, c = view(step.before, pid), view(step.after, pid)
            if (
                b is not None
                and c is not None
                and b.on_battlefield
                and c.zone == "graveyard"
                and isinstance(b.attached_to, str | int)
                and not _host_there(step.after, b.attached_to)
                and not (isinstance(x, a.Destroy) and x.target == pid)
            ):
                return True
    return False


@rule_property(
    "704.5m",
    needs={C.AURAS},
    scenarios=lambda caps: plans.planned_scenarios(
        caps,
        plans.attachment_loses_host,
        kinds=(a.DestroyAll, a.PhaseOut, a.PassTurn, a.Destroy, a.PhaseOutUntil, a.Concede),
        permanent_kinds=("creature", "aura"),
        chains=True,
        lead=("creature", "aura", "aura"),
        min_actions=1,
    ),
    exercised=_aura_to_graveyard,
)
def no_aura_stays_unattached(trace: Trace) -> None:
    """After every action, each phased-in Aura is attached to a phased-in
    permanent or a player in the game (state-based actions, where a player
    would receive priority: 704.3). A phased-out Aura doesn't exist for them
    (702.26b): it stays on the battlefield until it phases in."""
    auras = {pid for pid, kind in _attachment_kinds(trace.scenario).items() if kind == "aura"}
    owner = owners(trace.scenario)
    for k, step, before, _after in _steps(trace):
        for pid in auras:
            b, c = view(step.before, pid), view(step.after, pid)
            if c is None:
                continue
            at = f"{where(trace, step)}, Aura {pid}"
            if c.phased_in and not sba_may_wait(trace, k):
                expect(
                    c.attached_to is not None and _host_there(step.after, c.attached_to),
                    "704.5m",
                    at,
                    "attached to something there, or in the graveyard",
                    f"on the battlefield attached to {c.attached_to}",
                )
            gone_with_owner = not _in_game(step.after, owner[pid])
            if b is not None and b.on_battlefield and b.phased_out and not c.on_battlefield:
                expect(
                    gone_with_owner or _may_phase_in(step, before, pid),
                    "704.5m",
                    at,
                    "a phased-out Aura stays on the battlefield until it phases in (702.26b)",
                    f"put into the {c.zone} while phased out",
                )


def _equipment_left_unattached(trace: Trace) -> bool:
    """704.5n: an Equipment or Fortification whose host left the battlefield
    was shown phased in, unattached, still on the battlefield."""
    kinds = _attachment_kinds(trace.scenario)
    for step in trace.steps:
        for pid, kind in kinds.items():
            b, c = view(step.before, pid), view(step.after, pid)
            host = view(step.after, b.attached_to) if b and isinstance(b.attached_to, str) else None
            if (
                kind != "aura"
                and b is not None
                and b.phased_in
                and host is not None
                and not host.on_battlefield
                and c is not None
                and c.phased_in
                and c.attached_to is None
            ):
                return True
    return False


@rule_property(
    "704.5n",
    needs={C.EQUIPMENT},
    scenarios=lambda caps: plans.planned_scenarios(
        caps,
        plans.attachment_loses_host,
        kinds=(a.DestroyAll, a.PhaseOut, a.PassTurn, a.Destroy, a.PhaseOutUntil, a.Concede),
        permanent_kinds=("creature", "equipment", "aura"),
        chains=True,
        lead=_LEAD,
        min_actions=1,
    ),
    exercised=_equipment_left_unattached,
)
def equipment_stays_when_unattached(trace: Trace) -> None:
    """Equipment and Fortifications whose host is gone become unattached and
    stay on the battlefield, phased in or out; phased in, they are attached
    to nothing gone (where a player would receive priority: 704.3)."""
    kinds = _attachment_kinds(trace.scenario)
    owner = owners(trace.scenario)
    for k, step in enumerate(trace.steps, 1):
        for pid, kind in kinds.items():
            if kind == "aura":
                continue
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not b.on_battlefield:
                continue
            targeted = isinstance(step.action, a.Destroy) and step.action.target == pid
            # 800.4a: it leaves the game with its owner.
            if not targeted and _in_game(step.after, owner[pid]):
                expect(c.on_battlefield, "704.5n", f"{where(trace, step)}, {pid}", "stays", c.zone)
            if c.phased_in and c.attached_to is not None and not sba_may_wait(trace, k):
                expect(
                    _host_there(step.after, c.attached_to),
                    "704.5n",
                    f"{where(trace, step)}, {kind} {pid}",
                    "attached to a permanent that is there, or unattached",
                    f"attached to {c.attached_to}",
                )
