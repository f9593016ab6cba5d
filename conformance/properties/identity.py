"""Properties of what phasing keeps and what it triggers: a permanent that
phases out and in stays the same object on the battlefield, with its
counters, tapped status, choices and controller; it triggers "whenever this
phases in/out" abilities, never enters- or leaves-the-battlefield ones
(702.26d, 603.10b; R2017-counters, R2017-choices, R2017-no-etb-ltb)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.effects import control_grants, focus
from conformance.properties.history import abilities, owners, view
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import TRIGGER_LIFE
from conformance.strategies import scenarios

_PHASING = (a.PassTurn, a.PhaseOut, a.PhaseOutAll)
#: Permanents without attach triggers, so life shows only the triggers
#: these properties are about (702.26j is another property's).
_UNATTACHED = ("creature", "artifact", "land", "enchantment")


def _only(caps: Collection[C], *kept: C) -> set[C]:
    return focus(caps, *kept, C.TARGETING, C.PHASE_OUT_ALL)


def _went_out(step: Step, b: PermanentView) -> bool:
    """`b` was phased in and phased out in this step, wherever it ended up."""
    c = view(step.after, b.id)
    phased = c is not None and c.on_battlefield and c.phased_out
    return b.phased_in and (phased or bool(step.after.events_of("phased_out", b.id)))


def _came_in(step: Step, b: PermanentView) -> bool:
    c = view(step.after, b.id)
    return b.on_battlefield and b.phased_out and c is not None and c.phased_in


def _untapped_by_step(step: Step, c: PermanentView) -> bool:
    """502.3: the active player's permanents untap in the untap step, after
    phasing; a permanent that phased in then is untapped too."""
    return isinstance(step.action, a.PassTurn) and c.controller == step.after.active


def _stable_control(trace: Trace) -> set[str]:
    """Permanents whose controller only GainControl can change: every control
    effect on them lasts indefinitely and nobody leaves the game (800.4c)."""
    if any(isinstance(x, a.Concede) for x in trace.scenario.actions):
        return set()
    unstable = {g.target for g in control_grants(trace) if g.duration.kind != "indefinitely"}
    return set(owners(trace.scenario)) - unstable


@rule_property(
    "702.26d",
    "R2017-counters",
    "R2017-choices",
    scenarios=lambda caps: scenarios(
        _only(caps, C.TOKENS, C.COUNTERS, C.CHOICES, C.CONTROL_CHANGE, C.PHASED_OUT_UNDER_OTHER),
        kinds=(*_PHASING, a.GainControl),
        min_actions=1,
        max_actions=4,
        min_permanents=1,
        max_permanents=3,
    ),
    reads={"events"},
)
def phasing_keeps_the_same_permanent(trace: Trace) -> None:
    """Phasing is neither a zone change nor a control change: a permanent
    that phases out or in stays on the battlefield as the same object, with
    its counters, tapped status, the choice made as it entered, and (while
    its control effects last) its controller."""
    stable = _stable_control(trace)
    for step in trace.steps:
        for b in step.before.permanents:
            c = view(step.after, b.id)
            out, back = _went_out(step, b), _came_in(step, b)
            if c is None or not (out or back):
                continue
            at = f"{where(trace, step)}, {b.id} phased {'out' if out else 'in'}"
            expect(not out or c.on_battlefield, "702.26d", at, "still on the battlefield", c.zone)
            if not c.on_battlefield:
                continue
            if out or not _untapped_by_step(step, c):
                expect(
                    c.tapped == b.tapped,
                    "702.26d",
                    at,
                    "tapped" if b.tapped else "untapped, as before",
                    "tapped" if c.tapped else "untapped",
                )
            expect(
                c.counters == b.counters,
                "R2017-counters",
                at,
                f"counters kept: {list(b.counters)}",
                f"counters {list(c.counters)}",
            )
            expect(
                c.chosen == b.chosen,
                "R2017-choices",
                at,
                f"the choice made as it entered kept: {b.chosen}",
                f"choice {c.chosen}",
            )
            if b.id in stable and None not in (b.controller, c.controller):
                expect(
                    c.controller == b.controller,
                    "702.26d",
                    at,
                    f"not a control change: still controlled by player {b.controller}",
                    f"controlled by player {c.controller}",
                )


def _life_from_phase_triggers(trace: Trace, step: Step) -> Counter[int]:
    """Life each player's "whenever this phases out/in" abilities gain in
    this step (603.10b): the controller of each permanent that phased, with
    the ability, gains its TRIGGER_LIFE."""
    gained: Counter[int] = Counter()
    for b in step.before.permanents:
        c = view(step.after, b.id)
        if c is None or c.controller is None or not c.on_battlefield:
            continue
        kind = "phases_out" if _went_out(step, b) else "phases_in" if _came_in(step, b) else None
        if kind is not None and kind in abilities(trace.scenario, b.id):
            gained[c.controller] += TRIGGER_LIFE[kind]
    return gained


def _quiet_steps(trace: Trace) -> list[Step]:
    """Phasing steps in which only triggered abilities can change life: no
    combat damage that turn, no permanent changing zone or controller."""
    quiet, attacked = [], False
    for step in trace.steps:
        attacked = attacked or (
            isinstance(step.action, a.DeclareAttackers) and step.after.refused is None
        )
        if not isinstance(step.action, _PHASING) or step.after.refused is not None:
            continue
        if isinstance(step.action, a.PassTurn) and attacked:
            attacked = False
            continue
        steady = all(
            (c := view(step.after, b.id)) is not None
            and c.on_battlefield
            and c.controller == b.controller
            for b in step.before.permanents
            if b.on_battlefield
        )
        if steady:
            quiet.append(step)
    return quiet


def _check_trigger_life(trace: Trace, rule: str) -> None:
    for step in _quiet_steps(trace):
        gained = _life_from_phase_triggers(trace, step)
        triggers = [f"{e.subject} {e.detail}" for e in step.after.events if e.kind == "trigger"]
        for b, c in zip(step.before.players, step.after.players, strict=True):
            expect(
                c.life - b.life == gained[c.index],
                rule,
                f"{where(trace, step)}, player {c.index}",
                f"life +{gained[c.index]}, from 'phases in/out' triggers only",
                f"life {c.life - b.life:+d}, triggers {triggers}",
            )


@rule_property(
    "R2017-no-etb-ltb",
    "702.26d",
    needs={C.TRIGGERS},
    scenarios=lambda caps: scenarios(
        _only(caps, C.TRIGGERS),
        kinds=_PHASING,
        min_actions=1,
        max_actions=4,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=_UNATTACHED,
    ),
    reads={"events", "life"},
)
def phasing_triggers_no_enter_or_leave_abilities(trace: Trace) -> None:
    """Phasing out is not leaving the battlefield and phasing in is not
    entering it: no enters-, leaves-the-battlefield or dies trigger."""
    _check_trigger_life(trace, "R2017-no-etb-ltb")


@rule_property(
    "603.10b",
    needs={C.PHASE_TRIGGERS},
    scenarios=lambda caps: scenarios(
        _only(caps, C.PHASE_TRIGGERS, C.AURAS, C.EQUIPMENT),
        kinds=_PHASING,
        min_actions=1,
        max_actions=4,
        min_permanents=2,
        max_permanents=4,
        permanent_kinds=("creature", "aura", "equipment"),
    ),
    reads={"events", "life"},
)
def phase_triggers_trigger(trace: Trace) -> None:
    """ "Whenever this phases out/in" abilities look back in time and do
    trigger, for permanents that phase directly or indirectly."""
    _check_trigger_life(trace, "603.10b")
