"""The phasing events an engine reports say how each permanent phased out
(702.26g, 702.26h), whatever the order of the permanents on the battlefield.

The other attachment properties read how a permanent shows phased out; an
engine can show that right and still report its phase-out event wrongly,
e.g. work out "indirect" only for an attachment that comes after its host in
its battlefield order (phase.rs D5). So these scenarios list the permanents
in either order.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from hypothesis import strategies as st

from conformance.capabilities import Capability as C
from conformance.properties.attachments import both_ways_scenarios
from conformance.properties.history import view, was_in_went_out
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario


def _either_order(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """702.26h's scenarios, the setup's permanents listed as drawn (hosts
    first) or reversed (attachments before their hosts)."""
    drawn = both_ways_scenarios(caps)
    return st.tuples(drawn, st.booleans()).map(lambda t: _reversed(t[0]) if t[1] else t[0])


def _reversed(scenario: Scenario) -> Scenario:
    setup = replace(scenario.setup, permanents=scenario.setup.permanents[::-1])
    return replace(scenario, setup=setup)


def _phase_outs(step: Step) -> list[tuple[str, str]]:
    """(permanent, cause) of each phase-out the engine reported in `step`
    for a permanent it shows gone from phased in to phased out, once."""
    out = [(e.subject, e.detail) for e in step.after.events if e.kind == "phased_out"]
    subjects = [pid for pid, _ in out]
    return [(pid, cause) for pid, cause in out if subjects.count(pid) == 1]


def _indirect_reported(trace: Trace) -> bool:
    """702.26g: an attachment the engine showed phasing out indirectly
    with its host, and reported phasing out in that step."""
    return any(
        was_in_went_out(step, pid)
        and (c := view(step.after, pid)) is not None
        and c.cause == "indirect"
        for step in trace.steps
        for pid, _ in _phase_outs(step)
    )


def _stayed(step: Step, host: str | int | None) -> bool:
    """`host` (of an attachment that phased out in `step`) didn't go with
    it: a player, nothing, or a permanent phased in before and after. One
    that left the battlefield in the step is left out (a pre-2017 token
    that ceased to exist as it phased out, 702.25k)."""
    if not isinstance(host, str):
        return True
    b, c = view(step.before, host), view(step.after, host)
    return b is not None and c is not None and b.phased_in and c.phased_in


def _named(host: str | int | None) -> str:
    if host is None:
        return "nothing"
    return f"player {host}" if isinstance(host, int) else f"{host}, which stayed"


@rule_property(
    "702.26h",
    "702.26g",
    needs={C.AURAS},
    scenarios=_either_order,
    exercised=_indirect_reported,
    reads={"events"},
)
def phase_out_events_say_how_it_phased_out(trace: Trace) -> None:
    """Each phase-out event names the cause the permanent then shows:
    "indirect" for what phased out with its host (702.26g), even if it had
    its own reason to phase out (702.26h), "direct" otherwise. Only that is
    indirect: an Aura or Equipment on a player, or on a permanent that
    didn't phase out with it, phases out directly (702.26g, R2017-auras:
    "Each Aura and Equipment you control attached to a permanent that isn't
    phasing out" phases in on its own, attached to that permanent), also
    when "all permanents you control phase out" takes it."""
    for step in trace.steps:
        for pid, cause in _phase_outs(step):
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not was_in_went_out(step, pid):
                continue
            hosts = {b.attached_to, c.attached_to}
            with_host = any(isinstance(h, str) and was_in_went_out(step, h) for h in hosts)
            rule = "702.26h" if with_host else "702.26g"
            at = f"{where(trace, step)}, {pid}'s phased_out event"
            expect(
                cause == c.cause, rule, at, f"cause {c.cause!r}, as {pid} shows", f"cause {cause!r}"
            )
            if all(_stayed(step, h) for h in hosts):
                expect(
                    c.cause == "direct",
                    "702.26g",
                    at,
                    f"cause 'direct': {pid} is attached to {_named(b.attached_to)}",
                    f"cause {c.cause!r}",
                )
