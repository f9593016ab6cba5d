"""Boosts "for as long as you control X" when X phases out: they end then
and stay ended once X is back (R2017-for-as-long-as, 702.26f), as control
effects with that duration do (`durations`)."""

from __future__ import annotations

from collections.abc import Iterator

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.effects import boosts, expected_pt, focus, observations
from conformance.properties.history import view
from conformance.properties.identity import UNATTACHED
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Trace
from conformance.setup import BoostEffect
from conformance.strategies import plans
from conformance.strategies.as_long_as import boost_as_long_as_then_x_out

#: What the scenarios play: the boost's anchor phasing out, by a spell or
#: at its controller's untap step, and turns passing.
_FOCUS = (C.PT_BOOST, C.CONTROL_AS_LONG_AS, C.TARGETING, C.PHASE_OUT_ALL)


def _ended_as_x_phased_out(trace: Trace) -> Iterator[tuple[BoostEffect, int]]:
    """Each boost of the setup "for as long as you control X" that ended at
    observation k because X phased out (702.26f), with k."""
    obs = observations(trace)
    for e, end in boosts(trace):
        x = e.duration.of
        if x is None or not end:
            continue
        anchor = view(obs[end], x)
        if anchor is not None and anchor.on_battlefield and anchor.phased_out:
            yield e, end


def _boost_ended_as_x_phased_out(trace: Trace) -> bool:
    """R2017-for-as-long-as: the engine showed a boost "for as long as you
    control X" on a phased-in creature end as X phased out: its power went
    down by the boost's."""
    obs = observations(trace)
    for e, end in _ended_as_x_phased_out(trace):
        for t in e.targets:
            b, c = view(obs[end - 1], t), view(obs[end], t)
            if (
                b is not None
                and c is not None
                and b.phased_in
                and c.phased_in
                and None not in (b.power, c.power)
                and c.power == b.power - e.power  # type: ignore[operator]
            ):
                return True
    return False


@rule_property(
    "R2017-for-as-long-as",
    "702.26f",
    needs={C.PT_BOOST, C.CONTROL_AS_LONG_AS},
    scenarios=lambda caps: plans.planned_scenarios(
        # Attachments for the plan's X only (one phasing out with its host).
        focus(caps, *_FOCUS, C.AURAS, C.EQUIPMENT),
        boost_as_long_as_then_x_out,
        kinds=(a.PassTurn, a.PhaseOut, a.PhaseOutAll),
        min_actions=1,
        max_actions=4,
        min_permanents=2,
        max_permanents=3,
        permanent_kinds=UNATTACHED,
        phased_out=False,
        effects=False,
    ),
    exercised=_boost_ended_as_x_phased_out,
)
def boost_for_as_long_as_ends_when_x_phases_out(trace: Trace) -> None:
    """ "Target creature gets +1/+1 for as long as you control X" ends when
    X phases out, as X no longer exists for the game, and stays ended after
    X phases back in: from then on the creature, while phased in, has its
    power and toughness without it."""
    obs = observations(trace)
    for e, end in _ended_as_x_phased_out(trace):
        for t in e.targets:
            for k in range(end, len(obs)):
                v, expected = view(obs[k], t), expected_pt(trace, k, t)
                if v is None or not v.on_battlefield:
                    break
                if not v.phased_in or v.power is None or expected is None:
                    continue
                power, toughness, live = expected
                expect(
                    (v.power, v.toughness) == (power, toughness),
                    "R2017-for-as-long-as" if k == end else "702.26f",
                    f"{where(trace, trace.steps[k - 1])}, {t}",
                    f"{power}/{toughness}: the boost for as long as player {e.controller} "
                    f"controls {e.duration.of} ended as it phased out "
                    f"(boosts in force: {', '.join(live) or 'none'})",
                    f"{v.power}/{v.toughness}",
                )
