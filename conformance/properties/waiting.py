"""A spell waiting while its target phases out and back in (702.26c,
702.26d; Mirage 502.15n, which carries both jointly): phasing is not a zone
change, so the permanent that phases back in is the same object, a legal
target again, and the spell resolves on it normally. (A target that stays
phased out is R2017-targets' situation:
`spell_whose_target_phased_out_does_nothing`.)"""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.existence import drawn
from conformance.properties.history import carried_out, view
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import Setup
from conformance.strategies._draw import Caps, integer, pick
from conformance.strategies.plans import Planned, planned_scenarios

#: What would change the spell's outcome for another reason: the legend rule
#: on the permanent phasing in (704.5j, Mirage 502.15k) and a draw replaced
#: by life (R2017-replaced-by-life).
_QUIET = {C.LEGEND_RULE, C.LIFE_REPLACEMENT}


def _chain(setup: Setup, pid: str) -> set[str]:
    """`pid` and what it is attached to, directly or in turn (702.26g)."""
    hosts = {p.id: p.attached_to for p in setup.permanents}
    found = {pid}
    on = hosts.get(pid)
    while isinstance(on, str) and on not in found:
        found.add(on)
        on = hosts.get(on)
    return found


def _target_and_source(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """A phased-in permanent that is not a token (a phased-out token ceases
    to exist in the Mirage edition, 217.8d) as the target, and another
    phased-in permanent as the source, neither attached to the other: the
    destroy spell waits while the target phases out and back in."""
    phased_in = [p for p in setup.permanents if p.phased_out is None]
    targets = [p.id for p in phased_in if not p.token]
    if not targets or len(phased_in) < 2:
        return setup, ()
    target = pick(draw, targets)
    sources = [
        p.id
        for p in phased_in
        if target not in _chain(setup, p.id) and p.id not in _chain(setup, target)
    ]
    if not sources:
        return setup, ()
    caster = integer(draw, 0, setup.players - 1)
    return setup, (a.DestroyThroughPhasing(caster, target, pick(draw, sources)),)


def _out_and_in(trace: Trace) -> Iterator[tuple[Step, a.DestroyThroughPhasing]]:
    """Each DestroyThroughPhasing carried out whose target the engine
    reported phasing out and phasing in during it, and showed phased in or
    gone after it: it phased out and back in while the spell waited."""
    for step, x in carried_out(trace, a.DestroyThroughPhasing):
        c = view(step.after, x.target)
        if (
            step.after.events_of("phased_out", x.target)
            and step.after.events_of("phased_in", x.target)
            and c is not None
            and not c.phased_out
        ):
            yield step, x


def _gone(step: Step, pid: str) -> bool:
    """In the graveyard after `step` ("none" for a token, 704.5d)."""
    c = view(step.after, pid)
    return c is not None and c.zone in ("graveyard", "none")


def _resolved_on_the_rephased_target(trace: Trace) -> bool:
    """702.26d, 502.15n: a destroy spell's target phased out in response and
    back in before it resolved (the engine reported both), and the spell
    resolved on it: destroyed, and its caster drew a card."""
    return any(
        _gone(step, x.target) and drawn(step, x.caster) == 1 for step, x in _out_and_in(trace)
    )


@rule_property(
    "702.26c",
    "702.26d",
    needs={C.DESTROY, C.TARGETING, C.PHASE_OUT_UNTIL, C.STACKED_RESPONSES},
    scenarios=lambda caps: planned_scenarios(
        set(caps) - _QUIET,
        _target_and_source,
        max_actions=3,
        min_permanents=2,
        phased_out=False,
    ),
    exercised=_resolved_on_the_rephased_target,
    reads={"events", "cards_drawn"},
)
def spell_resolves_on_a_target_that_phased_out_and_in(trace: Trace) -> None:
    """A spell targeting a permanent that phases out and back in before it
    resolves resolves normally (Mirage 502.15n): phasing is neither a zone
    change (702.26d) nor, in Mirage, a new object (502.15f), so the target
    is still the same permanent and legal again (702.26c). "Destroy target
    permanent. Draw a card." destroys it and draws; an engine that treats
    the rephased permanent as a new object fizzles the spell."""
    for step, x in _out_and_in(trace):
        c = view(step.after, x.target)
        n = drawn(step, x.caster)
        expect(
            _gone(step, x.target) and n == 1,
            "702.26d",
            f"{where(trace, step)}, {x.target}",
            "destroyed by the spell that targeted it before it phased out and in, and a card drawn",
            f"{'gone' if c is None else c.zone}, {n} card(s) drawn",
        )
