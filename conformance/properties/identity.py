"""Properties of what phasing keeps: a permanent that phases out and in
stays the same object on the battlefield, with its counters, tapped status,
choices and controller (702.26d; R2017-counters, R2017-choices). What it
triggers is `triggers`'s."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.effects import (
    control_changes,
    control_unchanged,
    focus,
    limited_control,
    was_phased_in,
)
from conformance.properties.history import abilities, ceased_while_phased_out, view
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import scenarios

PHASING = (a.PassTurn, a.PhaseOut, a.PhaseOutAll)
#: One more PassTurn among the kinds (drawn uniformly): a permanent phased
#: out comes back only at an untap step.
TURNS = (a.PassTurn,)
#: Permanents without attach triggers, so life shows only the triggers
#: these properties are about (702.26j is another property's).
UNATTACHED = ("creature", "artifact", "land", "enchantment")


def phasing_caps(caps: Collection[C], *kept: C) -> set[C]:
    """The capabilities of `kept`, with what phasing permanents directly
    needs (702.26a): targeting and phasing out all."""
    return focus(caps, *kept, C.TARGETING, C.PHASE_OUT_ALL)


def went_out(step: Step, b: PermanentView) -> bool:
    """`b` was phased in and phased out in this step, wherever it ended up."""
    c = view(step.after, b.id)
    phased = c is not None and c.on_battlefield and c.phased_out
    return b.phased_in and (phased or bool(step.after.events_of("phased_out", b.id)))


def came_in(step: Step, b: PermanentView) -> bool:
    c = view(step.after, b.id)
    return b.on_battlefield and b.phased_out and c is not None and c.phased_in


def phased_out_since(trace: Trace) -> list[dict[str, int]]:
    """For each observation k (0 the initial one): for each permanent the
    engine then shows phased out on the battlefield, the action in which it
    last phased out (0: phased out from the setup)."""
    since = {p.id: 0 for p in trace.scenario.setup.permanents if p.phased_out is not None}
    history = [dict(since)]
    for k, step in enumerate(trace.steps, 1):
        for c in step.after.permanents:
            if not (c.on_battlefield and c.phased_out):
                since.pop(c.id, None)
            elif c.id not in since or was_phased_in(step.before, c.id):
                since[c.id] = k
        history.append(dict(since))
    return history


def control_steady(
    changes: set[tuple[int, str | None]], since: list[dict[str, int]], k: int, b: PermanentView
) -> bool:
    """Whether the controller step k's `before` shows for `b` is comparable
    with the one after it: no action could change it (`control_unchanged`)
    in action k, nor, if `b` is phased out, since it phased out
    (`since`, from `phased_out_since`), as `b` is then how the engine
    showed it while out."""
    first = max(since[k - 1].get(b.id, k), 1) if b.phased_out else k
    return control_unchanged(changes, b.id, first, k)


def _untapped_by_step(step: Step, c: PermanentView) -> bool:
    """502.3: the active player's permanents untap in the untap step, after
    phasing; a permanent that phased in then is untapped too."""
    return isinstance(step.action, a.PassTurn) and c.controller == step.after.active


def _taps_itself(trace: Trace, c: PermanentView) -> bool:
    """`c` has "whenever this phases in, tap it" (`phases_in_tap`): phasing
    in keeps its tapped status (702.26d), then its trigger resolves before
    the next observation (in the upkeep, after untapping, for an untap
    step: 502.4) and taps it. That it does is
    `untap_step_triggers_resolve_in_the_upkeep`'s and the phase triggers'
    to judge."""
    return "phases_in_tap" in abilities(trace.scenario, c.id)


def _kept(at: str, then: PermanentView, c: PermanentView, untapped: bool, taps: bool) -> None:
    """What phasing keeps (702.26d, R2017-counters, R2017-choices): `c` shows
    the counters, the choice and (unless the untap step untapped it) the
    tapped status `then` had, or is tapped if `taps`: its own trigger tapped
    it once it phased in (`_taps_itself`)."""
    if not untapped:
        kept = "tapped" if then.tapped else "untapped, as before"
        expect(
            c.tapped == then.tapped or (taps and c.tapped),
            "702.26d",
            at,
            f"{kept}, or tapped by its 'whenever this phases in, tap it'" if taps else kept,
            "tapped" if c.tapped else "untapped",
        )
    expect(
        c.counters == then.counters,
        "R2017-counters",
        at,
        f"counters kept: {list(then.counters)}",
        f"counters {list(c.counters)}",
    )
    expect(
        c.chosen == then.chosen,
        "R2017-choices",
        at,
        f"the choice made as it entered kept: {then.chosen}",
        f"choice {c.chosen}",
    )


def _destroyed_through_phasing(step: Step, b: PermanentView) -> bool:
    """`b` is the target of `DestroyThroughPhasing`, or attached to it: it
    phases out and back in within the action, and then the spell waiting for
    it destroys it (702.26d, Mirage 502.15n), taking what is attached to it
    along (704.5m). Where it ends up is
    `spell_resolves_on_a_target_that_phased_out_and_in`'s to judge."""
    action = step.action
    return isinstance(action, a.DestroyThroughPhasing) and action.target in (b.id, b.attached_to)


