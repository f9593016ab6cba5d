"""Properties of the untap step: who phases out, who phases in, and what the
step does and doesn't do besides (702.26a, m, p; 502.1; 110.5; R2017-tokens,
R2017-haste, R2017-skip-untap; 704.5d)."""

from __future__ import annotations

from collections.abc import Collection

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.effects import (
    phased_out_under,
    untap_step_controllers,
)
from conformance.properties.history import (
    abilities,
    phasing_instances,
    skips_untap,
    untap_steps,
    until_waiting,
    view,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.strategies import scenarios

_NO_SKIP = {C.SKIP_UNTAP}


def _without(caps: Collection[C], dropped: set[C]) -> set[C]:
    return set(caps) - dropped


@rule_property(
    "702.26a",
    scenarios=lambda caps: scenarios(
        _without(caps, _NO_SKIP | {C.LEAVE_GAME}),
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.GainControl),
        min_actions=1,
    ),
    reads={"events"},
)
def untap_step_phases_out_and_in_at_once(trace: Trace) -> None:
    """In P's untap step, P's phased-in permanents with phasing phase out and
    what phased out directly under P phases in — at once, so nothing that
    phases in also phases out in the same step."""
    counts = phasing_instances(trace.scenario)
    unders = phased_out_under(trace)
    waiting = until_waiting(trace.scenario)
    controllers = untap_step_controllers(trace)
    for step, player in untap_steps(trace):
        k = trace.steps.index(step) + 1
        under = unders[k - 1]
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not b.on_battlefield:
                continue
            controller = controllers[k][b.id]
            at = where(trace, step)
            phaser = counts.get(b.id, 0) > 0 and controller == player
            if b.phased_in and phaser:
                expect(c.phased_out, "702.26a", f"{at}, {b.id}", "it phases out", "phased in")
            if b.phased_in and c.phased_out and c.cause == "direct":
                expect(
                    phaser,
                    "702.26a",
                    f"{at}, {b.id} (controller {controller} as the step began)",
                    f"only player {player}'s permanents with phasing phase out",
                    "it phased out",
                )
            if (
                b.phased_out
                and b.cause == "direct"
                and under.get(b.id) == player
                and b.id not in waiting
            ):
                # Phasing in may leave it illegal: an Aura whose host phases
                # out at the same time goes to the graveyard (704.5m).
                left = not c.on_battlefield and bool(step.after.events_of("phased_in", b.id))
                expect(
                    c.phased_in or left,
                    "702.26a",
                    f"{at}, {b.id} (phased out under player {player})",
                    "it phases in and stays in",
                    "phased out" if c.on_battlefield else f"{c.zone}, without phasing in",
                )


@rule_property(
    "502.1",
    needs={C.TARGETING},
    scenarios=lambda caps: scenarios(
        _without(caps, _NO_SKIP), kinds=(a.PassTurn, a.PhaseOut, a.Activate), min_actions=1
    ),
)
def untap_step_untaps_after_phasing(trace: Trace) -> None:
    """Phasing comes first in the untap step; what phases in is untapped with
    the rest, and what phases out is left alone (702.26b)."""
    for step, player in untap_steps(trace):
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None or not c.on_battlefield:
                continue
            at = f"{where(trace, step)}, {c.id}"
            if c.phased_in and c.controller == player:
                expect(not c.tapped, "502.1", at, "phased in and untapped", "tapped")
            if c.phased_out:
                expect(
                    c.tapped == b.tapped,
                    "502.1",
                    at,
                    f"phased out, tapped status kept ({'tapped' if b.tapped else 'untapped'})",
                    "tapped" if c.tapped else "untapped",
                )


@rule_property(
    "702.26m",
    "R2017-skip-untap",
    needs={C.SKIP_UNTAP},
    scenarios=lambda caps: scenarios(caps, kinds=(a.PassTurn,), min_actions=1),
    reads={"events"},
)
def skipped_untap_step_has_no_phasing(trace: Trace) -> None:
    """A player who skips their untap step has no phasing event; what they
    had phased out waits for the next untap step they actually have."""
    skipping = set(skips_untap(trace.scenario))
    counts = phasing_instances(trace.scenario)
    for step, player in untap_steps(trace):
        if player not in skipping:
            continue
        skipping.discard(player)
        moved = [e for e in step.after.events if e.kind in ("phased_in", "phased_out")]
        expect(
            not moved,
            "702.26m",
            f"{where(trace, step)} (player {player} skips this untap step)",
            "nothing phases in or out",
            ", ".join(f"{e.subject} {e.kind}" for e in moved),
        )
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is not None and b.phased_in and c.on_battlefield and counts.get(c.id, 0) > 0:
                expect(
                    c.phased_in,
                    "702.26m",
                    f"{where(trace, step)}, {c.id}",
                    "stays phased in",
                    "phased out",
                )


