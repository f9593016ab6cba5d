"""Properties of "phases out until S leaves the battlefield" (610.4,
R2017-until-leaves): what waits for S phases in as soon as S leaves, not at
untap steps nor when S phases out; once S has left it waits for nothing.
Reading C of docs/readings.md (S leaving the game while phased out) is
accepted. Between untap steps nothing else phases in: an attachment that
phased out on its own stays out as its host phases in (702.26a, 702.26g)."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.attachments import phasing_hosts
from conformance.properties.effects import (
    focus,
    phased_out_history,
    phased_out_under,
    skipped_untap_steps,
)
from conformance.properties.history import (
    a_player_left,
    ceased_while_phased_out,
    indirectly_out,
    released_by_leaving,
    until_sources,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import plans
from conformance.strategies.hosts import host_returns_without_direct_attachment
from conformance.strategies.until_leaves import until_then_source


def _waiting(trace: Trace) -> Iterator[tuple[Step, str, str, PermanentView, PermanentView | None]]:
    """Each step, with each permanent phased out "until S leaves" (610.4)
    as it ends: the permanent's id, S, and their views after the step. A
    permanent is followed until S has left or it is gone."""
    waiting = {
        p.id: p.phased_out.until
        for p in trace.scenario.setup.permanents
        if p.phased_out is not None and p.phased_out.until is not None
    }
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.PhaseOutUntil) and step.after.refused is None:
            target = view(step.after, x.target)
            if target is not None and target.phased_out:
                waiting[x.target] = x.source
        for pid, source in list(waiting.items()):
            c, s = view(step.after, pid), view(step.after, source)
            if c is None or not c.on_battlefield:
                del waiting[pid]
                continue
            yield step, pid, source, c, s
            if s is None or not s.on_battlefield:
                del waiting[pid]


_UNTIL = (C.PHASE_OUT_UNTIL, C.DESTROY, C.TARGETING)


def _released(trace: Trace) -> Iterator[tuple[Step, str, PermanentView]]:
    """Each untap step with each permanent whose "until" wait ended earlier
    (its source left, 610.4) and that is phased out again, directly and not
    "until" anything, under the player of that step (by the scenario's
    history): it must phase in like any other (702.26a); the view after."""
    released: set[str] = set()
    history, unders = phased_out_history(trace), phased_out_under(trace)
    skipped = skipped_untap_steps(trace)
    left: dict[int, set[str]] = {}
    for step, pid, _, _, s in _waiting(trace):
        if s is None or not s.on_battlefield:
            left.setdefault(trace.steps.index(step), set()).add(pid)
    for i, step in enumerate(trace.steps):
        player = step.after.active
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            for pid in sorted(released):
                out, c = history[i].get(pid), view(step.after, pid)
                if (
                    out is not None
                    and out.cause == "direct"
                    and out.until is None
                    and unders[i].get(pid) == player
                    and i not in skipped  # 702.26m: no phasing event
                    and c is not None
                    and c.on_battlefield
                ):
                    yield step, pid, c
        released |= left.get(i, set())


def _source_left_it_came_in(trace: Trace) -> bool:
    """610.4: the source of a "phases out until" left the battlefield and
    the engine showed what waited for it phased in at once."""
    return any(
        c.phased_in for _, _, _, c, s in _waiting(trace) if s is None or not s.on_battlefield
    )


@rule_property(
    "610.4",
    needs=_UNTIL,
    scenarios=lambda caps: plans.planned_scenarios(
        # Tokens too: a token source ceases to exist as it leaves (704.5d);
        # a source may die of damage (704.5g) or leave the game with its
        # owner (800.4a). Or its controller, who doesn't own it, leaves: it
        # goes back to its owner and stays, or is exiled if it entered
        # under them (800.4a).
        focus(caps, *_UNTIL, C.TOKENS, C.DAMAGE_MARKED, C.MULTIPLAYER, C.LEAVE_GAME),
        until_then_source,
        plan_only=focus(caps, C.CONTROL_CHANGE, C.DEFAULT_CONTROLLER),
        kinds=(a.PassTurn, a.PhaseOutUntil, a.Destroy, a.DestroyAll),
        min_actions=2,
        max_actions=5,
        min_permanents=2,
        max_permanents=3,
        permanent_kinds=("creature",),
        effects=False,
    ),
    exercised=_source_left_it_came_in,
)
def phased_out_until_waits_for_its_source(trace: Trace) -> None:
    """A permanent that phased out "until S leaves the battlefield" doesn't
    phase in at untap steps while S is there, and phases in as soon as S
    leaves; after that it waits for nothing: phased out again, it phases in
    at the untap step of the player it phased out under. About half the
    multiplayer examples start with a concession by a player who controls
    S without owning it (800.4a): by a control effect, which ends, so S
    goes back to its owner and is still there; or because S entered under
    them, so S is exiled, which is leaving the battlefield."""
    for step, pid, source, c, s in _waiting(trace):
        at = f"{where(trace, step)}, {pid} (phased out until {source} leaves)"
        if s is not None and s.phased_in:
            expect(c.phased_out, "610.4", at, f"stays out: {source} is there", "phased in")
        elif (s is None or not s.on_battlefield) and not _left_while_out(trace, step, source):
            expect(c.phased_in, "610.4", at, f"phases in as {source} leaves", "still phased out")
    for step, pid, c in _released(trace):
        expect(
            c.phased_in,
            "610.4",
            f"{where(trace, step)}, {pid}",
            "phases in at this untap step: its earlier 'until' ended when its source left",
            "still phased out",
        )


def _left_while_out(trace: Trace, step: Step, source: str) -> bool:
    """Reading C (docs/readings.md): S left the game with its owner while
    phased out (702.26k). Whether a permanent the game treats as though it
    doesn't exist (702.26b) "leaves the battlefield" for 610.4 is open: what
    waits for it may phase in, or stay out."""
    before = view(step.before, source)
    return before is not None and before.on_battlefield and before.phased_out


def _source_went_out_it_stayed(trace: Trace) -> bool:
    """R2017-until-leaves: the engine phased out the source of a "phases out
    until", and showed what waited for it still phased out, in a trace where
    it phases something in (staying out proves nothing from an engine that
    never phases anything in)."""
    stayed = any(
        was_in_went_out(step, source) and c.phased_out for step, _, source, c, _ in _waiting(trace)
    )
    return stayed and any(
        was_out_came_in(step, p.id) for step in trace.steps for p in step.after.permanents
    )


@rule_property(
    "R2017-until-leaves",
    needs=_UNTIL,
    scenarios=lambda caps: plans.planned_scenarios(
        focus(caps, *_UNTIL),
        until_then_source,
        kinds=(a.PassTurn, a.PhaseOutUntil, a.PhaseOut, a.Destroy),
        min_actions=2,
        max_actions=5,
        min_permanents=2,
        max_permanents=3,
        permanent_kinds=("creature",),
        phased_out=False,
        effects=False,
    ),
    exercised=_source_went_out_it_stayed,
)
def source_phasing_out_is_not_leaving(trace: Trace) -> None:
    """The source of "phases out until this leaves the battlefield" phasing
    out is not leaving: what it phased out stays out."""
    for step, pid, source, c, s in _waiting(trace):
        if s is not None and s.on_battlefield and s.phased_out:
            expect(
                c.phased_out,
                "R2017-until-leaves",
                f"{where(trace, step)}, {pid} (phased out until {source} leaves)",
                f"stays out: {source} phased out, which is not leaving",
                "phased in",
            )


def _host_ceased(step: Step, indirect: set[str], pid: str) -> bool:
    """`pid` phased out indirectly (`indirect`) with a host, or with a host
    of its host, that ceased to exist as a phased-out token during `step`
    (702.25k, 217.8d, in the older editions). 217.8d keeps it phased out
    for the rest of the game; the pre-2017 text doesn't say, so it may also
    phase in at once (as for reading B of docs/readings.md)."""
    seen: set[str] = set()
    while pid in indirect and pid not in seen:
        seen.add(pid)
        b = view(step.before, pid)
        if b is None or not isinstance(b.attached_to, str):
            return False
        pid = b.attached_to
        if ceased_while_phased_out(step, pid):
            return True
    return False


def _phased_in_between_untap_steps(trace: Trace) -> Iterator[tuple[Step, PermanentView, bool]]:
    """Each step other than a turn passing (so with no untap step) and no
    player leaving the game (702.26k, 800.4a: readings B and C may then
    phase something in), with each permanent (its view before) the engine
    showed phasing in there, and whether it had a reason to:
    `released_by_leaving` (610.4, 702.26g) or `_host_ceased`."""
    history = zip(trace.steps, until_sources(trace), indirectly_out(trace), strict=True)
    for step, waiting, indirect in history:
        if isinstance(step.action, a.PassTurn) or step.after.refused is not None:
            continue
        if a_player_left(step):
            continue
        for b in step.before.permanents:
            if was_out_came_in(step, b.id):
                released = released_by_leaving(step, waiting, indirect, b.id)
                yield step, b, released or _host_ceased(step, indirect, b.id)


def _host_came_in_without_its_own(trace: Trace) -> bool:
    """702.26g, 610.4: outside an untap step a permanent phased in as the
    source it waited for left the battlefield, and an attachment on it that
    had phased out on its own (directly) stayed phased out."""
    history = zip(trace.steps, until_sources(trace), indirectly_out(trace), strict=True)
    for step, waiting, indirect in history:
        if isinstance(step.action, a.PassTurn) or step.after.refused is not None:
            continue
        for b in step.before.permanents:
            host = b.attached_to
            if not (b.phased_out and isinstance(host, str)) or b.id in indirect:
                continue
            c = view(step.after, b.id)
            if (
                c is not None
                and c.on_battlefield
                and c.phased_out
                and was_out_came_in(step, host)
                and released_by_leaving(step, waiting, indirect, host)
            ):
                return True
    return False


@rule_property(
    "702.26a",
    "702.26g",
    needs={C.AURAS, C.PHASE_OUT_UNTIL, C.DESTROY, C.TARGETING},
    scenarios=lambda caps: phasing_hosts(caps, host_returns_without_direct_attachment),
    exercised=_host_came_in_without_its_own,
)
def phased_out_permanents_stay_out_between_untap_steps(trace: Trace) -> None:
    """A phased-out permanent phases in at the untap step of the player it
    phased out under (702.26a), and between untap steps only if the source
    it waited for left the battlefield (610.4), or with the permanent it
    phased out indirectly with, attached to it, as that one does (702.26g).
    So an attachment that phased out on its own before its host phased out
    "until" stays out as the host comes back (the plan plays that half the
    time: `hosts.host_returns_without_direct_attachment`). Not judged: a
    step where a player left the game (its permanents leave, and readings B
    and C of docs/readings.md accept a phasing in), and, in the older
    editions, an indirectly phased-out permanent whose host token ceased to
    exist (702.25k, 217.8d)."""
    for step, b, released in _phased_in_between_untap_steps(trace):
        host = b.attached_to
        with_host = isinstance(host, str) and was_out_came_in(step, host)
        expect(
            released,
            "702.26g" if with_host else "702.26a",
            f"{where(trace, step)}, {b.id}" + (f" (attached to {host})" if with_host else ""),
            "still phased out until the untap step of the player it phased out under "
            "(702.26a): "
            + (
                f"it phased out on its own, not indirectly with {host}"
                if with_host
                else "nothing it waited for left the battlefield (610.4)"
            ),
            "phased in",
        )
