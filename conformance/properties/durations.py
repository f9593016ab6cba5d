"""Properties of durations across phasing: effects that end while a
permanent is phased out stay ended; "for as long as" effects end when what
they track phases out, and never start if it is out; control lost while out
(702.26f, 611.2b, R2017-for-as-long-as, R2017-control). "Phases out until"
is in `until`."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.effects import (
    Grant,
    boosts,
    control_grants,
    expected_pt,
    focus,
    observations,
    phased_out_history,
    phased_out_under,
    skipped_untap_steps,
)
from conformance.properties.history import (
    owners,
    shown_phased_out,
    untap_steps,
    view,
)
from conformance.properties.identity import UNATTACHED
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.strategies import plans
from conformance.strategies.as_long_as import (
    control_as_long_as_then_x_out,
    control_as_long_as_x_out,
)
from conformance.strategies.durations import boost_then_phase_out, control_ends_while_out

_CONTROL = (
    C.CONTROL_CHANGE,
    C.TARGETING,
    C.PHASE_OUT_ALL,
    C.CONTROL_AS_LONG_AS,
    C.PHASED_OUT_UNDER_OTHER,
)
_AS_LONG_AS = {C.CONTROL_CHANGE, C.TARGETING, C.CONTROL_AS_LONG_AS}
#: 611.2b's X is phased out as the effect begins: any X.
_NEVER_STARTS = {*_AS_LONG_AS, C.CONTROL_AS_LONG_AS_OTHER}


def _boost_ended_while_out(trace: Trace) -> bool:
    """702.26f: a boost on a creature ended while it was phased out, and the
    engine showed the creature back, phased in, with its power and
    toughness."""
    obs = observations(trace)
    for e, end in boosts(trace):
        for pid in e.targets:
            if end is None or end == 0 or not shown_phased_out(view(obs[end - 1], pid)):
                continue
            for k in range(end, len(obs)):
                v = view(obs[k], pid)
                if v is None or not v.on_battlefield:
                    break
                if v.phased_in and v.power is not None and expected_pt(trace, k, pid):
                    return True
    return False


@rule_property(
    "702.26f",
    needs={C.PT_BOOST},
    exercised=_boost_ended_while_out,
    scenarios=lambda caps: plans.planned_scenarios(
        focus(caps, C.PT_BOOST, C.COUNTERS, C.TARGETING),
        boost_then_phase_out,
        kinds=(a.PassTurn, a.PhaseOut),
        min_actions=1,
        max_actions=4,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=("creature",),
        boost_durations=("end_of_turn", "your_next_turn", "indefinitely"),
    ),
)
def effects_that_ended_while_out_stay_ended(trace: Trace) -> None:
    """Effects keep applying to a phased-out permanent until they end, and
    may end while it is out; once it is back, exactly the boosts still in
    force apply to it (until end of turn ones have ended at cleanup)."""
    boosted = {t for e, _ in boosts(trace) for t in e.targets}
    obs = observations(trace)
    for pid in sorted(boosted):
        was_out = False
        for k, o in enumerate(obs):
            v = view(o, pid)
            if v is None or not v.on_battlefield:
                break
            was_out = was_out or v.phased_out
            expected = expected_pt(trace, k, pid)
            if not was_out or v.power is None or expected is None:
                continue
            power, toughness, live = expected
            expect(
                (v.power, v.toughness) == (power, toughness),
                "702.26f",
                f"{where(trace, trace.steps[k - 1])}, {pid} back from phasing out",
                f"{power}/{toughness} (boosts in force: {', '.join(live) or 'none'})",
                f"{v.power}/{v.toughness}",
            )


def _tracks_phasing(trace: Trace, g: Grant) -> bool:
    """Control "for as long as you control X" that ended because X phased
    out (702.26f), for a player who has no other claim to the permanent."""
    if g.end is None or g.duration.of is None:
        return False
    x = view(observations(trace)[g.end], g.duration.of)
    others = [h for h in control_grants(trace) if h.target == g.target and h.player == g.player]
    return (
        x is not None
        and x.phased_out
        and owners(trace.scenario).get(g.target) != g.player
        and others == [g]
    )


def _control_ended_as_x_phased_out(trace: Trace) -> bool:
    """R2017-for-as-long-as: the engine showed a player's control "for as
    long as you control X" end as X phased out."""
    obs = observations(trace)
    for g in control_grants(trace):
        if g.end is None or g.end == 0 or not _tracks_phasing(trace, g):
            continue
        b, c = view(obs[g.end - 1], g.target), view(obs[g.end], g.target)
        if (
            b is not None
            and c is not None
            and b.controller == g.player
            and c.on_battlefield
            and c.controller not in (None, g.player)
        ):
            return True
    return False


@rule_property(
    "R2017-for-as-long-as",
    "702.26f",
    needs=_AS_LONG_AS,
    scenarios=lambda caps: plans.planned_scenarios(
        # Attachments for the plan's X only (one phasing out with its host).
        focus(caps, *_CONTROL, C.AURAS, C.EQUIPMENT),
        control_as_long_as_then_x_out,
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll, a.GainControl),
        min_actions=2,
        max_actions=5,
        min_permanents=2,
        max_permanents=3,
        permanent_kinds=UNATTACHED,
        phased_out=False,
    ),
    exercised=_control_ended_as_x_phased_out,
)
def control_for_as_long_as_ends_when_x_phases_out(trace: Trace) -> None:
    """ "Gain control of T for as long as you control X" ends when X phases
    out, as X no longer exists for the game; it stays ended after X phases
    back in."""
    obs = observations(trace)
    for g in control_grants(trace):
        if not _tracks_phasing(trace, g):
            continue
        assert g.end is not None
        for k in range(g.end, len(obs)):
            t = view(obs[k], g.target)
            if t is None or not t.on_battlefield or t.controller is None:
                break
            at = f"{where(trace, trace.steps[k - 1])}, {g.target}"
            if k == g.end:
                expect(
                    t.controller != g.player,
                    "R2017-for-as-long-as",
                    at,
                    f"player {g.player}'s control ends as {g.duration.of} phases out",
                    f"controlled by player {t.controller}",
                )
            else:
                expect(
                    t.controller != g.player,
                    "702.26f",
                    at,
                    f"player {g.player}'s control, ended when {g.duration.of} phased out, "
                    "stays ended",
                    f"controlled by player {t.controller} again",
                )


