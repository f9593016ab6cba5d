"""Effects with a limited duration on a permanent that phases out and back
in before they would end: today they go on applying, phasing being neither
a zone change nor a control change (702.26d) and effects ending only as
their durations say (702.26f); in the Mirage edition they stop affecting it
as it phases out, even if it phases in before they would end (502.15g).
The vocabulary's limited durations are "until end of turn", "until your
next turn" and "for as long as"; its limited effects, control effects and
boosts. (Mirage 502.15g's delayed triggered abilities are not in the
vocabulary.)"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import (
    boosts,
    control_changes,
    control_grants,
    focus,
    limited_control,
)
from conformance.properties.history import default_controllers, view
from conformance.properties.identity import (
    came_in,
    control_steady,
    phased_out_since,
    went_out,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.scenario import Scenario
from conformance.strategies.durations import limited_effects_then_out_and_in
from conformance.strategies.plans import planned_scenarios

#: What the scenarios play: a limited control effect and a team pump, the
#: phasing that puts them to the test, and turns passing.
NEEDS = {C.PT_BOOST, C.PHASE_OUT_UNTIL, C.DESTROY}


def _scenarios(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """`limited_effects_then_out_and_in`, then a few more phasings, pumps,
    control changes and turns; no anthem, so only effects change power."""
    return planned_scenarios(
        focus(caps, *NEEDS, C.TARGETING, C.CONTROL_CHANGE, C.MULTIPLAYER),
        limited_effects_then_out_and_in,
        kinds=(a.PassTurn, a.PhaseOut, a.PumpTeam, a.GainControl),
        max_actions=4,
        min_permanents=2,
        permanent_kinds=("creature", "creature", "artifact", "land"),
    )


def _round_trips(trace: Trace) -> Iterator[tuple[int, int, PermanentView, PermanentView]]:
    """(i, j, then, back): a permanent phased out in action i and back in in
    action j, on the battlefield all along; `then` is how it was before
    action i, `back` how it was after action j."""
    left: dict[str, tuple[int, PermanentView]] = {}
    for k, step in enumerate(trace.steps, 1):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not c.on_battlefield:
                left.pop(b.id, None)
            elif b.id in left and came_in(step, b):
                i, then = left.pop(b.id)
                yield i, k, then, c
            elif went_out(step, b):
                left[b.id] = (k, b)


def _one_turn(trace: Trace, i: int, j: int) -> bool:
    """No turn passed from action i to action j: "until end of turn" and
    "until your next turn" effects in force before i still last at j."""
    return not any(
        isinstance(s.action, a.PassTurn) and s.after.refused is None for s in trace.steps[i - 1 : j]
    )


def _pumped(trace: Trace, i: int, pid: str) -> bool:
    """A team pump raised `pid`'s power earlier in the turn of action i."""
    for step in reversed(trace.steps[: i - 1]):
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            return False
        raised = _power(step.after, pid) > _power(step.before, pid)
        if isinstance(step.action, a.PumpTeam) and raised:
            return True
    return False


def _power(obs: Observation, pid: str) -> int:
    """`pid`'s power as `obs` shows it; 0 if it shows none."""
    v = view(obs, pid)
    return 0 if v is None or v.power is None else v.power


def _limited_on(trace: Trace, i: int, pid: str) -> bool:
    """Before action i a limited effect applied to `pid`: a control effect
    with a limited duration, a boost of the setup with one, or a team pump
    this turn."""
    boosted = any(
        pid in e.targets and e.duration.kind != "indefinitely" and (end is None or end >= i)
        for e, end in boosts(trace)
    )
    return (i - 1, pid) in limited_control(trace) or boosted or _pumped(trace, i, pid)


def _limited_effect_out_and_in(trace: Trace) -> bool:
    """702.26f, 502.15g: a permanent under a limited control effect or boost
    phased out and back in within one turn, while the effect would still
    last."""
    return any(
        _one_turn(trace, i, j) and _limited_on(trace, i, then.id)
        for i, j, then, _ in _round_trips(trace)
    )


def _anthems(trace: Trace) -> bool:
    return any("anthem" in p.abilities for p in trace.scenario.setup.permanents)


