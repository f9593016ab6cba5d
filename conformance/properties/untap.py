"""Properties of the untap step: who phases out, who phases in, and what the
step does and doesn't do besides (702.26a, m; 502.1; R2017-skip-untap).
Tokens and creatures that phase in are `entering`'s; several instances of
phasing (702.26p) are `redundant`'s."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.effects import (
    limited_control,
    phased_out_under,
    skipped_untap_steps,
    untap_step_controllers,
)
from conformance.properties.history import (
    ceased_while_phased_out,
    in_game,
    phasing_instances,
    phasings,
    untap_steps,
    view,
    waiting_for_source,
    was_out_came_in,
)
from conformance.properties.identity import went_out
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import ControlEffect, Duration, Permanent, Setup
from conformance.strategies import scenarios
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.durations import borrow_until_next_turn
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import new_id, with_permanents

_NO_SKIP = {C.SKIP_UNTAP}
#: PassTurn three times among the kinds: action kinds are drawn uniformly,
#: and untap steps are what these rules are about.
_TURNS = (a.PassTurn,) * 3


def _without(caps: Collection[C], dropped: set[C]) -> set[C]:
    return set(caps) - dropped


def played_untap_steps(trace: Trace, skipped: bool = False) -> Iterator[tuple[int, Step, int]]:
    """Each untap step the engine played (action k, of `player`) that the
    player had, or with `skipped`, each one they skipped: a skipped untap
    step has no phasing event (702.26m) and untaps nothing."""
    skips = skipped_untap_steps(trace)
    for step, player in untap_steps(trace):
        k = trace.steps.index(step) + 1
        if (k - 1 in skips) == skipped:
            yield k, step, player


def phased_under_step(
    trace: Trace, skipped: bool = False
) -> list[tuple[int, Step, int, set[str], set[str]]]:
    """For each untap step the engine played (action k, of `player`), or
    with `skipped` each one skipped: the permanents that should phase out in
    it (phased in, with phasing, controlled by `player` as the step began)
    and those that should phase in (phased out directly under `player`, from
    the history, and not waiting for an "until" source, 610.4), by 702.26a."""
    counts = phasing_instances(trace.scenario)
    unders = phased_out_under(trace)
    status = phasings(trace)
    waiting = waiting_for_source(trace)
    controllers = untap_step_controllers(trace)
    result = []
    for k, step, player in played_untap_steps(trace, skipped):
        going, coming = set(), set()
        for b in step.before.permanents:
            if not b.on_battlefield:
                continue
            if b.phased_in and counts.get(b.id, 0) > 0 and controllers[k][b.id] == player:
                going.add(b.id)
            was = status[k - 1].get(b.id)
            if (
                b.phased_out
                and was is not None
                and was.cause == "direct"
                and unders[k - 1].get(b.id) == player
                and b.id not in waiting[k - 1]
            ):
                coming.add(b.id)
        result.append((k, step, player, going, coming))
    return result


def _an_untap_step_phased(trace: Trace) -> bool:
    """702.26a: an untap step in which a permanent with phasing of the active
    player phased out, or one that phased out directly under them phased in."""
    for _, step, _, going, coming in phased_under_step(trace):
        for pid in going | coming:
            c = view(step.after, pid)
            if c is not None and c.on_battlefield and c.phased_out == (pid in going):
                return True
    return False


def _untap_step_plans(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """A third of the time where the engine makes tokens, the active player
    creates a token with phasing and turns pass to their next untap step,
    where it phases out (702.26a: phasing is the token's own, 111.1);
    otherwise `_borrowed_or_held_for_as_long_as`."""
    if C.TOKENS in caps and integer(draw, 0, 2) == 0:
        token = a.CreateToken(setup.active, new_id(setup), 1)
        return setup, (token, *(a.PassTurn(),) * setup.turns_until(setup.active))
    return _borrowed_or_held_for_as_long_as(draw, setup, caps)


def _borrowed_or_held_for_as_long_as(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """`borrow_until_next_turn`; or, half the time where the engine has
    "for as long as" control, a player P controls x with phasing, and y
    with phasing, another's, "for as long as you control x"; turns pass up
    to P's untap step. x and y phase out there at once (702.26a; 502.1
    "all happens simultaneously"): x phasing out ends P's control of y
    (702.26f) only as both are out, so y phases out too, under P. (x comes
    first: an engine phasing them out one at a time hands y back first.)"""
    needed = {C.CONTROL_CHANGE, C.CONTROL_AS_LONG_AS}
    if setup.players < 2 or not needed <= set(caps) or not maybe(draw):
        return borrow_until_next_turn(draw, setup, caps)
    player = integer(draw, 0, setup.players - 1)
    owner = pick(draw, [q for q in range(setup.players) if q != player])
    x = Permanent(new_id(setup), player, player, ("artifact",), phasing=1)
    y = Permanent(new_id(setup, 1), owner, player, power=1, toughness=1, phasing=1)
    held = ControlEffect(y.id, player, Duration("as_long_as_you_control", x.id))
    setup = replace(with_permanents(setup, x, y), effects=(*setup.effects, held))
    return setup, (a.PassTurn(),) * setup.turns_until(player)


@rule_property(
    "702.26a",
    # Borrowed until the borrower's next turn, or held for as long as its
    # controller controls another phaser, first: whose untap step a
    # permanent phases out in depends on effects that end as a turn begins
    # or as the other phases out.
    scenarios=lambda caps: planned_scenarios(
        _without(caps, _NO_SKIP | {C.LEAVE_GAME}),
        _untap_step_plans,
        kinds=(
            *_TURNS,
            a.PhaseOut,
            a.PhaseOutAll,
            a.GainControl,
            a.PhaseOutUntil,
            a.Destroy,
            a.CreateToken,
        ),
        min_actions=2,
        min_permanents=1,
    ),
    exercised=_an_untap_step_phased,
    reads={"events"},
)
def untap_step_phases_out_and_in_at_once(trace: Trace) -> None:
    """In P's untap step, P's phased-in permanents with phasing phase out and
    what phased out directly under P phases in — at once, so nothing that
    phases in also phases out in the same step: a "for as long as you
    control x" control that x phasing out ends doesn't keep the permanent
    it gives P from phasing out with x (502.1). What the history can't
    tell in an older edition is left out (`_left_unjudged`)."""
    status = phasings(trace)
    unjudged = _left_unjudged(trace)
    for k, step, player, going, coming in phased_under_step(trace):
        at = where(trace, step)
        for b in step.before.permanents:
            c = view(step.after, b.id)
            if c is None or not b.on_battlefield or b.id in unjudged[k - 1]:
                continue
            # A phased-out token may then cease to exist (702.25k, 217.8d, in
            # the editions where it does): it did phase out, or stayed out.
            ceased = ceased_while_phased_out(step, b.id)
            if b.id in going:
                ok = c.phased_out or ceased
                expect(ok, "702.26a", f"{at}, {b.id}", "it phases out", "phased in")
            # Cause from the history (702.26g, h): what phased out with its
            # host is not a phaser of its own.
            went = status[k].get(b.id)
            if b.phased_in and went is not None and went.cause == "direct":
                expect(
                    b.id in going,
                    "702.26a",
                    f"{at}, {b.id}",
                    f"only player {player}'s permanents with phasing phase out",
                    "it phased out",
                )
            if b.id in coming:
                # Phasing in may leave it illegal: an Aura whose host phases
                # out at the same time goes to the graveyard (704.5m); the
                # position shows it, whether or not the engine logs events.
                left = ceased or (
                    not c.on_battlefield
                    and (
                        bool(step.after.events_of("phased_in", b.id))
                        or _aura_without_host(trace, step, b.id)
                    )
                )
                expect(
                    c.phased_in or left,
                    "702.26a",
                    f"{at}, {b.id} (phased out under player {player})",
                    "it phases in and stays in",
                    "phased out" if c.on_battlefield else f"{c.zone}, without phasing in",
                )


def _left_unjudged(trace: Trace) -> list[set[str]]:
    """For each action k (index k - 1): the permanents whose untap-step
    phasing the scenario's history can't tell, left to other properties.
    One that phased out under a control effect with a limited duration
    and changed controller as it did, before action k, or set up phased
    out under one: today the effect goes on (702.26d, 702.26f) and phasing
    changes no controller, in the Mirage edition phasing out ended it
    (502.15g), which the history of control effects doesn't follow (whose
    it is then is `limited_effects_end_as_it_phases_out`'s, and today
    `limited_effects_outlast_phasing`'s). And one attached to a
    token that ceased to exist as it phased out or while it was out, in
    action k or before (702.25k, 217.8d, in the editions where it does): it
    phased out with its host, which the history can't see once the host
    is gone."""
    limited = limited_control(trace)
    setup = trace.scenario.setup.permanents
    out = {p.id for p in setup if p.phased_out is not None and (0, p.id) in limited}
    orphans: set[str] = set()
    found = []
    for k, step in enumerate(trace.steps, 1):
        for b in step.before.permanents:
            if isinstance(b.attached_to, str) and ceased_while_phased_out(step, b.attached_to):
                orphans.add(b.id)
        found.append(out | orphans)
        out |= {
            b.id
            for b in step.before.permanents
            if (k - 1, b.id) in limited and went_out(step, b) and _control_changed(step, b)
        }
    return found


def _control_changed(step: Step, b: PermanentView) -> bool:
    c = view(step.after, b.id)
    return c is not None and c.controller != b.controller


def _aura_without_host(trace: Trace, step: Step, pid: str) -> bool:
    """`pid` is an Aura whose host is not phased in after `step` (704.5m)."""
    setup = {p.id: p for p in trace.scenario.setup.permanents}
    b = view(step.before, pid)
    if pid not in setup or setup[pid].attachment != "aura" or b is None:
        return False
    if isinstance(b.attached_to, int):
        return not in_game(step.after, b.attached_to)
    host = None if b.attached_to is None else view(step.after, b.attached_to)
    return host is None or not host.phased_in


def _an_untap_step_untapped_what_phased_in(trace: Trace) -> bool:
    """502.1: an untap step in which a tapped permanent of the active player
    phased in and was untapped (phasing first, then untapping)."""
    for _, step, player in played_untap_steps(trace):
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None or not (b.on_battlefield and c.on_battlefield and b.tapped):
                continue
            if b.phased_out and c.phased_in and c.controller == player and not c.tapped:
                return True
    return False


@rule_property(
    "502.1",
    needs={C.TARGETING},
    scenarios=lambda caps: scenarios(
        _without(caps, _NO_SKIP),
        kinds=(*_TURNS[:2], a.PhaseOut, a.Activate),
        min_actions=2,
        min_permanents=1,
    ),
    exercised=_an_untap_step_untapped_what_phased_in,
)
def untap_step_untaps_after_phasing(trace: Trace) -> None:
    """Phasing comes first in the untap step; what phases in is untapped with
    the rest, and what phases out is left alone (702.26b)."""
    waiting = waiting_for_source(trace)
    for k, step, player in played_untap_steps(trace):
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None or not c.on_battlefield:
                continue
            at = f"{where(trace, step)}, {c.id}"
            # 610.4: what waited for a source phases in as the source leaves,
            # which can be after the untapping: an Aura phasing in onto a
            # phased-out host leaves only as state-based actions are checked
            # (704.3, 704.5m). Only that permanent in that step is spared.
            released = b.phased_out and c.id in waiting[k - 1]
            if c.phased_in and c.controller == player and not released:
                expect(not c.tapped, "502.1", at, "phased in and untapped", "tapped")
            if c.phased_out:
                expect(
                    c.tapped == b.tapped,
                    "502.1",
                    at,
                    f"phased out, tapped status kept ({'tapped' if b.tapped else 'untapped'})",
                    "tapped" if c.tapped else "untapped",
                )


def _a_skipped_untap_step_would_have_phased(trace: Trace) -> bool:
    """702.26m, R2017-skip-untap: a player skipped an untap step (any of
    them: several skips stack, one step each) in which something of theirs
    would have phased out or in, and the engine showed something phasing in
    at another untap step (what waits for a real untap step does come
    back)."""
    would = any(going | coming for _, _, _, going, coming in phased_under_step(trace, True))
    return would and any(
        was_out_came_in(step, c.id)
        for _, step, _ in played_untap_steps(trace)
        for c in step.after.permanents
    )


@rule_property(
    "702.26m",
    "R2017-skip-untap",
    needs={C.SKIP_UNTAP},
    # Two rounds of up to four players: far enough for a player with two
    # skips to reach the second untap step they skip.
    scenarios=lambda caps: scenarios(
        caps, kinds=(a.PassTurn,), min_actions=8, min_permanents=2, skipped_untap=True
    ),
    exercised=_a_skipped_untap_step_would_have_phased,
    reads={"events"},
)
def skipped_untap_step_has_no_phasing(trace: Trace) -> None:
    """A player who skips their untap step has no phasing event; what they
    had phased out waits for the next untap step they actually have
    (R2017-skip-untap). Effects stack, one step each: a player with two
    skips the next two untap steps they would have (702.26m)."""
    counts = phasing_instances(trace.scenario)
    for _, step, player in played_untap_steps(trace, skipped=True):
        moved = [e for e in step.after.events if e.kind in ("phased_in", "phased_out")]
        expect(
            not moved,
            "702.26m",
            f"{where(trace, step)} (player {player} skips this untap step)",
            "nothing phases in or out",
            ", ".join(f"{e.subject} {e.kind}" for e in moved),
        )
        # The position shows it too, for engines that log no events.
        for c in step.after.permanents:
            b = view(step.before, c.id)
            if b is None or not (b.on_battlefield and c.on_battlefield):
                continue
            if b.phased_in and counts.get(c.id, 0) > 0:
                expect(
                    c.phased_in,
                    "702.26m",
                    f"{where(trace, step)}, {c.id}",
                    "stays phased in",
                    "phased out",
                )
            if b.phased_out:
                expect(
                    c.phased_out,
                    "R2017-skip-untap",
                    f"{where(trace, step)}, {c.id} (player {player} skips this untap step)",
                    "stays phased out until an untap step the player has",
                    "phased in",
                )
