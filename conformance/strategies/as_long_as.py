"""Plans around "for as long as you control X" (R2017-for-as-long-as): X
phases out after such an effect starts, which ends it, or before, so that
it never starts (611.2b)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.setup import BoostEffect, Duration, Setup
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.hosts import ATTACHMENT_KINDS, new_pair
from conformance.strategies.plans import Planned, phased_in
from conformance.strategies.positions import SIMPLE_DURATIONS


def control_as_long_as_then_x_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-for-as-long-as: X's controller gains control of T "for as long as
    you control X", then X phases out (`_anchor_and_its_phasing_out`)."""
    ids = phased_in(setup)
    if len(ids) < 2:
        return setup, ()
    setup, x, out = _anchor_and_its_phasing_out(draw, setup, caps, ids)
    player = setup.permanent(x).controller
    others = [t for t in ids if t != x]
    target = pick(draw, [t for t in others if setup.permanent(t).owner != player] or others)
    grant = a.GainControl(player, target, Duration("as_long_as_you_control", x))
    return setup, (grant, out)


def boost_as_long_as_then_x_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-for-as-long-as: a creature T gets +1/+1 "for as long as you
    control X" from X's controller, then X phases out
    (`_anchor_and_its_phasing_out`)."""
    ids = phased_in(setup)
    creatures = [t for t in ids if setup.permanent(t).is_creature]
    if len(ids) < 2 or not creatures:
        return setup, ()
    target = pick(draw, creatures)
    setup, x, out = _anchor_and_its_phasing_out(draw, setup, caps, [t for t in ids if t != target])
    player = setup.permanent(x).controller
    boost = BoostEffect((target,), player, duration=Duration("as_long_as_you_control", x))
    setup = replace(setup, effects=(*setup.effects, boost))
    return setup, (out,)


def _anchor_and_its_phasing_out(
    draw: st.DrawFn, setup: Setup, caps: Caps, candidates: Sequence[str]
) -> tuple[Setup, str, a.Action]:
    """X for "for as long as you control X", one of `candidates`, and how it
    phases out: targeted, with all of its controller's permanents, or at
    their untap step (its phasing). Or, where the engine has attachments,
    X is a new Aura or Equipment on a new creature, and phases out
    indirectly as that creature does (702.26g): the effect ignores it all
    the same (R2017-for-as-long-as)."""
    kinds = [k for k in ATTACHMENT_KINDS if k[0] != "fortification" and k[1] in caps]
    if kinds and maybe(draw):
        setup, x, host = new_pair(draw, setup, kinds)
        return setup, x, a.PhaseOut(setup.permanent(host).controller, (host,))
    x = pick(draw, candidates)
    player = setup.permanent(x).controller
    return setup, x, pick(draw, [a.PhaseOut(player, (x,)), a.PhaseOutAll(player), a.PassTurn()])


def control_as_long_as_x_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """611.2b: X phases out, then "gain control of T for as long as you
    control X" resolves (it never starts), and another control change that
    does start."""
    ids = phased_in(setup)
    if len(ids) < 3:
        return setup, ()
    x, target, other = ids[0], pick(draw, ids[1:]), pick(draw, ids[1:])
    player = integer(draw, 0, setup.players - 1)
    gainer = (setup.permanent(other).controller + 1) % setup.players
    return setup, (
        a.PhaseOut(player, (x,)),
        a.GainControl(player, target, Duration("as_long_as_you_control", x)),
        a.GainControl(gainer, other, pick(draw, SIMPLE_DURATIONS)),
    )