@rule_property(
    "702.26p",
    needs={C.REDUNDANT_PHASING},
    scenarios=lambda caps: scenarios(
        _without(caps, _NO_SKIP), kinds=(a.PassTurn,), min_actions=1, phased_out=False
    ),
    reads={"events"},
)
def phasing_instances_are_redundant(trace: Trace) -> None:
    """Two or more instances of phasing phase a permanent out once, not out
    and back in."""
    counts = phasing_instances(trace.scenario)
    controllers = untap_step_controllers(trace)
    for step, player in untap_steps(trace):
        controller = controllers[trace.steps.index(step) + 1]
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


@rule_property(
    "R2017-tokens",
    "704.5d",
    needs={C.TOKENS},
    scenarios=lambda caps: scenarios(
        _without(caps, _NO_SKIP), kinds=(a.PassTurn, a.CreateToken, a.PhaseOut), min_actions=2
    ),
    reads={"events"},
)
def phased_out_tokens_stay_and_phase_in(trace: Trace) -> None:
    """A phased-out token stays on the battlefield (704.5d) and phases in at
    its controller's next untap step (R2017-tokens)."""
    tokens = {p.id for p in trace.scenario.setup.permanents if p.token}
    tokens |= {x.id for x in trace.scenario.actions if isinstance(x, a.CreateToken)}
    tokens -= until_waiting(trace.scenario)
    unders = phased_out_under(trace)
    for i, step in enumerate(trace.steps):
        for pid in tokens:
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not b.on_battlefield:
                continue
            at = f"{where(trace, step)}, token {pid}"
            if b.phased_out or c.phased_out or step.after.events_of("phased_out", pid):
                expect(c.on_battlefield, "704.5d", at, "still on the battlefield", c.zone)
            if (
                isinstance(step.action, a.PassTurn)
                and step.after.refused is None
                and b.phased_out
                and b.cause == "direct"
                and unders[i].get(pid) == step.after.active
            ):
                expect(c.phased_in, "R2017-tokens", at, "it phases in", "still phased out")


@rule_property(
    "110.5",
    needs={C.TOKENS},
    scenarios=lambda caps: scenarios(caps, kinds=(a.CreateToken, a.PassTurn), min_actions=1),
)
def permanents_enter_phased_in(trace: Trace) -> None:
    """A permanent enters the battlefield phased in."""
    for step in trace.steps:
        if isinstance(step.action, a.CreateToken) and step.after.refused is None:
            c = view(step.after, step.action.id)
            expect(
                c is not None and c.phased_in,
                "110.5",
                where(trace, step),
                f"token {step.action.id} on the battlefield, phased in",
                "missing" if c is None else f"{c.zone}, phased out={c.phased_out}",
            )


@rule_property(
    "R2017-haste",
    needs={C.ACTIVATED_ABILITIES},
    scenarios=lambda caps: scenarios(
        _without(caps, _NO_SKIP | {C.CONTROL_CHANGE}),
        kinds=(a.PassTurn, a.Activate, a.DeclareAttackers),
        min_actions=2,
        permanent_kinds=("creature",),
    ),
)
def creatures_that_phase_in_can_tap_and_attack(trace: Trace) -> None:
    """A creature that phased in as its controller's turn began can pay {T}
    and attack that turn: phasing in is not entering the battlefield."""
    came_in: set[str] = set()
    attacked = False
    for step in trace.steps:
        x, b = step.action, step.before
        if isinstance(x, a.PassTurn):
            came_in = {p.id for p in step.after.permanents if was_out_came_in(step, p.id)}
            attacked = False
            continue
        ready = {
            pid
            for pid in came_in
            if (v := view(b, pid)) is not None
            and v.phased_in
            and not v.tapped
            and v.controller == b.active
        }
        if (
            isinstance(x, a.Activate)
            and x.player == b.active
            and x.source in ready
            and "tap_gain_life" in abilities(trace.scenario, x.source)
        ):
            expect(
                step.after.refused is None,
                "R2017-haste",
                where(trace, step),
                f"{x.source}, phased in this turn, can pay {{T}}",
                f"refused: {step.after.refused}",
            )
        if isinstance(x, a.DeclareAttackers) and not attacked:
            defender = _in_game(b, x.defender)
            if x.player == b.active and set(x.attackers) <= ready and defender:
                expect(
                    step.after.refused is None,
                    "R2017-haste",
                    where(trace, step),
                    f"{', '.join(x.attackers)}, phased in this turn, can attack",
                    f"refused: {step.after.refused}",
                )
            attacked = attacked or step.after.refused is None


def _in_game(obs: Observation, index: int) -> bool:
    """Whether `index` is a player still in the game."""
    return 0 <= index < len(obs.players) and obs.players[index].in_game
