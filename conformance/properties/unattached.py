"""Properties of what becomes of an attachment whose host is gone: a
directly phased-out attachment finds its host again or phases in unattached
(702.26i, R2017-auras); an unattached Aura goes to the graveyard (704.5m), an
Equipment or Fortification stays (704.5n), where a player would receive
priority (704.3), and one whose host is still there stays attached to it.
Readings A, B and D of docs/readings.md are accepted."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.attachments import (
    LEAD,
    attachment_kinds,
    history_steps,
    host_there,
)
from conformance.properties.effects import Out, sba_may_wait
from conformance.properties.history import fell_off_in_place, in_game, owners, view
from conformance.properties.players import protected
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import plans
from conformance.strategies.hosts import attachment_alone_or_host_lost, attachment_loses_host


def _phase_ins(trace: Trace) -> Iterator[tuple[int, Step, str, Out, PermanentView]]:
    """Each attachment phased out directly (by the scenario's history) that
    phased in at step k: shown phased in, or off the battlefield while its
    owner is still in the game (it phased in and state-based actions put it
    into the graveyard); with how it phased out."""
    kinds = attachment_kinds(trace.scenario)
    owner = owners(trace.scenario)
    for k, step, before, after in history_steps(trace):
        for pid, out in before.items():
            c = view(step.after, pid)
            if pid not in kinds or out.cause != "direct" or out.host is None or c is None:
                continue
            if pid in after or (not c.on_battlefield and not in_game(step.after, owner[pid])):
                continue  # still out, or gone with its owner (702.26k)
            yield k, step, pid, out, c


def _can_still_attach(
    trace: Trace, k: int, host: str | int, shield: tuple[frozenset[int], ...]
) -> bool:
    """R2017-auras: whether an attachment phasing in at step k can still be
    attached to `host`: a permanent still there (phased in), or a player in
    the game without protection from everything (`shield`, by observation:
    R2017-protection "Auras can't be attached to that player"; only Auras
    are attached to players). "The same is true with Auras attached to
    players": one that can't phases in unattached, and goes (704.5m)."""
    if isinstance(host, int) and host in shield[k]:
        return False
    return host_there(trace.steps[k - 1].after, host)


def _came_back_by_702_26i(trace: Trace) -> bool:
    """702.26i: an attachment that phased out directly phased in, and the
    engine showed it attached to what it was attached to, still there; or,
    that gone or phased out, unattached (an Equipment or Fortification) or
    put into the graveyard (an Aura)."""
    kinds = attachment_kinds(trace.scenario)
    shield = protected(trace)
    for k, _step, pid, out, c in _phase_ins(trace):
        if out.host is None:
            continue
        if _can_still_attach(trace, k, out.host, shield):
            shown = c.phased_in and c.attached_to == out.host
        elif kinds[pid] == "aura":
            shown = c.zone == "graveyard"
        else:
            shown = c.phased_in and c.attached_to is None
        if shown:
            return True
    return False


@rule_property(
    "702.26i",
    "R2017-auras",
    needs={C.AURAS, C.TARGETING, C.DESTROY},
    scenarios=lambda caps: plans.planned_scenarios(
        caps,
        attachment_alone_or_host_lost,
        kinds=(a.PassTurn, a.PhaseOut, a.DestroyAll, a.Destroy, a.PhaseOutUntil),
        permanent_kinds=("creature", "aura", "equipment"),
        min_actions=2,
        chains=True,
        lead=LEAD,
    ),
    exercised=_came_back_by_702_26i,
)
def directly_phased_out_attachments_find_their_host(trace: Trace) -> None:
    """An attachment that phased out on its own phases in attached to the
    same object if it is still there; otherwise it phases in unattached, and
    an unattached Aura then goes to the graveyard (704.5m). Its host being
    phased out is reading A of docs/readings.md: attached then made
    unattached by 704.5m/n, or unattached at once, end the same. An Aura
    on a player who has protection from everything as it phases in can't
    be attached to them (R2017-protection): it goes to the graveyard."""
    kinds = attachment_kinds(trace.scenario)
    shield = protected(trace)
    for k, step, pid, out, c in _phase_ins(trace):
        host = out.host
        assert host is not None
        at = f"{where(trace, step)}, {kinds[pid]} {pid} (was on {host})"
        # 704.3: after a Concede state-based actions may wait for priority.
        waits = sba_may_wait(trace, k)
        if _can_still_attach(trace, k, host, shield):
            expect(
                c.phased_in and c.attached_to == host,
                "702.26i",
                at,
                f"phased in attached to {host}",
                f"{c.zone}, attached to {c.attached_to}",
            )
        elif kinds[pid] == "aura":
            # R2017-auras names Auras on players; 702.26i, objects gone.
            shielded = isinstance(host, int) and host in shield[k]
            expect(
                c.zone == "graveyard" or (waits and c.phased_in and c.attached_to in (None, host)),
                "R2017-auras" if shielded else "702.26i",
                at,
                f"phased in unattached ({host} is gone, phased out or has protection from "
                "everything), then put into the graveyard",
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
    auras = {pid for pid, kind in attachment_kinds(trace.scenario).items() if kind == "aura"}
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
                and not host_there(step.after, b.attached_to)
                and not (isinstance(x, a.Destroy) and x.target == pid)
            ):
                return True
    return False


@rule_property(
    "704.5m",
    "704.3",
    needs={C.AURAS},
    scenarios=lambda caps: plans.planned_scenarios(
        caps,
        attachment_loses_host,
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
    auras = {pid for pid, kind in attachment_kinds(trace.scenario).items() if kind == "aura"}
    owner = owners(trace.scenario)
    for k, step, before, _after in history_steps(trace):
        for pid in auras:
            b, c = view(step.before, pid), view(step.after, pid)
            if c is None:
                continue
            at = f"{where(trace, step)}, Aura {pid}"
            if c.phased_in and not sba_may_wait(trace, k):
                expect(
                    c.attached_to is not None and host_there(step.after, c.attached_to),
                    "704.5m",
                    at,
                    "attached to something there, or in the graveyard",
                    f"on the battlefield attached to {c.attached_to}",
                )
            gone_with_owner = not in_game(step.after, owner[pid])
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
    kinds = attachment_kinds(trace.scenario)
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


def _still_its_host(trace: Trace, step: Step, pid: str, kind: str) -> str | None:
    """704.5n, 301.5d: the creature (the land) `pid`, an Equipment (`kind`)
    or a Fortification, fell off in `step` though neither of them phased or
    left (`fell_off_in_place`). 704.5n unattaches only what is attached
    illegally, and the Equipment's controller need not control the
    creature (301.5d). Where either phased in the action, the phasing rules
    judge it (702.26g, 702.26j, R2017-attached): from the observations, an
    Equipment a state-based action took off as its host phased out looks
    like one the phasing took off."""
    host = fell_off_in_place(step, pid)
    types = {p.id: p.types for p in trace.scenario.setup.permanents}
    legal = "creature" if kind == "equipment" else "land"
    return host if host is not None and legal in types.get(host, ()) else None


@rule_property(
    "704.5n",
    "704.3",
    needs={C.EQUIPMENT},
    scenarios=lambda caps: plans.planned_scenarios(
        caps,
        attachment_loses_host,
        kinds=(a.DestroyAll, a.PhaseOut, a.PassTurn, a.Destroy, a.PhaseOutUntil, a.Concede),
        permanent_kinds=("creature", "equipment", "aura"),
        chains=True,
        lead=LEAD,
        min_actions=1,
    ),
    exercised=_equipment_left_unattached,
)
def equipment_stays_when_unattached(trace: Trace) -> None:
    """Equipment and Fortifications whose host is gone become unattached and
    stay on the battlefield, phased in or out; phased in, they are attached
    to nothing gone (where a player would receive priority: 704.3), and one
    whose host is still there stays attached to it, whoever controls which
    (301.5d; `_still_its_host`)."""
    kinds = attachment_kinds(trace.scenario)
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
            if not targeted and in_game(step.after, owner[pid]):
                expect(c.on_battlefield, "704.5n", f"{where(trace, step)}, {pid}", "stays", c.zone)
            if c.phased_in and c.attached_to is not None and not sba_may_wait(trace, k):
                expect(
                    host_there(step.after, c.attached_to),
                    "704.5n",
                    f"{where(trace, step)}, {kind} {pid}",
                    "attached to a permanent that is there, or unattached",
                    f"attached to {c.attached_to}",
                )
            host = _still_its_host(trace, step, pid, kind)
            if host is not None:
                expect(
                    False,
                    "704.5n",
                    f"{where(trace, step)}, {kind} {pid}",
                    f"still attached to {host}: it is attached legally, whoever controls "
                    f"{host} (301.5d)",
                    "unattached",
                )
