"""Plans around effects that last until a turn's end or a player's next
turn, and the phasing that puts them to the test: the permanent they affect
phases out and they end while it is out (702.26f, R2017-control), or it is
back the same turn while they still last (702.26f, Mirage 502.15g), or they
end as a player's turn begins, before that untap step's phasing (611.2)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.setup import BoostEffect, Duration, Permanent, Setup
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.plans import (
    Planned,
    phased_in,
    with_phased_in,
)
from conformance.strategies.players import new_id, with_permanents


def boost_then_phase_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26f: a creature with a boost that ends at a turn's end or at a
    player's next turn phases out, then turns pass (it phases in after the
    boost has ended)."""
    creatures = [p.id for p in setup.permanents if p.is_creature and p.phased_out is None]
    if not creatures:
        return setup, ()
    x = pick(draw, creatures)
    if not any(isinstance(e, BoostEffect) and x in e.targets for e in setup.effects):
        kind = pick(draw, ["end_of_turn", "your_next_turn"])
        boost = BoostEffect((x,), integer(draw, 0, setup.players - 1), duration=Duration(kind))
        setup = replace(setup, effects=(*setup.effects, boost))
    return setup, (a.PhaseOut(setup.permanent(x).controller, (x,)), a.PassTurn(), a.PassTurn())


def control_ends_while_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-control: a player gains control of another's permanent until a
    turn's end or their next turn, phases it out, and turns pass. Or for as
    long as they control X, and X phases out with it, at once: the effect
    ends as the permanent phases out under them (702.26a, 702.26f)."""
    ids = phased_in(setup)
    if not ids:
        return setup, ()
    target = pick(draw, ids)
    gainer = (
        setup.permanent(target).owner + 1 + integer(draw, 0, setup.players - 2)
    ) % setup.players
    duration = Duration(pick(draw, ["end_of_turn", "your_next_turn"]))
    out = a.PhaseOut(gainer, (target,))
    if C.CONTROL_AS_LONG_AS in caps and maybe(draw):
        anchors = [x for x in ids if x != target and setup.permanent(x).controller == gainer]
        if not anchors:
            # An artifact of the gainer's to be X.
            anchors = [new_id(setup)]
            setup = with_permanents(setup, Permanent(anchors[0], gainer, gainer, ("artifact",)))
        x = pick(draw, anchors)
        duration = Duration("as_long_as_you_control", x)
        out = a.PhaseOut(gainer, (x, target))
    return setup, (
        a.GainControl(gainer, target, duration),
        out,
        a.PassTurn(),
        a.PassTurn(),
        a.PassTurn(),
    )


def borrow_until_next_turn(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26a, 611.2: a player gains control of a permanent with phasing
    "until your next turn", then turns pass up to that player's untap step:
    the effect ended as their turn began, so the permanent doesn't phase
    out under them there (its controller's untap step is another's)."""
    phasing = [p for p in setup.permanents if p.phasing and p.phased_out is None]
    if not phasing or setup.players < 2:
        return setup, ()
    target = pick(draw, phasing)
    borrower = pick(draw, [i for i in range(setup.players) if i != target.controller])
    turns = setup.turns_until(borrower)
    grant = a.GainControl(borrower, target.id, Duration("your_next_turn"))
    return setup, (grant, *(a.PassTurn(),) * turns)


def limited_effects_then_out_and_in(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26f, Mirage 502.15g: a player gains control of a creature (not a
    token: in the Mirage edition a phased-out token ceases to exist, 217.8d)
    until end of turn or their next turn and pumps their team until end of
    turn; the creature phases out until a source leaves the battlefield,
    which it then does: the creature phases in the same turn, while those
    effects would still last."""
    ids = [p.id for p in setup.permanents if p.attached_to is None]
    creatures = [p.id for p in setup.permanents if p.attached_to is None and p.is_creature]
    creatures = [x for x in creatures if not setup.permanent(x).token]
    if not creatures or len(ids) < 2:
        return setup, ()
    x = pick(draw, creatures)
    source = pick(draw, [t for t in ids if t != x])
    setup = with_phased_in(setup, {x, source})
    gainer = (
        setup.permanent(x).controller + 1 + integer(draw, 0, setup.players - 2)
    ) % setup.players
    grant = a.GainControl(gainer, x, Duration(pick(draw, ["end_of_turn", "your_next_turn"])))
    pumper = gainer if C.CONTROL_CHANGE in caps else setup.permanent(x).controller
    player = setup.permanent(source).controller
    return setup, (
        grant,
        a.PumpTeam(pumper),
        a.PhaseOutUntil(player, source, x),
        a.Destroy(player, source),
    )