@rule_property(
    "702.26d",
    "702.26f",
    needs=NEEDS,
    scenarios=_scenarios,
    exercised=_limited_effect_out_and_in,
)
def limited_effects_outlast_phasing(trace: Trace) -> None:
    """A control effect or boost with a limited duration goes on applying to
    a permanent through its phasing out and in (702.26d: not a control
    change; 702.26f: effects end as their durations say): under a limited
    control effect its controller stays as phasing out or in, and a
    creature phasing out and back in within one turn has the power it had
    as it phased out. In the Mirage edition phasing out ends them (502.15g:
    `limited_effects_end_as_it_phases_out`)."""
    changes, limited = control_changes(trace), limited_control(trace)
    since = phased_out_since(trace)
    for k, step in enumerate(trace.steps, 1):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not c.on_battlefield or not {(k - 1, b.id), (k, b.id)} <= limited:
                continue
            out, back = went_out(step, b), came_in(step, b)
            stable = control_steady(changes, since, k, b)
            if (out or back) and stable and None not in (b.controller, c.controller):
                expect(
                    c.controller == b.controller,
                    "702.26f",
                    f"{where(trace, step)}, {b.id} phased {'out' if out else 'in'}",
                    f"its control effect goes on: controlled by player {b.controller}",
                    f"controlled by player {c.controller}",
                )
    if _anthems(trace):
        return
    for i, j, then, back in _round_trips(trace):
        if _one_turn(trace, i, j) and back.power is not None and then.power is not None:
            expect(
                back.power == then.power,
                "702.26f",
                f"{where(trace, trace.steps[j - 1])}, {back.id} phased back in",
                f"power {then.power}, as it phased out: its boosts go on until end of turn",
                f"power {back.power}",
            )


def _controller_by_lasting_effects(trace: Trace, pid: str, k: int) -> int:
    """502.15g: who controls `pid` at observation k once the control effects
    with a limited duration on it have ended: the newest one without a
    limited duration in force then (613.7), else its controller by default
    (110.2)."""
    controller = default_controllers(trace.scenario).get(pid, 0)
    for g in control_grants(trace):
        if g.target == pid and g.duration.kind == "indefinitely" and g.in_force(k):
            controller = g.player
    return controller


def _lasting_power(trace: Trace, back: PermanentView) -> int | None:
    """502.15g: the power of setup creature `back` once the boosts with a
    limited duration on it have ended: its base power, its +1/+1 counters
    and the setup's boosts without one; None if it is no setup creature."""
    base = next((p for p in trace.scenario.setup.permanents if p.id == back.id), None)
    if base is None or base.power is None:
        return None
    lasting = sum(
        e.power
        for e, _ in boosts(trace)
        if back.id in e.targets and e.duration.kind == "indefinitely"
    )
    return base.power + dict(back.counters).get("+1/+1", 0) + lasting


@rule_property(
    "502.15g",
    needs=NEEDS,
    scenarios=_scenarios,
    exercised=_limited_effect_out_and_in,
)
def limited_effects_end_as_it_phases_out(trace: Trace) -> None:
    """Effects with a limited duration stop affecting a permanent that
    phases out, even if it phases in before they would end (Mirage
    502.15g); effects without one go on: as it phases back in, its
    controller is the one the lasting control effects give (or its
    controller by default: a limited control effect on it has ended,
    502.15h), and its power has no limited boost. Today they would still
    apply (702.26f: `limited_effects_outlast_phasing`)."""
    anthems = _anthems(trace)
    for _, j, _, back in _round_trips(trace):
        at = f"{where(trace, trace.steps[j - 1])}, {back.id} phased back in"
        expected = _controller_by_lasting_effects(trace, back.id, j)
        if back.controller is not None:
            expect(
                back.controller == expected,
                "502.15g",
                at,
                f"controlled by player {expected}: its limited control ended as it phased out",
                f"controlled by player {back.controller}",
            )
        power = None if anthems else _lasting_power(trace, back)
        if power is not None and back.power is not None:
            expect(
                back.power == power,
                "502.15g",
                at,
                f"power {power}: its limited boosts ended as it phased out",
                f"power {back.power}",
            )