def _round_trips(trace: Trace) -> Iterator[tuple[Step, PermanentView, PermanentView]]:
    """Each phasing in of a permanent the engine showed phase out earlier in
    the trace and stay on the battlefield since: the step it came back in,
    how it was just before it phased out, and how it came back."""
    left: dict[str, PermanentView] = {}
    for step in trace.steps:
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if b.id in left and came_in(step, b) and c is not None:
                yield step, left.pop(b.id), c
            elif went_out(step, b) and c is not None and c.on_battlefield:
                left[b.id] = b
            elif c is None or not c.on_battlefield:
                left.pop(b.id, None)


def _a_permanent_went_out_and_came_back(trace: Trace) -> bool:
    """702.26d, R2017-counters, R2017-choices: a permanent with counters, a
    choice made as it entered, or tapped, phased out and later phased back
    in, on the battlefield all along."""
    return any(
        then.counters or then.chosen is not None or then.tapped
        for _, then, _ in _round_trips(trace)
    )


@rule_property(
    "702.26d",
    "R2017-counters",
    "R2017-choices",
    scenarios=lambda caps: scenarios(
        phasing_caps(
            caps, C.TOKENS, C.COUNTERS, C.CHOICES, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER
        ),
        kinds=(*TURNS, *PHASING, a.GainControl),
        min_actions=4,
        max_actions=8,
        min_permanents=1,
        max_permanents=3,
    ),
    exercised=_a_permanent_went_out_and_came_back,
    reads={"events"},
)
def phasing_keeps_the_same_permanent(trace: Trace) -> None:
    """Phasing is neither a zone change nor a control change: a permanent
    that phases out or in stays on the battlefield as the same object, with
    its counters, tapped status, the choice made as it entered, and (under
    no control effect with a limited duration, or none at all) its
    controller; after phasing out and back in, it has what it had as it
    phased out. Under a limited one its controller is
    `limited_effects_outlast_phasing`'s (today) or
    `limited_effects_end_as_it_phases_out`'s (Mirage 502.15g). Its own
    "whenever this phases in, tap it" may tap it once it is back (702.26d
    keeps the status through phasing, not after)."""
    changes = control_changes(trace)
    limited = limited_control(trace)
    since = phased_out_since(trace)
    for k, step in enumerate(trace.steps, 1):
        for b in step.before.permanents:
            c = view(step.after, b.id)
            out, back = went_out(step, b), came_in(step, b)
            if c is None or not (out or back):
                continue
            at = f"{where(trace, step)}, {b.id} phased {'out' if out else 'in'}"
            if out and ceased_while_phased_out(step, b.id):
                continue  # a phased-out token ceasing to exist: 702.25k, 217.8d
            if out and _destroyed_through_phasing(step, b):
                continue
            expect(not out or c.on_battlefield, "702.26d", at, "still on the battlefield", c.zone)
            if not c.on_battlefield:
                continue
            untapped = not out and _untapped_by_step(step, c)
            _kept(at, b, c, untapped, back and _taps_itself(trace, c))
            # A control effect with a limited duration: today it goes on
            # (limited_effects_outlast_phasing), in the Mirage edition
            # phasing out ends it (502.15g).
            stable = control_steady(changes, since, k, b) and (k - 1, b.id) not in limited
            if stable and None not in (b.controller, c.controller):
                expect(
                    c.controller == b.controller,
                    "702.26d",
                    at,
                    f"not a control change: still controlled by player {b.controller}",
                    f"controlled by player {c.controller}",
                )
    for step, then, c in _round_trips(trace):
        at = f"{where(trace, step)}, {c.id} phased back in (compared with before it phased out)"
        _kept(at, then, c, _untapped_by_step(step, c), _taps_itself(trace, c))
