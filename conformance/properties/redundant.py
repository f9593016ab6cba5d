"""Several instances of phasing on one permanent are redundant (702.26p): in
its controller's untap step it phases out once, not out and back in, and
its "whenever this phases out/in" abilities trigger once (603.10b)."""

from __future__ import annotations

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.effects import control_grants, untap_step_controllers
from conformance.properties.history import abilities, phasing_instances, view
from conformance.properties.identity import came_in, went_out
from conformance.properties.registry import expect, rule_property, where
from conformance.properties.triggers import check_trigger_life
from conformance.properties.untap import phased_under_step, played_untap_steps
from conformance.running import Trace
from conformance.setup import Ability
from conformance.strategies import scenarios

#: The "whenever this phases out/in" abilities (603.10b).
_PHASE_TRIGGER_ABILITIES: tuple[Ability, ...] = ("phases_out", "phases_in")


def _a_redundant_phaser_phased_out(trace: Trace) -> bool:
    """702.26p: an untap step in which a permanent with two or more instances
    of phasing phased out."""
    counts = phasing_instances(trace.scenario)
    for _, step, _, going, _ in phased_under_step(trace):
        for pid in going:
            c = view(step.after, pid)
            if counts.get(pid, 0) >= 2 and c is not None and c.on_battlefield and c.phased_out:
                return True
    return False


@rule_property(
    "702.26p",
    needs={C.REDUNDANT_PHASING},
    scenarios=lambda caps: scenarios(
        set(caps) - {C.SKIP_UNTAP}, kinds=(a.PassTurn,), min_actions=1, phased_out=False
    ),
    exercised=_a_redundant_phaser_phased_out,
    reads={"events"},
)
def phasing_instances_are_redundant(trace: Trace) -> None:
    """Two or more instances of phasing phase a permanent out once, not out
    and back in."""
    counts = phasing_instances(trace.scenario)
    controllers = untap_step_controllers(trace)
    for k, step, player in played_untap_steps(trace):
        controller = controllers[k]
        for c in step.after.permanents:
            if counts.get(c.id, 0) < 2 or controller.get(c.id) != player:
                continue
            events = [e.kind for e in step.after.events_of("phased_out", c.id)] + [
                e.kind for e in step.after.events_of("phased_in", c.id)
            ]
            b = view(step.before, c.id)
            if b is not None and b.phased_in and c.on_battlefield:
                expect(
                    c.phased_out and events == ["phased_out"],
                    "702.26p",
                    f"{where(trace, step)}, {c.id} (phasing ×{counts[c.id]})",
                    "it phases out once",
                    f"{'phased out' if c.phased_out else 'phased in'}, events {events}",
                )


def _redundant_phasers_triggered(trace: Trace) -> list[int]:
    """The untap steps (action k) in which a permanent with two or more
    instances of phasing and a "whenever this phases out/in" ability phased
    out or in; none unless phase triggers are the only abilities of the
    scenario, so that the life they gain is all the life that changes
    (`check_trigger_life` leaves out what else may, such as a draw step's
    draw), and no control effect makes who controls a trigger a question
    (603.3a is `phase_triggers_trigger`'s; in the Mirage edition phasing
    out ends the effects on a permanent, 502.15g, which the scenario's
    history of control effects doesn't follow)."""
    counts = phasing_instances(trace.scenario)
    triggers = set(_PHASE_TRIGGER_ABILITIES)
    if control_grants(trace):
        return []
    if any(set(p.abilities) - triggers for p in trace.scenario.setup.permanents):
        return []
    found = []
    for k, step, _ in played_untap_steps(trace):
        for b in step.before.permanents:
            if counts.get(b.id, 0) < 2 or not (went_out(step, b) or came_in(step, b)):
                continue
            if triggers & set(abilities(trace.scenario, b.id)):
                found.append(k)
                break
    return found


def _a_redundant_phaser_s_trigger_gained_life(trace: Trace) -> bool:
    """702.26p, 603.10b: an untap step in which a permanent with two or more
    instances of phasing and a phase trigger phased, and a player gained
    life."""
    for k in _redundant_phasers_triggered(trace):
        step = trace.steps[k - 1]
        if any(
            c.life > b.life for b, c in zip(step.before.players, step.after.players, strict=True)
        ):
            return True
    return False


@rule_property(
    "702.26p",
    "603.10b",
    needs={C.REDUNDANT_PHASING, C.PHASE_TRIGGERS},
    # Phase triggers the only abilities and no control changes: the life
    # they gain is all that changes in an untap step, and whose it is plain.
    scenarios=lambda caps: scenarios(
        set(caps) - {C.SKIP_UNTAP, C.CONTROL_CHANGE},
        kinds=(a.PassTurn,),
        min_actions=1,
        phased_out=False,
        abilities=_PHASE_TRIGGER_ABILITIES,
    ),
    exercised=_a_redundant_phaser_s_trigger_gained_life,
    reads={"life"},
)
def redundant_phasing_triggers_once(trace: Trace) -> None:
    """Several instances of phasing are redundant (702.26p): the permanent
    phases out (or in) once in the untap step, one event, so each of its
    "whenever this phases out/in" abilities triggers once (603.10b), not
    once per instance."""
    check_trigger_life(trace, "702.26p", _redundant_phasers_triggered(trace), "603.10b")