def _never_started(trace: Trace) -> bool:
    """611.2b: a "gain control for as long as you control X" resolved with X
    phased out and the target stayed with its controller, in a trace where
    the engine shows another GainControl changing a controller."""
    never = changed = False
    for step in trace.steps:
        x = step.action
        b = view(step.before, x.target) if isinstance(x, a.GainControl) else None
        c = view(step.after, x.target) if isinstance(x, a.GainControl) else None
        if not isinstance(x, a.GainControl) or step.after.refused is not None or not (b and c):
            continue
        anchor = view(step.before, x.duration.of) if x.duration.of is not None else None
        if shown_phased_out(anchor) and c.controller == b.controller:
            never = True
        elif c.controller != b.controller:
            changed = True
    return never and changed


@rule_property(
    "611.2b",
    needs=_NEVER_STARTS,
    scenarios=lambda caps: plans.planned_scenarios(
        focus(caps, *_CONTROL),
        control_as_long_as_x_out,
        kinds=(a.PhaseOut, a.GainControl),
        min_actions=2,
        max_actions=4,
        min_permanents=2,
        max_permanents=3,
        phased_out=False,
        effects=False,
    ),
    exercised=_never_started,
)
def for_as_long_as_that_never_starts_does_nothing(trace: Trace) -> None:
    """ "Gain control of T for as long as you control X" does nothing if, as
    it resolves, X is phased out (or gone, or someone else's)."""
    for step in trace.steps:
        x = step.action
        if not isinstance(x, a.GainControl) or x.duration.of is None:
            continue
        anchor = view(step.before, x.duration.of)
        b, c = view(step.before, x.target), view(step.after, x.target)
        if step.after.refused is not None or b is None or c is None:
            continue
        if anchor is None or not anchor.phased_in or anchor.controller != x.player:
            state = "missing" if anchor is None else f"phased out={anchor.phased_out}"
            expect(
                c.controller == b.controller,
                "611.2b",
                f"{where(trace, step)} ({x.duration.of}: {state}, "
                f"controller {None if anchor is None else anchor.controller})",
                f"nothing happens: {x.target} stays with player {b.controller}",
                f"controlled by player {c.controller}",
            )


def _lost_control(trace: Trace) -> Iterator[tuple[Step, int, PermanentView, PermanentView, int]]:
    """Each untap step (with its player) and each permanent phased out
    directly (by the scenario's history) and not "until" anything, under a
    player other than its owner, whose claims to it all ended while it was
    out: its views before and after, and that player."""
    grants = control_grants(trace)
    unders = phased_out_under(trace)
    history = phased_out_history(trace)
    owner = owners(trace.scenario)
    skipped = skipped_untap_steps(trace)
    for step, player in untap_steps(trace):
        i = trace.steps.index(step)
        if i in skipped:
            continue  # 702.26m: a skipped untap step has no phasing event
        for b in step.before.permanents:
            c = view(step.after, b.id)
            under, out = unders[i].get(b.id), history[i].get(b.id)
            if (
                c is None
                or out is None
                or out.cause != "direct"
                or out.until is not None  # 610.4: it waits for its source instead
                or under is None
                or owner.get(b.id) in (None, under)
                or not step.after.player(under).in_game
                or not c.on_battlefield
            ):
                continue
            claims = [g for g in grants if g.target == b.id]
            if any(g.player != under or g.in_force(i + 1) for g in claims):
                continue
            yield step, player, b, c, under


def _phased_in_under_owner(trace: Trace) -> bool:
    """R2017-control: a permanent whose control effect ended while it was
    phased out phased in at the untap step of the player it phased out
    under, and the engine showed it under its owner's control."""
    owner = owners(trace.scenario)
    return any(
        player == under and c.phased_in and c.controller == owner[b.id]
        for _, player, b, c, under in _lost_control(trace)
    )


@rule_property(
    "R2017-control",
    needs={C.CONTROL_CHANGE},
    scenarios=lambda caps: plans.planned_scenarios(
        focus(caps, *_CONTROL),
        control_ends_while_out,
        kinds=(a.PassTurn, a.PhaseOut, a.GainControl),
        min_actions=2,
        max_actions=5,
        min_permanents=1,
        max_permanents=3,
        permanent_kinds=("creature", "artifact"),
    ),
    exercised=_phased_in_under_owner,
)
def lost_control_phases_in_under_owner_at_former_controllers_untap(trace: Trace) -> None:
    """If the control effect on a phased-out permanent ends while it is out,
    it still phases in at the untap step of the player it phased out under,
    not its owner's, and then under its owner's control."""
    owner = owners(trace.scenario)
    for step, player, b, c, under in _lost_control(trace):
        at = f"{where(trace, step)}, {b.id} (phased out under player {under})"
        if player == under:
            ok, wanted = c.phased_in and c.controller == owner[b.id], "phases in"
        else:
            ok, wanted = c.phased_out, f"stays out until player {under}'s untap step"
        expect(
            ok,
            "R2017-control",
            at,
            f"{wanted}, then under its owner, player {owner[b.id]}",
            f"phased out={c.phased_out}, controller {c.controller}",
        )
